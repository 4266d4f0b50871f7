import { Injectable } from '@nestjs/common';
import { AppError } from '../../platform/common/errors';
import {
  BetType,
  betOdds,
  compositionFromCounts,
  exactOdds,
  formatOdds,
  fractionToDecimal,
  fullShoe,
  Odds,
  parseCards,
  parseOdds,
  removeCards,
  newTableRules,
  SIDE_BETS,
  SideBet,
  Variant,
} from '../../domain';
import { OddsRequestDto, OddsResponseDto } from './dto/odds.dto';

@Injectable()
export class OddsService {
  calculate(dto: OddsRequestDto): OddsResponseDto {
    const variant = (dto.variant ?? 'COMMISSION') as Variant;
    const r = dto.rules ?? {};
    const pays: Partial<Record<BetType, Odds>> = {};
    for (const p of r.pays ?? []) pays[p.betType as BetType] = parseOdds(p.pays);
    if (r.tiePays) pays.TIE = parseOdds(r.tiePays);
    const rules = newTableRules({
      variant,
      commissionBps: r.commissionBps,
      sideBets: (r.sideBets ?? (['CHEMIN_DE_FER', 'BANQUE'].includes(variant) ? [] : SIDE_BETS)) as SideBet[],
      pays,
      perfectPairBothPays: r.perfectPairBothPays ? parseOdds(r.perfectPairBothPays) : null,
    });
    const { decks, dealt, cards } = dto.shoe;
    if ((decks === undefined) === (cards === undefined)) {
      throw new AppError('VALIDATION_FAILED', 'Describe the shoe either as { decks, dealt? } or as { cards }, not both or neither');
    }
    if (cards !== undefined && dealt !== undefined) throw new AppError('VALIDATION_FAILED', 'dealt goes with decks, not with cards');
    if (cards !== undefined && Object.keys(cards).length > 52) throw new AppError('VALIDATION_FAILED', 'cards names at most the 52 cards of a deck');
    const composition = cards !== undefined ? compositionFromCounts(cards) : removeCards(fullShoe(decks!), parseCards(dealt ?? []));

    const k = exactOdds(composition);
    const total = k.total;
    const { cards: n, total: _t, banker, player, tie, ...events } = k;
    return {
      cards: n,
      denominator: total.toString(),
      outcomes: { banker: banker.toString(), player: player.toString(), tie: tie.toString() },
      events: Object.fromEntries(Object.entries(events).map(([name, v]) => [name, v.toString()])),
      bets: betOdds(rules, k).map((b) => ({
        betType: b.betType,
        pays: formatOdds(b.pays),
        houseEdge: Number(fractionToDecimal(b.houseEdge, 12)),
        houseEdgePercent: fractionToDecimal({ numerator: b.houseEdge.numerator * 100n, denominator: b.houseEdge.denominator }, 6),
        results: b.tiers.map((t) => ({
          result: t.result,
          label: t.label,
          pays: t.pays ? formatOdds(t.pays) : null,
          count: t.count.toString(),
          probability: Number(fractionToDecimal({ numerator: t.count, denominator: total }, 12)),
        })),
      })),
    };
  }
}

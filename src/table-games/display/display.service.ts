import { Injectable } from '@nestjs/common';
import { Actor, assertTableAccess } from '../../platform/common/actor';
import { notFound } from '../../platform/common/errors';
import { minorUnits } from '../../platform/common/exact-json';
import { PrismaService } from '../../platform/database/prisma.service';
import { Card, CARDS_PER_DECK, offeredBets, outcomeOf, parseCards, rankOf, RoadCoup, roadsOf, stakeLimits } from '../../domain';
import { limitsInForce, rulesOf } from '../../foundation/pit/table-rules';
import { payTermsView } from '../../platform/common/pay-terms.dto';
import { DisplayDto, DisplayResultDto } from './dto/display.dto';

/** Results a display shows: the shoe's last ones. */
export const DISPLAY_RESULTS = 20;

/** A result with the coup as the roads read it (null: voided, off the roads). */
type Shown = { result: DisplayResultDto; road: RoadCoup | null };

/**
 * The table-side display's board: read from the table, its limits in force, its shoe and the shoe's
 * coups (casino-banked) or bank coups (player-banked); never from wagers, seatings, the ledger or
 * the dealers, so nothing a player should not see can reach it.
 */
@Injectable()
export class DisplayService {
  constructor(private readonly prisma: PrismaService) {}

  async board(tableId: string, actor: Actor): Promise<DisplayDto> {
    assertTableAccess(actor, tableId);
    const table = await this.prisma.casinoTable.findUnique({ where: { id: tableId }, include: { limitChanges: { orderBy: { seq: 'desc' }, take: 1 } } });
    if (!table) throw notFound('Table', tableId);
    const change = table.limitChanges[0] ?? null;
    const limits = limitsInForce(table, change);
    const rules = rulesOf(table);
    const shoe =
      (await this.prisma.shoe.findFirst({ where: { tableId, status: 'OPEN' } })) ??
      (await this.prisma.shoe.findFirst({ where: { tableId }, orderBy: { number: 'desc' } }));
    const shown = shoe ? (table.variant === 'CHEMIN_DE_FER' || table.variant === 'BANQUE' ? await this.bankCoups(shoe.id) : await this.coups(shoe.id)) : [];
    return {
      tableId,
      code: table.code,
      variant: table.variant,
      currency: table.currency,
      decks: table.decks,
      status: table.status,
      limits: {
        minBet: minorUnits(limits.table.min),
        maxBet: minorUnits(limits.table.max),
        since: (change?.effectiveAt ?? table.createdAt).toISOString(),
        bets: offeredBets(rules).map((b) => {
          const l = stakeLimits(limits, b);
          return { betType: b, min: minorUnits(l.min), max: minorUnits(l.max), ...payTermsView(rules, b) };
        }),
      },
      shoe: shoe
        ? { id: shoe.id, number: shoe.number, status: shoe.status, coupsDealt: shoe.coupCount, cardsLeft: shoe.decks * CARDS_PER_DECK - shoe.cardsDealt }
        : null,
      roads:
        shoe && table.variant !== 'BANQUE'
          ? (() => {
              const onRoads = shown.flatMap((s) => (s.road ? [s.road] : []));
              return { shoeId: shoe.id, coups: onRoads.length, ...roadsOf(onRoads) };
            })()
          : null,
      results: shown
        .slice(-DISPLAY_RESULTS)
        .reverse()
        .map((s) => s.result),
    };
  }

  /** A casino-banked shoe's settled coups, oldest first, read as GET /v1/shoes/{id}/roads reads them. */
  private async coups(shoeId: string): Promise<Shown[]> {
    const coups = await this.prisma.coup.findMany({
      where: { shoeId, status: 'SETTLED' },
      orderBy: { number: 'asc' },
      select: {
        number: true,
        winner: true,
        natural: true,
        playerTotal: true,
        bankerTotal: true,
        playerCards: true,
        bankerCards: true,
        void: { select: { id: true } },
      },
    });
    return coups.map((c) => {
      const o = outcomeOf(parseCards(c.playerCards), parseCards(c.bankerCards));
      const road: RoadCoup = { number: c.number, winner: c.winner!, natural: c.natural!, playerPair: o.playerPair, bankerPair: o.bankerPair };
      return {
        road: c.void ? null : road,
        result: {
          coup: c.number,
          winner: c.winner,
          playerTotal: c.playerTotal,
          bankerTotal: c.bankerTotal!,
          natural: c.natural!,
          playerPair: o.playerPair,
          bankerPair: o.bankerPair,
          cards: { player: c.playerCards, banker: c.bankerCards, right: null, left: null },
          sides: null,
          voided: c.void !== null,
        },
      };
    });
  }

  /**
   * A player-banked shoe's coups, oldest first. Chemin de fer is the punters' hand against the
   * banker's, drawn on the roads as Player against Banker; banque's two hands each against the
   * banker have no road, only results.
   */
  private async bankCoups(shoeId: string): Promise<Shown[]> {
    const coups = await this.prisma.bankCoup.findMany({
      where: { shoeId },
      orderBy: { number: 'asc' },
      select: { number: true, cards: true, outcome: true, void: { select: { id: true } } },
    });
    return coups.map((c) => {
      const cards = c.cards as { player?: string[]; banker: string[]; right?: string[]; left?: string[] };
      const voided = c.void !== null;
      if (cards.player) {
        const o = outcomeOf(parseCards(cards.player), parseCards(cards.banker));
        const road: RoadCoup = { number: c.number, winner: o.winner, natural: o.natural, playerPair: o.playerPair, bankerPair: o.bankerPair };
        return {
          road: voided ? null : road,
          result: {
            coup: c.number,
            winner: o.winner,
            playerTotal: o.playerTotal,
            bankerTotal: o.bankerTotal,
            natural: o.natural,
            playerPair: o.playerPair,
            bankerPair: o.bankerPair,
            cards: { player: cards.player, banker: cards.banker, right: null, left: null },
            sides: null,
            voided,
          },
        };
      }
      const out = c.outcome as { right: BanqueSide; left: BanqueSide; bankerTotal: number; bankerNatural: boolean };
      return {
        road: null,
        result: {
          coup: c.number,
          winner: null,
          playerTotal: null,
          bankerTotal: out.bankerTotal,
          natural: out.bankerNatural || out.right.natural || out.left.natural,
          playerPair: false,
          bankerPair: isPair(parseCards(cards.banker)),
          cards: { player: null, banker: cards.banker, right: cards.right ?? null, left: cards.left ?? null },
          sides: [
            { side: 'RIGHT', winner: out.right.winner, total: out.right.punterTotal },
            { side: 'LEFT', winner: out.left.winner, total: out.left.punterTotal },
          ],
          voided,
        },
      };
    });
  }
}

type BanqueSide = { winner: 'PUNTER' | 'BANKER' | 'TIE'; punterTotal: number; natural: boolean };

const isPair = (hand: readonly Card[]) => rankOf(hand[0]) === rankOf(hand[1]);

import { minorUnits, minorUnitsOrNull } from '../../platform/common/exact-json';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { chipsOf, outcomeOf, parseCards } from '../../domain';
import { Coup, CoupVoid, Wager } from '../../generated/prisma/client';
import type { ReplayCheck } from '../../platform/idempotency/replay-check';
import { CoupDto, WagerDto } from './dto/coup.dto';
import { COUPS_SQL } from './coups-sql';

/** A coup and its wagers as the API answers them, from the stored rows. */
export async function describeCoup(db: Tx | PrismaService, coupId: string): Promise<CoupDto> {
  const coup = await db.coup.findUniqueOrThrow({
    where: { id: coupId },
    include: { wagers: { orderBy: [{ seat: 'asc' }, { placedAt: 'asc' }] }, void: true },
  });
  const carried = await db.wager.findMany({ where: { carriedFromId: { in: coup.wagers.map((w) => w.id) } } });
  return toCoupDto(coup, coup.wagers, coup.void, carried);
}

export function toWagerDto(
  w: Pick<
    Wager,
    'id' | 'coupId' | 'seat' | 'betType' | 'amount' | 'patronId' | 'status' | 'result' | 'payout' | 'commission' | 'net' | 'carriedFromId' | 'deadChips'
  >,
): WagerDto {
  return {
    id: w.id,
    coupId: w.coupId,
    seat: w.seat,
    betType: w.betType,
    amount: minorUnits(w.amount),
    patronId: w.patronId,
    status: w.status,
    result: w.result,
    payout: minorUnitsOrNull(w.payout),
    commission: minorUnitsOrNull(w.commission),
    net: minorUnitsOrNull(w.net),
    carriedFromId: w.carriedFromId,
    chipKind: chipsOf(w.deadChips === true),
  };
}

export function toCoupDto(c: Coup, wagers: Wager[], v: CoupVoid | null, carried: Wager[]): CoupDto {
  const ids = new Set(wagers.map((w) => w.id));
  return {
    id: c.id,
    shoeId: c.shoeId,
    tableId: c.tableId,
    number: c.number,
    status: c.status,
    void: v ? { reason: v.reason, voidedByKeyId: v.voidedByKeyId, voidedByRole: v.voidedByRole, at: v.createdAt.toISOString() } : null,
    cards: c.status === 'SETTLED' ? { player: c.playerCards, banker: c.bankerCards } : null,
    outcome: c.status === 'SETTLED' && c.playerCards.length ? outcomeOf(parseCards(c.playerCards), parseCards(c.bankerCards)) : null,
    wagers: wagers.map(toWagerDto),
    carriedForward: carried.filter((w) => w.carriedFromId !== null && ids.has(w.carriedFromId)).map(toWagerDto),
    settledAt: c.settledAt?.toISOString() ?? null,
    gamingDay: c.gamingDay?.toISOString().slice(0, 10) ?? null,
  };
}

interface LedgerCoup {
  id: string;
  shoe_id: string;
  number: number;
  status: string;
  player_cards: string[];
  banker_cards: string[];
  winner: string | null;
  wagers: {
    id: string;
    seat: number;
    betType: string;
    amount: string;
    status: string;
    result: string | null;
    payout: string | null;
    commission: string | null;
    net: string | null;
  }[];
}

const text = (v: unknown): string | null => (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string' ? String(v) : null);
const same = (a: readonly string[] | undefined, b: readonly string[]) => a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * A stored answer about a coup, checked against the ledger before it is replayed to a retry
 * (issue 49, with the answer's MAC): the coup is there, at its shoe and number; a settled one with
 * its cards and winner; each wager the answer says was settled, with its seat, bet, amount, result,
 * payout, commission and net. A coup answered as taking bets may have been dealt since: its answer
 * said what it was then, and only where it stands is checked.
 */
export const coupAnswerAgrees: ReplayCheck = async (db, answer) => {
  const a = answer as Partial<CoupDto> | null;
  if (!a || typeof a.id !== 'string') return 'the answer names no coup';
  const [c] = await db.query<LedgerCoup>(COUPS_SQL.answeredCoup.bind({ coupId: a.id }));
  if (!c) return `the answer reports coup ${a.id}, which the ledger does not hold`;
  if (c.shoe_id !== a.shoeId || c.number !== a.number) return `the answer puts coup ${a.id} elsewhere than the ledger does`;
  if (a.status !== 'SETTLED') return null;
  if (c.status !== 'SETTLED' || !same(a.cards?.player, c.player_cards) || !same(a.cards?.banker, c.banker_cards) || a.outcome?.winner !== c.winner)
    return `the answer's outcome of coup ${a.id} is not the ledger's`;
  const held = new Map(c.wagers.map((w) => [w.id, w]));
  for (const w of a.wagers ?? []) {
    if (w.status !== 'SETTLED') continue;
    const l = held.get(w.id);
    const fields: [unknown, unknown][] = l
      ? [
          [w.seat, l.seat],
          [w.betType, l.betType],
          [text(w.amount), l.amount],
          [w.status, l.status],
          [w.result, l.result],
          [text(w.payout), l.payout],
          [text(w.commission), l.commission],
          [text(w.net), l.net],
        ]
      : [];
    if (!l || fields.some(([x, y]) => x !== y)) return `the answer's wager ${w.id} of coup ${a.id} is not the ledger's`;
  }
  return null;
};

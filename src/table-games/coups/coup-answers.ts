import { minorUnits, minorUnitsOrNull } from '../../platform/common/exact-json';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { chipsOf, outcomeOf, parseCards } from '../../domain';
import { Coup, CoupVoid, Wager } from '../../generated/prisma/client';
import { CoupDto, WagerDto } from './dto/coup.dto';

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

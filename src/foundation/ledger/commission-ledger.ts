import { minorUnits } from '../../platform/common/exact-json';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import type { MinorUnits } from '../../platform/common/exact-json';

/** One seat's (and patron's) commission in a shoe, exact. */
export interface SeatCommission {
  seat: number;
  patronId: string | null;
  accrued: bigint;
  collected: bigint;
  voided: bigint;
  /** accrued − collected − voided */
  outstanding: bigint;
}

/** Accrued, collected, voided and outstanding commission per seat (and patron) of a shoe. */
export async function seatCommissions(db: Tx | PrismaService, shoeId: string): Promise<SeatCommission[]> {
  const groups = await db.commissionEntry.groupBy({ by: ['seat', 'patronId', 'kind'], where: { shoeId }, _sum: { amount: true } });
  const seats = new Map<string, SeatCommission>();
  for (const g of groups) {
    const key = `${g.seat}|${g.patronId ?? ''}`;
    const s = seats.get(key) ?? { seat: g.seat, patronId: g.patronId, accrued: 0n, collected: 0n, voided: 0n, outstanding: 0n };
    const amount = g._sum.amount ?? 0n;
    if (g.kind === 'ACCRUAL') s.accrued += amount;
    else if (g.kind === 'COLLECTION') s.collected -= amount;
    else s.voided -= amount;
    s.outstanding = s.accrued - s.collected - s.voided;
    seats.set(key, s);
  }
  return [...seats.values()].sort((a, b) => a.seat - b.seat || (a.patronId ?? '').localeCompare(b.patronId ?? ''));
}

/** A seat's commission as an answer shows it (the commissions and shoes rooms both answer with it). */
export interface SeatCommissionFigures {
  seat: number;
  patronId: string | null;
  accrued: MinorUnits;
  collected: MinorUnits;
  voided: MinorUnits;
  outstanding: MinorUnits;
}

export function toSeatCommissionDto(s: SeatCommission): SeatCommissionFigures {
  return {
    seat: s.seat,
    patronId: s.patronId,
    accrued: minorUnits(s.accrued),
    collected: minorUnits(s.collected),
    voided: minorUnits(s.voided),
    outstanding: minorUnits(s.outstanding),
  };
}

/** Reverses every accrual of a voided coup by new VOID entries (the accruals stay as they were). */
export async function reverseAccruals(tx: Tx, shoeId: string, tableId: string, coupId: string, byKeyId: string): Promise<string[]> {
  const accruals = await tx.commissionEntry.findMany({ where: { coupId, kind: 'ACCRUAL' } });
  if (accruals.length === 0) return [];
  const written = await tx.commissionEntry.createManyAndReturn({
    select: { id: true },
    data: accruals.map((a) => ({
      shoeId,
      tableId,
      propertyId: a.propertyId,
      seat: a.seat,
      patronId: a.patronId,
      kind: 'VOID' as const,
      amount: -a.amount,
      coupId,
      wagerId: a.wagerId,
      createdByKeyId: byKeyId,
    })),
  });
  return written.map((w) => w.id);
}

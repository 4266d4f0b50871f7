import { PrismaService, Tx } from '../database/prisma.service';
import { SeatCommissionDto } from './dto/commission.dto';

/** Accrued, collected, voided and outstanding commission per seat (and patron) of a shoe. */
export async function seatCommissions(db: Tx | PrismaService, shoeId: string): Promise<SeatCommissionDto[]> {
  const groups = await db.commissionEntry.groupBy({ by: ['seat', 'patronId', 'kind'], where: { shoeId }, _sum: { amount: true } });
  const seats = new Map<string, SeatCommissionDto>();
  for (const g of groups) {
    const key = `${g.seat}|${g.patronId ?? ''}`;
    const s = seats.get(key) ?? { seat: g.seat, patronId: g.patronId, accrued: 0, collected: 0, voided: 0, outstanding: 0 };
    const amount = Number(g._sum.amount ?? 0n);
    if (g.kind === 'ACCRUAL') s.accrued += amount;
    else if (g.kind === 'COLLECTION') s.collected -= amount;
    else s.voided -= amount;
    s.outstanding = s.accrued - s.collected - s.voided;
    seats.set(key, s);
  }
  return [...seats.values()].sort((a, b) => a.seat - b.seat || (a.patronId ?? '').localeCompare(b.patronId ?? ''));
}

import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { SqlRunner } from '../../platform/database/sql';
import { notFound } from '../../platform/common/errors';
import { AccountEntryKind, balanceOf, gamingDayOf } from '../../domain';
import { JunketOperator } from '../../generated/prisma/client';
import { JUNKETS_SQL as SQL } from './junkets-sql';

/** The audit stream of junkets: their operators, members, accounts and agreed statements. */
export const JUNKETS_STREAM = 'junkets';

/** The junket operator, or NOT_FOUND. */
export async function findJunket(db: Tx | PrismaService, junketId: string): Promise<JunketOperator> {
  const op = await db.junketOperator.findUnique({ where: { id: junketId } });
  if (!op) throw notFound('Junket', junketId);
  return op;
}

/** The gaming day at the property at `now`. */
export async function todayAt(tx: Tx, propertyId: string, now: Date): Promise<string> {
  const p = await tx.property.findUniqueOrThrow({ where: { id: propertyId }, select: { timeZone: true, gamingDayStartHour: true } });
  return gamingDayOf(now, p.timeZone, p.gamingDayStartHour);
}

/** The junket's account balance before a gaming day (null: all of it); positive, the junket owes the casino. */
export async function balanceBefore(db: SqlRunner, junketId: string, before: string | null): Promise<bigint> {
  const totals = await db.query<{ kind: AccountEntryKind; amount: string }>(SQL.junketEntryTotals.bind({ junketId, before }));
  return balanceOf(totals.map((t) => ({ kind: t.kind, amount: BigInt(t.amount) })));
}

import path from 'node:path';
import { AppError } from '../../platform/common/errors';
import { loadQueries } from '../../platform/database/named-sql';
import type { SqlRunner } from '../../platform/database/sql';

const SQL = loadQueries<{
  lockJunketPeriods: { propertyId: string; exclusive: boolean };
  lockedJunketPeriodOfCoup: { coupId: string; propertyId: string; gamingDay: string };
}>(path.join(__dirname, 'locked-periods.sql'));

/**
 * Holds a property's agreed junket periods still for the rest of the transaction: shared by a void
 * (which then checks them), exclusive by an agreement (which then computes its figures from the
 * coups). So an agreement waits for a void in flight and sees it, and a void waits for an agreement
 * in flight and is refused by it.
 */
export async function lockJunketPeriods(db: SqlRunner, propertyId: string, exclusive: boolean): Promise<void> {
  await db.run(SQL.lockJunketPeriods.bind({ propertyId, exclusive }));
}

/**
 * A void must not change a period agreed and locked (docs/domain.md §16): a coup with a junket
 * member's dead-chip wager on a day of the junket's agreed statement stands as agreed.
 */
export async function assertNotInLockedPeriod(db: SqlRunner, coup: { id: string; propertyId: string; gamingDay: string }): Promise<void> {
  await lockJunketPeriods(db, coup.propertyId, false);
  const [locked] = await db.query<{ code: string; from: string; to: string }>(
    SQL.lockedJunketPeriodOfCoup.bind({ coupId: coup.id, propertyId: coup.propertyId, gamingDay: coup.gamingDay }),
  );
  if (locked)
    throw new AppError(
      'JUNKET_PERIOD_LOCKED',
      `The coup is in junket ${locked.code}'s statement for ${locked.from} to ${locked.to}, agreed and locked: it stands as agreed (record a correction in a later period instead)`,
      { junket: locked.code, from: locked.from, to: locked.to },
    );
}

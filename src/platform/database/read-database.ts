import { Logger, OnModuleDestroy } from '@nestjs/common';
import { AppError } from '../common/errors';
import type { ReadFrom, ReadWants } from '../common/read-from';
import { PrismaService } from './prisma.service';

export interface ReadPolicy {
  /** The most the replica may be behind the primary, in milliseconds, for a read to be answered from it. */
  readonly maxLagMs: number;
  /** A replica further behind, or not answering: read the primary, or refuse (503 REPLICA_BEHIND). */
  readonly whenBehind: 'primary' | 'refuse';
}

/** The database a read goes to, and how far behind the primary it was found (null: the primary itself). */
export interface ReadChoice {
  readonly db: PrismaService;
  readonly from: ReadFrom;
  readonly lagMs: number | null;
}

/** How far the replica is behind: null when it cannot be told (not answering, not a standby, nothing replayed yet). */
export interface ReplicaLag {
  readonly ms: number | null;
  readonly why: string;
}

/** A write-ahead log position ("16/B374D848") as a number of bytes. */
export function lsnBytes(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/**
 * How far behind the replica is, from two facts read at once, one from each server:
 * - the primary's write-ahead log position now (where it inserts: a commit made with
 *   synchronous_commit off may not be written out yet, and is still counted), and
 * - the position the replica has replayed, with the commit time of the last transaction it replayed.
 * A replica that has replayed the primary's position holds every transaction committed before this
 * request: it is 0 ms behind. Otherwise it holds the primary as it was at least at that last commit,
 * so it is at most (now − that commit) behind: the bound used, safe on the side of reading the
 * primary (after a quiet hour the first write makes the replica look an hour behind until it is
 * replayed, a matter of milliseconds). No heartbeat table, no timer: PostgreSQL's own positions.
 */
export async function replicaLag(primary: PrismaService, replica: PrismaService): Promise<ReplicaLag> {
  const [head, standby] = await Promise.all([
    primary.pool.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn').then(
      (r) => r.rows[0].lsn,
      () => null,
    ),
    replica.pool
      .query<{ standby: boolean; replayed: string | null; since: string | null }>(
        `SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed,
                floor(extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::bigint::text AS since`,
      )
      .then(
        (r) => ({ answered: true as const, ...r.rows[0] }),
        (e: { message?: unknown }) => ({ answered: false as const, error: String(e?.message) }),
      ),
  ]);
  if (!standby.answered) return { ms: null, why: `the replica is not answering (${standby.error})` };
  if (!standby.standby || standby.replayed === null) return { ms: null, why: 'the read database is not a standby of the primary' };
  if (head !== null && lsnBytes(standby.replayed) >= lsnBytes(head)) return { ms: 0, why: 'caught up' };
  if (standby.since === null) return { ms: null, why: 'the replica has replayed no transaction since it started' };
  return { ms: Math.max(0, Number(standby.since)), why: `${standby.since} ms since the last transaction it replayed` };
}

/**
 * Where reports, exports and the reconciliation read: the streaming replica (DATABASE_READ_URL) while
 * it is within the policy's bound, so that a finance query never queues beside the pit's coups on the
 * primary; the primary when the request must see its own writes, when there is no replica, or (by
 * policy) when the replica is behind or gone. Never a replica further behind than the bound.
 */
export class ReadDatabase implements OnModuleDestroy {
  private readonly logger = new Logger(ReadDatabase.name);

  constructor(
    readonly primary: PrismaService,
    readonly replica: PrismaService | null,
    readonly policy: ReadPolicy,
  ) {}

  async pick(wants: ReadWants): Promise<ReadChoice> {
    const primary: ReadChoice = { db: this.primary, from: 'primary', lagMs: null };
    if (this.replica === null || wants === 'primary') return primary;
    const lag = await replicaLag(this.primary, this.replica);
    if (lag.ms !== null && lag.ms <= this.policy.maxLagMs) return { db: this.replica, from: 'replica', lagMs: lag.ms };
    const behind = `The reporting replica cannot answer within ${this.policy.maxLagMs} ms of the pit: ${lag.why}`;
    if (this.policy.whenBehind === 'primary') {
      this.logger.warn(`${behind}; reading the primary`);
      return primary;
    }
    throw new AppError('REPLICA_BEHIND', `${behind}. Retry shortly, or send X-Read-From: primary to read the pit's own database`, {
      lagMs: lag.ms,
      maxLagMs: this.policy.maxLagMs,
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.replica?.onModuleDestroy();
  }
}

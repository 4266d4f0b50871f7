import { SetMetadata } from '@nestjs/common';
import type { SqlRunner } from '../database/sql';

/**
 * What a route checks a stored answer against before it is replayed to a retry (issue 49), besides
 * its MAC: the records the answer reports, as the ledger holds them now (a settled coup's outcome
 * and its wagers' results, say). Answers a problem, or null when the answer agrees with them.
 */
export type ReplayCheck = (db: SqlRunner, answer: unknown) => Promise<string | null>;

export const REPLAY_CHECK = 'sabot:replay-check';

/** The route's stored answers are checked by `check` before they are replayed. */
export const CheckedOnReplay = (check: ReplayCheck) => SetMetadata(REPLAY_CHECK, check);

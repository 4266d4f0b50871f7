import path from 'node:path';
import type { AnswerParams } from '../../platform/database/idempotent-answers';
import { loadQueries } from '../../platform/database/named-sql';
import type { AuditParams, RollupParams } from '../../foundation/ledger/ledger-sql';

/** A settled coup's own values, by the names coups.sql gives them. */
export interface CoupWriteParams {
  shoeId: string;
  tableId: string;
  propertyId: string;
  coupId: string;
  coupNumber: number;
  /** Null for a whole coup; the coup's id when it was taking bets (its cards recorded now). */
  openCoupId: string | null;
  remaining: number[];
  cardsDealt: number;
  coupCount: number;
  lastCoupNumber: number | null;
  playerCards: string[];
  bankerCards: string[];
  winner: string;
  playerTotal: number;
  bankerTotal: number;
  cardCount: number;
  natural: boolean;
  settledAt: string;
  gamingDay: string;
  /** The change of limits its wagers were placed under (null: the opening limits). */
  limitsId: string | null;
  /** When a terminal recorded the coup offline (null: sent when recorded). */
  recordedOfflineAt: string | null;
  newIds: string[];
  newSeats: number[];
  newBetTypes: string[];
  newAmounts: string[];
  newPatrons: (string | null)[];
  newSeatings: (string | null)[];
  newResults: string[];
  newPayouts: string[];
  newCommissions: string[];
  newNets: string[];
  newDead: (true | null)[];
  storedIds: string[];
  storedResults: string[];
  storedPayouts: string[];
  storedCommissions: string[];
  storedNets: string[];
  carriedIds: string[];
  carriedSeats: number[];
  carriedBetTypes: string[];
  carriedAmounts: string[];
  carriedPatrons: (string | null)[];
  carriedSeatings: (string | null)[];
  carriedFrom: string[];
  carriedDead: (true | null)[];
  createdByKeyId: string;
  accrualSeats: number[];
  accrualPatrons: (string | null)[];
  accrualAmounts: string[];
  accrualWagers: string[];
}

/** The guard's terms: the shoe's version (without the lock) and the key to confirm (a key recognised from memory). */
export interface CoupGuardParams {
  version: string | null;
  /** How many stored wagers (carried ties, bets placed before the cards) the coup settles: all of them, or nothing is written. */
  storedCount: number;
  confirmKeyId: string | null;
  confirmKeyHash: string | null;
}

export type SettleCoupParams = CoupWriteParams & CoupGuardParams & RollupParams & AuditParams & AnswerParams;

/** The coups room's named queries (coups.sql), typed by their parameters. */
export const COUPS_SQL = loadQueries<{ settleCoup: SettleCoupParams; answeredCoup: { coupId: string } }>(path.join(__dirname, 'coups.sql'));

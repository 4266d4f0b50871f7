import path from 'node:path';
import { loadQueries } from '../../platform/database/named-sql';

/** An audit entry's values, by the names the ledger's SQL gives them (ledger.sql, coups.sql). */
export interface AuditParams {
  auditStream: string;
  auditPayload: string;
  auditAt: string;
  auditKeyId: string;
  auditRole: string;
  auditAction: string;
  auditEntityType: string;
  auditEntityId: string;
  auditCorrelationId: string;
  auditMac: string;
  auditMacKey: string;
}

/** A coup's rollup values, by the names the ledger's SQL gives them (ledger.sql, coups.sql). */
export interface RollupParams {
  rollupTableId: string;
  rollupPropertyId: string;
  rollupDay: string;
  rollupMonth: string;
  rollupBetTypes: string[];
  rollupWagers: string[];
  rollupHandle: string[];
  rollupPayouts: string[];
  rollupCommission: string[];
  rollupNet: string[];
  rollupWins: string[];
  rollupLosses: string[];
  rollupPushes: string[];
  rollupTheo: string[];
  rollupVar: string[];
  /** Premium (dead-chip) play per bet type: wagers, stakes, commission, customer net, theo × 10^12. */
  rollupPremiumWagers: string[];
  rollupPremiumHandle: string[];
  rollupPremiumCommission: string[];
  rollupPremiumNet: string[];
  rollupPremiumTheo: string[];
  rollupCoups: string;
  rollupBankerWins: string;
  rollupPlayerWins: string;
  rollupTies: string;
  rollupNaturals: string;
  rollupTotalWagers: string;
  rollupTotalHandle: string;
  rollupTotalPayouts: string;
  rollupTotalCommission: string;
  rollupTotalNet: string;
  rollupTotalTheo: string;
  rollupTotalVar: string;
  rollupTotalPremiumWagers: string;
  rollupTotalPremiumHandle: string;
  rollupTotalPremiumCommission: string;
  rollupTotalPremiumNet: string;
  rollupTotalPremiumTheo: string;
  /** The limit rollup: the change of limits the coup was under (null: the opening limits), and its seats with a wager. */
  rollupLimitsId: string | null;
  rollupPlayers: string;
  /** The patron rollups: per patron, visit and bet type… */
  patronPatrons: string[];
  patronVisits: string[];
  patronBets: string[];
  patronWagers: string[];
  patronHandle: string[];
  patronNet: string[];
  patronTheo: string[];
  /** …their dead-chip (rolling) wagers' part: wagers, stakes, net, rolled, theo and expected rolling × 10^12… */
  patronDeadWagers: string[];
  patronDeadHandle: string[];
  patronDeadNet: string[];
  patronDeadRolled: string[];
  patronDeadTheo: string[];
  patronDeadExpectedRolled: string[];
  /** …and per patron and visit (or the whole play): coups and their variance. */
  patronCoupPatrons: string[];
  patronCoupVisits: string[];
  patronCoupCoups: string[];
  patronCoupVar: string[];
  patronCoupDeadVar: string[];
}

/** The ledger's named queries (ledger.sql), typed by their parameters. */
export const LEDGER_SQL = loadQueries<{
  lockMarker: { markerId: string };
  appendAudit: AuditParams;
  applyCoupRollups: RollupParams;
  addCollectedCommission: { tableId: string; propertyId: string; gamingDay: string; month: string; amount: string };
  applyBankCoupRollups: { tableId: string; propertyId: string; gamingDay: string; coups: string; houseCommission: string };
  recordVoidedCoup: { tableId: string; propertyId: string; gamingDay: string; wagers: string; handle: string };
}>(path.join(__dirname, 'ledger.sql'));

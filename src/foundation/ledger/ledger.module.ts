import { Module } from '@nestjs/common';
import { ApprovalChecks } from './approval-checks';
import { AuditLog } from './audit-log';
import { CreditLedger } from './credit-ledger';

/**
 * The money's and the record's write side, used by every feature inside its own transaction:
 * audit appends (audit-log.ts), the rollups finance reads (rollups.ts), the commission ledger
 * (commission-ledger.ts), the credit ledger (credit-ledger.ts: credit lines and policy in force,
 * markers issued within a line, front money, credit requests filed), and the checks a room runs on
 * a credit request for an act it records (approval-checks.ts). Features never write these rows themselves.
 */
@Module({
  providers: [AuditLog, CreditLedger, ApprovalChecks],
  exports: [AuditLog, CreditLedger, ApprovalChecks],
})
export class LedgerModule {}

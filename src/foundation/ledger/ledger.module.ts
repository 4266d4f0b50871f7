import { Module } from '@nestjs/common';
import { AuditLog } from './audit-log';
import { CreditLedger } from './credit-ledger';

/**
 * The money's and the record's write side, used by every feature inside its own transaction:
 * audit appends (audit-log.ts), the rollups finance reads (rollups.ts), the commission ledger
 * (commission-ledger.ts), the credit ledger (credit-ledger.ts: credit lines and policy in force,
 * markers issued within a line, front money, credit requests filed). Features never write these rows themselves.
 */
@Module({
  providers: [AuditLog, CreditLedger],
  exports: [AuditLog, CreditLedger],
})
export class LedgerModule {}

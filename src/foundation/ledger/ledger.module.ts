import { Module } from '@nestjs/common';
import { AuditLog } from './audit-log';

/**
 * The money's and the record's write side, used by every feature inside its own transaction:
 * audit appends (audit-log.ts), the rollups finance reads (rollups.ts), the commission ledger
 * (commission-ledger.ts). Features never write these rows themselves.
 */
@Module({
  providers: [AuditLog],
  exports: [AuditLog],
})
export class LedgerModule {}

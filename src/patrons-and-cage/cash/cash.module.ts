import { Module } from '@nestjs/common';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { PitModule } from '../../foundation/pit/pit.module';
import { CashController } from './cash.controller';
import { CashService } from './cash.service';
import { ComplianceController } from './compliance.controller';
import { ComplianceService } from './compliance.service';

/** Buy-ins, markers, the cage's cash, the cash reports and the drop reconciliation. */
@Module({
  imports: [LedgerModule, PitModule],
  controllers: [CashController, ComplianceController],
  providers: [CashService, ComplianceService],
})
export class CashModule {}

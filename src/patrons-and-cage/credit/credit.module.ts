import { Module } from '@nestjs/common';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { CreditController } from './credit.controller';
import { CreditReadsService } from './credit-reads.service';
import { CreditRequestsService } from './credit-requests.service';

/** The casino's credit: credit acts under two-person control and what their approval puts in force, the policy, the markers' ageing. */
@Module({
  imports: [LedgerModule],
  controllers: [CreditController],
  providers: [CreditRequestsService, CreditReadsService],
})
export class CreditModule {}

import { Module } from '@nestjs/common';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { PitModule } from '../../foundation/pit/pit.module';
import { JunketsController } from './junkets.controller';
import { JunketAccountService } from './junket-account.service';
import { JunketMembersService } from './junket-members.service';
import { JunketPlayerCreditService } from './junket-player-credit.service';
import { JunketStatementsService } from './junket-statements.service';
import { JunketsService } from './junkets.service';

/** Junkets: operators, agents and members, the operator's account, and the statement of a period, agreed and locked. */
@Module({
  imports: [LedgerModule, PitModule],
  controllers: [JunketsController],
  providers: [JunketsService, JunketMembersService, JunketAccountService, JunketPlayerCreditService, JunketStatementsService],
})
export class JunketsModule {}

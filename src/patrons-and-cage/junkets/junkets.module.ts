import { Module } from '@nestjs/common';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { PitModule } from '../../foundation/pit/pit.module';
import { JunketsController } from './junkets.controller';
import { JunketsService } from './junkets.service';

/** Junkets: operators, agents and members, the operator's account, and the statement of a period, agreed and locked. */
@Module({ imports: [LedgerModule, PitModule], controllers: [JunketsController], providers: [JunketsService] })
export class JunketsModule {}

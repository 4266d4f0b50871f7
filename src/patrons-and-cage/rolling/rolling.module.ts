import { Module } from '@nestjs/common';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { PitModule } from '../../foundation/pit/pit.module';
import { RollingController } from './rolling.controller';
import { RollingService } from './rolling.service';

/** Rolling-chip play: dead chips bought and returned, and a patron's rolling account. */
@Module({ imports: [LedgerModule, PitModule], controllers: [RollingController], providers: [RollingService] })
export class RollingModule {}

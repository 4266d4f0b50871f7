import { Module } from '@nestjs/common';
import { PitModule } from '../../foundation/pit/pit.module';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { BanksController } from './banks.controller';
import { BanksService } from './banks.service';

@Module({ imports: [PitModule, LedgerModule], controllers: [BanksController], providers: [BanksService] })
export class BanksModule {}

import { Module } from '@nestjs/common';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { PitModule } from '../../foundation/pit/pit.module';
import { DealersController } from './dealers.controller';
import { DealersService } from './dealers.service';

/** Dealer rotations: who dealt each table when. */
@Module({ imports: [LedgerModule, PitModule], controllers: [DealersController], providers: [DealersService] })
export class DealersModule {}

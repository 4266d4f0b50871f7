import { Module } from '@nestjs/common';
import { PitModule } from '../pit/pit.module';
import { LedgerModule } from '../ledger/ledger.module';
import { CoupsController } from './coups.controller';
import { CoupsService } from './coups.service';

@Module({ imports: [PitModule, LedgerModule], controllers: [CoupsController], providers: [CoupsService] })
export class CoupsModule {}

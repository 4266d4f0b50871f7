import { Module } from '@nestjs/common';
import { PitModule } from '../../foundation/pit/pit.module';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { CoupsController } from './coups.controller';
import { CoupsService } from './coups.service';

@Module({ imports: [PitModule, LedgerModule], controllers: [CoupsController], providers: [CoupsService] })
export class CoupsModule {}

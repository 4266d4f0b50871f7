import { Module } from '@nestjs/common';
import { PitModule } from '../../foundation/pit/pit.module';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { CoupsController } from './coups.controller';
import { CoupsService } from './coups.service';
import { StepwiseCoupsService } from './stepwise-coups.service';
import { CoupReadsService } from './coup-reads.service';
import { CoupSettlement } from './coup-settlement';
import { DeviceGateway } from './device-gateway';
import { DeviceHoldsController } from './device-holds.controller';
import { DeviceReportsService } from './device-reports.service';

@Module({
  imports: [PitModule, LedgerModule],
  controllers: [CoupsController, DeviceHoldsController],
  providers: [CoupsService, StepwiseCoupsService, CoupReadsService, CoupSettlement, DeviceReportsService, DeviceGateway],
})
export class CoupsModule {}

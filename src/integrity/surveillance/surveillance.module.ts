import { DynamicModule, Module } from '@nestjs/common';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { SurveillanceController } from './surveillance.controller';
import { SurveillanceService } from './surveillance.service';
import { SURVEILLANCE_CONFIG, SurveillanceConfig, SurveillanceWorker } from './surveillance-worker';

/** Integrity surveillance: the worker that follows the audit log, and the alerts people handle. */
@Module({})
export class SurveillanceModule {
  static forRoot(config: SurveillanceConfig): DynamicModule {
    return {
      module: SurveillanceModule,
      imports: [LedgerModule],
      controllers: [SurveillanceController],
      providers: [{ provide: SURVEILLANCE_CONFIG, useValue: config }, SurveillanceWorker, SurveillanceService],
    };
  }
}

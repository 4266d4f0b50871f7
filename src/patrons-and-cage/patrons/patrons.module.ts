import { Module } from '@nestjs/common';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { PitModule } from '../../foundation/pit/pit.module';
import { PatronReportsController } from './patron-reports.controller';
import { PatronsController } from './patrons.controller';
import { PatronsService } from './patrons.service';
import { SeatingsController } from './seatings.controller';
import { SeatingsService } from './seatings.service';

/** Patrons: the register, card in and card out at the tables, and rated play. */
@Module({
  imports: [LedgerModule, PitModule],
  controllers: [PatronsController, SeatingsController, PatronReportsController],
  providers: [PatronsService, SeatingsService],
})
export class PatronsModule {}

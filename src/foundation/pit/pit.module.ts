import { Module } from '@nestjs/common';
import { PitChanges } from './pit-changes';
import { PitService } from './pit.service';

/** What every pit feature reads before it writes: tables with their clock, shoes under their lock. */
@Module({
  providers: [PitService, PitChanges],
  exports: [PitService, PitChanges],
})
export class PitModule {}

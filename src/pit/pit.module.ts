import { Module } from '@nestjs/common';
import { PitService } from './pit.service';

/** What every pit feature reads before it writes: tables with their clock, shoes under their lock. */
@Module({
  providers: [PitService],
  exports: [PitService],
})
export class PitModule {}

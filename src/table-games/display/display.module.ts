import { Module } from '@nestjs/common';
import { DisplayController } from './display.controller';
import { DisplayService } from './display.service';

/** The table-side display's board (issue 39); its change stream is the events room's (src/operations/events). */
@Module({ controllers: [DisplayController], providers: [DisplayService] })
export class DisplayModule {}

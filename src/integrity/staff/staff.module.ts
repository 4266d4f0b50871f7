import { Module } from '@nestjs/common';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { StaffController } from './staff.controller';
import { StaffService } from './staff.service';

/** The staff register: each person once, changed only under two-person control. */
@Module({ imports: [LedgerModule], controllers: [StaffController], providers: [StaffService] })
export class StaffModule {}

import { Module } from '@nestjs/common';
import { PitModule } from '../../foundation/pit/pit.module';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { TableAccountingController } from './table-accounting.controller';
import { TableAccountingService } from './table-accounting.service';

@Module({ imports: [PitModule, LedgerModule], controllers: [TableAccountingController], providers: [TableAccountingService] })
export class TableAccountingModule {}

import { Module } from '@nestjs/common';
import { TablesModule } from '../tables/tables.module';
import { TableAccountingController } from './table-accounting.controller';
import { TableAccountingService } from './table-accounting.service';

@Module({ imports: [TablesModule], controllers: [TableAccountingController], providers: [TableAccountingService], exports: [TableAccountingService] })
export class TableAccountingModule {}

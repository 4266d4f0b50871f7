import { Module } from '@nestjs/common';
import { CoupsModule } from '../coups/coups.module';
import { BanksModule } from '../banks/banks.module';
import { TableAccountingModule } from '../table-accounting/table-accounting.module';
import { VoidRequestsController } from './void-requests.controller';
import { VoidRequestsService } from './void-requests.service';

@Module({ imports: [BanksModule, CoupsModule, TableAccountingModule], controllers: [VoidRequestsController], providers: [VoidRequestsService] })
export class VoidRequestsModule {}

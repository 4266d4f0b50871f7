import { Module } from '@nestjs/common';
import { CoupsModule } from '../coups/coups.module';
import { TableAccountingModule } from '../table-accounting/table-accounting.module';
import { VoidRequestsController } from './void-requests.controller';
import { VoidRequestsService } from './void-requests.service';

@Module({ imports: [CoupsModule, TableAccountingModule], controllers: [VoidRequestsController], providers: [VoidRequestsService] })
export class VoidRequestsModule {}

import { PitModule } from '../../foundation/pit/pit.module';
import { Module } from '@nestjs/common';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { TablesController } from './tables.controller';
import { TablesService } from './tables.service';

@Module({ imports: [LedgerModule, PitModule], controllers: [TablesController], providers: [TablesService] })
export class TablesModule {}

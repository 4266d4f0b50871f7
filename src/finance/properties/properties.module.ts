import { Module } from '@nestjs/common';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { PropertiesController } from './properties.controller';
import { PropertiesService } from './properties.service';

@Module({ imports: [LedgerModule], controllers: [PropertiesController], providers: [PropertiesService] })
export class PropertiesModule {}

import { Module } from '@nestjs/common';
import { PitModule } from '../pit/pit.module';
import { LedgerModule } from '../ledger/ledger.module';
import { CommissionsController } from './commissions.controller';
import { CommissionsService } from './commissions.service';

@Module({ imports: [PitModule, LedgerModule], controllers: [CommissionsController], providers: [CommissionsService] })
export class CommissionsModule {}

import { Module } from '@nestjs/common';
import { PitModule } from '../../foundation/pit/pit.module';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { CommissionsController } from './commissions.controller';
import { CommissionsService } from './commissions.service';

@Module({ imports: [PitModule, LedgerModule], controllers: [CommissionsController], providers: [CommissionsService] })
export class CommissionsModule {}

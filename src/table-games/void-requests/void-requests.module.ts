import { Module } from '@nestjs/common';
import { PitModule } from '../../foundation/pit/pit.module';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { VoidRequestsController } from './void-requests.controller';
import { VoidRequestsService } from './void-requests.service';
import { Voids } from './voids';
@Module({ imports: [PitModule, LedgerModule], controllers: [VoidRequestsController], providers: [VoidRequestsService, Voids] })
export class VoidRequestsModule {}

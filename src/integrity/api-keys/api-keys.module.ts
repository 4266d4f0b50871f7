import { Module } from '@nestjs/common';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';

@Module({ imports: [LedgerModule], controllers: [ApiKeysController], providers: [ApiKeysService] })
export class ApiKeysModule {}

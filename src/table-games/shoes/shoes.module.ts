import { Module } from '@nestjs/common';
import { PitModule } from '../../foundation/pit/pit.module';
import { LedgerModule } from '../../foundation/ledger/ledger.module';
import { ShoesController } from './shoes.controller';
import { ShoesService } from './shoes.service';

@Module({ imports: [PitModule, LedgerModule], controllers: [ShoesController], providers: [ShoesService] })
export class ShoesModule {}

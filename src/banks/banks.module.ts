import { Module } from '@nestjs/common';
import { ShoesModule } from '../shoes/shoes.module';
import { BanksController } from './banks.controller';
import { BanksService } from './banks.service';

@Module({ imports: [ShoesModule], controllers: [BanksController], providers: [BanksService], exports: [BanksService] })
export class BanksModule {}

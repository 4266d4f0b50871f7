import { Module } from '@nestjs/common';
import { TablesModule } from '../tables/tables.module';
import { ShoesController } from './shoes.controller';
import { ShoesService } from './shoes.service';

@Module({ imports: [TablesModule], controllers: [ShoesController], providers: [ShoesService], exports: [ShoesService] })
export class ShoesModule {}

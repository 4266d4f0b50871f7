import { Module } from '@nestjs/common';
import { CommissionsModule } from '../commissions/commissions.module';
import { ShoesModule } from '../shoes/shoes.module';
import { CoupsController } from './coups.controller';
import { CoupsService } from './coups.service';

@Module({ imports: [ShoesModule, CommissionsModule], controllers: [CoupsController], providers: [CoupsService], exports: [CoupsService] })
export class CoupsModule {}

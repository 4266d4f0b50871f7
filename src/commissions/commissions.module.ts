import { Module } from '@nestjs/common';
import { ShoesModule } from '../shoes/shoes.module';
import { CommissionsController } from './commissions.controller';
import { CommissionsService } from './commissions.service';

@Module({ imports: [ShoesModule], controllers: [CommissionsController], providers: [CommissionsService], exports: [CommissionsService] })
export class CommissionsModule {}

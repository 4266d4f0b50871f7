import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, CurrentActor, EVERYONE, SUPERVISORS } from '../access/actor';
import { Endpoint } from '../common/endpoint';
import { IdParam } from '../common/validation';
import { CommissionsService } from './commissions.service';
import { CollectCommissionDto, CollectionDto, ShoeCommissionsDto } from './dto/commission.dto';

@ApiTags('Commissions')
@Controller('v1/shoes/:id/commissions')
export class CommissionsController {
  constructor(private readonly commissions: CommissionsService) {}

  @Get()
  @Endpoint({ operationId: 'getShoeCommissions', summary: 'Commission accrued, collected and outstanding per seat', roles: EVERYONE, type: ShoeCommissionsDto, errors: ['NOT_FOUND'] })
  get(@IdParam() shoeId: string, @CurrentActor() actor: Actor): Promise<ShoeCommissionsDto> {
    return this.commissions.forShoe(shoeId, actor);
  }

  @Post('collections')
  @Endpoint({ operationId: 'collectCommission', summary: "Collect a seat's commission (partly or wholly)", roles: SUPERVISORS, status: 201, type: CollectionDto, errors: ['NOT_FOUND', 'COLLECTION_EXCEEDS_OUTSTANDING'] })
  collect(@IdParam() shoeId: string, @Body() dto: CollectCommissionDto, @CurrentActor() actor: Actor): Promise<CollectionDto> {
    return this.commissions.collect(shoeId, dto, actor);
  }
}

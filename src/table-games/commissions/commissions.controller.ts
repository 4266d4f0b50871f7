import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, CurrentActor, EVERYONE, SUPERVISORS } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { IdParam } from '../../platform/common/validation';
import { CommissionsService } from './commissions.service';
import { CollectCommissionDto, CollectionDto, ShoeCommissionsDto } from './dto/commission.dto';

@ApiTags('Commissions')
@Controller('v1')
export class CommissionsController {
  constructor(private readonly commissions: CommissionsService) {}

  @Endpoint('GET', 'shoes/:id/commissions', {
    operationId: 'getShoeCommissions',
    summary: 'Commission accrued, collected and outstanding per seat',
    description:
      'Commission per seat (and patron) on a shoe: accrued from winning Banker bets, collected, and outstanding. An uncollected commission is a receivable, not revenue.',
    roles: EVERYONE,
    type: ShoeCommissionsDto,
    errors: ['NOT_FOUND'],
  })
  get(@IdParam() shoeId: string, @CurrentActor() actor: Actor): Promise<ShoeCommissionsDto> {
    return this.commissions.forShoe(shoeId, actor);
  }

  @Endpoint('POST', 'shoes/:id/commissions/collections', {
    operationId: 'collectCommission',
    summary: "Collect a seat's commission (partly or wholly)",
    description: 'Collects commission owed by a seat on a shoe, all of it or part. More than the seat owes is refused.',
    writes: "a commission ledger row (negative accrual), the rollups' collected commission and the audit entry `commission.collect`.",
    roles: SUPERVISORS,
    status: 201,
    type: CollectionDto,
    errors: ['NOT_FOUND', 'COLLECTION_EXCEEDS_OUTSTANDING'],
  })
  collect(@IdParam() shoeId: string, @Body() dto: CollectCommissionDto, @CurrentContext() ctx: RequestContext): Promise<CollectionDto> {
    return this.commissions.collect(shoeId, dto, ctx);
  }
}

import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, CurrentActor, EVERYONE, RECORDERS } from '../../platform/common/actor';
import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Endpoint } from '../../platform/common/endpoint';
import { IdParam } from '../../platform/common/validation';
import { DealersService } from './dealers.service';
import { DealerShiftDto, StartShiftDto } from './dto/dealer-shift.dto';

@ApiTags('Dealers')
@Controller('v1/tables')
export class DealersController {
  constructor(private readonly dealers: DealersService) {}

  @Endpoint('POST', ':id/dealers', {
    operationId: 'startDealerShift',
    summary: 'A dealer takes the table',
    description:
      "Records that this dealer deals the table from now on: the previous dealer's shift here ends, and so does this dealer's shift at any other table. Surveillance pairs every coup with the dealer who dealt it.",
    writes: "a dealer shift; the audit entry `dealer.change` (the table's stream).",
    roles: RECORDERS,
    status: 201,
    type: DealerShiftDto,
    errors: ['NOT_FOUND', 'TABLE_CLOSED', 'DEALER_ALREADY_DEALING'],
  })
  start(@IdParam() id: string, @Body() dto: StartShiftDto, @CurrentContext() ctx: RequestContext): Promise<DealerShiftDto> {
    return this.dealers.start(id, dto, ctx);
  }

  @Endpoint('GET', ':id/dealers', {
    operationId: 'listDealerShifts',
    summary: "The table's dealer rotation",
    description: 'Every dealer shift of the table, oldest first, with when each began and ended.',
    roles: EVERYONE,
    type: DealerShiftDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  list(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<DealerShiftDto[]> {
    return this.dealers.list(id, actor);
  }
}

import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, CurrentActor, EVERYONE, SUPERVISORS } from '../access/actor';
import { Endpoint } from '../common/endpoint';
import { IdParam } from '../common/validation';
import { CloseSessionDto, OpenSessionDto, SessionDto, SlipDto, SlipInputDto } from './dto/table-accounting.dto';
import { TableAccountingService } from './table-accounting.service';

@ApiTags('Table accounting')
@Controller('v1')
export class TableAccountingController {
  constructor(private readonly accounting: TableAccountingService) {}

  @Post('tables/:id/sessions')
  @Endpoint({ operationId: 'openTableSession', summary: 'Open a table session with its opener inventory', roles: SUPERVISORS, status: 201, type: SessionDto, errors: ['NOT_FOUND', 'SESSION_ALREADY_OPEN', 'CONFLICT'] })
  open(@IdParam() tableId: string, @Body() dto: OpenSessionDto, @CurrentActor() actor: Actor): Promise<SessionDto> {
    return this.accounting.open(tableId, dto, actor);
  }

  @Get('table-sessions/:id')
  @Endpoint({ operationId: 'getTableSession', summary: 'Read a table session, its slips and statistical win', roles: EVERYONE, type: SessionDto, errors: ['NOT_FOUND'] })
  get(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<SessionDto> {
    return this.accounting.get(id, actor);
  }

  @Post('table-sessions/:id/slips')
  @Endpoint({ operationId: 'addSlip', summary: 'Record a fill or a credit (numbered in sequence per property and year)', roles: SUPERVISORS, status: 201, type: SlipDto, errors: ['NOT_FOUND', 'SESSION_CLOSED'] })
  addSlip(@IdParam() id: string, @Body() dto: SlipInputDto, @CurrentActor() actor: Actor): Promise<SlipDto> {
    return this.accounting.addSlip(id, dto, actor);
  }

  @Post('table-sessions/:id/close')
  @Endpoint({ operationId: 'closeTableSession', summary: 'Close a table session with its closer inventory and drop', roles: SUPERVISORS, type: SessionDto, errors: ['NOT_FOUND', 'SESSION_CLOSED'] })
  close(@IdParam() id: string, @Body() dto: CloseSessionDto, @CurrentActor() actor: Actor): Promise<SessionDto> {
    return this.accounting.close(id, dto, actor);
  }
}

import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, CurrentActor, EVERYONE, SUPERVISORS } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { IdParam } from '../../platform/common/validation';
import { CloseSessionDto, OpenSessionDto, SessionDto, SlipDto, SlipInputDto } from './dto/table-accounting.dto';
import { TableAccountingService } from './table-accounting.service';

@ApiTags('Table accounting')
@Controller('v1')
export class TableAccountingController {
  constructor(private readonly accounting: TableAccountingService) {}

  @Endpoint('POST', 'tables/:id/sessions', {
    operationId: 'openTableSession',
    summary: 'Open a table session with its opener inventory',
    description: 'Opens a table session with the opener inventory counted by chip value.',
    writes: 'the session and its opener slip; the audit entry `session.open`.',
    roles: SUPERVISORS,
    status: 201,
    type: SessionDto,
    errors: ['NOT_FOUND', 'SESSION_ALREADY_OPEN', 'CONFLICT'],
  })
  open(@IdParam() tableId: string, @Body() dto: OpenSessionDto, @CurrentContext() ctx: RequestContext): Promise<SessionDto> {
    return this.accounting.open(tableId, dto, ctx);
  }

  @Endpoint('GET', 'tables/:id/sessions', {
    operationId: 'listTableSessions',
    summary: "A table's latest sessions, newest first (its open one first of all)",
    description:
      "The table's latest 20 sessions, newest first: each with its opener and closer inventory, numbered fills and credits, drop and statistical win. The pit desk finds the table's open session here.",
    roles: EVERYONE,
    type: SessionDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  list(@IdParam() tableId: string, @CurrentActor() actor: Actor): Promise<SessionDto[]> {
    return this.accounting.latest(tableId, actor);
  }

  @Endpoint('GET', 'table-sessions/:id', {
    operationId: 'getTableSession',
    summary: 'Read a table session, its slips and statistical win',
    description: 'A table session: opener and closer inventory, numbered fills and credits, drop, and the statistical win.',
    roles: EVERYONE,
    type: SessionDto,
    errors: ['NOT_FOUND'],
  })
  get(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<SessionDto> {
    return this.accounting.get(id, actor);
  }

  @Endpoint('POST', 'table-sessions/:id/slips', {
    operationId: 'addSlip',
    summary: 'Record a fill or a credit (numbered in sequence per property and year)',
    description: 'Records a fill (chips brought to the table) or a credit (chips returned to the cage), numbered in sequence per property and year.',
    writes: 'the slip; the audit entry `slip.create`.',
    roles: SUPERVISORS,
    status: 201,
    type: SlipDto,
    errors: ['NOT_FOUND', 'SESSION_CLOSED'],
  })
  addSlip(@IdParam() id: string, @Body() dto: SlipInputDto, @CurrentContext() ctx: RequestContext): Promise<SlipDto> {
    return this.accounting.addSlip(id, dto, ctx);
  }

  @Endpoint('POST', 'table-sessions/:id/close', {
    operationId: 'closeTableSession',
    summary: 'Close a table session with its closer inventory and drop',
    description: 'Closes a table session with the closer inventory and the drop count; the statistical win is computed.',
    writes: "the session's closer and drop; the audit entry `session.close`.",
    roles: SUPERVISORS,
    type: SessionDto,
    errors: ['NOT_FOUND', 'SESSION_CLOSED'],
  })
  close(@IdParam() id: string, @Body() dto: CloseSessionDto, @CurrentContext() ctx: RequestContext): Promise<SessionDto> {
    return this.accounting.close(id, dto, ctx);
  }
}

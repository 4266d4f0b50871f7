import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Body, Controller, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { Actor, ADMINS, CurrentActor, EVERYONE, TABLE_MANAGERS } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { AppError } from '../../platform/common/errors';
import { IdParam } from '../../platform/common/validation';
import { ChangeLimitsDto, CreateTableDto, LimitsDto, TableDto } from './dto/table.dto';
import { TablesService } from './tables.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@ApiTags('Tables')
@Controller('v1/tables')
export class TablesController {
  constructor(private readonly tables: TablesService) {}

  @Endpoint('POST', '', {
    operationId: 'createTable',
    summary: 'Create a table with its house rules (it opens at once)',
    description:
      'Creates a table of a property with its house rules: variant, decks, currency, limits (table and per bet), commission rate, tie pay and tie handling (returned or carried), side bets offered, pay-table overrides, rounding of commission and half-pays. The table opens at once. Rules are checked as a whole (INVALID_RULES names the inconsistency).',
    writes: "a table row; the audit entry `table.create` (the table's stream).",
    roles: ADMINS,
    status: 201,
    type: TableDto,
    errors: ['CONFLICT', 'NOT_FOUND', 'INVALID_RULES', 'GROUP_NEEDS_PROPERTY'],
  })
  create(@Body() dto: CreateTableDto, @CurrentContext() ctx: RequestContext): Promise<TableDto> {
    return this.tables.create(dto, ctx);
  }

  @ApiQuery({ name: 'propertyId', required: false, description: "Only this property's tables" })
  @Endpoint('GET', '', {
    operationId: 'listTables',
    summary: 'List tables',
    description: 'Every table with its rules, optionally of one property. A terminal key sees only its own table.',
    roles: EVERYONE,
    type: TableDto,
    isArray: true,
  })
  list(@CurrentActor() actor: Actor, @Query('propertyId') propertyId?: string): Promise<TableDto[]> {
    if (propertyId !== undefined && (typeof propertyId !== 'string' || !UUID.test(propertyId))) {
      throw new AppError('VALIDATION_FAILED', 'propertyId must be a UUID');
    }
    return this.tables.list(actor, propertyId);
  }

  @Endpoint('GET', ':id', {
    operationId: 'getTable',
    summary: 'Read a table and its rules',
    description: 'One table with its house rules and whether it is open.',
    roles: EVERYONE,
    type: TableDto,
    errors: ['NOT_FOUND'],
  })
  get(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<TableDto> {
    return this.tables.get(id, actor);
  }

  @Endpoint('POST', ':id/close', {
    operationId: 'closeTable',
    summary: 'Close a table (its shoe must be closed first)',
    description:
      "Closes a table for the day. Its shoe must be closed first; a closed table takes no shoe and seats no patron until it is reopened. Patrons' cards still in come out with it (their time played ends). A table closed already is refused (TABLE_CLOSED) and nothing is written.",
    writes: "the table's status; the end of each seating still open, each with its audit entry `seating.end`; the audit entry `table.close`.",
    roles: TABLE_MANAGERS,
    type: TableDto,
    errors: ['NOT_FOUND', 'TABLE_HAS_OPEN_SHOE', 'TABLE_CLOSED'],
  })
  close(@IdParam() id: string, @CurrentContext() ctx: RequestContext): Promise<TableDto> {
    return this.tables.close(id, ctx);
  }

  @Endpoint('POST', ':id/reopen', {
    operationId: 'reopenTable',
    summary: 'Reopen a closed table',
    description: 'Reopens a closed table. An open table is refused (TABLE_OPEN) and nothing is written.',
    writes: "the table's status; the audit entry `table.reopen`.",
    roles: TABLE_MANAGERS,
    type: TableDto,
    errors: ['NOT_FOUND', 'TABLE_OPEN'],
  })
  reopen(@IdParam() id: string, @CurrentContext() ctx: RequestContext): Promise<TableDto> {
    return this.tables.reopen(id, ctx);
  }

  @Endpoint('POST', ':id/limits', {
    operationId: 'changeTableLimits',
    summary: "Change a table's limits from its next coup",
    description:
      "Sets a table's minimum and maximum (and any bet's own limits) from its next coup, with the reason. A change is a new record, never an edit: the table's opening limits and every change stay readable (GET), and every wager is checked against the limits in force when it is placed. The limits are checked against the table's rules as its opening limits were (a limit for a bet the table does not offer is INVALID_RULES). Refused while a coup of the open shoe is taking bets (COUP_IN_PROGRESS): its bets were placed under the limits before. Open or closed tables alike.",
    writes: "a change of limits (table_limits); the open shoe moves onto it; the audit entry `table.limits` (the table's stream).",
    roles: TABLE_MANAGERS,
    status: 201,
    type: LimitsDto,
    errors: ['NOT_FOUND', 'INVALID_RULES', 'COUP_IN_PROGRESS'],
  })
  changeLimits(@IdParam() id: string, @Body() dto: ChangeLimitsDto, @CurrentContext() ctx: RequestContext): Promise<LimitsDto> {
    return this.tables.changeLimits(id, dto, ctx);
  }

  @Endpoint('GET', ':id/limits', {
    operationId: 'getTableLimits',
    summary: "A table's limits: in force, and their history",
    description: "The limits in force at a table and every change since it opened (who, when, why), oldest first. A terminal key reads its own table's.",
    roles: EVERYONE,
    type: LimitsDto,
    errors: ['NOT_FOUND'],
  })
  limits(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<LimitsDto> {
    return this.tables.limits(id, actor);
  }
}

import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { Actor, ADMINS, CurrentActor, EVERYONE, TABLE_MANAGERS } from '../access/actor';
import { Endpoint } from '../common/endpoint';
import { AppError } from '../common/errors';
import { IdParam } from '../common/validation';
import { CreateTableDto, TableDto } from './dto/table.dto';
import { TablesService } from './tables.service';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@ApiTags('Tables')
@Controller('v1/tables')
export class TablesController {
  constructor(private readonly tables: TablesService) {}

  @Post()
  @Endpoint({ operationId: 'createTable', summary: 'Create a table with its house rules (it opens at once)', roles: ADMINS, status: 201, type: TableDto, errors: ['CONFLICT', 'NOT_FOUND', 'INVALID_RULES'] })
  create(@Body() dto: CreateTableDto): Promise<TableDto> {
    return this.tables.create(dto);
  }

  @Get()
  @ApiQuery({ name: 'propertyId', required: false, description: 'Only this property\'s tables' })
  @Endpoint({ operationId: 'listTables', summary: 'List tables', roles: EVERYONE, type: TableDto, isArray: true })
  list(@Query('propertyId') propertyId?: string): Promise<TableDto[]> {
    if (propertyId !== undefined && (typeof propertyId !== 'string' || !UUID.test(propertyId))) {
      throw new AppError('VALIDATION_FAILED', 'propertyId must be a UUID');
    }
    return this.tables.list(propertyId);
  }

  @Get(':id')
  @Endpoint({ operationId: 'getTable', summary: 'Read a table and its rules', roles: EVERYONE, type: TableDto, errors: ['NOT_FOUND'] })
  get(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<TableDto> {
    return this.tables.get(id, actor);
  }

  @Post(':id/close')
  @Endpoint({ operationId: 'closeTable', summary: 'Close a table (its shoe must be closed first)', roles: TABLE_MANAGERS, type: TableDto, errors: ['NOT_FOUND', 'TABLE_HAS_OPEN_SHOE'] })
  close(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<TableDto> {
    return this.tables.close(id, actor);
  }

  @Post(':id/reopen')
  @Endpoint({ operationId: 'reopenTable', summary: 'Reopen a closed table', roles: TABLE_MANAGERS, type: TableDto, errors: ['NOT_FOUND'] })
  reopen(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<TableDto> {
    return this.tables.reopen(id, actor);
  }
}

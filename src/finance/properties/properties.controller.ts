import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, ADMINS, CurrentActor, EVERYONE, FIGURE_READERS, TABLE_MANAGERS } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { IdParam } from '../../platform/common/validation';
import { CreatePropertyDto, PropertyDto } from './dto/property.dto';
import { PaceTargetDto, PaceTargetsDto, SetPaceTargetDto } from './dto/pace-target.dto';
import { PropertiesService } from './properties.service';

@ApiTags('Properties')
@Controller('v1/properties')
export class PropertiesController {
  constructor(private readonly properties: PropertiesService) {}

  @Endpoint('POST', '', {
    operationId: 'createProperty',
    summary: 'Add a property (casino)',
    description:
      'Adds a property (a casino) with its time zone and the hour its gaming day starts. Gaming days, months and quarters of every table of the property are counted from these.',
    writes: 'a property row; the audit entry `property.create` (admin stream).',
    roles: ADMINS,
    status: 201,
    type: PropertyDto,
    errors: ['CONFLICT'],
  })
  create(@Body() dto: CreatePropertyDto, @CurrentContext() ctx: RequestContext): Promise<PropertyDto> {
    return this.properties.create(dto, ctx);
  }

  @Endpoint('GET', '', {
    operationId: 'listProperties',
    summary: 'List properties',
    description: "Every property, by code. A terminal key sees only its own table's property.",
    roles: EVERYONE,
    type: PropertyDto,
    isArray: true,
  })
  list(@CurrentActor() actor: Actor): Promise<PropertyDto[]> {
    return this.properties.list(actor);
  }

  @Endpoint('GET', ':id', {
    operationId: 'getProperty',
    summary: 'Read a property',
    description: "One property with its time zone and gaming-day start. A terminal key may read only its own table's property.",
    roles: EVERYONE,
    type: PropertyDto,
    errors: ['NOT_FOUND'],
  })
  get(@IdParam() id: string, @CurrentActor() actor: Actor): Promise<PropertyDto> {
    return this.properties.get(id, actor);
  }

  @Endpoint('POST', ':id/pace-targets', {
    operationId: 'setPaceTarget',
    summary: 'Set the pace the property expects of a variant',
    description:
      "Enters the decisions per hour the property expects of a table of this variant: the pace report (`GET /v1/reports/pace`) compares each table and variant with it, beside the property's own median. A variant without an entry has the default derived from a coup's time budget (docs/domain.md §13). Never changed: a new entry replaces the variant's earlier one, which stays listed.",
    writes: 'a pace-target row; the audit entry `paceTarget.set` (admin stream).',
    roles: TABLE_MANAGERS,
    status: 201,
    type: PaceTargetDto,
    errors: ['NOT_FOUND'],
  })
  setPaceTarget(@IdParam() id: string, @Body() dto: SetPaceTargetDto, @CurrentContext() ctx: RequestContext): Promise<PaceTargetDto> {
    return this.properties.setPaceTarget(id, dto, ctx);
  }

  @Endpoint('GET', ':id/pace-targets', {
    operationId: 'listPaceTargets',
    summary: 'The pace the property expects of each variant',
    description:
      "Every variant with the decisions per hour expected of it now (the property's latest entry, or the default and where it comes from), and every entry the property made.",
    roles: FIGURE_READERS,
    type: PaceTargetsDto,
    errors: ['NOT_FOUND'],
  })
  paceTargets(@IdParam() id: string): Promise<PaceTargetsDto> {
    return this.properties.paceTargets(id);
  }
}

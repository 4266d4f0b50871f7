import { CurrentContext, RequestContext } from '../common/context';
import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, ADMINS, CurrentActor, EVERYONE } from '../common/actor';
import { Endpoint } from '../common/endpoint';
import { IdParam } from '../common/validation';
import { CreatePropertyDto, PropertyDto } from './dto/property.dto';
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
}

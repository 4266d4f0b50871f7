import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ADMINS, EVERYONE } from '../access/actor';
import { Endpoint } from '../common/endpoint';
import { IdParam } from '../common/validation';
import { CreatePropertyDto, PropertyDto } from './dto/property.dto';
import { PropertiesService } from './properties.service';

@ApiTags('Properties')
@Controller('v1/properties')
export class PropertiesController {
  constructor(private readonly properties: PropertiesService) {}

  @Post()
  @Endpoint({ operationId: 'createProperty', summary: 'Add a property (casino)', roles: ADMINS, status: 201, type: PropertyDto, errors: ['CONFLICT'] })
  create(@Body() dto: CreatePropertyDto): Promise<PropertyDto> {
    return this.properties.create(dto);
  }

  @Get()
  @Endpoint({ operationId: 'listProperties', summary: 'List properties', roles: EVERYONE, type: PropertyDto, isArray: true })
  list(): Promise<PropertyDto[]> {
    return this.properties.list();
  }

  @Get(':id')
  @Endpoint({ operationId: 'getProperty', summary: 'Read a property', roles: EVERYONE, type: PropertyDto, errors: ['NOT_FOUND'] })
  get(@IdParam() id: string): Promise<PropertyDto> {
    return this.properties.get(id);
  }
}

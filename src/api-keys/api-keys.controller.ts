import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Actor, ADMINS, CurrentActor } from '../access/actor';
import { Endpoint } from '../common/endpoint';
import { IdParam } from '../common/validation';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyDto, CreateApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto';

@ApiTags('API keys')
@Controller('v1/api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @Endpoint({ operationId: 'createApiKey', summary: 'Create an API key (the key is shown only in this response)', roles: ADMINS, status: 201, type: CreatedApiKeyDto, errors: ['NOT_FOUND'] })
  create(@Body() dto: CreateApiKeyDto, @CurrentActor() actor: Actor): Promise<CreatedApiKeyDto> {
    return this.keys.create(dto, actor);
  }

  @Get()
  @Endpoint({ operationId: 'listApiKeys', summary: 'List API keys (never the keys themselves)', roles: ADMINS, type: ApiKeyDto, isArray: true })
  list(): Promise<ApiKeyDto[]> {
    return this.keys.list();
  }

  @Post(':id/revoke')
  @Endpoint({ operationId: 'revokeApiKey', summary: 'Revoke an API key, effective at once', roles: ADMINS, type: ApiKeyDto, errors: ['NOT_FOUND'] })
  revoke(@IdParam() id: string): Promise<ApiKeyDto> {
    return this.keys.revoke(id);
  }
}

import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ADMINS, DISPLAY_READERS, EVERYONE } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { IdParam } from '../../platform/common/validation';
import { ApiKeysService } from './api-keys.service';
import { ApiKeyDto, CallerDto, CreateApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto';

@ApiTags('API keys')
@Controller('v1/api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Endpoint('POST', '', {
    operationId: 'createApiKey',
    summary: 'Create an API key (the key is shown only in this response)',
    description:
      'Creates an API key for a role (TERMINAL and DISPLAY keys are bound to one table). The key itself is shown only in this answer; the service keeps its SHA-256 hash. Keys may carry an expiry.',
    writes: 'an api_keys row (hash only); the audit entry `apiKey.create` (admin stream).',
    roles: ADMINS,
    status: 201,
    type: CreatedApiKeyDto,
    errors: ['NOT_FOUND', 'STAFF_NOT_REGISTERED'],
  })
  create(@Body() dto: CreateApiKeyDto, @CurrentContext() ctx: RequestContext): Promise<CreatedApiKeyDto> {
    return this.keys.create(dto, ctx);
  }

  @Endpoint('POST', 'claim', {
    operationId: 'claimApiKey',
    summary: 'Claim your own key: a new secret that its minter never saw (shown only in this response)',
    description:
      "The key's holder replaces the secret the administrator who minted it saw. Until a key is claimed, two-person rules count its minter as someone who could hold it too (a void asked for with one key cannot be approved with a key the same administrator minted and nobody claimed). The old secret stops at once. Once per key.",
    writes: "the key's hash, prefix and claim time; the audit entry `apiKey.claim` (admin stream).",
    roles: EVERYONE,
    status: 201,
    type: CreatedApiKeyDto,
    errors: ['KEY_ALREADY_CLAIMED'],
  })
  claim(@CurrentContext() ctx: RequestContext): Promise<CreatedApiKeyDto> {
    return this.keys.claim(ctx);
  }

  @Endpoint('POST', ':id/witness', {
    operationId: 'witnessApiKeyClaim',
    summary: "Witness a key's claim: its person replaced the secret in front of you",
    description:
      "A second administrator, who could hold neither the key nor the key that minted it, confirms that the key's own person claimed it (POST /v1/api-keys/claim). A claim alone proves nothing, since whoever minted the key knows its secret; once witnessed, two-person rules count the key as its person's alone. Once per key; never with the bootstrap key.",
    writes: 'who witnessed the claim and when; the audit entry `apiKey.witness` (admin stream).',
    roles: ADMINS,
    type: ApiKeyDto,
    errors: ['NOT_FOUND', 'KEY_NOT_CLAIMED', 'KEY_ALREADY_CLAIMED'],
  })
  witness(@IdParam() id: string, @CurrentContext() ctx: RequestContext): Promise<ApiKeyDto> {
    return this.keys.witness(id, ctx);
  }

  @Endpoint('GET', 'me', {
    operationId: 'currentApiKey',
    summary: 'The calling key: its name, role and table',
    description:
      'Who the calling key is: its name, role, the table it is bound to and its expiry (never the key itself). The screens build their navigation from the role: each offers only what the role may read. A table-side display key may read it too (its screen learns its table from it).',
    roles: DISPLAY_READERS,
    type: CallerDto,
  })
  me(@CurrentContext() ctx: RequestContext): Promise<CallerDto> {
    return this.keys.caller(ctx);
  }

  @Endpoint('GET', '', {
    operationId: 'listApiKeys',
    summary: 'List API keys (never the keys themselves)',
    description: 'Every API key: name, role, table, expiry and revocation. Never the key itself.',
    roles: ADMINS,
    type: ApiKeyDto,
    isArray: true,
  })
  list(): Promise<ApiKeyDto[]> {
    return this.keys.list();
  }

  @Endpoint('POST', ':id/revoke', {
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key, effective at once',
    description: 'Revokes a key, effective for the next request (a coup already committed stays).',
    writes: "the key's revocation time; the audit entry `apiKey.revoke` (admin stream).",
    roles: ADMINS,
    type: ApiKeyDto,
    errors: ['NOT_FOUND'],
  })
  revoke(@IdParam() id: string, @CurrentContext() ctx: RequestContext): Promise<ApiKeyDto> {
    return this.keys.revoke(id, ctx);
  }
}

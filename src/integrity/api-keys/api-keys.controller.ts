import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Body, Controller, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { ADMINS, DISPLAY_READERS, EVERYONE } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { IdParam } from '../../platform/common/validation';
import { ApiKeysService } from './api-keys.service';
import {
  ApiKeyDto,
  CallerDto,
  CreateApiKeyDto,
  CreatedApiKeyDto,
  DecideKeyRevocationDto,
  KEY_REVOCATION_STATUSES,
  KeyRevocationDto,
  ProposeKeyRevocationDto,
} from './dto/api-key.dto';

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
    errors: ['SAME_PERSON', 'NOT_FOUND', 'STAFF_NOT_REGISTERED'],
  })
  create(@Body() dto: CreateApiKeyDto, @CurrentContext() ctx: RequestContext): Promise<CreatedApiKeyDto> {
    return this.keys.create(dto, ctx);
  }

  @Endpoint('POST', 'claim', {
    operationId: 'claimApiKey',
    summary: 'Claim your own key: a new secret that its minter never saw (shown only in this response)',
    description:
      "The key's holder replaces the secret the administrator who minted it saw. Until a key is claimed, two-person rules count its minter as someone who could hold it too (a void asked for with one key cannot be approved with a key the same administrator minted and nobody claimed). The old secret stops at once. Once per key, and a person's key only: a table's key (TERMINAL, DISPLAY) is the table's, and is replaced by minting another (FORBIDDEN). The new secret is in this answer alone and is kept nowhere; the old secret stops with the claim, so a retry after a lost answer, sent with the old secret, is refused (UNAUTHENTICATED) and nothing is claimed twice: a holder whose answer was lost asks an administrator to revoke the key and mint another.",
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
    errors: ['SAME_PERSON', 'NOT_FOUND', 'KEY_NOT_CLAIMED', 'KEY_ALREADY_CLAIMED'],
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
    summary: "Revoke an API key, effective at once (an administrator's key: two administrators, see revocations)",
    description:
      "Revokes a key, effective for the next request (a coup already committed stays). One administrator revokes a table's key or a key of a person who is not an administrator at once, so that a lost key stops now; and anyone revokes a key of their own, with a key held by them alone. An administrator's key (of the ADMIN role, or any key of a person who is an administrator) takes two administrators: this answers SECOND_ADMINISTRATOR_NEEDED, and one proposes it (POST /v1/api-keys/{id}/revocations) for another to approve. Never below two active administrators holding a key of their own (TOO_FEW_ADMINISTRATORS). A key revoked already is answered as it is. Any role may call it for a key of its own person (the screens' key page stops the signed-in key); another person's or a table's key is an administrator's to revoke (FORBIDDEN).",
    writes: "the key's revocation time; the audit entry `apiKey.revoke` (admin stream).",
    roles: EVERYONE,
    type: ApiKeyDto,
    errors: ['NOT_FOUND', 'SECOND_ADMINISTRATOR_NEEDED', 'TOO_FEW_ADMINISTRATORS'],
  })
  revoke(@IdParam() id: string, @CurrentContext() ctx: RequestContext): Promise<ApiKeyDto> {
    return this.keys.revoke(id, ctx);
  }

  @Endpoint('POST', ':id/revocations', {
    operationId: 'proposeApiKeyRevocation',
    summary: "Propose revoking a key (an administrator's key); a second administrator must approve",
    description:
      "Proposes that a key stop, with the reason. Nothing changes until another administrator approves (POST /v1/api-keys/revocations/{id}/approve): neither who proposed it nor the key's own person. The way to revoke an administrator's key; any other key may be proposed too. The register keeps at least two active administrators holding a key of their own: a revocation that would leave fewer is refused (TOO_FEW_ADMINISTRATORS), here and again when it is approved. Never with the bootstrap key once it has set the casino up.",
    writes: 'the proposal; the audit entry `apiKey.revocationPropose` (admin stream).',
    roles: ADMINS,
    status: 202,
    type: KeyRevocationDto,
    errors: ['NOT_FOUND', 'KEY_REVOKED', 'KEY_REVOCATION_PENDING', 'TOO_FEW_ADMINISTRATORS'],
  })
  proposeRevocation(@IdParam() id: string, @Body() dto: ProposeKeyRevocationDto, @CurrentContext() ctx: RequestContext): Promise<KeyRevocationDto> {
    return this.keys.proposeRevocation(id, dto, ctx);
  }

  @Endpoint('POST', 'revocations/:id/approve', {
    operationId: 'approveApiKeyRevocation',
    summary: 'Approve a proposed key revocation (a second person: never who proposed it, nor the key’s own person)',
    description:
      "Revokes the key, effective for the next request. The approving key must be held by another person than the proposing key (counting minters of keys their holders have not claimed in front of a witness, as it stood when it proposed), and not by the key's own person.",
    writes: "the decision, the key's revocation time; the audit entry `apiKey.revoke` (admin stream), naming the proposal and both persons.",
    roles: ADMINS,
    type: KeyRevocationDto,
    errors: ['SAME_PERSON', 'NOT_FOUND', 'KEY_REVOKED', 'KEY_REVOCATION_DECIDED', 'TOO_FEW_ADMINISTRATORS'],
  })
  approveRevocation(@IdParam() id: string, @Body() dto: DecideKeyRevocationDto, @CurrentContext() ctx: RequestContext): Promise<KeyRevocationDto> {
    return this.keys.approveRevocation(id, dto, ctx);
  }

  @Endpoint('POST', 'revocations/:id/reject', {
    operationId: 'rejectApiKeyRevocation',
    summary: 'Reject (or withdraw) a proposed key revocation',
    description: "Rejects a proposed revocation, with the reason (note); the proposer withdraws their own this way. Never by the key's own person.",
    writes: 'the decision; the audit entry `apiKey.revocationReject` (admin stream).',
    roles: ADMINS,
    type: KeyRevocationDto,
    errors: ['SAME_PERSON', 'NOT_FOUND', 'KEY_REVOCATION_DECIDED'],
  })
  rejectRevocation(@IdParam() id: string, @Body() dto: DecideKeyRevocationDto, @CurrentContext() ctx: RequestContext): Promise<KeyRevocationDto> {
    return this.keys.rejectRevocation(id, dto, ctx);
  }

  @ApiQuery({ name: 'status', required: false, enum: KEY_REVOCATION_STATUSES })
  @Endpoint('GET', 'revocations', {
    operationId: 'listApiKeyRevocations',
    summary: 'Proposed, approved and rejected key revocations, oldest first',
    description: 'Every proposed key revocation (the first 500), optionally by status.',
    roles: ADMINS,
    type: KeyRevocationDto,
    isArray: true,
  })
  revocations(@Query('status') status?: string): Promise<KeyRevocationDto[]> {
    return this.keys.revocations(status);
  }
}

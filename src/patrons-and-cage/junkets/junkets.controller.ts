import { Body, Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { FIGURE_READERS, Role, ROLLING_READERS } from '../../platform/common/actor';
import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Endpoint } from '../../platform/common/endpoint';
import { CardParam, IdParam } from '../../platform/common/validation';
import {
  AccountEntryDto,
  AccountEntryInputDto,
  AgreedPeriodDto,
  AgreeInputDto,
  JunketAgentInputDto,
  JunketDto,
  JunketInputDto,
  LeaveInputDto,
  MembershipDto,
  MembershipInputDto,
  PeriodQueryDto,
  PlayerCreditDto,
  PlayerCreditInputDto,
  StatementDto,
} from './dto/junkets.dto';
import { JunketAccountService } from './junket-account.service';
import { JunketMembersService } from './junket-members.service';
import { JunketPlayerCreditService } from './junket-player-credit.service';
import { JunketStatementsService } from './junket-statements.service';
import { JunketsService } from './junkets.service';

/** Who sets up junkets and agrees their statements: finance and the administrators. */
const JUNKET_MANAGERS: Role[] = ['FINANCE', 'ADMIN'];
/** Who records a junket's members: the VIP room (its supervisors and hosts) and finance. */
const MEMBERSHIP_KEEPERS: Role[] = ['SUPERVISOR', 'HOST', 'FINANCE'];
/** Who records markers, repayments and payouts: the cage and finance. */
const JUNKET_CASHIERS: Role[] = ['CASHIER', 'FINANCE'];
/** Who reads junkets, their accounts and statements. */
const JUNKET_READERS: Role[] = [...new Set<Role>([...ROLLING_READERS, ...FIGURE_READERS])];

@ApiTags('Junkets')
@Controller('v1')
export class JunketsController {
  constructor(
    private readonly junkets: JunketsService,
    private readonly memberships: JunketMembersService,
    private readonly account: JunketAccountService,
    private readonly playerCredit: JunketPlayerCreditService,
    private readonly statements: JunketStatementsService,
  ) {}

  @Endpoint('POST', 'properties/:id/junkets', {
    operationId: 'createJunket',
    summary: 'A junket operator at the property',
    description:
      "Registers a junket operator: its code, name, licence, the currency of its account, and the most it may owe the casino on markers. Never edited. Its players join it under one of the property's rolling-chip programmes (docs/domain.md §16).",
    writes: 'a junket operator; the audit entry `junket.operator` (stream `junkets`).',
    roles: JUNKET_MANAGERS,
    status: 201,
    type: JunketDto,
    errors: ['NOT_FOUND', 'CONFLICT'],
  })
  create(@IdParam() id: string, @Body() dto: JunketInputDto, @CurrentContext() ctx: RequestContext): Promise<JunketDto> {
    return this.junkets.create(id, dto, ctx);
  }

  @Endpoint('GET', 'properties/:id/junkets', {
    operationId: 'listJunkets',
    summary: "The property's junket operators",
    description: 'Every junket operator of the property, by code, with its agents and its balance now (positive: it owes the casino).',
    roles: JUNKET_READERS,
    type: JunketDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  list(@IdParam() id: string): Promise<JunketDto[]> {
    return this.junkets.list(id);
  }

  @Endpoint('GET', 'junkets/:id', {
    operationId: 'getJunket',
    summary: 'A junket operator',
    description: 'The operator, its agents and its balance now (positive: it owes the casino; negative: the casino owes it).',
    roles: JUNKET_READERS,
    type: JunketDto,
    errors: ['NOT_FOUND'],
  })
  get(@IdParam() id: string): Promise<JunketDto> {
    return this.junkets.get(id);
  }

  @Endpoint('POST', 'junkets/:id/agents', {
    operationId: 'addJunketAgent',
    summary: 'An agent of the junket (who brings players)',
    description: 'Adds an agent under a code unique within the junket. Never edited.',
    writes: 'a junket agent; the audit entry `junket.agent` (stream `junkets`).',
    roles: JUNKET_MANAGERS,
    status: 201,
    type: JunketDto,
    errors: ['NOT_FOUND', 'CONFLICT'],
  })
  addAgent(@IdParam() id: string, @Body() dto: JunketAgentInputDto, @CurrentContext() ctx: RequestContext): Promise<JunketDto> {
    return this.junkets.addAgent(id, dto, ctx);
  }

  @Endpoint('POST', 'junkets/:id/members', {
    operationId: 'joinJunket',
    summary: 'A patron plays for the junket, under a programme, from a gaming day',
    description:
      "From `effectiveFrom` (today or later; default today) the patron's dead-chip play at the property counts to the junket, under the programme named, through the agent named. A new version of the patron's membership at the property: it starts after the latest (CONFLICT otherwise), and a patron plays for one junket at a time. Never edited.",
    writes: 'a membership version; the audit entry `junket.membership` (stream `junkets`).',
    roles: MEMBERSHIP_KEEPERS,
    status: 201,
    type: MembershipDto,
    errors: ['NOT_FOUND', 'CONFLICT', 'UNKNOWN_PATRON'],
  })
  join(@IdParam() id: string, @Body() dto: MembershipInputDto, @CurrentContext() ctx: RequestContext): Promise<MembershipDto> {
    return this.memberships.join(id, dto, ctx);
  }

  @Endpoint('POST', 'junkets/:id/members/:card/leave', {
    operationId: 'leaveJunket',
    summary: 'A member leaves the junket from a gaming day',
    description: 'From `effectiveFrom` (today or later; default today) the patron plays for no junket. A new version of the membership; never an edit.',
    writes: 'a membership version; the audit entry `junket.membership` (stream `junkets`).',
    roles: MEMBERSHIP_KEEPERS,
    status: 201,
    type: MembershipDto,
    errors: ['NOT_FOUND', 'CONFLICT'],
  })
  leave(@IdParam() id: string, @CardParam() card: string, @Body() dto: LeaveInputDto, @CurrentContext() ctx: RequestContext): Promise<MembershipDto> {
    return this.memberships.leave(id, card, dto, ctx);
  }

  @Endpoint('GET', 'junkets/:id/members', {
    operationId: 'listJunketMembers',
    summary: "The junket's members, every version",
    description:
      'Each patron ever a member of the junket, with every version of their membership at the property (one naming another junket, or none, ends it).',
    writes: 'the audit entry `patron.read` (stream `patrons`).',
    roles: JUNKET_READERS,
    type: MembershipDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  members(@IdParam() id: string, @CurrentContext() ctx: RequestContext): Promise<MembershipDto[]> {
    return this.memberships.memberships(id, ctx);
  }

  @Endpoint('POST', 'junkets/:id/account', {
    operationId: 'addJunketAccountEntry',
    summary: "A marker, repayment or payout on the junket's account",
    description:
      'MARKER: credit the casino extends to the junket, refused over its credit limit (JUNKET_CREDIT_LIMIT). REPAYMENT: the junket pays on what it owes. PAYOUT: the casino pays the junket what it is owed. Neither may exceed what is owed (JUNKET_OVERPAID). A repayment over the property’s repayment threshold names the REPAYMENT request a second person approved (`requestId`), and is what was approved (NOT_AS_APPROVED otherwise), once (CONFLICT for a request paid already). Dated today; never edited. Agreed statements credit their commission and allowances themselves (SETTLEMENT).',
    writes: 'an account entry; the audit entry `junket.entry` (stream `junkets`).',
    roles: JUNKET_CASHIERS,
    status: 201,
    type: AccountEntryDto,
    errors: ['NOT_FOUND', 'JUNKET_CREDIT_LIMIT', 'JUNKET_OVERPAID', 'REPAYMENT_NEEDS_APPROVAL', 'NOT_AS_APPROVED', 'CONFLICT'],
  })
  addEntry(@IdParam() id: string, @Body() dto: AccountEntryInputDto, @CurrentContext() ctx: RequestContext): Promise<AccountEntryDto> {
    return this.account.addEntry(id, dto, ctx);
  }

  @Endpoint('GET', 'junkets/:id/account', {
    operationId: 'listJunketAccount',
    summary: "The junket's account over a range of gaming days",
    description: 'Each entry of the range in the order written, with the balance after it (positive: the junket owes the casino).',
    roles: JUNKET_READERS,
    type: AccountEntryDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  entries(@IdParam() id: string, @Query() q: PeriodQueryDto): Promise<AccountEntryDto[]> {
    return this.account.entries(id, q);
  }

  @Endpoint('POST', 'junkets/:id/player-credit', {
    operationId: 'reportJunketPlayerCredit',
    summary: 'Credit the junket gave its player, as the junket reports it',
    description:
      "Outside the casino's books, recorded beside them: an ADVANCE the junket gave its player or the player's REPAYMENT, for a gaming day up to today and after the junket's last agreed period (JUNKET_PERIOD_LOCKED). The statement shows each player's credit as reported.",
    writes: 'a player-credit report; the audit entry `junket.player-credit` (stream `junkets`).',
    roles: JUNKET_CASHIERS,
    status: 201,
    type: PlayerCreditDto,
    errors: ['NOT_FOUND', 'UNKNOWN_PATRON', 'JUNKET_PERIOD_LOCKED'],
  })
  addPlayerCredit(@IdParam() id: string, @Body() dto: PlayerCreditInputDto, @CurrentContext() ctx: RequestContext): Promise<PlayerCreditDto> {
    return this.playerCredit.addPlayerCredit(id, dto, ctx);
  }

  @Endpoint('GET', 'junkets/:id/statement', {
    operationId: 'junketStatement',
    summary: "The junket's settlement statement for a period",
    description:
      "Rolling (counted at the cage and at the tables), win/loss, commission and allowances by programme, each member's play, markers issued and repaid, and the net due either way (docs/domain.md §16), with the SHA-256 of its canonical JSON. An agreed period answers its figures as agreed and whether the records still give them (`reproduced`); a range overlapping an agreed period otherwise is refused (JUNKET_PERIOD_LOCKED).",
    writes: 'the audit entry `patron.read` (stream `patrons`): the statement names its members’ play.',
    roles: JUNKET_READERS,
    type: StatementDto,
    errors: ['NOT_FOUND', 'JUNKET_PERIOD_LOCKED'],
  })
  statement(@IdParam() id: string, @Query() q: PeriodQueryDto, @CurrentContext() ctx: RequestContext): Promise<StatementDto> {
    return this.statements.statement(id, q, ctx);
  }

  @Endpoint('POST', 'junkets/:id/statements', {
    operationId: 'agreeJunketStatement',
    summary: "Agrees a period's statement and locks the period",
    description:
      "Agreed for the casino by two persons besides the junket's signatory: one credit officer requests the agreement (POST /v1/properties/{id}/credit-requests, act STATEMENT, with the period, the digest and the signatory), another approves it, and it is recorded here with that `requestId`, each term as approved (STATEMENT_NEEDS_APPROVAL without an approved request, NOT_AS_APPROVED for other terms, CONFLICT for a request recorded already). The period must have ended (JUNKET_PERIOD_OPEN), and none agreed may overlap it or come after it (JUNKET_PERIOD_LOCKED). `digest` is the statement's as the junket saw it: if the records give other figures now, nothing is agreed (CONFLICT). Nor while the junket's players would hold fewer than no dead chips at the period's end, having lost more than the cage issued them (NEGATIVE_CHIPS_IN_HAND). The figures are kept as agreed; the commission and allowances are credited to the junket's account (a SETTLEMENT entry); from then on, a void that would change the period is refused.",
    writes: 'the agreed statement naming its request, and its SETTLEMENT entry; the audit entry `junket.statement` (stream `junkets`).',
    roles: JUNKET_MANAGERS,
    status: 201,
    type: StatementDto,
    errors: ['NOT_FOUND', 'CONFLICT', 'JUNKET_PERIOD_OPEN', 'JUNKET_PERIOD_LOCKED', 'STATEMENT_NEEDS_APPROVAL', 'NOT_AS_APPROVED', 'NEGATIVE_CHIPS_IN_HAND'],
  })
  agree(@IdParam() id: string, @Body() dto: AgreeInputDto, @CurrentContext() ctx: RequestContext): Promise<StatementDto> {
    return this.statements.agree(id, dto, ctx);
  }

  @Endpoint('GET', 'junkets/:id/statements', {
    operationId: 'listJunketStatements',
    summary: "The junket's agreed periods",
    description:
      'Every agreed statement, oldest first: its period, who agreed it for each side (the junket’s signatory; for the casino, the credit officer who asked and those who approved, and the key that recorded it), when, and the digest of its figures.',
    roles: JUNKET_READERS,
    type: AgreedPeriodDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  agreed(@IdParam() id: string): Promise<AgreedPeriodDto[]> {
    return this.statements.agreedStatements(id);
  }
}

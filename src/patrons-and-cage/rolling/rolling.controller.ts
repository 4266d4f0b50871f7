import { Body, Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CASHIERS, FIGURE_READERS, ROLLING_READERS, Role } from '../../platform/common/actor';
import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Endpoint } from '../../platform/common/endpoint';
import { CardParam, IdParam } from '../../platform/common/validation';
import { ChipExchangeDto, ChipExchangeInputDto, ProgrammeDto, ProgrammeInputDto, RollingDto, RollingQueryDto } from './dto/rolling.dto';

/** Who sets a programme's terms: finance and the administrators (the VIP room reads them). */
const PROGRAMME_SETTERS: Role[] = ['FINANCE', 'ADMIN'];
import { RollingService } from './rolling.service';

@ApiTags('Rolling chips')
@Controller('v1')
export class RollingController {
  constructor(private readonly rolling: RollingService) {}

  @Endpoint('POST', 'patrons/:card/chip-exchanges', {
    operationId: 'recordChipExchange',
    summary: 'Dead (non-negotiable) chips bought or returned, at the cage or a table',
    description:
      "Records dead chips issued to a registered patron (PURCHASE: against front money the patron holds at the cage (FRONT_MONEY_SHORT beyond it), against a marker: the patron's own, written with the chips within their credit line (NO_CREDIT_LINE, CREDIT_LIMIT_EXCEEDED), or, for a junket's member, drawn on the markers the junket took on its account and has not yet issued as chips (JUNKET_MARKERS_DRAWN), or cash chips converted to keep rolling) or exchanged back (RETURN: at the end of a trip, into cash chips or front money). Cash is deposited as front money at the cage first (POST /v1/properties/{id}/cash-transactions), where the cash reports see it. At a table, in the table's currency. Never edited.",
    writes: "a chip exchange (and a purchase's marker); the audit entry `chips.exchange` (stream `cage`).",
    roles: CASHIERS,
    status: 201,
    type: ChipExchangeDto,
    errors: ['NOT_FOUND', 'UNKNOWN_PATRON', 'DEAD_CHIPS_NOT_HELD', 'FRONT_MONEY_SHORT', 'NO_CREDIT_LINE', 'CREDIT_LIMIT_EXCEEDED', 'JUNKET_MARKERS_DRAWN'],
  })
  exchange(@CardParam() card: string, @Body() dto: ChipExchangeInputDto, @CurrentContext() ctx: RequestContext): Promise<ChipExchangeDto> {
    return this.rolling.exchange(card, dto, ctx);
  }

  @Endpoint('GET', 'patrons/:card/chip-exchanges', {
    operationId: 'listChipExchanges',
    summary: "A patron's dead-chip exchanges over a range of gaming days",
    description: 'Every purchase and return of dead chips by the patron in the range, oldest first.',
    writes: 'the audit entry `patron.read` (stream `patrons`), naming the range read.',
    roles: ROLLING_READERS,
    type: ChipExchangeDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  exchanges(@CardParam() card: string, @Query() q: RollingQueryDto, @CurrentContext() ctx: RequestContext): Promise<ChipExchangeDto[]> {
    return this.rolling.exchanges(card, q, ctx);
  }

  @Endpoint('GET', 'patrons/:card/rolling', {
    operationId: 'patronRolling',
    summary: "A patron's rolling-chip account over a range (a trip)",
    description:
      "Per currency: dead chips bought, returned, and lost on wagers (rolled); the rolling turnover counted both ways (purchased − returned at the cage, chips lost at the tables) and what is left in hand (they agree when it is 0: a settled trip); the house's win on the dead-chip wagers, rolling-chip win % (win ÷ rolled), theoretical win from each wager's exact edge with its standard deviation, and the theoretical rolling-chip win % (docs/domain.md §14). Voided coups are not in it.",
    writes: 'the audit entry `patron.read` (stream `patrons`), naming the range read.',
    roles: ROLLING_READERS,
    type: RollingDto,
    errors: ['NOT_FOUND'],
  })
  rollingOf(@CardParam() card: string, @Query() q: RollingQueryDto, @CurrentContext() ctx: RequestContext): Promise<RollingDto> {
    return this.rolling.rolling(card, q, ctx);
  }

  @Endpoint('POST', 'properties/:id/rolling-programmes', {
    operationId: 'addRollingProgramme',
    summary: 'A rolling-chip programme, or a new version of one',
    description:
      "Sets a programme's terms from a gaming day: a new version of a programme from one not yet begun, after its latest version (today's play keeps the terms it was played on); a new programme from today on, as nobody has played under it yet (VALIDATION_FAILED for a day begun, CONFLICT for one not after the latest version; the credit request for the terms is held to the same when asked). Its terms: commission to the patron or junket as a share of the rolling (ROLLING) or of the house's win or loss (WIN_LOSS), and a trip allowance as a share of the rolling. The terms are two persons': one credit officer requests them (POST /v1/properties/{id}/credit-requests, act PROGRAMME), another approves, and the version is recorded here with that `requestId`, each term as approved (PROGRAMME_NEEDS_APPROVAL without an approved request, NOT_AS_APPROVED for other terms, CONFLICT for a request recorded already), and within the caps of the property's credit policy in force now (COMMISSION_OVER_CAP: on the rolling, commission and allowance together; on the win/loss, commission). Nothing is ever edited, so what was due under a version stays due.",
    writes: 'a programme version naming its request; the audit entry `programme.version` (stream `cage`).',
    roles: PROGRAMME_SETTERS,
    status: 201,
    type: ProgrammeDto,
    errors: ['NOT_FOUND', 'CONFLICT', 'PROGRAMME_NEEDS_APPROVAL', 'NOT_AS_APPROVED', 'COMMISSION_OVER_CAP'],
  })
  addProgramme(@IdParam() id: string, @Body() dto: ProgrammeInputDto, @CurrentContext() ctx: RequestContext): Promise<ProgrammeDto> {
    return this.rolling.addProgramme(id, dto, ctx);
  }

  @Endpoint('GET', 'properties/:id/rolling-programmes', {
    operationId: 'listRollingProgrammes',
    summary: "A property's rolling-chip programmes, every version",
    description: 'Every version of every programme of the property, by code and the day it took effect.',
    roles: [...new Set([...FIGURE_READERS, ...ROLLING_READERS])],
    type: ProgrammeDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  programmes(@IdParam() id: string): Promise<ProgrammeDto[]> {
    return this.rolling.programmes(id);
  }
}

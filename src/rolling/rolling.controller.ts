import { Body, Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CASHIERS, ROLLING_READERS } from '../common/actor';
import { CurrentContext, RequestContext } from '../common/context';
import { Endpoint } from '../common/endpoint';
import { CardParam } from '../common/validation';
import { ChipExchangeDto, ChipExchangeInputDto, RollingDto, RollingQueryDto } from './dto/rolling.dto';
import { RollingService } from './rolling.service';

@ApiTags('Rolling chips')
@Controller('v1/patrons')
export class RollingController {
  constructor(private readonly rolling: RollingService) {}

  @Endpoint('POST', ':card/chip-exchanges', {
    operationId: 'recordChipExchange',
    summary: 'Dead (non-negotiable) chips bought or returned, at the cage or a table',
    description:
      "Records dead chips issued to a registered patron (PURCHASE: against front money, a marker, or cash chips converted to keep rolling) or exchanged back (RETURN: at the end of a trip, into cash chips or front money). Cash is deposited as front money at the cage first (POST /v1/properties/{id}/cash-transactions), where the cash reports see it. At a table, in the table's currency. Never edited.",
    writes: 'a chip exchange; the audit entry `chips.exchange` (stream `cage`).',
    roles: CASHIERS,
    status: 201,
    type: ChipExchangeDto,
    errors: ['NOT_FOUND', 'UNKNOWN_PATRON'],
  })
  exchange(@CardParam() card: string, @Body() dto: ChipExchangeInputDto, @CurrentContext() ctx: RequestContext): Promise<ChipExchangeDto> {
    return this.rolling.exchange(card, dto, ctx);
  }

  @Endpoint('GET', ':card/chip-exchanges', {
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

  @Endpoint('GET', ':card/rolling', {
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
}

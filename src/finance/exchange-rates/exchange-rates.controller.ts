import { Body, Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { FIGURE_READERS, Role } from '../../platform/common/actor';
import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Endpoint } from '../../platform/common/endpoint';
import { ExchangeRateDto, ExchangeRatesQueryDto, SetExchangeRateDto } from './dto/exchange-rate.dto';
import { ExchangeRatesService } from './exchange-rates.service';

/** Finance enters the day's rates; reports, auditors and supervisors read them. */
const RATE_KEEPERS: Role[] = ['FINANCE', 'ADMIN'];

@ApiTags('Exchange rates')
@Controller('v1/exchange-rates')
export class ExchangeRatesController {
  constructor(private readonly rates: ExchangeRatesService) {}

  @Endpoint('POST', '', {
    operationId: 'setExchangeRate',
    summary: "Enter a day's exchange rate",
    description:
      "Enters the rate a report in another currency translates a table currency with (`GET /v1/reports/win-loss?currency=`). A day without a rate of its own takes the latest earlier day's (weekends, holidays). Kept as an integer of billionths, never changed: a mistake is corrected by entering the day's rate again; the later entry is the day's rate and the earlier one stays listed.",
    writes: 'an exchange-rate row; the audit entry `exchangeRate.set` (admin stream).',
    roles: RATE_KEEPERS,
    status: 201,
    type: ExchangeRateDto,
  })
  set(@Body() dto: SetExchangeRateDto, @CurrentContext() ctx: RequestContext): Promise<ExchangeRateDto> {
    return this.rates.set(dto, ctx);
  }

  @Endpoint('GET', '', {
    operationId: 'listExchangeRates',
    summary: 'List exchange rates',
    description: 'Every rate entered for the days asked for, corrections included (`inForce: false` on an entry a later one corrected).',
    roles: FIGURE_READERS,
    type: ExchangeRateDto,
    isArray: true,
  })
  list(@Query() q: ExchangeRatesQueryDto): Promise<ExchangeRateDto[]> {
    return this.rates.list(q);
  }
}

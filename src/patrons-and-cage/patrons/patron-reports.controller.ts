import { Controller, Headers, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { PATRON_READERS } from '../../platform/common/actor';
import { CurrentContext, RequestContext } from '../../platform/common/context';
import { asCsv, wantsCsv } from '../../platform/common/csv';
import { Endpoint } from '../../platform/common/endpoint';
import { parseExact, stringifyExact } from '../../platform/common/exact-json';
import { TopPatronDto, TopPatronsQueryDto } from './dto/patron.dto';
import { PatronsService } from './patrons.service';

@ApiTags('Patrons')
@Controller('v1/reports')
export class PatronReportsController {
  constructor(private readonly patrons: PatronsService) {}

  @Endpoint('GET', 'top-patrons', {
    operationId: 'topPatrons',
    csv: true,
    summary: 'The patrons of the most theoretical win over a range',
    description:
      'Rated play of the patrons of the most theoretical win over a range of gaming days (at one property or all), most first: coups, handle by bet type, average bet, time played, actual win against theoretical win with its ±2σ band, comps (docs/domain.md §10). `Accept: text/csv` for CSV.',
    writes: 'the audit entry `patron.read` (stream `patrons`), naming the patrons read.',
    roles: PATRON_READERS,
    type: TopPatronDto,
    isArray: true,
  })
  async top(
    @Query() q: TopPatronsQueryDto,
    @Headers('accept') accept: string | undefined,
    @CurrentContext() ctx: RequestContext,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const json = stringifyExact(await this.patrons.top(q, ctx)); // sums past 2^53 keep their digits
    if (wantsCsv(accept)) return asCsv(res, parseExact<Record<string, unknown>[]>(json));
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    return json;
  }
}

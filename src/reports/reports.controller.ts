import { Controller, Get, Headers, Logger, Query, Res } from '@nestjs/common';
import { ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Role } from '../access/actor';
import { Endpoint } from '../common/endpoint';
import { toCsv } from './csv';
import { parseExact, stringifyExact } from './exact-json';
import { QuarterlyDto, QuarterlyQueryDto, RangeQueryDto, ReconciliationDto, TableAccountingLineDto, WinLossDto, WinLossQueryDto } from './dto/report.dto';
import { ReportsService } from './reports.service';

const READERS: Role[] = ['FINANCE', 'AUDITOR', 'ADMIN', 'SUPERVISOR'];

/** `Accept: text/csv` turns any report into CSV with the same numbers. */
function wantsCsv(accept: string | undefined): boolean {
  return /\btext\/csv\b/i.test(accept ?? '');
}

function asCsv(res: Response, rows: Record<string, unknown>[]): string {
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  return toCsv(rows);
}

/** Large reports are built as JSON text by the database and sent as they are. */
function asJson(res: Response, json: string): string {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  return json;
}

/**
 * Sends JSON text chunk by chunk, waiting when the client reads slower. A failure after the first
 * byte can no longer become an error answer: the connection is cut, so the client never takes a
 * truncated report for a whole one.
 */
/** Resolves when the response can take more, or is gone; leaves no listener behind. */
function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function streamJson(res: Response, chunks: AsyncGenerator<string | Buffer>): Promise<void> {
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  try {
    for await (const chunk of chunks) {
      if (res.destroyed) {
        await chunks.return(undefined);
        return;
      }
      if (!res.write(chunk)) await drainedOrClosed(res);
    }
    res.end();
  } catch (e) {
    if (!res.headersSent) throw e;
    new Logger('ReportsController').error(`win/loss report cut off after it started: ${(e as Error).message}`);
    res.destroy(e as Error);
  }
}

@ApiTags('Reports')
@ApiProduces('application/json', 'text/csv')
@Controller('v1/reports')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get('win-loss')
  @Endpoint({ operationId: 'winLossReport', summary: 'Wager-level win/loss figures for a range of gaming days, grouped as asked', roles: READERS, type: WinLossDto })
  async winLoss(@Query() q: WinLossQueryDto, @Headers('accept') accept: string | undefined, @Res() res: Response): Promise<void> {
    if (wantsCsv(accept)) {
      res.send(asCsv(res, parseExact<WinLossDto>(await this.reports.winLossJson(q)).rows as unknown as Record<string, unknown>[]));
      return;
    }
    // Checked (a bad query is a 4xx) before the first byte; then the rows go out as they come.
    await streamJson(res, await this.reports.winLossChunks(q));
  }

  @Get('quarterly')
  @Endpoint({ operationId: 'quarterlyStatement', summary: "A property's quarterly statement: totals, months, variants, tables, table accounting, exceptions", roles: READERS, type: QuarterlyDto, errors: ['NOT_FOUND'] })
  async quarterly(@Query() q: QuarterlyQueryDto, @Headers('accept') accept: string | undefined, @Res({ passthrough: true }) res: Response): Promise<string> {
    const r = await this.reports.quarterly(q);
    if (!wantsCsv(accept)) return asJson(res, stringifyExact(r)); // sums past 2^53 keep their digits
    const section = (name: string, rows: object[]) => rows.map((row) => ({ section: name, ...row }));
    return asCsv(res, [
      ...section('total', r.totals),
      ...section('month', r.months),
      ...section('variant', r.variants),
      ...section('table', r.tables),
      ...section('table-accounting', r.tableAccounting),
      ...section('voided-coup', r.exceptions.voidedCoups),
      ...section('voided-slip', r.exceptions.voidedSlips),
      ...section('voided-bank-coup', r.exceptions.voidedBankCoups),
    ]);
  }

  @Get('table-accounting')
  @Endpoint({ operationId: 'tableAccountingReport', summary: 'Statistical win against wager-level win, per table and gaming day', roles: READERS, type: TableAccountingLineDto, isArray: true })
  async tableAccounting(@Query() q: RangeQueryDto, @Headers('accept') accept: string | undefined, @Res({ passthrough: true }) res: Response): Promise<string> {
    const json = await this.reports.tableAccountingReportJson(q);
    return wantsCsv(accept) ? asCsv(res, parseExact<Record<string, unknown>[]>(json)) : asJson(res, json);
  }

  @Get('reconciliation')
  @Endpoint({ operationId: 'reconcileRollups', summary: 'Recompute a range from the raw records and list any difference from the rollups', roles: READERS, type: ReconciliationDto })
  reconcile(@Query() q: RangeQueryDto): Promise<ReconciliationDto> {
    return this.reports.reconcile(q);
  }
}

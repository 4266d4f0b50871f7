import { Controller, Headers, Logger, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { FIGURE_READERS } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { asCsv, wantsCsv } from '../../platform/common/csv';
import { parseExact, stringifyExact } from '../../platform/common/exact-json';
import {
  QuarterlyDto,
  QuarterlyQueryDto,
  RangeQueryDto,
  ReconciliationDto,
  LimitLevelLineDto,
  TableAccountingLineDto,
  WinLossDto,
  WinLossQueryDto,
} from './dto/report.dto';
import { PaceQueryDto, PaceReportDto } from './dto/pace.dto';
import { YieldAdviceDto, YieldEvaluationDto, YieldEvaluationQueryDto, YieldQueryDto } from './dto/yield.dto';
import { ReportsService } from './reports.service';
import { ReadFromHeader, ReadWants, tellReadFrom } from '../../platform/common/read-from';
import { ReadDatabase } from '../../platform/database/read-database';
import type { PrismaService } from '../../platform/database/prisma.service';

/** A day of one table, as the report answers it (one 8-deck shoe played by three seats). */
const FIGURES = {
  wagers: 234,
  handle: 933000,
  payouts: 711000,
  win: -112150,
  holdPercent: '-12.0204',
  commissionCharged: 4850,
  commissionCollected: 1450,
  commissionOutstanding: 3400,
  revenue: -115550,
  theoreticalWin: 62808,
  winMinusTheoretical: -174958,
  theoreticalWinStdDev: 143581,
  coups: 78,
  bankedCoups: 0,
  houseCommission: 0,
  totalRevenue: -115550,
  outcomes: { bankerWins: 27, playerWins: 41, ties: 10, naturals: 26 },
  expectedOutcomes: { bankerWins: '35.77', playerWins: '34.81', ties: '7.42', naturals: '26.76' },
  // One seat in dead (rolling) chips: premium; the rest, mass; the two add up to the figures above.
  premium: { wagers: 60, handle: 300000, win: -20000, holdPercent: '-6.6667', commissionCharged: 1500, theoreticalWin: 19958 },
  mass: { wagers: 174, handle: 633000, win: -92150, holdPercent: '-14.5577', commissionCharged: 3350, theoreticalWin: 42850 },
};
const WIN_LOSS_EXAMPLE = {
  from: '2026-11-22',
  to: '2026-11-22',
  groupBy: ['table'],
  rows: [{ group: { tableId: '5f2cf7ab-97c8-4c8d-99e9-4878078c361a', tableCode: 'BAC-07', currency: 'EUR' }, ...FIGURES }],
  totals: { currency: 'EUR', ...FIGURES },
  totalsByCurrency: [{ currency: 'EUR', ...FIGURES }],
  voided: { coups: 1, wagers: 3, handle: 15000 },
};

/** `Accept: text/csv` turns any report into CSV with the same numbers. */
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
@Controller('v1/reports')
export class ReportsController {
  constructor(
    private readonly reports: ReportsService,
    private readonly reads: ReadDatabase,
  ) {}

  /** The database this report reads (the replica when it may), said on the answer. */
  private async readFrom(wants: ReadWants, res: Response): Promise<PrismaService> {
    const read = await this.reads.pick(wants);
    tellReadFrom(res, read.from, read.lagMs);
    return read.db;
  }

  @Endpoint('GET', 'win-loss', {
    operationId: 'winLossReport',
    csv: true,
    responseExample: WIN_LOSS_EXAMPLE,
    summary: 'Wager-level win/loss figures for a range of gaming days, grouped as asked',
    description:
      'Wager-level figures for a range of gaming days, grouped as asked (property, pit, table, variant, bet type, currency, gaming day, month, quarter): handle, win, hold %, commission charged, collected and outstanding, revenue, theoretical win at the exact house edge of each bet, and the outcomes beside their expected counts. Read from rollups written with each coup; `/v1/reports/reconciliation` proves them against the raw records. With `currency`, every amount is translated into one currency at daily exchange rates: on a group database, the consolidated statement of every property.',
    roles: FIGURE_READERS,
    readsReplica: true,
    type: WinLossDto,
    errors: ['EXCHANGE_RATE_MISSING'],
  })
  async winLoss(
    @Query() q: WinLossQueryDto,
    @Headers('accept') accept: string | undefined,
    @ReadFromHeader() wants: ReadWants,
    @Res() res: Response,
  ): Promise<void> {
    const db = await this.readFrom(wants, res);
    if (wantsCsv(accept)) {
      res.send(asCsv(res, parseExact<WinLossDto>(await this.reports.winLossJson(db, q)).rows as unknown as Record<string, unknown>[]));
      return;
    }
    // Checked (a bad query is a 4xx) before the first byte; then the rows go out as they come.
    await streamJson(res, await this.reports.winLossChunks(db, q));
  }

  @Endpoint('GET', 'quarterly', {
    operationId: 'quarterlyStatement',
    csv: true,
    summary: "A property's quarterly statement: totals, months, variants, tables, table accounting, exceptions",
    description:
      "A property's quarterly statement: totals, months, variants, tables, table accounting (statistical against wager-level win) and the exception report (voided coups, slips, bank coups and buy-ins; integrity alerts of the period, open or not).",
    roles: FIGURE_READERS,
    readsReplica: true,
    type: QuarterlyDto,
    errors: ['NOT_FOUND'],
  })
  async quarterly(
    @Query() q: QuarterlyQueryDto,
    @Headers('accept') accept: string | undefined,
    @ReadFromHeader() wants: ReadWants,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const r = await this.reports.quarterly(await this.readFrom(wants, res), q);
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
      ...section('voided-buy-in', r.exceptions.voidedBuyIns),
      ...section('integrity-alert', r.exceptions.integrityAlerts),
      ...section('coup-recorded-offline', r.exceptions.coupsRecordedOffline),
    ]);
  }

  @Endpoint('GET', 'table-accounting', {
    operationId: 'tableAccountingReport',
    csv: true,
    summary: 'Statistical win against wager-level win, per table and gaming day',
    description:
      'Statistical win (closer − opener + credits − fills + drop) against wager-level win, per table and gaming day, with the difference finance must explain.',
    roles: FIGURE_READERS,
    readsReplica: true,
    type: TableAccountingLineDto,
    isArray: true,
  })
  async tableAccounting(
    @Query() q: RangeQueryDto,
    @Headers('accept') accept: string | undefined,
    @ReadFromHeader() wants: ReadWants,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const json = await this.reports.tableAccountingReportJson(await this.readFrom(wants, res), q);
    return wantsCsv(accept) ? asCsv(res, parseExact<Record<string, unknown>[]>(json)) : asJson(res, json);
  }

  @Endpoint('GET', 'limit-levels', {
    operationId: 'limitLevelsReport',
    csv: true,
    summary: 'Play by limit level: handle, win, hold and occupancy at each table minimum',
    description:
      'For each table minimum in force when the coups were dealt (per currency): the tables and table-days at it, coups, player decisions, occupancy (players a coup), handle, win, hold %, commission charged, theoretical win and the average bet. Each coup counts under the limits its wagers were placed under (a change of limits takes effect from the next coup: `POST /v1/tables/{id}/limits`); voided coups are taken out.',
    roles: FIGURE_READERS,
    readsReplica: true,
    type: LimitLevelLineDto,
    isArray: true,
  })
  async limitLevels(
    @Query() q: RangeQueryDto,
    @Headers('accept') accept: string | undefined,
    @ReadFromHeader() wants: ReadWants,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    const json = await this.reports.limitLevelsJson(await this.readFrom(wants, res), q);
    return wantsCsv(accept) ? asCsv(res, parseExact<Record<string, unknown>[]>(json)) : asJson(res, json);
  }

  @Endpoint('GET', 'reconciliation', {
    operationId: 'reconcileRollups',
    summary: 'Recompute a range from the raw records and list any difference from the rollups',
    description:
      'Recomputes a range of gaming days from the raw coups, wagers, commission ledger and bank coups, and lists every difference from the rollups the reports read. An empty list is the proof. A range holding a month whose coups and wagers are detached to the archive is refused until the month is attached again.',
    roles: FIGURE_READERS,
    readsReplica: true,
    type: ReconciliationDto,
    errors: ['LEDGER_MONTH_DETACHED'],
  })
  async reconcile(@Query() q: RangeQueryDto, @ReadFromHeader() wants: ReadWants, @Res({ passthrough: true }) res: Response): Promise<ReconciliationDto> {
    return this.reports.reconcile(await this.readFrom(wants, res), q);
  }

  @Endpoint('GET', 'pace', {
    operationId: 'paceReport',
    summary: 'Game pace: decisions per hour by dealer, table and hour of the day; voids, misdeals and idle time; against the pace expected',
    description:
      "For a range of gaming days: decisions (coups settled and standing) per hour of staffed time (a dealer on shift at the table while it stood open) by dealer, by table and by hour of the day in the property's time zone; voids and misdeals per 1,000 coups; the time a staffed table stood without a coup beyond the idle allowance; and each variant against the pace its property expects (`/v1/properties/{id}/pace-targets`) and against the property's own median. Every definition, and a worked example, in docs/domain.md §13.",
    roles: FIGURE_READERS,
    readsReplica: true,
    type: PaceReportDto,
    errors: ['NOT_FOUND'],
  })
  async pace(@Query() q: PaceQueryDto, @ReadFromHeader() wants: ReadWants, @Res({ passthrough: true }) res: Response): Promise<PaceReportDto> {
    return this.reports.pace(await this.readFrom(wants, res), q);
  }

  @Endpoint('GET', 'yield-advice', {
    operationId: 'yieldAdviceReport',
    summary: 'The yield advisor: for each hour of the week, how many tables to open at which minimums, its expected theoretical win against what was done',
    description:
      "From the property's own history over the range (table sessions, coups and the limit rollups by local hour of the week and table minimum): players seated per open table, the average bet and theoretical win per seat-hour at each minimum, and how many players a higher minimum keeps (measured where a table's minimum changed, else across tables in the same hour). For each hour of the week: the tables to open at each minimum for the most expected theoretical win per hour, that expectation against the theoretical win of what was done, and both with a band of ±2 standard errors over the weeks. The method and its assumptions: docs/domain.md §15.",
    roles: FIGURE_READERS,
    readsReplica: true,
    type: YieldAdviceDto,
    errors: ['NOT_FOUND'],
  })
  async yieldAdvice(@Query() q: YieldQueryDto, @ReadFromHeader() wants: ReadWants, @Res({ passthrough: true }) res: Response): Promise<YieldAdviceDto> {
    return this.reports.yieldAdvice(await this.readFrom(wants, res), q);
  }

  @Endpoint('GET', 'yield-evaluation', {
    operationId: 'yieldEvaluationReport',
    summary: "The yield advisor's held-back test: the advice made from the range less its last weeks, against what was done in them",
    description:
      "The advice of `/v1/reports/yield-advice` made from the range less its last `holdBackWeeks` weeks, then applied to each hour of those weeks at the demand seen in them: its expected theoretical win against the theoretical win actually made, week by week and in all, with the gain's band (±2 standard errors of the weekly sums). Above 0, the advice would have won more. docs/domain.md §15.",
    roles: FIGURE_READERS,
    readsReplica: true,
    type: YieldEvaluationDto,
    errors: ['NOT_FOUND'],
  })
  async yieldEvaluation(
    @Query() q: YieldEvaluationQueryDto,
    @ReadFromHeader() wants: ReadWants,
    @Res({ passthrough: true }) res: Response,
  ): Promise<YieldEvaluationDto> {
    return this.reports.yieldEvaluation(await this.readFrom(wants, res), q);
  }
}

import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import path from 'node:path';
import { Rest } from '../common/rest';
import { loadQueries } from './named-sql';
import { PrismaService } from './prisma.service';
import { pgRunner, SqlRunner } from './sql';

/**
 * The ledgers' gaming months. coups and wagers are partitioned by gaming day, a month a partition
 * (prisma/migrations/20261130090000_ledger_partitions): months are created ahead by the service, and
 * an operator detaches a month that has aged out (to archive it) and attaches it again for an audit
 * (`npm run ledger`, docs/decisions.md "Years of records").
 */

const SQL = loadQueries<{
  ensureMonths: { since: string; through: string };
  months: Record<string, never>;
  detach: { month: string };
  attach: { month: string };
}>(path.join(__dirname, 'ledger-months.sql'));

/** Months kept ready: the quarter back (a quarter's statement reads its months) to three months ahead. */
export const MONTHS_BACK_DAYS = 92;
export const MONTHS_AHEAD_DAYS = 92;
/** How often the service looks again (months are created ~3 months before they are needed). */
const UPKEEP_EVERY_MS = 6 * 3_600_000;

export interface MonthOutcome {
  month: string;
  outcome: 'created' | 'exists' | 'rows in the open partition';
}

export interface LedgerMonth {
  month: string;
  state: 'ATTACHED' | 'DETACHED';
  bytes: string;
  detachedCoups: string | null;
  detachedWagers: string | null;
  detachedHandle: string | null;
  detachedAt: Date | null;
}

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** Creates the months around `today` that are missing. */
export function ensureLedgerMonths(db: SqlRunner, today: Date): Promise<MonthOutcome[]> {
  const since = isoDay(new Date(today.getTime() - MONTHS_BACK_DAYS * 86_400_000));
  const through = isoDay(new Date(today.getTime() + MONTHS_AHEAD_DAYS * 86_400_000));
  return db.query<MonthOutcome>(SQL.ensureMonths.bind({ since, through }));
}

export function ledgerMonths(db: SqlRunner): Promise<LedgerMonth[]> {
  return db.query<LedgerMonth>(SQL.months.bind({}));
}

/** A month as YYYY-MM, to the first day PostgreSQL's functions take; anything else is refused. */
export function monthStart(month: string): string {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month);
  if (!m) throw new Error(`A month is written YYYY-MM, e.g. 2026-01: not ${JSON.stringify(month)}`);
  return `${m[1]}-${m[2]}-01`;
}

/** Detaches a month from the ledgers (as the owner): its figures are recorded, its rows kept aside. */
export async function detachLedgerMonth(db: SqlRunner, month: string): Promise<void> {
  await db.run(SQL.detach.bind({ month: monthStart(month) }));
}

/** Attaches a detached month again (as the owner): PostgreSQL checks every row belongs to it. */
export async function attachLedgerMonth(db: SqlRunner, month: string): Promise<void> {
  await db.run(SQL.attach.bind({ month: monthStart(month) }));
}

/**
 * Keeps the months ahead created, at start and every six hours. A month it cannot create now (the
 * ledger busy past the lock timeout) is tried again at the next round; a month with rows already
 * waiting in the open partition is reported, never forced. The pit never depends on it: a row
 * whose month has no partition yet goes to the open partition and is read from there.
 */
@Injectable()
export class LedgerMonthsKeeper implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(LedgerMonthsKeeper.name);
  private readonly rest = new Rest();
  private loop: Promise<void> | null = null;
  private running = false;

  constructor(private readonly prisma: PrismaService) {}

  async onApplicationBootstrap(): Promise<void> {
    this.running = true;
    await this.keep();
    this.loop = this.run();
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    this.rest.stop();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      await this.rest.for(UPKEEP_EVERY_MS);
      if (this.running) await this.keep();
    }
  }

  private async keep(): Promise<void> {
    try {
      const outcomes = await ensureLedgerMonths(pgRunner(this.prisma.pool), new Date());
      const created = outcomes.filter((o) => o.outcome === 'created').map((o) => o.month);
      const waiting = outcomes.filter((o) => o.outcome === 'rows in the open partition').map((o) => o.month);
      if (created.length) this.logger.log(`Ledger months created: ${created.join(', ')}`);
      if (waiting.length) this.logger.warn(`Ledger months not created, rows of them wait in the open partition: ${waiting.join(', ')}`);
    } catch (e) {
      this.logger.warn(`Ledger months not checked, trying again later: ${(e as Error).message}`);
    }
  }
}

import { AppError, notFound } from '../../platform/common/errors';
import { assertDayRange } from '../../platform/common/validation';
import { minorUnits, minorUnitsOrNull } from '../../platform/common/exact-json';
import { PrismaService } from '../../platform/database/prisma.service';
import { prismaRunner, SqlRunner } from '../../platform/database/sql';
import { adviseYield, Estimate, estimateToMinor, evaluateYield, SEATS_BY_VARIANT, Variant, WEEKDAYS, YieldAdvice, YieldCell, YieldSlot } from '../../domain';
import { YieldAdviceDto, YieldEstimateDto, YieldEvaluationDto, YieldEvaluationQueryDto, YieldQueryDto } from './dto/yield.dto';
import { YIELD_SQL } from './yield-sql';

/**
 * The yield advisor (GET /v1/reports/yield-advice and /yield-evaluation; docs/domain.md §15): the
 * property's history by table, local hour and minimum from its table sessions, coups and limit
 * rollups (yield.sql), and the advice and its held-back test from the domain (src/domain/finance/yield.ts).
 */

/** A yield history covers at most a year: 53 weeks of every hour. */
const MAX_DAYS = 366;
const DAY_MS = 86_400_000;
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const isoOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

interface History {
  cells: YieldCell[];
  slots: YieldSlot[];
}

interface PropertyRow {
  id: string;
  tables: number;
  variants: Variant[];
  currencies: string[];
}

function checkRange(from: string, to: string): void {
  assertDayRange(from, to);
  if ((dayOf(to) - dayOf(from)) / DAY_MS + 1 > MAX_DAYS) throw new AppError('VALIDATION_FAILED', `A yield history covers at most ${MAX_DAYS} days`);
}

async function propertyOf(runner: SqlRunner, propertyId: string): Promise<PropertyRow> {
  const [p] = await runner.query<PropertyRow>(YIELD_SQL.yieldProperty.bind({ propertyId }));
  if (!p) throw notFound('Property', propertyId);
  if (p.currencies.length > 1)
    throw new AppError(
      'VALIDATION_FAILED',
      `The property's tables deal in ${p.currencies.join(' and ')}: the yield advisor compares minimums of one currency, and this property has several`,
    );
  return p;
}

async function historyOf(runner: SqlRunner, propertyId: string, from: string, to: string, asOf: string): Promise<History> {
  const w = { propertyId, from, to, asOf };
  const slots = await runner.query<{ hour_of_week: number; week: number }>(YIELD_SQL.yieldSlots.bind(w));
  const rows = await runner.query<{
    table_id: string;
    min_bet: string;
    hour_of_week: number;
    week: number;
    open_s: number;
    coups: number;
    players: number;
    handle: string;
    theo_e12: string;
  }>(YIELD_SQL.yieldCells.bind(w));
  return {
    slots: slots.map((s) => ({ hourOfWeek: s.hour_of_week, week: s.week })),
    cells: rows.map((r) => {
      const openHours = r.open_s / 3600;
      return {
        tableId: r.table_id,
        hourOfWeek: r.hour_of_week,
        week: r.week,
        minBet: BigInt(r.min_bet),
        openHours,
        // Players a coup averaged over the hour's coups, seated for the hours the table stood open.
        seatHours: r.coups > 0 ? (r.players / r.coups) * openHours : 0,
        playerDecisions: r.players,
        handle: BigInt(r.handle),
        theoE12: BigInt(r.theo_e12),
      };
    }),
  };
}

const seatsOf = (p: PropertyRow) => (p.variants.length ? Math.min(...p.variants.map((v) => SEATS_BY_VARIANT[v])) : SEATS_BY_VARIANT.COMMISSION);

const estimateDto = (e: Estimate): YieldEstimateDto => ({
  theo: minorUnits(e.mean) as number,
  low: minorUnitsOrNull(e.low) as number | null,
  high: minorUnitsOrNull(e.high) as number | null,
});
const fixed = (x: number, places: number) => x.toFixed(places);

function adviceDto(p: PropertyRow, from: string, to: string, a: YieldAdvice): YieldAdviceDto {
  const money = (v: bigint) => minorUnits(v) as number;
  return {
    propertyId: p.id,
    from,
    to,
    currency: p.currencies.length === 1 ? p.currencies[0] : null,
    tables: a.tables,
    seatsPerTable: a.seats,
    weeks: a.weeks,
    levels: a.levels.map((l) => ({
      minBet: money(l.minBet),
      tableHours: fixed(l.tableHours, 2),
      seatHours: fixed(l.seatHours, 2),
      occupancy: l.occupancy === null ? null : fixed(l.occupancy, 2),
      playerDecisions: l.playerDecisions,
      averageBet: l.averageBet === null ? null : money(l.averageBet),
      theoPerSeatHour: l.theoPerSeatHour === null ? null : money(estimateToMinor(l.theoPerSeatHour)),
      retention: l.retention === null ? null : fixed(l.retention, 4),
      retentionFrom: l.retentionFrom,
    })),
    hours: a.hours.map((h) => ({
      hourOfWeek: h.hourOfWeek,
      day: WEEKDAYS[Math.floor(h.hourOfWeek / 24)],
      hour: h.hourOfWeek % 24,
      weeks: h.weeks,
      demand: fixed(h.demand, 2),
      advice: h.advice.map((x) => ({ minBet: money(x.minBet), tables: x.tables })),
      expected: estimateDto(h.expected),
      done: h.done.map((x) => ({ minBet: money(x.minBet), tables: fixed(x.tables, 2) })),
      actual: estimateDto(h.actual),
      modelOfDone: money(h.modelOfDone),
      gain: estimateDto(h.gain),
    })),
    totals: {
      expected: estimateDto(a.totals.expected),
      actual: estimateDto(a.totals.actual),
      modelOfDone: money(a.totals.modelOfDone),
      gain: estimateDto(a.totals.gain),
    },
  };
}

export async function yieldAdvice(db: PrismaService, q: YieldQueryDto): Promise<YieldAdviceDto> {
  checkRange(q.from, q.to);
  const runner = prismaRunner(db);
  const p = await propertyOf(runner, q.propertyId);
  const h = await historyOf(runner, q.propertyId, q.from, q.to, new Date().toISOString());
  return adviceDto(p, q.from, q.to, adviseYield({ ...h, tables: p.tables, seats: seatsOf(p) }));
}

export async function yieldEvaluation(db: PrismaService, q: YieldEvaluationQueryDto): Promise<YieldEvaluationDto> {
  checkRange(q.from, q.to);
  const weeks = q.holdBackWeeks ?? 4;
  const heldFrom = isoOf(dayOf(q.to) - (7 * weeks - 1) * DAY_MS);
  const trainTo = isoOf(dayOf(heldFrom) - DAY_MS);
  if ((dayOf(trainTo) - dayOf(q.from)) / DAY_MS + 1 < 7) {
    throw new AppError('VALIDATION_FAILED', `The range must hold at least a week before its ${weeks} held-back week(s): the advice is made from it`);
  }
  const runner = prismaRunner(db);
  const p = await propertyOf(runner, q.propertyId);
  const asOf = new Date().toISOString();
  const train = await historyOf(runner, q.propertyId, q.from, trainTo, asOf);
  const held = await historyOf(runner, q.propertyId, heldFrom, q.to, asOf);
  const { advice, evaluation: e } = evaluateYield({ ...train, tables: p.tables, seats: seatsOf(p) }, held);
  const money = (v: bigint) => minorUnits(v) as number;
  return {
    propertyId: p.id,
    trainFrom: q.from,
    trainTo,
    heldFrom,
    heldTo: q.to,
    heldWeeks: e.heldWeeks,
    advised: estimateDto(e.advised),
    actual: money(e.actual),
    modelOfDone: money(e.modelOfDone),
    gain: estimateDto(e.gain),
    weeks: e.weeks.map((w) => ({ week: w.week, advised: money(w.advised), actual: money(w.actual), modelOfDone: money(w.modelOfDone) })),
    advice: adviceDto(p, q.from, trainTo, advice),
  };
}

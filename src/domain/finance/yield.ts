import { theoreticalWin } from './accounting';
import { Money, roundMoney } from '../money/money';
import { Variant } from '../game/rules';

/**
 * The yield advisor (docs/domain.md §15): from a property's own history of open tables, seated
 * players and theoretical win by local hour of the week and table minimum, how many tables to open
 * at which minimums each hour of the week, the theoretical win per hour expected of that advice
 * against what was done, and the band of both. Pure: the report hands it the history's cells.
 *
 * Estimates are statistics (players, rates, ratios) and are kept in double precision; an estimate of
 * money is rounded once to the minor unit by {@link estimateToMinor}, half away from zero, through
 * THE rounding of money. The theoretical win actually made is exact (Σ stake × edge × 10^12).
 */

/** Hours of a week: hour-of-week 0 is Monday 00:00–01:00 local time, 167 is Sunday 23:00–24:00. */
export const HOURS_OF_WEEK = 168;
export const WEEKDAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;

/**
 * Seats a table of each variant offers, for the advice's capacity: midi-baccarat layouts of 9 for
 * the casino-banked games, 9 places at a chemin de fer table, 12 at banque (its two tableaux).
 * A property's tables are taken as interchangeable at the smallest of these among them (§15).
 */
export const SEATS_BY_VARIANT: Record<Variant, number> = { COMMISSION: 9, SUPER_6: 9, EZ: 9, CHEMIN_DE_FER: 9, BANQUE: 12 };

/** The band is this many standard errors either side of an estimate (about 95 %). */
export const BAND_SIGMAS = 2;

/** One table in one local hour of the range at one minimum: what the report reads (yield.sql). */
export interface YieldCell {
  tableId: string;
  /** 0 = Monday 00:00 local, … 167 = Sunday 23:00. */
  hourOfWeek: number;
  /** The week of the range (0: the first seven days from the range's first gaming day's start). */
  week: number;
  minBet: Money;
  /** Hours the table stood open (a table session) at this minimum within the hour: 0 to 1. */
  openHours: number;
  /** Players seated: the players a coup averaged over the hour's coups × openHours. */
  seatHours: number;
  /** Player decisions (a seat with a wager on a coup) in the hour. */
  playerDecisions: number;
  handle: Money;
  /** Σ stake × edge × 10^12 of the hour's wagers. */
  theoE12: bigint;
}

/** A level: a table minimum the history shows, with what the data says of it. */
export interface YieldLevel {
  minBet: Money;
  tableHours: number;
  seatHours: number;
  /** Players seated per open table: seatHours ÷ tableHours (null: never open). */
  occupancy: number | null;
  playerDecisions: number;
  /** handle ÷ player decisions, half up to the minor unit (null: no play). */
  averageBet: Money | null;
  /** Theoretical win per seat-hour in minor units (null: nobody seated at it). */
  theoPerSeatHour: number | null;
  /**
   * The share of the players at the lowest minimum who still play at this one (1 at the lowest; never
   * more than at a lower minimum). null: the data never shows this minimum beside the lowest.
   */
  retention: number | null;
  /** Where the retention comes from: the same tables in the same hours of the week before and after
   * a change of minimum, else the same hours of the week across tables. */
  retentionFrom: 'LOWEST' | 'SAME_TABLE_HOUR' | 'SAME_HOUR' | null;
}

export interface Estimate {
  /** The mean over the weeks, in minor units. */
  mean: Money;
  /** mean ± BAND_SIGMAS standard errors over the weeks (null: fewer than two weeks). */
  low: Money | null;
  high: Money | null;
}

export interface YieldHour {
  hourOfWeek: number;
  weeks: number;
  /** Players seated on average in this hour of the week (seat-hours per hour), 2 decimals. */
  demand: number;
  advice: { minBet: Money; tables: number }[];
  /** Expected theoretical win per hour of the advice, over the weeks' demand. */
  expected: Estimate;
  /** Tables open at each minimum on average (table-hours per hour). */
  done: { minBet: Money; tables: number }[];
  /** Theoretical win per hour of what was done (exact mean; band from week-to-week variation). */
  actual: Estimate;
  /** The model's expected theoretical win of what was done, for the model's own bias. */
  modelOfDone: Money;
  /** expected − actual, paired week by week. */
  gain: Estimate;
}

export interface YieldAdvice {
  seats: number;
  tables: number;
  weeks: number;
  levels: YieldLevel[];
  hours: YieldHour[];
  /** Per week: Σ over the hours of the week (bands: the hours' standard errors combined). */
  totals: { expected: Estimate; actual: Estimate; modelOfDone: Money; gain: Estimate };
}

/** An estimate of money (a float of minor units) rounded once, half away from zero, by THE rounding. */
export function estimateToMinor(x: number): Money {
  if (!Number.isFinite(x)) throw new RangeError('an estimate must be finite');
  const micro = BigInt(Math.round(Math.abs(x) * 1_000_000));
  const r = roundMoney(micro, 1n, 1_000_000n, { mode: 'HALF_UP', unit: 1 });
  return x < 0 ? -r : r;
}

/** Sample mean and standard error of the mean (n − 1; null below two values). */
export function meanAndStandardError(xs: number[]): { mean: number; se: number | null } {
  const n = xs.length;
  if (n === 0) return { mean: 0, se: null };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { mean, se: null };
  const ss = xs.reduce((a, x) => a + (x - mean) ** 2, 0);
  return { mean, se: Math.sqrt(ss / (n - 1) / n) };
}

function estimate(mean: number, se: number | null, exactMean?: Money): Estimate {
  const m = exactMean ?? estimateToMinor(mean);
  if (se === null) return { mean: m, low: null, high: null };
  return { mean: m, low: estimateToMinor(mean - BAND_SIGMAS * se), high: estimateToMinor(mean + BAND_SIGMAS * se) };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** The levels seen, lowest first, with their occupancy, average bet, theo per seat-hour and retention. */
export function estimateLevels(cells: YieldCell[]): YieldLevel[] {
  const minBets = [...new Set(cells.map((c) => c.minBet))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const at = (m: Money) => cells.filter((c) => c.minBet === m);
  const base = minBets[0];
  let ceiling = 1;
  return minBets.map((m, i) => {
    const own = at(m);
    const tableHours = sum(own.map((c) => c.openHours));
    const seatHours = sum(own.map((c) => c.seatHours));
    const playerDecisions = Math.round(sum(own.map((c) => c.playerDecisions)));
    const handle = own.reduce((a, c) => a + c.handle, 0n);
    const theoE12 = own.reduce((a, c) => a + c.theoE12, 0n);
    let retention: number | null = null;
    let retentionFrom: YieldLevel['retentionFrom'] = null;
    if (i === 0) [retention, retentionFrom] = [1, 'LOWEST'];
    else {
      const byTableHour = retentionBetween(cells, base, m, (c) => `${c.tableId}|${c.hourOfWeek}`);
      const byHour = byTableHour ?? retentionBetween(cells, base, m, (c) => String(c.hourOfWeek));
      if (byHour !== null) {
        retention = Math.min(byHour, ceiling); // a higher minimum never keeps more players than a lower
        retentionFrom = byTableHour !== null ? 'SAME_TABLE_HOUR' : 'SAME_HOUR';
        ceiling = retention;
      }
    }
    return {
      minBet: m,
      tableHours,
      seatHours,
      occupancy: tableHours > 0 ? seatHours / tableHours : null,
      playerDecisions,
      averageBet: playerDecisions > 0 ? roundMoney(handle < 0n ? 0n : handle, 1n, BigInt(playerDecisions), { mode: 'HALF_UP', unit: 1 }) : null,
      theoPerSeatHour: seatHours > 0 ? Number(theoE12) / 1e12 / seatHours : null,
      retention,
      retentionFrom,
    };
  });
}

/**
 * Σ occupancy at `m` ÷ Σ occupancy at `base` over the keys (same table and hour of the week, or same
 * hour of the week) where both were open; null when no key saw both, or nobody sat at the base.
 */
function retentionBetween(cells: YieldCell[], base: Money, m: Money, key: (c: YieldCell) => string): number | null {
  const acc = new Map<string, { b: [number, number]; m: [number, number] }>();
  for (const c of cells) {
    if (c.minBet !== base && c.minBet !== m) continue;
    const k = key(c);
    const a = acc.get(k) ?? { b: [0, 0], m: [0, 0] };
    const side = c.minBet === base ? a.b : a.m;
    side[0] += c.seatHours;
    side[1] += c.openHours;
    acc.set(k, a);
  }
  let atBase = 0;
  let atM = 0;
  let pairs = 0;
  for (const a of acc.values()) {
    if (a.b[1] <= 0 || a.m[1] <= 0) continue;
    pairs++;
    atBase += a.b[0] / a.b[1];
    atM += a.m[0] / a.m[1];
  }
  if (pairs === 0 || atBase <= 0) return null;
  return atM / atBase;
}

/** A level the advice may use: its retention known. */
interface Usable {
  minBet: Money;
  retention: number;
  value: number;
}

/**
 * Players seated at each level (lowest first) with `tables[i]` tables at level i, for `demand`
 * players: filled from the highest minimum down; at each minimum sit those willing to play at it
 * (retention × demand) not already seated above, up to its seats.
 */
export function seatedByLevel(levels: { retention: number }[], tables: number[], demand: number, seats: number): number[] {
  const seated = new Array<number>(levels.length).fill(0);
  let above = 0;
  for (let i = levels.length - 1; i >= 0; i--) {
    seated[i] = Math.max(0, Math.min(tables[i] * seats, levels[i].retention * demand - above));
    above += seated[i];
  }
  return seated;
}

/** The model's theoretical win per hour of a set of tables for a demand. */
export function modelTheo(levels: Usable[], tables: number[], demand: number, seats: number): number {
  const s = seatedByLevel(levels, tables, demand, seats);
  return sum(s.map((x, i) => x * levels[i].value));
}

/** Above this many combinations of tables per hour, the advice is found by a local search (§15). */
export const EXHAUSTIVE_SEARCH_LIMIT = 100_000;

/**
 * The best tables at each level for an hour of the week, over its weeks' demands: the most expected
 * theoretical win on average; of equals, the fewest tables, then the lowest minimums. Every count up
 * to what could seat anyone is tried (a table more than the willing players fill seats nobody) while
 * the combinations are at most EXHAUSTIVE_SEARCH_LIMIT; beyond, a local search from the best advice at
 * one minimum, moving one table at a time (opened, closed, or moved to another minimum) while that
 * gains, which is not proven to find the best.
 */
export function bestTables(
  levels: Usable[],
  demands: number[],
  tables: number,
  seats: number,
  limit = EXHAUSTIVE_SEARCH_LIMIT,
): { tables: number[]; value: number; exhaustive: boolean } {
  const k = levels.length;
  const peak = Math.max(0, ...demands);
  const caps = levels.map((l) => Math.min(tables, Math.ceil((l.retention * peak) / seats - 1e-9)));
  const valueOf = (n: number[]) => (demands.length ? sum(demands.map((d) => modelTheo(levels, n, d, seats))) / demands.length : 0);
  let best = { tables: new Array<number>(k).fill(0), value: 0, count: 0, stake: 0n };
  const consider = (n: number[]) => {
    const value = valueOf(n);
    const count = sum(n);
    const stake = n.reduce((a, x, j) => a + BigInt(x) * levels[j].minBet, 0n);
    const tol = 1e-9 * Math.max(1, Math.abs(best.value));
    const better = value > best.value + tol || (value >= best.value - tol && (count < best.count || (count === best.count && stake < best.stake)));
    if (better) best = { tables: [...n], value, count, stake };
    return better;
  };
  const combinations = caps.reduce((a, c) => a * (c + 1), 1);
  if (combinations <= limit) {
    const n = new Array<number>(k).fill(0);
    const visit = (i: number, left: number) => {
      if (i < 0) return void consider(n);
      for (let x = 0; x <= Math.min(caps[i], left); x++) {
        n[i] = x;
        visit(i - 1, left - x);
      }
      n[i] = 0;
    };
    visit(k - 1, tables);
    return { tables: best.tables, value: best.value, exhaustive: true };
  }
  for (let i = 0; i < k; i++) {
    for (let x = 1; x <= caps[i]; x++) consider(levels.map((_l, j) => (j === i ? x : 0)));
  }
  for (let moved = true; moved;) {
    moved = false;
    const from = best.tables;
    const used = sum(from);
    for (let i = 0; i < k && !moved; i++) {
      for (let j = -1; j < k && !moved; j++) {
        // j = -1: open a table at i; i → j: move one from i to j; i === j: close one at i.
        const n = [...from];
        if (j === -1) {
          if (used >= tables || n[i] >= caps[i]) continue;
          n[i]++;
        } else {
          if (n[i] === 0) continue;
          n[i]--;
          if (j !== i) {
            if (n[j] >= caps[j]) continue;
            n[j]++;
          }
        }
        moved = consider(n);
      }
    }
  }
  return { tables: best.tables, value: best.value, exhaustive: false };
}

/**
 * The least open time a minimum must have stood over the whole history to be advised: a minimum in
 * force for minutes has seat-hours too few to value it (its theo per seat-hour is noise).
 */
export const MIN_LEVEL_TABLE_HOURS = 1;

/** The usable levels (retention known, seen for at least MIN_LEVEL_TABLE_HOURS), lowest first, valued at theo per seat-hour (0 when unknown). */
function usableLevels(levels: YieldLevel[]): Usable[] {
  return levels
    .filter((l) => l.retention !== null && l.tableHours >= MIN_LEVEL_TABLE_HOURS)
    .map((l) => ({ minBet: l.minBet, retention: l.retention!, value: l.theoPerSeatHour ?? 0 }));
}

export interface YieldSlot {
  hourOfWeek: number;
  week: number;
}

/** Each (hour of week, week) of the range: demand, theo made, and table-hours per minimum. */
function slotFigures(cells: YieldCell[], slots: YieldSlot[]) {
  const key = (h: number, w: number) => h * 10_000 + w;
  const fig = new Map<number, { demand: number; theoE12: bigint; open: Map<Money, number> }>();
  for (const s of slots) fig.set(key(s.hourOfWeek, s.week), { demand: 0, theoE12: 0n, open: new Map() });
  for (const c of cells) {
    const f = fig.get(key(c.hourOfWeek, c.week));
    if (!f) continue; // a cell outside the range's hours: none by construction
    f.demand += c.seatHours;
    f.theoE12 += c.theoE12;
    f.open.set(c.minBet, (f.open.get(c.minBet) ?? 0) + c.openHours);
  }
  return (h: number, w: number) => fig.get(key(h, w))!;
}

/** The weeks each hour of the week occurs in, in order. */
function weeksByHour(slots: YieldSlot[]): Map<number, number[]> {
  const m = new Map<number, number[]>();
  for (const s of slots) m.set(s.hourOfWeek, [...(m.get(s.hourOfWeek) ?? []), s.week]);
  for (const ws of m.values()) ws.sort((a, b) => a - b);
  return m;
}

/** Σ stake × edge × 10^12 ÷ weeks, to the minor unit: rounded once, half away from zero (accounting's theoreticalWin for one week). */
export function exactMean(theoE12: bigint, weeks: bigint): Money {
  if (weeks === 1n) return theoreticalWin(theoE12);
  const r = roundMoney(theoE12 < 0n ? -theoE12 : theoE12, 1n, weeks * 10n ** 12n, { mode: 'HALF_UP', unit: 1 });
  return theoE12 < 0n ? -r : r;
}

const gcdBig = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcdBig(b, a % b));

/** num/den + x/d, exactly, in lowest terms. */
function addRatio(r: { num: bigint; den: bigint }, x: bigint, d: bigint): { num: bigint; den: bigint } {
  const num = r.num * d + x * r.den;
  const den = r.den * d;
  const g = gcdBig(num < 0n ? -num : num, den) || 1n;
  return { num: num / g, den: den / g };
}

/** A configuration as done (table-hours per minimum) in the usable levels' order; other minimums' tables drop out. */
const doneVector = (levels: Usable[], open: Map<Money, number>) => levels.map((l) => open.get(l.minBet) ?? 0);

/**
 * The advice for every hour of the week from a history: the levels estimated from all of it, then
 * per hour of the week the best tables (over the weeks' demands) against what was done.
 */
export function adviseYield(history: { cells: YieldCell[]; slots: YieldSlot[]; tables: number; seats: number }): YieldAdvice {
  const { cells, slots, tables, seats } = history;
  const levels = estimateLevels(cells);
  const usable = usableLevels(levels);
  const fig = slotFigures(cells, slots);
  const byHour = weeksByHour(slots);
  const hours: YieldHour[] = [];
  const se2 = { expected: 0, actual: 0, gain: 0 };
  const totals = { expected: 0, actual: 0, actualE12: { num: 0n, den: 1n }, modelOfDone: 0, gain: 0, weeksMax: 0 };
  let bandKnown = true;
  for (const [h, weeks] of [...byHour].sort((a, b) => a[0] - b[0])) {
    const f = weeks.map((w) => fig(h, w));
    const demands = f.map((x) => x.demand);
    const best = bestTables(usable, demands, tables, seats);
    const adviceValues = demands.map((d) => modelTheo(usable, best.tables, d, seats));
    const actualValues = f.map((x) => Number(x.theoE12) / 1e12);
    const doneValues = f.map((x) => modelTheo(usable, doneVector(usable, x.open), x.demand, seats));
    const exp = meanAndStandardError(adviceValues);
    const act = meanAndStandardError(actualValues);
    const gain = meanAndStandardError(adviceValues.map((v, i) => v - actualValues[i]));
    const actualE12 = f.reduce((a, x) => a + x.theoE12, 0n);
    const minBets = [...new Set(f.flatMap((x) => [...x.open.keys()]))].sort((a, b) => (a < b ? -1 : 1));
    hours.push({
      hourOfWeek: h,
      weeks: weeks.length,
      demand: sum(demands) / weeks.length,
      advice: usable.map((l, i) => ({ minBet: l.minBet, tables: best.tables[i] })).filter((a) => a.tables > 0),
      expected: estimate(exp.mean, exp.se),
      done: minBets.map((m) => ({ minBet: m, tables: sum(f.map((x) => x.open.get(m) ?? 0)) / weeks.length })).filter((d) => d.tables > 0),
      actual: estimate(act.mean, act.se, exactMean(actualE12, BigInt(weeks.length))),
      modelOfDone: estimateToMinor(sum(doneValues) / weeks.length),
      gain: estimate(gain.mean, gain.se),
    });
    totals.expected += exp.mean;
    totals.actual += act.mean;
    totals.actualE12 = addRatio(totals.actualE12, actualE12, BigInt(weeks.length));
    totals.modelOfDone += sum(doneValues) / weeks.length;
    totals.gain += gain.mean;
    totals.weeksMax = Math.max(totals.weeksMax, weeks.length);
    if (exp.se === null || act.se === null || gain.se === null) bandKnown = false;
    else {
      se2.expected += exp.se ** 2;
      se2.actual += act.se ** 2;
      se2.gain += gain.se ** 2;
    }
  }
  const band = (x: number) => (bandKnown && hours.length ? Math.sqrt(x) : null);
  return {
    seats,
    tables,
    weeks: totals.weeksMax,
    levels,
    hours,
    totals: {
      expected: estimate(totals.expected, band(se2.expected)),
      actual: estimate(totals.actual, band(se2.actual), exactMean(totals.actualE12.num, totals.actualE12.den)),
      modelOfDone: estimateToMinor(totals.modelOfDone),
      gain: estimate(totals.gain, band(se2.gain)),
    },
  };
}

export interface YieldWeekResult {
  week: number;
  /** The advice's expected theoretical win over the week's hours, at the week's demand. */
  advised: Money;
  /** The theoretical win made that week (exact). */
  actual: Money;
  modelOfDone: Money;
}

export interface YieldEvaluation {
  heldWeeks: number;
  /** Over the held-back weeks: the advice's expected theoretical win (band from week-to-week variation of the weekly sums). */
  advised: Estimate;
  actual: Money;
  modelOfDone: Money;
  /** advised − actual over the held-back weeks, paired week by week. */
  gain: Estimate;
  weeks: YieldWeekResult[];
}

/**
 * The held-back test: the advice made from the training history, applied to each hour of the
 * held-back weeks at the demand seen then (its players seated), against the theoretical win of what
 * was done. A sum over W weeks has the band W × (mean ± BAND_SIGMAS standard errors) of the weekly sums.
 */
export function evaluateYield(
  train: { cells: YieldCell[]; slots: YieldSlot[]; tables: number; seats: number },
  held: { cells: YieldCell[]; slots: YieldSlot[] },
): { advice: YieldAdvice; evaluation: YieldEvaluation } {
  const advice = adviseYield(train);
  const usable = usableLevels(advice.levels);
  const plan = new Map(advice.hours.map((h) => [h.hourOfWeek, usable.map((l) => h.advice.find((a) => a.minBet === l.minBet)?.tables ?? 0)]));
  const fig = slotFigures(held.cells, held.slots);
  const weeks = [...new Set(held.slots.map((s) => s.week))].sort((a, b) => a - b);
  const per = weeks.map((w) => {
    let advised = 0;
    let modelOfDone = 0;
    let theoE12 = 0n;
    for (const s of held.slots.filter((x) => x.week === w)) {
      const f = fig(s.hourOfWeek, w);
      advised += modelTheo(usable, plan.get(s.hourOfWeek) ?? usable.map(() => 0), f.demand, train.seats);
      modelOfDone += modelTheo(usable, doneVector(usable, f.open), f.demand, train.seats);
      theoE12 += f.theoE12;
    }
    return { week: w, advised, modelOfDone, theoE12 };
  });
  const n = per.length;
  const total = (m: { mean: number; se: number | null }) => ({ mean: m.mean * n, se: m.se === null ? null : m.se * n });
  const adv = total(meanAndStandardError(per.map((p) => p.advised)));
  const gain = total(meanAndStandardError(per.map((p) => p.advised - Number(p.theoE12) / 1e12)));
  return {
    advice,
    evaluation: {
      heldWeeks: n,
      advised: estimate(adv.mean, adv.se),
      actual: theoreticalWin(per.reduce((a, p) => a + p.theoE12, 0n)),
      modelOfDone: estimateToMinor(sum(per.map((p) => p.modelOfDone))),
      gain: estimate(gain.mean, gain.se),
      weeks: per.map((p) => ({
        week: p.week,
        advised: estimateToMinor(p.advised),
        actual: theoreticalWin(p.theoE12),
        modelOfDone: estimateToMinor(p.modelOfDone),
      })),
    },
  };
}

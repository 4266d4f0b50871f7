import { fractionToDecimal } from '../game/odds';
import { Variant, VARIANTS } from '../game/rules';

/**
 * Game pace (docs/domain.md §13): how many decisions a table deals an hour, by dealer, table and
 * hour of the day, how often a dealer's coups are voided or misdealt, how long a staffed table stood
 * without a coup, and the pace the casino expects of each variant. Times are microseconds since the
 * epoch (PostgreSQL keeps a dealer's shift to the microsecond), kept as bigint so that a quarter's
 * sums stay exact. The report computes the same in PostgreSQL for speed (src/finance/reports/pace.sql);
 * test/e2e/finance/pace.spec.ts holds that SQL to these functions over random records.
 */

/** Microseconds. */
export type Micros = bigint;

/** A stretch of time, [start, end): microseconds since the epoch. */
export interface Span {
  readonly start: Micros;
  readonly end: Micros;
}

export const MICROS_PER_SECOND = 1_000_000n;
export const MICROS_PER_MINUTE = 60n * MICROS_PER_SECOND;
export const MICROS_PER_HOUR = 60n * MICROS_PER_MINUTE;

/**
 * A gap between two things a staffed table records (the start of its staffed time, a coup called,
 * a coup's result, the end of its staffed time) longer than this is idle beyond it (§13): three
 * minutes, longer than a whole coup of the slowest variant by its budget (baccarat banque, two).
 */
export const IDLE_ALLOWANCE_SECONDS = 180;
export const IDLE_ALLOWANCE: Micros = BigInt(IDLE_ALLOWANCE_SECONDS) * MICROS_PER_SECOND;

/** The spans sorted, the empty ones dropped, overlapping and touching ones merged: their union. */
export function unionOf(spans: readonly Span[]): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) {
      if (s.end > last.end) out[out.length - 1] = { start: last.start, end: s.end };
    } else out.push(s);
  }
  return out;
}

/** How long the spans cover, overlaps counted once. */
export function lengthOf(spans: readonly Span[]): Micros {
  return unionOf(spans).reduce((sum, s) => sum + (s.end - s.start), 0n);
}

/** The time both sets of spans cover. */
export function intersect(a: readonly Span[], b: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const x of unionOf(a)) {
    for (const y of unionOf(b)) {
      const start = x.start > y.start ? x.start : y.start;
      const end = x.end < y.end ? x.end : y.end;
      if (end > start) out.push({ start, end });
    }
  }
  return unionOf(out);
}

/** The time `a` covers and `b` does not. */
export function subtract(a: readonly Span[], b: readonly Span[]): Span[] {
  let rest = unionOf(a);
  for (const y of unionOf(b)) {
    rest = rest.flatMap((x) => {
      if (y.end <= x.start || y.start >= x.end) return [x];
      return [...(y.start > x.start ? [{ start: x.start, end: y.start }] : []), ...(y.end < x.end ? [{ start: y.end, end: x.end }] : [])];
    });
  }
  return rest;
}

/**
 * A dealer's staffed time from one shift: the shift (to its end, or to `until` while the dealer is
 * still dealing) within the window, less the times the table stood closed.
 */
export function staffedSpans(shift: { start: Micros; end: Micros | null }, closures: readonly Span[], window: Span, until: Micros): Span[] {
  const end = shift.end ?? until;
  return subtract(intersect([{ start: shift.start, end: end < until ? end : until }], [window]), closures);
}

/** A coup as pace reads it: called (opened for betting, or recorded whole) and done (its result; called again for one never dealt). */
export interface CoupMarks {
  readonly called: Micros;
  readonly done: Micros;
}

/**
 * The idle time of a table's staffed spans (§13). Within each span, the gaps between the span's
 * start, each coup (busy from its call to its result) and the span's end; the part of a gap beyond
 * `allowance` is idle: [gap start + allowance, gap end). A coup counts in a span when it was busy at
 * any moment of it (a coup called before the span began and done inside it ends the first gap).
 */
export function idleSpans(staffed: readonly Span[], coups: readonly CoupMarks[], allowance: Micros = IDLE_ALLOWANCE): Span[] {
  const sorted = [...coups].sort((a, b) => (a.called !== b.called ? (a.called < b.called ? -1 : 1) : a.done < b.done ? -1 : a.done > b.done ? 1 : 0));
  const out: Span[] = [];
  const gap = (from: Micros, to: Micros) => {
    if (to > from + allowance) out.push({ start: from + allowance, end: to });
  };
  for (const span of unionOf(staffed)) {
    let last: Micros = span.start;
    for (const c of sorted) {
      if (!(c.called < span.end && c.done >= span.start)) continue;
      gap(last, c.called);
      if (c.done > last) last = c.done;
    }
    gap(last, span.end);
  }
  return unionOf(out);
}

/** A count over a stretch of time, as a rate: the figures every row of the pace report is made of. */
export interface PaceSums {
  /** Staffed time. */
  readonly staffed: Micros;
  /** Coups settled and standing (not voided): decisions. */
  readonly decisions: bigint;
  /** Settled coups voided since. */
  readonly voids: bigint;
  /** Coups opened for betting and cancelled before their cards (§13). */
  readonly misdeals: bigint;
  /** Idle time within the staffed time. */
  readonly idle: Micros;
}

/** The one rounding of pace: a non-negative ratio to `places` decimals, half up (exact, in integers). */
function ratio(numerator: bigint, denominator: bigint, places: number): string | null {
  return denominator === 0n ? null : fractionToDecimal({ numerator, denominator }, places);
}

/** Decisions per hour of staffed time, 1 decimal; null without staffed time. (The rating's own, §10, too.) */
export function decisionsPerHour(decisions: bigint, staffed: Micros): string | null {
  return ratio(decisions * MICROS_PER_HOUR, staffed, 1);
}

/** How many of `coups` were `n` (voids, misdeals), per 1,000, 1 decimal; null without coups. */
export function perThousand(n: bigint, coups: bigint): string | null {
  return ratio(n * 1000n, coups, 1);
}

/** Hours, 2 decimals. */
export function hoursOf(t: Micros): string {
  return ratio(t, MICROS_PER_HOUR, 2)!;
}

/** Minutes, 1 decimal. */
export function minutesOf(t: Micros): string {
  return ratio(t, MICROS_PER_MINUTE, 1)!;
}

/** Idle minutes per staffed hour, 1 decimal; null without staffed time. */
export function idleMinutesPerHour(idle: Micros, staffed: Micros): string | null {
  return ratio(idle * 60n, staffed, 1);
}

/** Decisions per hour as a percentage of an expected pace, 1 decimal; null without staffed time. */
export function percentOfExpected(decisions: bigint, staffed: Micros, expectedPerHour: number): string | null {
  return ratio(decisions * MICROS_PER_HOUR * 100n, staffed * BigInt(expectedPerHour), 1);
}

/** A table's gaming day of play, as the median is taken over: its decisions and staffed time. */
export interface PaceSample {
  readonly decisions: bigint;
  readonly staffed: Micros;
}

/** The exact rate of a sample compared with another's (staffed time is never zero in a sample). */
function compareRates(a: PaceSample, b: PaceSample): number {
  const l = a.decisions * b.staffed;
  const r = b.decisions * a.staffed;
  return l < r ? -1 : l > r ? 1 : 0;
}

/**
 * The midpoint of two samples' rates, exactly, rounded once to decisions per hour (1 decimal): the
 * median of an even number of samples (of one sample, the same sample twice).
 */
export function midpointDecisionsPerHour(lo: PaceSample, hi: PaceSample): string {
  return ratio((lo.decisions * hi.staffed + hi.decisions * lo.staffed) * MICROS_PER_HOUR, 2n * lo.staffed * hi.staffed, 1)!;
}

/** The median of the samples' decisions per hour (each sample with staffed time), exact, rounded once; null without any. */
export function medianDecisionsPerHour(samples: readonly PaceSample[]): string | null {
  const sorted = samples.filter((s) => s.staffed > 0n).sort(compareRates);
  if (sorted.length === 0) return null;
  const n = sorted.length;
  return midpointDecisionsPerHour(sorted[Math.floor((n - 1) / 2)], sorted[Math.floor(n / 2)]);
}

/**
 * The time budget of one coup of each variant, in seconds, the expected pace's defaults are derived
 * from (docs/domain.md §13): bets called and closed, the cards dealt and drawn, bets settled, the
 * cards cleared, and a share of the shoe change (its minutes spread over the shoe's coups).
 */
export const COUP_TIME_BUDGET: Readonly<Record<Variant, { bets: number; deal: number; settle: number; clear: number; shoeChange: number }>> = {
  COMMISSION: { bets: 15, deal: 10, settle: 18, clear: 4, shoeChange: 3 },
  SUPER_6: { bets: 15, deal: 10, settle: 13, clear: 4, shoeChange: 3 },
  EZ: { bets: 15, deal: 10, settle: 13, clear: 4, shoeChange: 3 },
  CHEMIN_DE_FER: { bets: 25, deal: 40, settle: 15, clear: 5, shoeChange: 5 },
  BANQUE: { bets: 30, deal: 55, settle: 25, clear: 5, shoeChange: 5 },
};

/** Seconds a coup of the variant takes by its budget. */
export function coupSeconds(variant: Variant): number {
  const b = COUP_TIME_BUDGET[variant];
  return b.bets + b.deal + b.settle + b.clear + b.shoeChange;
}

/** The expected pace of each variant where the property has set none: 3,600 seconds ÷ a coup's budget (72, 80, 80, 40, 30). */
export const DEFAULT_EXPECTED_PACE: Readonly<Record<Variant, number>> = Object.fromEntries(
  VARIANTS.map((v) => [v, Math.floor(3600 / coupSeconds(v))]),
) as Record<Variant, number>;

/** An expected pace a property may set: whole decisions per hour. */
export const MIN_EXPECTED_PACE = 1;
export const MAX_EXPECTED_PACE = 400;

/** A property's entry of the pace it expects of a variant. A later entry replaces an earlier one; none is changed. */
export interface ExpectedPaceEntry {
  readonly id: string;
  readonly variant: Variant;
  readonly decisionsPerHour: number;
  /** Milliseconds since the epoch. */
  readonly enteredAt: number;
}

export interface ExpectedPace {
  readonly variant: Variant;
  readonly decisionsPerHour: number;
  /** PROPERTY: the property's latest entry; DEFAULT: no entry, the default of DEFAULT_EXPECTED_PACE. */
  readonly source: 'PROPERTY' | 'DEFAULT';
  readonly entry: ExpectedPaceEntry | null;
}

/** The pace in force for each variant: the property's latest entry (by time, then id), else the default. */
export function expectedPaceInForce(entries: readonly ExpectedPaceEntry[]): Record<Variant, ExpectedPace> {
  const out = Object.fromEntries(
    VARIANTS.map((v) => [v, { variant: v, decisionsPerHour: DEFAULT_EXPECTED_PACE[v], source: 'DEFAULT', entry: null } satisfies ExpectedPace]),
  ) as Record<Variant, ExpectedPace>;
  const latest = [...entries].sort((a, b) => a.enteredAt - b.enteredAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const e of latest) out[e.variant] = { variant: e.variant, decisionsPerHour: e.decisionsPerHour, source: 'PROPERTY', entry: e };
  return out;
}

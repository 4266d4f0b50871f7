/**
 * A property's gaming day now: the calendar date in its time zone of the moment `startHour` hours
 * ago (a gaming day that starts at 06:00 runs to 05:59 the next morning), as the service counts it.
 */
export function gamingDayNow(timeZone: string, startHour: number, now = new Date()): string {
  const shifted = new Date(now.getTime() - startHour * 3_600_000);
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(shifted);
  const part = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** A gaming day `days` days after `day` (before, when negative), both as YYYY-MM-DD. */
export function shiftDay(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** A property's clock: its time zone and the hour its gaming day starts. */
export interface PropertyClock {
  timeZone: string;
  gamingDayStartHour: number;
}

/**
 * The days a range covers once its property changes from `was` to `now`: a range that was the old
 * property's gaming day today becomes the new property's today (their time zones or day starts may
 * put "today" on different dates); any other range, chosen by hand, stays as it is.
 */
export function daysAtProperty(
  range: { from: string; to: string },
  was: PropertyClock | undefined,
  next: PropertyClock | undefined,
  at = new Date(),
): { from: string; to: string } {
  if (!was || !next || range.from !== range.to || range.from !== gamingDayNow(was.timeZone, was.gamingDayStartHour, at)) return range;
  const today = gamingDayNow(next.timeZone, next.gamingDayStartHour, at);
  return { from: today, to: today };
}

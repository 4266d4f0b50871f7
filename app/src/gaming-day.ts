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

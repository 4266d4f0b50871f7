/**
 * The casino's accounting day (docs/domain.md §6): a record made before the property's gaming-day
 * start hour, local time, belongs to the previous day. Returns `YYYY-MM-DD`.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' });
    formatters.set(timeZone, f);
  }
  return f;
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

export function gamingDayOf(instant: Date, timeZone: string, startHour: number): string {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const y = Number(parts.year),
    m = Number(parts.month),
    d = Number(parts.day),
    h = Number(parts.hour);
  const day = new Date(Date.UTC(y, m - 1, h < startHour ? d - 1 : d));
  return day.toISOString().slice(0, 10);
}

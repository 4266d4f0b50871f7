import { gamingDayOf, isValidTimeZone } from '../../../src/domain';

describe('gaming day (docs/domain.md §6)', () => {
  it.each([
    ['2026-11-21T05:59:59Z', 'UTC', 6, '2026-11-20'], // 05:59 at a 06:00 property: the previous gaming day
    ['2026-11-21T06:00:00Z', 'UTC', 6, '2026-11-21'],
    ['2026-11-21T23:59:59Z', 'UTC', 6, '2026-11-21'],
    ['2026-01-01T05:00:00Z', 'UTC', 6, '2025-12-31'], // across a year end
    ['2026-03-01T03:00:00Z', 'UTC', 6, '2026-02-28'], // across a month end
    ['2026-11-20T21:30:00Z', 'Asia/Macau', 6, '2026-11-20'], // 05:30 local on the 21st
    ['2026-11-20T22:30:00Z', 'Asia/Macau', 6, '2026-11-21'], // 06:30 local
    ['2026-07-01T12:30:00Z', 'America/Los_Angeles', 6, '2026-06-30'], // 05:30 PDT
    ['2026-12-01T13:30:00Z', 'America/Los_Angeles', 6, '2026-11-30'], // 05:30 PST (winter time, UTC−8)
    ['2026-12-01T14:30:00Z', 'America/Los_Angeles', 6, '2026-12-01'], // 06:30 PST
    ['2026-11-21T10:00:00Z', 'Europe/Monaco', 0, '2026-11-21'], // midnight start: the calendar day
  ])('%s at %s (start %i:00) → %s', (iso, tz, hour, day) => {
    expect(gamingDayOf(new Date(iso), tz, hour)).toBe(day);
  });

  it('knows time zones', () => {
    expect(isValidTimeZone('Europe/Monaco')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus_Mons')).toBe(false);
  });
});

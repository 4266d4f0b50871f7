import { daysAtProperty, gamingDayNow } from '../../app/src/gaming-day';

/**
 * The screens' range follows the property chosen (app/src/range-form.tsx): a range that was one
 * property's gaming day today becomes the next property's today, which may be another date. At
 * 13:19 UTC a property counting from 06:00 UTC is in 28 November, one in Los Angeles counting from
 * 06:00 local time still in 27 November (it is 05:19 there).
 */
const UTC = { timeZone: 'UTC', gamingDayStartHour: 6 };
const LA = { timeZone: 'America/Los_Angeles', gamingDayStartHour: 6 };
const MACAU = { timeZone: 'Asia/Macau', gamingDayStartHour: 6 };
const at = new Date('2026-11-28T13:19:00Z');

it('a range of today moves to the new property’s today', () => {
  expect(gamingDayNow(UTC.timeZone, 6, at)).toBe('2026-11-28');
  expect(gamingDayNow(LA.timeZone, 6, at)).toBe('2026-11-27');
  expect(daysAtProperty({ from: '2026-11-28', to: '2026-11-28' }, UTC, LA, at)).toEqual({ from: '2026-11-27', to: '2026-11-27' });
  expect(daysAtProperty({ from: '2026-11-27', to: '2026-11-27' }, LA, MACAU, at)).toEqual({ from: '2026-11-28', to: '2026-11-28' });
});

it('days chosen by hand, or a property not known (every property), stay as they are', () => {
  expect(daysAtProperty({ from: '2026-11-20', to: '2026-11-28' }, UTC, LA, at)).toEqual({ from: '2026-11-20', to: '2026-11-28' });
  expect(daysAtProperty({ from: '2026-11-25', to: '2026-11-25' }, UTC, LA, at)).toEqual({ from: '2026-11-25', to: '2026-11-25' });
  expect(daysAtProperty({ from: '2026-11-28', to: '2026-11-28' }, undefined, LA, at)).toEqual({ from: '2026-11-28', to: '2026-11-28' });
  expect(daysAtProperty({ from: '2026-11-28', to: '2026-11-28' }, UTC, undefined, at)).toEqual({ from: '2026-11-28', to: '2026-11-28' });
});

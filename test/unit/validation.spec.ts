import { AuditQueryDto } from '../../src/integrity/audit/dto/audit.dto';
import { AddWagersDto, RecordCoupDto } from '../../src/table-games/coups/dto/coup.dto';
import { AppError } from '../../src/platform/common/errors';
import { CURRENCIES, FIRST_YEAR, isCalendarDate, isDateTime, LAST_YEAR, validationPipe } from '../../src/platform/common/validation';
import { OddsRequestDto } from '../../src/table-games/odds/dto/odds.dto';
import { CreatePropertyDto } from '../../src/finance/properties/dto/property.dto';
import { CreateTableDto } from '../../src/table-games/tables/dto/table.dto';
import { WinLossQueryDto } from '../../src/finance/reports/dto/report.dto';

/** What the global pipe makes of a body (or a query) for a DTO: the value it passes on, or its refusal. */
async function piped(metatype: new () => object, value: unknown, type: 'body' | 'query' = 'body'): Promise<{ ok: true } | { ok: false; error: AppError }> {
  try {
    await validationPipe().transform(value, { type, metatype });
    return { ok: true };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { ok: false, error: e };
  }
}

async function refusal(metatype: new () => object, value: unknown, type: 'body' | 'query' = 'body'): Promise<string> {
  const r = await piped(metatype, value, type);
  if (r.ok) throw new Error(`accepted ${JSON.stringify(value)}`);
  expect(r.error.code).toBe('VALIDATION_FAILED');
  return r.error.message;
}

const property = { name: 'Casino', timeZone: 'Europe/Monaco', gamingDayStartHour: 6 };
const table = { code: 'T-1', variant: 'COMMISSION', currency: 'EUR', minBet: 100, maxBet: 1000 };

describe('dates: one range of years for every date that comes in', () => {
  it.each([
    ['0000-01-01', false],
    ['0001-01-01', false],
    ['1999-12-31', false],
    [`${FIRST_YEAR}-01-01`, true],
    ['2026-02-28', true],
    ['2026-02-29', false],
    [`${LAST_YEAR}-12-31`, true],
    ['2101-01-01', false],
    ['9999-12-31', false],
  ])('%s is a day: %s', (day, ok) => {
    expect(isCalendarDate(day)).toBe(ok);
    expect(isDateTime(`${day}T06:00:00Z`)).toBe(ok);
  });

  it('a date out of range is refused naming the range, in a query and in a body', async () => {
    expect(await refusal(WinLossQueryDto, { from: '0000-01-01', to: '0000-01-02' }, 'query')).toContain('in the years 2000 to 2100');
    expect(await refusal(AuditQueryDto, { from: '9999-12-31T00:00:00Z' }, 'query')).toContain('in the years 2000 to 2100');
  });
});

describe('an optional field left out or sent: never null', () => {
  it('"ctrThreshold": null is refused, as any optional field sent as null, and leaving it out is fine', async () => {
    expect(await refusal(CreatePropertyDto, { ...property, ctrThreshold: null })).toBe(
      'ctrThreshold may be left out, but not sent as null (and 3 more problems)',
    );
    expect(await refusal(CreatePropertyDto, { ...property, compShareBps: null })).toMatch(/^compShareBps may be left out, but not sent as null/);
    expect(await refusal(RecordCoupDto, { wagers: null })).toMatch(/^wagers may be left out, but not sent as null/);
    expect(await refusal(OddsRequestDto, { shoe: { cards: null } })).toMatch(/^shoe.cards may be left out, but not sent as null/);
    expect(await piped(CreatePropertyDto, property)).toEqual({ ok: true });
  });
});

describe('a list of records holds records', () => {
  it('a list inside a list of wagers is refused, not read as a wager with no fields', async () => {
    expect(await refusal(AddWagersDto, { wagers: [[]] })).toMatch(/^each item of wagers must be an object/);
    expect(await refusal(RecordCoupDto, { wagers: [[], { seat: 1, betType: 'BANKER', amount: 100 }] })).toMatch(/^each item of wagers must be an object/);
  });
});

describe('a record number within a bigint', () => {
  it('afterId up to 2^63 − 1 is taken; past it is refused', async () => {
    expect(await piped(AuditQueryDto, { afterId: '9223372036854775807' }, 'query')).toEqual({ ok: true });
    expect(await refusal(AuditQueryDto, { afterId: '9223372036854775808' }, 'query')).toBe(
      'afterId must be at most 9223372036854775807 (2^63 − 1): no record has a larger number',
    );
    expect(await refusal(AuditQueryDto, { afterId: '99999999999999999999' }, 'query')).toMatch(/^afterId must be at most 19 characters/);
  });
});

describe('currencies: ISO 4217 codes in use', () => {
  it('holds the currencies a casino deals in, and no made-up code, metal or "no currency"', () => {
    for (const code of ['USD', 'EUR', 'GBP', 'HKD', 'MOP', 'SGD', 'JPY', 'KWD', 'AUD', 'CHF', 'XAF']) expect(CURRENCIES.has(code)).toBe(true);
    for (const code of ['ABC', 'ZZZ', 'XXX', 'XTS', 'XAU', 'XAG', 'usd', 'US']) expect(CURRENCIES.has(code)).toBe(false);
    expect(CURRENCIES.size).toBeGreaterThan(150);
  });

  it('three capital letters that are no currency are refused by the one currency field', async () => {
    expect(await refusal(CreateTableDto, { ...table, currency: 'ABC' })).toBe('currency ABC is not an ISO 4217 currency in use (such as USD, EUR or HKD)');
    expect(await refusal(CreatePropertyDto, { ...property, cashCurrency: 'XXX' })).toMatch(/^cashCurrency XXX is not an ISO 4217 currency in use/);
    expect(await refusal(CreateTableDto, { ...table, currency: 'eur' })).toMatch(/^currency must be an ISO 4217 currency code: 3 capital letters/);
    expect(await piped(CreateTableDto, { ...table, currency: 'MOP' })).toEqual({ ok: true });
  });
});

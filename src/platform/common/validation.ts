import { applyDecorators, Param, ParseUUIDPipe, ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsDefined,
  IsObject,
  IsIn,
  IsInt,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { codes as iso4217Codes, data as iso4217Data } from 'currency-codes';
import { CARD_PATTERN } from '../../domain';
import { AppError } from './errors';

/**
 * One decorator per kind of field: each applies the class-validator rules and the OpenAPI
 * description together, so the documentation and the checks cannot drift apart.
 */

/** Seats (betting positions) at a table are numbered 1 to MAX_SEAT. */
export const MAX_SEAT = 20;

/** A patron's id as the casino's player-tracking system writes it (a card number). */
export const PATRON_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** A dealer's employee number. */
export const DEALER_ID_PATTERN = /^[A-Za-z0-9._-]+$/;

/** A pay as a pit writes it: "8 to 1", "9 for 1" or "8:1". */
export const PAY_PATTERN = /^\d{1,6}(\.\d{1,4})?\s*(to|for|:)\s*\d{1,6}(\.\d{1,4})?$/;
export const PAY_HINT = 'must be a pay like "8 to 1", "9 for 1" or "8:1"';

/** The largest amount any single field may hold, in minor units (10 billion in major units). */
export const MAX_MONEY = 1_000_000_000_000;

interface FieldOptions {
  description: string;
  example?: unknown;
  /** Defaults to true. */
  required?: boolean;
}

function base(o: FieldOptions, schema: Record<string, unknown>): PropertyDecorator[] {
  const doc = { description: o.description, example: o.example, ...schema };
  return o.required === false ? [Optional(), ApiPropertyOptional(doc)] : [ApiProperty(doc)];
}

/**
 * An optional field: left out, it is not checked; sent, it is checked by its rules, null included.
 * (class-validator's IsOptional passes null as well as a missing value, and a service then reads
 * null where the field's type says a number: `"ctrThreshold": null` was a 500.) No field of this
 * API takes null: a request leaves a field out for its default.
 */
export function Optional(): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_object, value) => value !== undefined),
    ValidateBy({
      name: 'notNull',
      validator: { validate: (v: unknown) => v !== null, defaultMessage: () => '$property may be left out, but not sent as null' },
    }),
  );
}

/** An amount of money in integer minor units (cents), positive. */
export function MoneyField(o: FieldOptions & { min?: number }) {
  const min = o.min ?? 1;
  return applyDecorators(
    ...base(o, { type: 'integer', minimum: min, maximum: MAX_MONEY, format: 'int64' }),
    IsInt({ message: '$property must be a whole number of minor units (e.g. cents), not a fraction or text' }),
    Min(min, { message: `$property must be at least ${min}` }),
    Max(MAX_MONEY, { message: `$property must be at most ${MAX_MONEY}` }),
  );
}

/**
 * An amount in an answer: integer minor units, exact (the wire model in common/exact-json.ts: a
 * JSON number with every digit, past 2^53 too).
 */
export function MoneyProperty(o: { description?: string; nullable?: boolean; example?: number } = {}) {
  return ApiProperty({ ...o, type: 'integer', format: 'int64' });
}

export function IntField(o: FieldOptions & { min: number; max: number }) {
  return applyDecorators(
    ...base(o, { type: 'integer', minimum: o.min, maximum: o.max }),
    IsInt({ message: '$property must be a whole number' }),
    Min(o.min, { message: `$property must be at least ${o.min}` }),
    Max(o.max, { message: `$property must be at most ${o.max}` }),
  );
}

/**
 * A whole number given in a query string ("2026"): documented as an integer (a generated client
 * sends a number), read from its digits alone (" 2026", "2026.0" and "2e3" stay text and are refused).
 */
export function QueryIntField(o: FieldOptions & { min: number; max: number }) {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value)),
    IntField(o),
  );
}

/**
 * What makes text say something: a letter, a digit, a mark of punctuation or a symbol, other than the
 * ones drawn as nothing (the Hangul fillers, a blank Braille cell). A reason of spaces or of invisible
 * characters (a zero-width space, a direction mark) is no reason.
 */
const SAYS_SOMETHING = /[\p{L}\p{N}\p{P}\p{S}]/u;
const DRAWN_AS_NOTHING = /[\u115F\u1160\u3164\uFFA0\u2800]/gu;
export const saysSomething = (v: string): boolean => SAYS_SOMETHING.test(v.replace(DRAWN_AS_NOTHING, ''));

export function TextField(o: FieldOptions & { maxLength: number; minLength?: number; pattern?: RegExp; patternHint?: string }) {
  const min = o.minLength ?? 1;
  return applyDecorators(
    ...base(o, { type: 'string', minLength: min, maxLength: o.maxLength, pattern: o.pattern?.source }),
    IsString({ message: '$property must be text' }),
    MinLength(min, { message: `$property must be at least ${min} character(s)` }),
    MaxLength(o.maxLength, { message: `$property must be at most ${o.maxLength} characters` }),
    ValidateBy({
      name: 'saysSomething',
      validator: {
        validate: (v: unknown) => typeof v !== 'string' || v.length === 0 || saysSomething(v),
        defaultMessage: () => '$property must say something: not only spaces or invisible characters',
      },
    }),
    ...(o.pattern ? [Matches(o.pattern, { message: `$property ${o.patternHint ?? `must match ${o.pattern.source}`}` })] : []),
  );
}

/**
 * The currencies a table, a cash transaction or a rate may be in: ISO 4217's list of codes in use
 * (its "list one", as the currency-codes package ships it, with the date ISO published it), less the
 * entries that are no money a casino takes: gold, silver, platinum and palladium, the bond-market
 * units, the testing code XTS and XXX ("no currency"), which ISO lists under no country (ZZ).
 */
export const CURRENCIES: ReadonlySet<string> = new Set(
  iso4217Codes().filter((code) => !iso4217Data.find((c) => c.code === code)?.countries.every((country) => /^zz\d/i.test(country))),
);

/** An ISO 4217 currency code in use (CURRENCIES): three capital letters, such as USD, EUR or HKD. */
export function CurrencyField(o: FieldOptions) {
  return applyDecorators(
    TextField({
      ...o,
      description: `${o.description} (an ISO 4217 code in use)`,
      minLength: 3,
      maxLength: 3,
      pattern: /^[A-Z]{3}$/,
      patternHint: 'must be an ISO 4217 currency code: 3 capital letters, such as USD',
    }),
    ValidateBy({
      name: 'isCurrency',
      validator: {
        validate: (v: unknown) => typeof v !== 'string' || !/^[A-Z]{3}$/.test(v) || CURRENCIES.has(v),
        defaultMessage: (a) => `$property ${String(a?.value)} is not an ISO 4217 currency in use (such as USD, EUR or HKD)`,
      },
    }),
  );
}

/**
 * An exchange rate as people write it: a positive decimal with at most 9 decimals ("1.0842"), kept
 * as an integer of billionths (domain/money/fx.ts parseRate).
 */
export function RateField(o: FieldOptions) {
  return TextField({ ...o, maxLength: 17, pattern: /^\d{1,7}(\.\d{1,9})?$/, patternHint: 'must be a decimal such as 1.0842 (at most 9 decimals)' });
}

export function EnumField(values: readonly string[], o: FieldOptions & { enumName: string }) {
  return applyDecorators(
    ...base(o, { enum: values, enumName: o.enumName }),
    IsIn(values as string[], { message: `$property must be one of ${values.join(', ')}` }),
  );
}

export function EnumArrayField(values: readonly string[], o: FieldOptions & { enumName: string }) {
  return applyDecorators(
    ...base(o, { enum: values, enumName: o.enumName, isArray: true }),
    IsArray({ message: '$property must be a list' }),
    ArrayMaxSize(values.length, { message: `$property lists at most ${values.length} values` }),
    ArrayUnique({ message: '$property must not repeat a value' }),
    IsIn(values as string[], { each: true, message: `each of $property must be one of ${values.join(', ')}` }),
  );
}

/** A list of distinct seat numbers, e.g. the rotation of a player-banked game. */
export function SeatsField(o: FieldOptions & { max: number; minItems?: number }) {
  const minItems = o.minItems ?? 0;
  return applyDecorators(
    ...base(o, { type: 'integer', isArray: true, minimum: 1, maximum: o.max, minItems, maxItems: o.max }),
    IsArray({ message: '$property must be a list of seat numbers' }),
    ArrayMinSize(minItems, { message: `$property needs at least ${minItems} seat(s)` }),
    ArrayMaxSize(o.max, { message: `$property lists at most ${o.max} seats` }),
    ArrayUnique({ message: '$property must not repeat a seat' }),
    IsInt({ each: true, message: 'each seat in $property must be a whole number' }),
    Min(1, { each: true, message: 'each seat in $property must be at least 1' }),
    Max(o.max, { each: true, message: `each seat in $property must be at most ${o.max}` }),
  );
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?(?:Z|[+-](\d{2}):(\d{2}))?)?$/;

/**
 * The years a date sent to this service may be in, the same for every date of every route (gaming
 * days, report ranges, rates, audit times, a key's expiry) and for the quarterly statement's year:
 * wide enough for any record a casino keeps and any expiry it sets, narrow enough that no date
 * reaches PostgreSQL out of its range (it has no year 0) or sits there as a typo (9999-12-31).
 */
export const FIRST_YEAR = 2000;
export const LAST_YEAR = 2100;
const YEARS = `years ${FIRST_YEAR} to ${LAST_YEAR}`;

/**
 * A day of the calendar as YYYY-MM-DD in FIRST_YEAR to LAST_YEAR: 2026-02-30 and 2026-13-01 match
 * the shape but are no days; 0000-01-01 and 9999-12-31 are days out of range.
 */
export function isCalendarDate(s: string): boolean {
  if (!DATE.test(s)) return false;
  const year = Number(s.slice(0, 4));
  if (year < FIRST_YEAR || year > LAST_YEAR) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** An ISO 8601 date, or date and time, that names a real moment: a calendar day, hours < 24, minutes and seconds < 60. */
export function isDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (!m || !isCalendarDate(m[1])) return false;
  const [h, min, sec, offH, offM] = [m[2], m[3], m[4], m[5], m[6]].map((x) => (x === undefined ? 0 : Number(x)));
  return h < 24 && min < 60 && sec < 60 && offH < 24 && offM < 60;
}

function dateRule(name: string, test: (s: string) => boolean, hint: string) {
  return ValidateBy({ name, validator: { validate: (v: unknown) => typeof v === 'string' && test(v), defaultMessage: () => `$property ${hint}` } });
}

/** A calendar date (a gaming day), YYYY-MM-DD, in the years FIRST_YEAR to LAST_YEAR. The one date rule of every route. */
export function DateField(o: FieldOptions) {
  return applyDecorators(
    ...base({ ...o, description: `${o.description} (${YEARS})` }, { type: 'string', format: 'date' }),
    dateRule('isCalendarDate', isCalendarDate, `must be a calendar date YYYY-MM-DD in the ${YEARS} (e.g. 2026-07-01)`),
  );
}

/** A moment: an ISO 8601 date or date-time with a real calendar day (in FIRST_YEAR to LAST_YEAR) and time. */
export function DateTimeField(o: FieldOptions) {
  return applyDecorators(
    ...base({ ...o, description: `${o.description} (${YEARS})` }, { type: 'string', maxLength: 35, pattern: DATE_TIME.source }),
    dateRule(
      'isDateTime',
      isDateTime,
      `must be an ISO 8601 date or date-time naming a real day and time in the ${YEARS} (e.g. 2026-07-01 or 2026-07-01T06:00:00Z)`,
    ),
  );
}

export function BoolField(o: FieldOptions) {
  return applyDecorators(...base(o, { type: 'boolean' }), IsBoolean({ message: '$property must be true or false' }));
}

export function UuidField(o: FieldOptions) {
  return applyDecorators(...base(o, { type: 'string', format: 'uuid' }), IsUUID('all', { message: '$property must be a UUID' }));
}

/** A payment's reference as the cage writes it (a cheque's number, a wire's reference): for a TextField. */
export const PAYMENT_REFERENCE = {
  maxLength: 80,
  pattern: /^[\p{L}\p{N}][\p{L}\p{N} ./:#_-]*$/u,
  patternHint: 'must start with a letter or digit and hold letters, digits, spaces and . / : # _ -',
};

/** The largest id a PostgreSQL bigint holds: 2^63 − 1. */
export const MAX_BIGINT_ID = 9_223_372_036_854_775_807n;

/**
 * A record's number as digits, e.g. the audit entry to page after: a whole number from 0 to
 * 2^63 − 1 (a PostgreSQL bigint); past it no record has that number, and the database would refuse
 * the comparison rather than answer.
 */
export function BigIdField(o: FieldOptions) {
  return applyDecorators(
    TextField({ ...o, maxLength: 19, pattern: /^\d+$/, patternHint: 'must be a whole number (digits only)' }),
    ValidateBy({
      name: 'isBigId',
      validator: {
        validate: (v: unknown) => typeof v !== 'string' || !/^\d{1,19}$/.test(v) || BigInt(v) <= MAX_BIGINT_ID,
        defaultMessage: () => `$property must be at most ${MAX_BIGINT_ID} (2^63 − 1): no record has a larger number`,
      },
    }),
  );
}

/** Cards in wire notation: rank (A 2-9 T J Q K) + suit (S H D C). */
export function CardsField(o: FieldOptions & { minItems: number; maxItems: number }) {
  return applyDecorators(
    ...base(o, { type: 'string', isArray: true, pattern: CARD_PATTERN.source, minItems: o.minItems, maxItems: o.maxItems }),
    IsArray({ message: '$property must be a list of cards' }),
    ArrayMinSize(o.minItems, { message: `$property needs at least ${o.minItems} card(s)` }),
    ArrayMaxSize(o.maxItems, { message: `$property holds at most ${o.maxItems} cards` }),
    IsString({ each: true, message: 'each card in $property must be text like 9H or TD' }),
    Matches(CARD_PATTERN, { each: true, message: 'each card in $property must be rank (A 2-9 T J Q K) then suit (S H D C), e.g. 9H or TD' }),
  );
}

/** A nested object or list of objects, validated through its own class. */
export function NestedField(type: () => new () => object, o: FieldOptions & { array?: boolean; minItems?: number; maxItems?: number }) {
  // @nestjs/swagger takes a property's type lazily only from a function named `type`.
  const lazy = { type: () => type() };
  const decorators = [
    ...base(o, { type: lazy.type, isArray: o.array ?? false, minItems: o.minItems, maxItems: o.maxItems }),
    ValidateNested({ each: o.array ?? false }),
    Type(type),
  ];
  // ValidateNested passes a missing value: a required nested field must say so itself.
  if (o.required !== false) decorators.push(IsDefined({ message: '$property is required' }));
  if (!o.array) decorators.push(IsObject({ message: '$property must be an object' }));
  if (o.array) {
    decorators.push(IsArray({ message: '$property must be a list' }));
    // ValidateNested passes a list inside the list ([[]] checks the inner list's items: none).
    decorators.push(IsObject({ each: true, message: 'each item of $property must be an object' }));
    if (o.minItems !== undefined) decorators.push(ArrayMinSize(o.minItems, { message: `$property needs at least ${o.minItems} item(s)` }));
    if (o.maxItems !== undefined) decorators.push(ArrayMaxSize(o.maxItems, { message: `$property holds at most ${o.maxItems} items` }));
  }
  return applyDecorators(...decorators);
}

/** A range of gaming days as a report takes it: `from` no later than `to`, at most ten years long. */
export function assertDayRange(from: string, to: string): void {
  if (from > to) throw new AppError('VALIDATION_FAILED', `from (${from}) is after to (${to})`);
  const limit = new Date(`${from}T00:00:00Z`);
  limit.setUTCFullYear(limit.getUTCFullYear() + 10);
  if (new Date(`${to}T00:00:00Z`) >= limit) throw new AppError('VALIDATION_FAILED', 'A report covers at most ten years');
}

/** A patron's card number: at most this long (PATRON_PATTERN). */
export const PATRON_MAX_LENGTH = 64;

/** A patron's card number as a route parameter (`:card`), checked as the body fields are. */
export const CardParam = () =>
  Param('card', {
    transform: (v: string) => {
      if (typeof v !== 'string' || v.length > PATRON_MAX_LENGTH || !PATRON_PATTERN.test(v)) {
        throw new AppError(
          'VALIDATION_FAILED',
          `The card in the path must be a player-card number of at most ${PATRON_MAX_LENGTH} letters, digits, ., - and _`,
        );
      }
      return v;
    },
  });

/** A UUID route parameter. */
export const IdParam = (name = 'id') =>
  Param(name, new ParseUUIDPipe({ exceptionFactory: () => new AppError('VALIDATION_FAILED', `The ${name} in the path must be a UUID`) }));

function flatten(errors: ValidationError[], prefix = ''): { field: string; problems: string[] }[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = e.constraints
      ? [
          {
            field,
            problems: Object.entries(e.constraints).map(([k, m]) =>
              k === 'whitelistValidation' ? `${field} is not a field of this request` : m.replace(e.property, field),
            ),
          },
        ]
      : [];
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/** The global pipe: unknown fields are errors, types are checked, nothing is coerced. */
export function validationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const details = flatten(errors);
      const first = details[0]?.problems[0] ?? 'the request is not valid';
      const more = details.reduce((n, d) => n + d.problems.length, 0) - 1;
      return new AppError('VALIDATION_FAILED', more > 0 ? `${first} (and ${more} more problem${more > 1 ? 's' : ''})` : first, details);
    },
  });
}

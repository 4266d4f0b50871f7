import { applyDecorators, Param, ParseUUIDPipe, ValidationError, ValidationPipe } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
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
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { CARD_PATTERN } from '../domain';
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
  return o.required === false ? [IsOptional(), ApiPropertyOptional(doc)] : [ApiProperty(doc)];
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

export function TextField(o: FieldOptions & { maxLength: number; minLength?: number; pattern?: RegExp; patternHint?: string }) {
  const min = o.minLength ?? 1;
  return applyDecorators(
    ...base(o, { type: 'string', minLength: min, maxLength: o.maxLength, pattern: o.pattern?.source }),
    IsString({ message: '$property must be text' }),
    MinLength(min, { message: `$property must be at least ${min} character(s)` }),
    MaxLength(o.maxLength, { message: `$property must be at most ${o.maxLength} characters` }),
    ...(o.pattern ? [Matches(o.pattern, { message: `$property ${o.patternHint ?? `must match ${o.pattern.source}`}` })] : []),
  );
}

/** An ISO 4217 currency code: three capital letters. */
export function CurrencyField(o: FieldOptions) {
  return TextField({
    ...o,
    minLength: 3,
    maxLength: 3,
    pattern: /^[A-Z]{3}$/,
    patternHint: 'must be an ISO 4217 currency code: 3 capital letters, such as USD',
  });
}

/**
 * An exchange rate as people write it: a positive decimal with at most 9 decimals ("1.0842"), kept
 * as an integer of billionths (domain/fx.ts parseRate).
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

/** A day of the calendar as YYYY-MM-DD: 2026-02-30 and 2026-13-01 match the shape but are no days. */
export function isCalendarDate(s: string): boolean {
  if (!DATE.test(s)) return false;
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

/** A calendar date (a gaming day), YYYY-MM-DD. The one date rule of every route. */
export function DateField(o: FieldOptions) {
  return applyDecorators(
    ...base(o, { type: 'string', format: 'date' }),
    dateRule('isCalendarDate', isCalendarDate, 'must be a calendar date YYYY-MM-DD (e.g. 2026-07-01)'),
  );
}

/** A moment: an ISO 8601 date or date-time with a real calendar day and time. */
export function DateTimeField(o: FieldOptions) {
  return applyDecorators(
    ...base(o, { type: 'string', maxLength: 35, pattern: DATE_TIME.source }),
    dateRule('isDateTime', isDateTime, 'must be an ISO 8601 date or date-time naming a real day and time (e.g. 2026-07-01 or 2026-07-01T06:00:00Z)'),
  );
}

export function BoolField(o: FieldOptions) {
  return applyDecorators(...base(o, { type: 'boolean' }), IsBoolean({ message: '$property must be true or false' }));
}

export function UuidField(o: FieldOptions) {
  return applyDecorators(...base(o, { type: 'string', format: 'uuid' }), IsUUID('all', { message: '$property must be a UUID' }));
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

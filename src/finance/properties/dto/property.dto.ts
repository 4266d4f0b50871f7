import { ApiProperty } from '@nestjs/swagger';
import { IntField, MoneyField, MoneyProperty, TextField, CurrencyField } from '../../../platform/common/validation';
import type { MinorUnits } from '../../../platform/common/exact-json';

export class CreatePropertyDto {
  @TextField({ description: 'Name of the casino', example: 'Casino Riviera', maxLength: 100 })
  name: string;

  @TextField({ description: 'IANA time zone of the casino', example: 'Europe/Monaco', maxLength: 64 })
  timeZone: string;

  @IntField({ description: 'Local hour (0–23) at which the gaming day starts', example: 6, min: 0, max: 23 })
  gamingDayStartHour: number;

  @IntField({
    description: "The share of a patron's theoretical win given back as comps, in basis points (2000 = 20 %, the default)",
    example: 2000,
    min: 0,
    max: 10_000,
    required: false,
  })
  compShareBps?: number;

  @CurrencyField({
    description:
      "The currency the cash-reporting thresholds are in (ISO 4217; default USD). Cash in other currencies is listed, not aggregated in the reports; a single transaction's need for an identified patron is judged at the gaming day's rate into this currency.",
    example: 'USD',
    required: false,
  })
  cashCurrency?: string;

  @MoneyField({
    description: 'A single cash transaction of this amount or more goes in the multiple-transaction log (default 300000: USD 3,000)',
    example: 300000,
    required: false,
  })
  mtlThreshold?: number;

  @MoneyField({
    description:
      "A patron's cash in (or out) of a gaming day of more than this aggregate is a currency-transaction-report candidate, and a single cash transaction of more than it needs the patron identified (default 1000000: USD 10,000); at least mtlThreshold",
    example: 1000000,
    required: false,
  })
  ctrThreshold?: number;

  @IntField({
    description: 'A day\'s total from this share of ctrThreshold (basis points, default 8000 = 80 %) up to ctrThreshold itself is "just under" (structuring)',
    example: 8000,
    min: 1,
    max: 9999,
    required: false,
  })
  structuringFloorBps?: number;
}

export class PropertyDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'Europe/Monaco' }) timeZone: string;
  @ApiProperty({ example: 6 }) gamingDayStartHour: number;
  @ApiProperty({ example: 2000, description: "Comps: the share of a patron's theoretical win given back, in basis points" }) compShareBps: number;
  @ApiProperty({ example: 'USD', description: 'The currency of the cash-reporting thresholds' }) cashCurrency: string;
  @MoneyProperty({ description: 'The multiple-transaction log threshold (a single cash transaction of this amount or more)' }) mtlThreshold: MinorUnits;
  @MoneyProperty({ description: "The report threshold (a patron's cash in, or out, of a gaming day of more than this)" }) ctrThreshold: MinorUnits;
  @ApiProperty({ example: 8000, description: '"Just under" the report threshold from this share of it, basis points' }) structuringFloorBps: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

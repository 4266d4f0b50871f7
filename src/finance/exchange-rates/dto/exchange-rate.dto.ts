import { ApiProperty } from '@nestjs/swagger';
import { CurrencyField, DateField, RateField } from '../../../platform/common/validation';

export class SetExchangeRateDto {
  @DateField({
    description: 'The gaming day the rate is for, YYYY-MM-DD. It holds on later days until a later day has a rate of its own.',
    example: '2026-11-20',
  })
  day: string;

  @CurrencyField({ description: 'The currency the rate translates from: a table currency', example: 'EUR' })
  currency: string;

  @CurrencyField({ description: "The group's currency, into which reports translate", example: 'USD' })
  into: string;

  @RateField({ description: 'Units of `into` that one unit of `currency` is worth, as published for the day (at most 9 decimals)', example: '1.0842' })
  rate: string;
}

export class ExchangeRatesQueryDto {
  @DateField({ description: 'First day, YYYY-MM-DD', example: '2026-11-01' })
  from: string;

  @DateField({ description: 'Last day (inclusive), YYYY-MM-DD', example: '2026-11-30' })
  to: string;

  @CurrencyField({ description: 'Only rates into this currency', example: 'USD', required: false })
  into?: string;
}

export class ExchangeRateDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'date', example: '2026-11-20' }) day: string;
  @ApiProperty({ example: 'EUR' }) currency: string;
  @ApiProperty({ example: 'USD' }) into: string;
  @ApiProperty({ description: 'Units of `into` per unit of `currency`, as entered (kept as an integer of billionths)', example: '1.0842' }) rate: string;
  @ApiProperty({ description: 'The key that entered it' }) enteredBy: string;
  @ApiProperty({ format: 'date-time' }) enteredAt: string;
  @ApiProperty({ description: 'False once a later entry for the same day and currencies corrects it; the day then has the later rate' })
  inForce: boolean;
}

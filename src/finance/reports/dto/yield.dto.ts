import { ApiProperty } from '@nestjs/swagger';
import { DateField, MoneyProperty, QueryIntField, UuidField } from '../../../platform/common/validation';

export class YieldQueryDto {
  @UuidField({ description: 'The property advised' })
  propertyId: string;

  @DateField({ description: 'First gaming day of the history, YYYY-MM-DD', example: '2026-07-06' })
  from: string;

  @DateField({ description: 'Last gaming day of the history (inclusive), YYYY-MM-DD; at most a year after from', example: '2026-09-27' })
  to: string;
}

export class YieldEvaluationQueryDto extends YieldQueryDto {
  @QueryIntField({
    description: 'Weeks held back at the end of the range (default 4, a month of whole weeks): the advice is made from the weeks before them',
    example: 4,
    min: 1,
    max: 13,
    required: false,
  })
  holdBackWeeks?: number;
}

export class YieldEstimateDto {
  @MoneyProperty({ example: 60000, description: 'Theoretical win per hour (minor units): the mean over the weeks' }) theo: number;
  @MoneyProperty({ nullable: true, example: 8000, description: 'theo − 2 standard errors over the weeks (null: fewer than two weeks)' }) low: number | null;
  @MoneyProperty({ nullable: true, example: 56000, description: 'theo + 2 standard errors over the weeks (null: fewer than two weeks)' }) high: number | null;
}

export class YieldLevelDto {
  @MoneyProperty({ example: 10000, description: 'The table minimum' }) minBet: number;
  @ApiProperty({ example: '3.00', description: 'Table-hours open at this minimum (table sessions), 2 decimals' }) tableHours: string;
  @ApiProperty({ example: '17.00', description: 'Seat-hours: players a coup averaged over each hour × the hours open, 2 decimals' }) seatHours: string;
  @ApiProperty({ nullable: true, type: String, example: '5.67', description: 'Players seated per open table: seat-hours ÷ table-hours, 2 decimals' })
  occupancy: string | null;
  @ApiProperty({ example: 170, description: 'Player decisions (a seat with a wager on a coup)' }) playerDecisions: number;
  @MoneyProperty({ nullable: true, example: 20000, description: 'handle ÷ player decisions, half up' }) averageBet: number | null;
  @MoneyProperty({ nullable: true, example: 2000, description: 'Theoretical win per seat-hour (an estimate, rounded once)' }) theoPerSeatHour: number | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: '0.5000',
    description: 'The share of the players at the lowest minimum who still play at this one (4 decimals; null: never seen beside the lowest)',
  })
  retention: string | null;
  @ApiProperty({ nullable: true, enum: ['LOWEST', 'SAME_TABLE_HOUR', 'SAME_HOUR'], description: 'Where the retention is measured (docs/domain.md §15)' })
  retentionFrom: string | null;
}

export class YieldTablesDto {
  @MoneyProperty({ example: 10000 }) minBet: number;
  @ApiProperty({ example: 1, description: 'Tables to open at this minimum' }) tables: number;
}

export class YieldDoneDto {
  @MoneyProperty({ example: 10000 }) minBet: number;
  @ApiProperty({ example: '1.50', description: 'Tables open at this minimum on average (table-hours per hour), 2 decimals' }) tables: string;
}

export class YieldHourDto {
  @ApiProperty({ minimum: 0, maximum: 167, example: 20, description: 'Hour of the week, local time: 0 is Monday 00:00–01:00' }) hourOfWeek: number;
  @ApiProperty({ enum: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] }) day: string;
  @ApiProperty({ minimum: 0, maximum: 23, example: 20 }) hour: number;
  @ApiProperty({ example: 2, description: 'Weeks of the history this hour occurs in' }) weeks: number;
  @ApiProperty({ example: '10.00', description: 'Players seated on average in this hour (seat-hours per hour), 2 decimals' }) demand: string;
  @ApiProperty({ type: YieldTablesDto, isArray: true, description: 'The advice: tables to open at each minimum (none: keep them closed)' })
  advice: YieldTablesDto[];
  @ApiProperty({ type: YieldEstimateDto, description: "The advice's expected theoretical win per hour over the weeks' demand" }) expected: YieldEstimateDto;
  @ApiProperty({ type: YieldDoneDto, isArray: true, description: 'What was done: tables open at each minimum on average' }) done: YieldDoneDto[];
  @ApiProperty({ type: YieldEstimateDto, description: 'The theoretical win per hour of what was done (its mean exact)' }) actual: YieldEstimateDto;
  @MoneyProperty({ example: 40000, description: "The model's expected theoretical win per hour of what was done: the model's own bias beside actual" })
  modelOfDone: number;
  @ApiProperty({ type: YieldEstimateDto, description: 'expected − actual, paired week by week' }) gain: YieldEstimateDto;
}

export class YieldTotalsDto {
  @ApiProperty({ type: YieldEstimateDto, description: "The advice's expected theoretical win per week (Σ of the hours; band from the hours' errors)" })
  expected: YieldEstimateDto;
  @ApiProperty({ type: YieldEstimateDto }) actual: YieldEstimateDto;
  @MoneyProperty() modelOfDone: number;
  @ApiProperty({ type: YieldEstimateDto }) gain: YieldEstimateDto;
}

export class YieldAdviceDto {
  @ApiProperty({ format: 'uuid' }) propertyId: string;
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ nullable: true, type: String, example: 'EUR', description: "The tables' currency (null: the property's tables play several)" })
  currency: string | null;
  @ApiProperty({ example: 3, description: 'Tables the property has: the most the advice opens at once' }) tables: number;
  @ApiProperty({ example: 9, description: 'Seats a table, the smallest of its variants (docs/domain.md §15)' }) seatsPerTable: number;
  @ApiProperty({ example: 2, description: 'Weeks of history (an hour of the week occurs at most this often)' }) weeks: number;
  @ApiProperty({ type: YieldLevelDto, isArray: true, description: 'The minimums seen, lowest first' }) levels: YieldLevelDto[];
  @ApiProperty({ type: YieldHourDto, isArray: true, description: 'Each hour of the week in the range, from Monday 00:00' }) hours: YieldHourDto[];
  @ApiProperty({ type: YieldTotalsDto, description: 'A week: the hours summed' }) totals: YieldTotalsDto;
}

export class YieldWeekDto {
  @ApiProperty({ example: 0, description: 'The held-back week (0: the first)' }) week: number;
  @MoneyProperty({ example: 60000, description: "The advice's expected theoretical win over the week at that week's demand" }) advised: number;
  @MoneyProperty({ example: 20000, description: 'The theoretical win made that week (exact)' }) actual: number;
  @MoneyProperty({ example: 20000, description: "The model's expected theoretical win of what was done that week" }) modelOfDone: number;
}

export class YieldEvaluationDto {
  @ApiProperty({ format: 'uuid' }) propertyId: string;
  @ApiProperty({ format: 'date', description: 'The history the advice is made from' }) trainFrom: string;
  @ApiProperty({ format: 'date' }) trainTo: string;
  @ApiProperty({ format: 'date', description: 'The held-back weeks' }) heldFrom: string;
  @ApiProperty({ format: 'date' }) heldTo: string;
  @ApiProperty({ example: 4 }) heldWeeks: number;
  @ApiProperty({
    type: YieldEstimateDto,
    description: "The advice's expected theoretical win over the held-back weeks (band: 2 standard errors of the weekly sums × weeks)",
  })
  advised: YieldEstimateDto;
  @MoneyProperty({ description: 'The theoretical win made in the held-back weeks (exact)' }) actual: number;
  @MoneyProperty({ description: "The model's expected theoretical win of what was done in the held-back weeks" }) modelOfDone: number;
  @ApiProperty({
    type: YieldEstimateDto,
    description: 'advised − actual over the held-back weeks, paired week by week: above 0 the advice would have won more',
  })
  gain: YieldEstimateDto;
  @ApiProperty({ type: YieldWeekDto, isArray: true }) weeks: YieldWeekDto[];
  @ApiProperty({ type: YieldAdviceDto, description: 'The advice made from the weeks before' }) advice: YieldAdviceDto;
}

import { ApiProperty } from '@nestjs/swagger';
import { VARIANTS } from '../../../domain';
import { EnumField, TextField, UuidField } from '../../../platform/common/validation';
import { RangeQueryDto } from './report.dto';

export class PaceQueryDto extends RangeQueryDto {
  @UuidField({ description: 'Only this table (default: all)', required: false })
  tableId?: string;

  @TextField({ description: 'Only the tables of this pit, as named on them (default: all)', example: 'Salon Privé', maxLength: 40, required: false })
  pit?: string;

  @EnumField(VARIANTS, { description: 'Only tables of this game (default: all)', enumName: 'Variant', required: false })
  variant?: (typeof VARIANTS)[number];
}

/** The figures of every row of the pace report (docs/domain.md §13). */
export class PaceFiguresDto {
  @ApiProperty({ example: '2.00', description: "Hours a dealer was on shift at the table while it stood open (the rows' staffed time), 2 decimals" })
  staffedHours: string;
  @ApiProperty({ example: 42, description: 'Coups settled and standing (not voided) called in the staffed time: decisions' }) decisions: number;
  @ApiProperty({ nullable: true, type: String, example: '21.0', description: 'decisions ÷ staffed hours, 1 decimal (null: no staffed time)' })
  decisionsPerHour: string | null;
  @ApiProperty({ example: 44, description: 'Every coup called in the staffed time that came to an end: decisions + voids + misdeals' }) coups: number;
  @ApiProperty({ example: 1, description: 'Settled coups voided since (coup_voids)' }) voids: number;
  @ApiProperty({ nullable: true, type: String, example: '22.7', description: 'voids × 1,000 ÷ coups, 1 decimal (null: no coups)' })
  voidsPer1000Coups: string | null;
  @ApiProperty({ example: 1, description: 'Coups opened for betting and cancelled before their cards' }) misdeals: number;
  @ApiProperty({ nullable: true, type: String, example: '22.7', description: 'misdeals × 1,000 ÷ coups, 1 decimal (null: no coups)' })
  misdealsPer1000Coups: string | null;
  @ApiProperty({ example: '26.0', description: 'Staffed minutes with no coup, beyond the idle allowance of each gap, 1 decimal' }) idleMinutes: string;
  @ApiProperty({ nullable: true, type: String, example: '13.0', description: 'Idle minutes per staffed hour, 1 decimal (null: no staffed time)' })
  idleMinutesPerHour: string | null;
}

export class ExpectedPaceDto {
  @ApiProperty({ example: 72, description: 'Decisions per hour the property expects of the variant' }) decisionsPerHour: number;
  @ApiProperty({
    enum: ['PROPERTY', 'DEFAULT'],
    description:
      "PROPERTY: the property's latest entry (POST /v1/properties/{id}/pace-targets); DEFAULT: derived from a coup's time budget (docs/domain.md §13)",
  })
  source: 'PROPERTY' | 'DEFAULT';
  @ApiProperty({ nullable: true, type: String, example: '29.2', description: 'decisionsPerHour of the row as a percentage of this, 1 decimal' })
  percentOfExpected: string | null;
}

export class PaceDealerDto extends PaceFiguresDto {
  @ApiProperty({ example: 'D-2207', description: "The dealer's employee number" }) dealerId: string;
}

export class PaceTableDto extends PaceFiguresDto {
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty({ example: 'BAC-07' }) tableCode: string;
  @ApiProperty({ example: 'Salon Privé' }) pit: string;
  @ApiProperty({ enum: VARIANTS, enumName: 'Variant' }) variant: string;
  @ApiProperty({ format: 'uuid' }) propertyId: string;
  @ApiProperty({ example: 0, description: 'Decisions called while no dealer was on shift at the table: in no figure above' })
  decisionsOutsideShifts: number;
  @ApiProperty({ type: ExpectedPaceDto }) expected: ExpectedPaceDto;
}

export class PaceHourDto extends PaceFiguresDto {
  @ApiProperty({ minimum: 0, maximum: 23, example: 14, description: "The hour of the day, in each table's property's time zone (14: 14:00 to 15:00)" })
  hour: number;
}

export class PaceVariantDto extends PaceFiguresDto {
  @ApiProperty({ format: 'uuid' }) propertyId: string;
  @ApiProperty({ enum: VARIANTS, enumName: 'Variant' }) variant: string;
  @ApiProperty({ type: ExpectedPaceDto }) expected: ExpectedPaceDto;
  @ApiProperty({
    nullable: true,
    type: String,
    example: '21.0',
    description: "The property's own: the median of decisions per hour over each table's gaming days of the variant with staffed time, 1 decimal",
  })
  observedMedianDecisionsPerHour: string | null;
  @ApiProperty({ example: 1, description: 'Table-days the median is taken over' }) tableDays: number;
}

export class PaceTotalsDto extends PaceFiguresDto {
  @ApiProperty({ example: 0, description: 'Decisions called while no dealer was on shift: in no figure above' }) decisionsOutsideShifts: number;
}

export class PaceReportDto {
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ example: 180, description: 'The part of a gap beyond this many seconds with no coup is idle' }) idleAllowanceSeconds: number;
  @ApiProperty({ type: PaceTotalsDto }) totals: PaceTotalsDto;
  @ApiProperty({ type: PaceDealerDto, isArray: true, description: 'By dealer (a coup is the dealer’s on shift when it was called)' }) dealers: PaceDealerDto[];
  @ApiProperty({ type: PaceTableDto, isArray: true, description: 'By table, by code' }) tables: PaceTableDto[];
  @ApiProperty({ type: PaceHourDto, isArray: true, description: 'By local hour of the day, over every day of the range' }) hours: PaceHourDto[];
  @ApiProperty({ type: PaceVariantDto, isArray: true, description: 'By property and variant, against the pace expected of it' }) variants: PaceVariantDto[];
}

import { ApiProperty } from '@nestjs/swagger';
import type { MinorUnits } from '../../../platform/common/exact-json';
import { CurrencyField, DateField, EnumField, IntField, MoneyField, MoneyProperty, TextField, UuidField } from '../../../platform/common/validation';

/** A programme's code: what the VIP room calls it (letters, digits, . - _). */
const CODE = /^[A-Za-z0-9._-]+$/;

export const PURCHASE_MEANS = ['FRONT_MONEY', 'MARKER', 'CASH_CHIPS'] as const;
export const RETURN_MEANS = ['FRONT_MONEY', 'CASH_CHIPS'] as const;

export class ChipExchangeInputDto {
  @EnumField(['PURCHASE', 'RETURN'], {
    description: 'PURCHASE: dead (non-negotiable) chips issued to the patron; RETURN: dead chips exchanged back',
    enumName: 'ChipExchangeKind',
    example: 'PURCHASE',
  })
  kind: 'PURCHASE' | 'RETURN';

  @MoneyField({ description: 'Dead chips, minor units', example: 10_000_000 })
  amount: number;

  @EnumField(['FRONT_MONEY', 'MARKER', 'CASH_CHIPS'], {
    description:
      'A purchase: against FRONT_MONEY (cash is deposited as front money first, at the cage, where the cash reports see it), a MARKER, or CASH_CHIPS the player converts to keep rolling. A return: into CASH_CHIPS or FRONT_MONEY.',
    enumName: 'ChipExchangeMeans',
    example: 'FRONT_MONEY',
  })
  settledIn: 'FRONT_MONEY' | 'MARKER' | 'CASH_CHIPS';

  @UuidField({ description: 'The table where it happened (default: the cage)', required: false })
  tableId?: string;

  @UuidField({ description: "The property of a cage exchange (default: the table's, else the default property)", required: false })
  propertyId?: string;

  @CurrencyField({ description: "Currency (ISO 4217); default the table's, else the property's cash currency", example: 'HKD', required: false })
  currency?: string;
}

export class ChipExchangeDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) propertyId: string;
  @ApiProperty() patronId: string;
  @ApiProperty({ enum: ['PURCHASE', 'RETURN'], enumName: 'ChipExchangeKind' }) kind: string;
  @MoneyProperty() amount: MinorUnits;
  @ApiProperty() currency: string;
  @ApiProperty({ enum: ['FRONT_MONEY', 'MARKER', 'CASH_CHIPS'], enumName: 'ChipExchangeMeans' }) settledIn: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'null: the cage' }) tableId: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: "A purchase against a MARKER: the patron's marker written with it" }) markerId:
    string | null;
  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: "A junket member's purchase against a MARKER: the junket whose markers it is drawn on",
  })
  junketId: string | null;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty() recordedByKeyId: string;
}

export class RollingQueryDto {
  @DateField({ description: 'First gaming day, YYYY-MM-DD (a trip: its first day)', example: '2026-11-01' })
  from: string;

  @DateField({ description: 'Last gaming day (inclusive), YYYY-MM-DD', example: '2026-11-07' })
  to: string;

  @UuidField({ description: 'Only this property (default: every property; required with `programme`)', required: false })
  propertyId?: string;

  @TextField({
    description: "The property's programme the trip is played under: its commission and allowance are worked out day by day at the version in force",
    example: 'VIP-ROLL',
    maxLength: 40,
    pattern: CODE,
    patternHint: 'may hold letters, digits, ., - and _',
    required: false,
  })
  programme?: string;
}

export class ProgrammeDueDto {
  @ApiProperty() code: string;
  @MoneyProperty({
    description: 'Σ over the days of the basis (rolling, or the win/loss) × the rate in force that day, rounded once; negative: a share of a loss',
  })
  commission: MinorUnits;
  @MoneyProperty({ description: 'Σ over the days of the rolling × the allowance rate, rounded once' }) allowance: MinorUnits;
  @MoneyProperty({ description: "The house's win net of the programme: win − commission − allowance" }) netWin: MinorUnits;
  @ApiProperty({ type: String, isArray: true, description: 'Days played before the programme began (nothing due on them)' }) daysOutside: string[];
}

export class ProgrammeInputDto {
  @TextField({
    description: 'The programme code (a new version of an existing code changes it from its effective day)',
    example: 'VIP-ROLL',
    maxLength: 40,
    pattern: CODE,
    patternHint: 'may hold letters, digits, ., - and _',
  })
  code: string;

  @TextField({ description: 'Its name', example: 'Rolling commission 1.2 %', maxLength: 200 })
  name: string;

  @EnumField(['ROLLING', 'WIN_LOSS'], {
    description: 'Commission as a share of the rolling, or of the house’s win or loss',
    enumName: 'ProgrammeBasis',
    example: 'ROLLING',
  })
  basis: 'ROLLING' | 'WIN_LOSS';

  @IntField({ description: 'Commission, basis points of the basis (120 = 1.2 %)', example: 120, min: 0, max: 10_000 })
  commissionBps: number;

  @IntField({ description: 'Trip allowance (room, travel), basis points of the rolling (default 0)', example: 20, min: 0, max: 10_000, required: false })
  allowanceBps?: number;

  @DateField({ description: 'The first gaming day it applies to: today or later, and after the code’s latest version', example: '2026-12-01' })
  effectiveFrom: string;

  @UuidField({
    description:
      'The credit request (act PROGRAMME) a second credit officer approved for these terms: the version is recorded only as approved, each term the same, once',
    required: false,
  })
  requestId?: string;
}

export class ProgrammeDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) propertyId: string;
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['ROLLING', 'WIN_LOSS'], enumName: 'ProgrammeBasis' }) basis: string;
  @ApiProperty() commissionBps: number;
  @ApiProperty() allowanceBps: number;
  @ApiProperty({ format: 'date' }) effectiveFrom: string;
  @ApiProperty() recordedByKeyId: string;
  @ApiProperty({ format: 'date-time' }) recordedAt: string;
  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'The credit request (act PROGRAMME) that approved its terms: who asked and who approved (null: recorded before the control)',
  })
  requestId: string | null;
}

export class RollingAccountDto {
  @ApiProperty() currency: string;
  @MoneyProperty({ description: 'Dead chips bought in the range' }) purchased: MinorUnits;
  @MoneyProperty({ description: 'Dead chips exchanged back in the range' }) returned: MinorUnits;
  @MoneyProperty({ description: 'Rolling turnover counted at the cage: purchased − returned' }) netPurchased: MinorUnits;
  @MoneyProperty({ description: 'Rolling turnover counted at the tables: the dead chips lost on wagers' }) rolled: MinorUnits;
  @MoneyProperty({ description: 'Dead chips still held: netPurchased − rolled (0 once a trip is settled; negative: more lost than bought, an exception)' })
  inHand: MinorUnits;
  @ApiProperty({ description: 'The two counts of rolling agree (nothing left in hand)' }) agrees: boolean;
  @ApiProperty({ description: 'Dead-chip wagers settled on coups that stand' }) wagers: number;
  @MoneyProperty({ description: 'Σ stakes of the dead-chip wagers' }) handle: MinorUnits;
  @MoneyProperty({ description: "The house's win on the dead-chip wagers (commission included)" }) win: MinorUnits;
  @ApiProperty({ nullable: true, type: String, description: 'Rolling-chip win %: win ÷ rolled, 4 decimals' }) rollingWinPercent: string | null;
  @MoneyProperty({ description: 'Σ stake × exact house edge of the dead-chip wagers, rounded once' }) theoreticalWin: MinorUnits;
  @MoneyProperty({ description: "The standard deviation of the win about theoreticalWin (each coup's stakes through the bets' covariances)" })
  theoreticalWinStdDev: MinorUnits;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Theoretical rolling-chip win %: Σ stake × edge ÷ Σ stake × the exact probability the bet loses, 4 decimals',
  })
  theoreticalRollingWinPercent: string | null;
  @ApiProperty({ type: ProgrammeDueDto, nullable: true, description: 'What the programme asked for owes (null: none asked for)' })
  programme: ProgrammeDueDto | null;
}

export class RollingDto {
  @ApiProperty() patronId: string;
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ type: RollingAccountDto, isArray: true, description: 'One account per currency played or exchanged in' }) accounts: RollingAccountDto[];
}

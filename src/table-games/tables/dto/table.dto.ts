import { MoneyProperty } from '../../../platform/common/validation';
import type { MinorUnits } from '../../../platform/common/exact-json';
import { ApiProperty } from '@nestjs/swagger';
import { PayTermsFields, RoundingDto } from '../../../platform/common/pay-terms.dto';
import { BET_TYPES, SIDE_BETS, VARIANTS } from '../../../domain';
import {
  BoolField,
  EnumArrayField,
  EnumField,
  IntField,
  MoneyField,
  NestedField,
  PAY_HINT,
  PAY_PATTERN,
  TextField,
  UuidField,
  CurrencyField,
} from '../../../platform/common/validation';
import { PayOverrideDto } from '../../../platform/common/pay-override.dto';

export class BetLimitDto {
  @EnumField(BET_TYPES, { description: 'Bet type', enumName: 'BetType', example: 'TIE' })
  betType: string;

  @MoneyField({ description: 'Smallest stake, minor units', example: 500 })
  min: number;

  @MoneyField({ description: 'Largest stake, minor units', example: 100000 })
  max: number;
}

export class CreateTableDto {
  @TextField({
    description: 'Table code as the pit knows it',
    example: 'BAC-07',
    maxLength: 20,
    pattern: /^[A-Za-z0-9][A-Za-z0-9_-]*$/,
    patternHint: 'may hold letters, digits, - and _',
  })
  code: string;

  @TextField({ description: 'Pit the table stands in', example: 'Salon Privé', maxLength: 40, required: false })
  pit?: string;

  @EnumField(VARIANTS, { description: 'Game dealt', enumName: 'Variant', example: 'COMMISSION' })
  variant: (typeof VARIANTS)[number];

  @CurrencyField({
    description: 'ISO 4217 currency of the table',
    example: 'EUR',
  })
  currency: string;

  @MoneyField({ description: 'Table minimum, minor units', example: 2500 })
  minBet: number;

  @MoneyField({ description: 'Table maximum, minor units', example: 500000 })
  maxBet: number;

  @IntField({ description: 'Decks per shoe (default: 8; chemin de fer 6; banque 3)', example: 8, min: 1, max: 8, required: false })
  decks?: number;

  @IntField({
    description:
      "Commission on winning Banker bets (or the player-banker's winnings), basis points; default 500 where the variant charges one. SUPER_6 and EZ charge none: anything but 0 is refused (INVALID_RULES)",
    example: 500,
    min: 0,
    max: 10000,
    required: false,
  })
  commissionBps?: number;

  @TextField({ description: 'Tie pay (default "8 to 1")', example: '9 to 1', maxLength: 24, pattern: PAY_PATTERN, patternHint: PAY_HINT, required: false })
  tiePays?: string;

  @BoolField({ description: 'A tied Player/Banker bet stays for the next coup (else it is returned)', example: false, required: false })
  tieBetsStay?: boolean;

  @EnumArrayField(SIDE_BETS, {
    description: 'Side bets offered (default by variant)',
    enumName: 'SideBet',
    example: ['PLAYER_PAIR', 'BANKER_PAIR'],
    required: false,
  })
  sideBets?: string[];

  @NestedField(() => PayOverrideDto, { description: 'Pays that differ from the usual table (domain pay tables)', array: true, maxItems: 12, required: false })
  pays?: PayOverrideDto[];

  @TextField({
    description: 'Perfect Pair version 2: pay when both hands are perfect pairs',
    example: '250 to 1',
    maxLength: 24,
    pattern: PAY_PATTERN,
    patternHint: PAY_HINT,
    required: false,
  })
  perfectPairBothPays?: string;

  @NestedField(() => BetLimitDto, { description: 'Limits per bet type (default: the table minimum and maximum)', array: true, maxItems: 12, required: false })
  betLimits?: BetLimitDto[];

  @NestedField(() => RoundingDto, { description: 'Rounding of commission and fractional pays (default FLOOR to the minor unit)', required: false })
  rounding?: RoundingDto;

  @UuidField({ description: 'Property (default: the default property)', required: false })
  propertyId?: string;
}

export class BetLimitView extends PayTermsFields {
  @ApiProperty({ enum: BET_TYPES, enumName: 'BetType' }) betType: string;
  @MoneyProperty() min: MinorUnits;
  @MoneyProperty() max: MinorUnits;
  @ApiProperty({ example: '8 to 1', description: 'Pay, "to 1" basis' }) pays: string;
}

export class TableDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) propertyId: string;
  @ApiProperty() code: string;
  @ApiProperty() pit: string;
  @ApiProperty({ enum: VARIANTS, enumName: 'Variant' }) variant: string;
  @ApiProperty() currency: string;
  @MoneyProperty({ description: 'The table minimum in force (its latest change of limits, else its opening limits)' }) minBet: MinorUnits;
  @MoneyProperty({ description: 'The table maximum in force' }) maxBet: MinorUnits;
  @ApiProperty({ format: 'date-time', description: 'When the limits in force took effect (the table opening, when never changed)' }) limitsSince: string;
  @ApiProperty() decks: number;
  @ApiProperty() commissionBps: number;
  @ApiProperty({ example: '8 to 1' }) tiePays: string;
  @ApiProperty() tieBetsStay: boolean;
  @ApiProperty({ enum: SIDE_BETS, enumName: 'SideBet', isArray: true }) sideBets: string[];
  @ApiProperty({ type: BetLimitView, isArray: true, description: 'Every bet offered, with its limits in force and pay' }) bets: BetLimitView[];
  @ApiProperty({ nullable: true, type: String }) perfectPairBothPays: string | null;
  @ApiProperty({ type: RoundingDto }) rounding: RoundingDto;
  @ApiProperty({ enum: ['OPEN', 'CLOSED'] }) status: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

/** Text with at least one visible character: not only spaces, zero-width or direction marks. */
const VISIBLE_TEXT = /[^\s\u200B-\u200F\u2028-\u202F\u2060-\u206F\uFEFF]/;

export class ChangeLimitsDto {
  @MoneyField({ description: 'The new table minimum, minor units', example: 5000 })
  minBet: number;

  @MoneyField({ description: 'The new table maximum, minor units', example: 2_000_000 })
  maxBet: number;

  @NestedField(() => BetLimitDto, {
    description:
      "The bets' own limits from the change on. Left out: each bet's own limits in force stay as they are; an empty list clears them (every bet then takes the table minimum and maximum).",
    array: true,
    maxItems: 12,
    required: false,
  })
  betLimits?: BetLimitDto[];

  @TextField({
    description: 'Why the limits change (kept with the change)',
    example: 'Saturday evening: minimum raised for the crowd',
    minLength: 3,
    maxLength: 500,
    pattern: VISIBLE_TEXT,
    patternHint: 'must say why: it holds no visible character',
  })
  reason: string;
}

export class LimitLevelView {
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The change (null: the opening limits)' }) changeId: string | null;
  @ApiProperty({ description: '0 for the opening limits, then 1, 2… for each change' }) seq: number;
  @MoneyProperty() minBet: MinorUnits;
  @MoneyProperty() maxBet: MinorUnits;
  @ApiProperty({ type: BetLimitView, isArray: true, description: 'Every bet offered, with its limits and pay under these limits' }) bets: BetLimitView[];
  @ApiProperty() reason: string;
  @ApiProperty({ nullable: true, type: String, description: 'The key that made the change (null: the opening limits)' }) changedByKeyId: string | null;
  @ApiProperty({ format: 'date-time', description: 'When these limits took effect' }) effectiveAt: string;
}

export class LimitsDto {
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty() currency: string;
  @ApiProperty({ type: LimitLevelView, description: 'The limits in force now' }) inForce: LimitLevelView;
  @ApiProperty({ type: LimitLevelView, isArray: true, description: 'The opening limits and every change, oldest first' }) history: LimitLevelView[];
}

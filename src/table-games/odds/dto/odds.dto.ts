import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject } from 'class-validator';
import { BET_TYPES, SIDE_BETS, VARIANTS } from '../../../domain';
import { BoolField, CardsField, EnumArrayField, EnumField, IntField, NestedField, Optional, TextField } from '../../../platform/common/validation';
import { PayOverrideDto } from '../../../platform/common/pay-override.dto';

export class OddsRulesDto {
  @IntField({ description: 'Banker commission, basis points', example: 500, min: 0, max: 10000, required: false })
  commissionBps?: number;

  @TextField({ description: 'Tie pay', example: '9 to 1', maxLength: 24, required: false })
  tiePays?: string;

  @EnumArrayField(SIDE_BETS, { description: 'Side bets to price (default: all of them)', enumName: 'SideBet', required: false })
  sideBets?: string[];

  @NestedField(() => PayOverrideDto, { description: 'Pay overrides', array: true, maxItems: 12, required: false })
  pays?: PayOverrideDto[];

  @TextField({ description: 'Perfect Pair version 2 pay for two perfect pairs', example: '250 to 1', maxLength: 24, required: false })
  perfectPairBothPays?: string;

  @BoolField({ description: 'Unused by the odds; accepted so a table rule set can be sent as is', required: false })
  tieBetsStay?: boolean;
}

export class OddsShoeDto {
  @IntField({ description: 'A full shoe of this many decks…', example: 8, min: 1, max: 8, required: false })
  decks?: number;

  @CardsField({ description: '…minus these cards already seen', example: ['AS', 'KD', '9H'], minItems: 0, maxItems: 416, required: false })
  dealt?: string[];

  @ApiPropertyOptional({
    description: 'Or: how many of each card remain (cards not named: 0)',
    type: 'object',
    additionalProperties: { type: 'integer', minimum: 0, maximum: 8 },
    example: { AS: 3, KD: 5 },
  })
  @IsObject({ message: 'cards must be an object of card → count' })
  @Optional()
  cards?: Record<string, number>;
}

export class OddsRequestDto {
  @EnumField(VARIANTS, { description: 'Variant (default COMMISSION)', enumName: 'Variant', required: false })
  variant?: string;

  @NestedField(() => OddsRulesDto, { description: 'House rules (default: the usual table)', required: false })
  rules?: OddsRulesDto;

  @NestedField(() => OddsShoeDto, { description: 'The shoe: { decks, dealt? } or { cards }' })
  shoe: OddsShoeDto;
}

export class BetResultOddsDto {
  @ApiProperty({ enum: ['WIN', 'LOSE', 'PUSH'] }) result: string;
  @ApiProperty({ example: 'Banker wins with 6' }) label: string;
  @ApiProperty({ nullable: true, type: String, example: '0.5 to 1' }) pays: string | null;
  @ApiProperty({ description: 'Ordered 6-card sequences giving this result (decimal string)' }) count: string;
  @ApiProperty() probability: number;
}

export class BetOddsDto {
  @ApiProperty({ enum: BET_TYPES, enumName: 'BetType' }) betType: string;
  @ApiProperty({ example: '8 to 1' }) pays: string;
  @ApiProperty({ description: 'Expected loss per unit staked (ties included); positive favours the house', example: 0.010579 }) houseEdge: number;
  @ApiProperty({ description: 'House edge in percent, 6 decimals, exact rounding', example: '1.057903' }) houseEdgePercent: string;
  @ApiProperty({ type: BetResultOddsDto, isArray: true }) results: BetResultOddsDto[];
}

export class OddsResponseDto {
  @ApiProperty({ description: 'Cards in the shoe composition' }) cards: number;
  @ApiProperty({ description: 'Ordered 6-card sequences n(n−1)…(n−5), decimal string', example: '4998398275503360' }) denominator: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { banker: '2292252566437888', player: '2230518282592256', tie: '475627426473216' },
  })
  outcomes: Record<string, string>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'Counts of every event a bet depends on' })
  events: Record<string, string>;
  @ApiProperty({ type: BetOddsDto, isArray: true }) bets: BetOddsDto[];
}

import { MoneyProperty } from '../../../platform/common/validation';
import type { MinorUnits } from '../../../platform/common/exact-json';
import { ApiProperty } from '@nestjs/swagger';
import { BET_TYPES, CHIPS } from '../../../domain';
import {
  CardsField,
  DateTimeField,
  EnumField,
  IntField,
  MAX_SEAT,
  MoneyField,
  NestedField,
  PATRON_PATTERN,
  TextField,
} from '../../../platform/common/validation';

export const MAX_WAGERS_PER_REQUEST = 64;

export class HandsDto {
  @CardsField({
    description: "Player's (or the punter's) cards in dealing order: two, then the third if drawn",
    example: ['9H', 'TD'],
    minItems: 2,
    maxItems: 3,
  })
  player: string[];

  @CardsField({ description: "Banker's cards in dealing order", example: ['7S', 'KC'], minItems: 2, maxItems: 3 })
  banker: string[];
}

export class WagerInputDto {
  @IntField({ description: 'Seat (betting position) at the table', example: 3, min: 1, max: MAX_SEAT })
  seat: number;

  @EnumField(BET_TYPES, { description: 'Bet type', enumName: 'BetType', example: 'BANKER' })
  betType: string;

  @MoneyField({ description: 'Stake, minor units', example: 10000 })
  amount: number;

  @TextField({
    description:
      "The patron's registered player card, when known. Without it, the wager is the patron's whose card is in at its seat (none: nobody's); a seat several patrons share needs it (PATRON_REQUIRED).",
    example: 'P-10442',
    maxLength: 64,
    pattern: PATRON_PATTERN,
    patternHint: 'may hold letters, digits, ., - and _',
    required: false,
  })
  patronId?: string;

  @EnumField(CHIPS, {
    description:
      'The chips staked: CASH (the default) or DEAD, non-negotiable rolling chips issued to a patron, who must be named or seated (DEAD_CHIPS_NEED_PATRON). A losing dead-chip bet is rolled; a winning one is paid in cash chips and its dead chips stay with the player.',
    enumName: 'ChipKind',
    example: 'DEAD',
    required: false,
  })
  chipKind?: 'CASH' | 'DEAD';
}

export class RecordCoupDto {
  @NestedField(() => HandsDto, { description: 'The cards as dealt. Omit to open the coup for betting and record the cards later.', required: false })
  cards?: HandsDto;

  @NestedField(() => WagerInputDto, { description: 'Wagers on this coup', array: true, maxItems: MAX_WAGERS_PER_REQUEST, required: false })
  wagers?: WagerInputDto[];

  @IntField({
    description:
      "The coup's number as the terminal expects it (the shoe's next). Sent, it is the coup's number or the coup is refused with COUP_NUMBER_TAKEN: another terminal recorded that coup first. A terminal that records while the service cannot be reached sends it, so that two terminals never record one coup twice.",
    example: 17,
    min: 1,
    max: 1000,
    required: false,
  })
  number?: number;

  @DateTimeField({
    description:
      "When the terminal recorded the coup (the screens send it with every coup, so that a retry is the same request). Not after the moment it arrives, nor before its shoe was opened (COUP_TIME_IMPOSSIBLE). A coup that arrives 30 seconds or more after it was recorded (recorded while the service could not be reached) keeps the time and is listed, with its delay, in the exception report. The settlement, gaming day and audit entry are the service's, as for every coup.",
    example: '2026-11-28T21:04:05.120+08:00',
    required: false,
  })
  recordedAt?: string;
}

export class AddWagersDto {
  @NestedField(() => WagerInputDto, { description: 'Wagers to add while betting is open', array: true, minItems: 1, maxItems: MAX_WAGERS_PER_REQUEST })
  wagers: WagerInputDto[];
}

export class VoidCoupDto {
  @TextField({ description: 'Why the coup is voided (kept with the void record)', example: 'Cards recorded for the wrong table', maxLength: 500, minLength: 3 })
  reason: string;
}

export class OutcomeDto {
  @ApiProperty({ enum: ['PLAYER', 'BANKER', 'TIE'] }) winner: string;
  @ApiProperty() playerTotal: number;
  @ApiProperty() bankerTotal: number;
  @ApiProperty() playerCards: number;
  @ApiProperty() bankerCards: number;
  @ApiProperty({ description: 'Cards dealt, 4 to 6' }) cardCount: number;
  @ApiProperty({ description: 'Either hand had 8 or 9 on two cards' }) natural: boolean;
  @ApiProperty() playerPair: boolean;
  @ApiProperty() bankerPair: boolean;
  @ApiProperty() playerPerfectPair: boolean;
  @ApiProperty() bankerPerfectPair: boolean;
  @ApiProperty({ description: 'Banker won with 6 (Super 6)' }) bankerWinWith6: boolean;
  @ApiProperty({ nullable: true, type: Number, enum: [2, 3] }) bankerWinWith6Cards: number | null;
  @ApiProperty({ description: 'Banker won with a three-card 7 (EZ push, Dragon 7)' }) dragon7: boolean;
  @ApiProperty({ description: 'Player won with a three-card 8 (Panda 8)' }) panda8: boolean;
}

export class WagerDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'null while a carried tie bet waits for its coup' }) coupId: string | null;
  @ApiProperty() seat: number;
  @ApiProperty({ enum: BET_TYPES, enumName: 'BetType' }) betType: string;
  @MoneyProperty({ description: 'Stake, minor units' }) amount: MinorUnits;
  @ApiProperty({ nullable: true, type: String }) patronId: string | null;
  @ApiProperty({ enum: ['OPEN', 'SETTLED', 'WITHDRAWN'] }) status: string;
  @ApiProperty({ enum: ['WIN', 'LOSE', 'PUSH'], nullable: true, type: String }) result: string | null;
  @MoneyProperty({ nullable: true, description: 'Profit paid beyond the returned stake' }) payout: MinorUnits | null;
  @MoneyProperty({ nullable: true, description: 'Commission charged (accrued against the seat)' }) commission: MinorUnits | null;
  @MoneyProperty({ nullable: true, description: "Customer's result: payout − commission, −stake on a loss, 0 on a push" }) net: MinorUnits | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The tied wager this one carries forward' }) carriedFromId: string | null;
  @ApiProperty({
    enum: CHIPS,
    enumName: 'ChipKind',
    description: 'The chips staked: CASH, or DEAD (rolling chips: rolled when lost; a win is paid in cash chips)',
  })
  chipKind: string;
}

export class CoupVoidDto {
  @ApiProperty() reason: string;
  @ApiProperty() voidedByKeyId: string;
  @ApiProperty() voidedByRole: string;
  @ApiProperty({ format: 'date-time' }) at: string;
}

export class CoupDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) shoeId: string;
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty({ description: 'Coup number within the shoe' }) number: number;
  @ApiProperty({ enum: ['BETTING', 'SETTLED'] }) status: string;
  @ApiProperty({ type: CoupVoidDto, nullable: true }) void: CoupVoidDto | null;
  @ApiProperty({ type: HandsDto, nullable: true }) cards: HandsDto | null;
  @ApiProperty({ type: OutcomeDto, nullable: true }) outcome: OutcomeDto | null;
  @ApiProperty({ type: WagerDto, isArray: true }) wagers: WagerDto[];
  @ApiProperty({ type: WagerDto, isArray: true, description: 'Tied bets carried to the next coup' }) carriedForward: WagerDto[];
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) settledAt: string | null;
  @ApiProperty({ format: 'date', nullable: true, type: String, description: 'Gaming day (property time zone and start hour)' }) gamingDay: string | null;
}

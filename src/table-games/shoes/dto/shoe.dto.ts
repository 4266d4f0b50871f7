import { MoneyProperty } from '../../../platform/common/validation';
import type { MinorUnits } from '../../../platform/common/exact-json';
import { ApiProperty } from '@nestjs/swagger';
import { CardsField, IntField, TextField } from '../../../platform/common/validation';

export class OpenShoeDto {
  @IntField({ description: "Decks in the shoe (default: the table's)", example: 8, min: 1, max: 8, required: false })
  decks?: number;

  @CardsField({
    description: 'The burn: the first card turned face up, then (if seen) the cards burned after it (A = 1 … 10/faces = 10 cards)',
    example: ['3H'],
    minItems: 1,
    maxItems: 11,
    required: false,
  })
  burnCards?: string[];

  @IntField({ description: 'Cut card position: how many cards from the end of the shoe it is placed', example: 16, min: 1, max: 415, required: false })
  cutCardPosition?: number;

  @TextField({ description: 'Shuffle or seal reference (shuffler batch, seal number)', example: 'SHUF-2026-11-21-07', maxLength: 100, required: false })
  shuffleRef?: string;
}

export class CoupSummaryDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() number: number;
  @ApiProperty({ enum: ['BETTING', 'SETTLED'] }) status: string;
  @ApiProperty() voided: boolean;
  @ApiProperty({ enum: ['PLAYER', 'BANKER', 'TIE'], nullable: true, type: String }) winner: string | null;
  @ApiProperty({ nullable: true, type: Number }) playerTotal: number | null;
  @ApiProperty({ nullable: true, type: Number }) bankerTotal: number | null;
}

export class CommissionOwedDto {
  @ApiProperty() seat: number;
  @ApiProperty({ nullable: true, type: String }) patronId: string | null;
  @MoneyProperty({ description: 'Commission charged and not yet collected, minor units' }) outstanding: MinorUnits;
}

export class ShoeDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty({ description: 'Shoe number at this table' }) number: number;
  @ApiProperty() decks: number;
  @ApiProperty({ enum: ['OPEN', 'CLOSED'] }) status: string;
  @ApiProperty({ type: String, isArray: true }) burnCards: string[];
  @ApiProperty({ nullable: true, type: Number }) cutCardPosition: number | null;
  @ApiProperty({ nullable: true, type: String }) shuffleRef: string | null;
  @ApiProperty({ description: 'Cards out of the shoe, face-down burns included' }) cardsDealt: number;
  @ApiProperty({ description: 'Cards physically left in the shoe' }) cardsLeft: number;
  @ApiProperty({ description: 'Coups recorded (voided ones included: their numbers stay used)' }) coupCount: number;
  @ApiProperty({ nullable: true, type: Number, description: 'Set once the cut card has come out: the last coup of the shoe' }) lastCoupNumber: number | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid', description: 'The coup taking bets now, if any' }) openCoupId: string | null;
  @ApiProperty({ type: String, isArray: true, description: 'Cards seen so far, in order: burn, then every unvoided coup' }) cardsSeen: string[];
  @ApiProperty({
    description: 'Cards not yet seen, per card (face-down burns are among them)',
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { AS: 8, '2S': 7 },
  })
  remaining: Record<string, number>;
  @ApiProperty({ type: CoupSummaryDto, isArray: true }) coups: CoupSummaryDto[];
  @ApiProperty({ format: 'date-time' }) openedAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) closedAt: string | null;
}

export class ClosedShoeDto extends ShoeDto {
  @ApiProperty({ type: CommissionOwedDto, isArray: true, description: 'Commission still owed per seat when the shoe closed' })
  commissionOutstanding: CommissionOwedDto[];
  @ApiProperty({ description: 'Carried tie bets returned because the shoe ended' }) carriedBetsReturned: number;
}

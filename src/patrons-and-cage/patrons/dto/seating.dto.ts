import { ApiProperty } from '@nestjs/swagger';
import { DateField, IntField, MAX_SEAT, MoneyProperty, PATRON_MAX_LENGTH, PATRON_PATTERN, TextField } from '../../../platform/common/validation';
import type { MinorUnits } from '../../../platform/common/exact-json';

export class StartSeatingDto {
  @TextField({
    description: "The patron's player-card number, as registered",
    example: 'P-10442',
    maxLength: PATRON_MAX_LENGTH,
    pattern: PATRON_PATTERN,
    patternHint: 'may hold letters, digits, ., - and _',
  })
  patronId: string;

  @IntField({ description: 'The seat (betting position) the card goes in at', example: 3, min: 1, max: MAX_SEAT })
  seat: number;
}

export class SeatingDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: "The patron's player-card number", example: 'P-10442' }) patronId: string;
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty({ example: 3 }) seat: number;
  @ApiProperty({ format: 'date', description: 'The gaming day the card went in' }) gamingDay: string;
  @ApiProperty({ format: 'date-time', description: 'Card in' }) startedAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'Card out (null: still seated)' }) endedAt: string | null;
  @ApiProperty({ description: 'The API key that put the card in' }) startedByKeyId: string;
  @ApiProperty({ nullable: true, type: String, description: 'The API key that took it out' }) endedByKeyId: string | null;
}

/** A seating as a table's listing gives it: with the patron's play in it (the pit's seat map). */
export class TableSeatingDto extends SeatingDto {
  @ApiProperty({ description: 'Coups the patron played in it: settled wagers, coups voided since left out' }) coups: number;
  @MoneyProperty({ description: 'Their handle, minor units of the table currency' }) handle: MinorUnits;
  @MoneyProperty({ nullable: true, description: "Average bet: handle over coups played, half up (null before a coup), as a patron's rating has it" })
  averageBet: MinorUnits | null;
}

export class SeatingsQueryDto {
  @DateField({ description: 'Every seating begun on this gaming day, YYYY-MM-DD (default: the seatings open now)', example: '2026-11-23', required: false })
  gamingDay?: string;
}

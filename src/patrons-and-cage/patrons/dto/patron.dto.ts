import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MinorUnits } from '../../../platform/common/exact-json';
import { DateField, MoneyProperty, PATRON_MAX_LENGTH, PATRON_PATTERN, TextField, UuidField } from '../../../platform/common/validation';
import { SeatingDto } from './seating.dto';

/** A lookup of a card: GET /v1/patrons?card=… */
export class PatronLookupDto {
  @TextField({
    description: 'The player-card number to look up (letters, digits, ., - and _)',
    example: 'P-10442',
    maxLength: PATRON_MAX_LENGTH,
    pattern: PATRON_PATTERN,
    patternHint: 'may hold letters, digits, ., - and _',
  })
  card: string;
}

export class RegisterPatronDto {
  @TextField({
    description: "The casino's player-card number: the patron's key for good",
    example: 'P-10442',
    maxLength: PATRON_MAX_LENGTH,
    pattern: PATRON_PATTERN,
    patternHint: 'may hold letters, digits, ., - and _',
  })
  card: string;

  @TextField({ description: 'Name, only where the casino keeps one', example: 'A. Martin', maxLength: 100, required: false })
  name?: string;

  @TextField({ description: "Player's club tier, only where the casino keeps one", example: 'Gold', maxLength: 40, required: false })
  tier?: string;
}

export class PatronDto {
  @ApiProperty({ example: 'P-10442' }) card: string;
  @ApiProperty({ nullable: true, type: String }) name: string | null;
  @ApiProperty({ nullable: true, type: String }) tier: string | null;
  @ApiProperty({ format: 'date-time' }) registeredAt: string;
  @ApiProperty({ type: SeatingDto, isArray: true, description: 'Where the card is in now' }) seated: SeatingDto[];
}

export class RatingQueryDto {
  @DateField({ description: 'First gaming day, YYYY-MM-DD', example: '2026-11-01' })
  from: string;

  @DateField({ description: 'Last gaming day (inclusive), YYYY-MM-DD', example: '2026-11-30' })
  to: string;

  @UuidField({ description: 'Only play at this property (default: every property)', required: false })
  propertyId?: string;
}

export class BetFiguresDto {
  @ApiProperty() wagers: number;
  @MoneyProperty() handle: MinorUnits;
  @MoneyProperty({ description: "The house's win from these bets" }) actualWin: MinorUnits;
  @MoneyProperty() theoreticalWin: MinorUnits;
}

export class RatingFiguresDto {
  @ApiProperty({ description: 'Coups with at least one of the patron’s wagers (decisions)' }) coups: number;
  @ApiProperty() wagers: number;
  @MoneyProperty({ description: 'Σ stakes' }) handle: MinorUnits;
  @MoneyProperty({ nullable: true, description: 'Handle ÷ coups played, rounded half up: the stake per decision, from the ledger' })
  averageBet: MinorUnits | null;
  @MoneyProperty({ description: "The house's win from the patron: −Σ the patron's net (commission included)" }) actualWin: MinorUnits;
  @MoneyProperty({ description: "Σ stake × the exact house edge of the bet under its table's rules, rounded once to the minor unit" })
  theoreticalWin: MinorUnits;
  @MoneyProperty({ description: 'Standard deviation of the win about theoreticalWin (each coup’s stakes through the bets’ exact covariances)' })
  theoStdDev: MinorUnits;
  @ApiProperty({ description: 'actualWin lies within theoreticalWin ± 2 × theoStdDev (luck); false: look for a reason' }) withinTwoSigma: boolean;
  @ApiProperty({ description: 'Seconds the card was in (two seats at once count once)' }) secondsPlayed: number;
  @ApiProperty({ nullable: true, type: String, example: '62.4', description: 'Coups per hour of card-in time, 1 decimal' }) decisionsPerHour: string | null;
  @MoneyProperty({ description: "Comps earned: theoretical win × the property's comp share, rounded down" }) comps: MinorUnits;
  @ApiProperty({
    description: 'Figures per bet type (only the bet types played)',
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/BetFiguresDto' },
    example: { BANKER: { wagers: 40, handle: 400000, actualWin: 12500, theoreticalWin: 4232 } },
  })
  byBetType: Record<string, BetFiguresDto>;
}

export class VisitDto extends RatingFiguresDto {
  @ApiProperty({ type: SeatingDto, description: 'The seating: table, seat, card in and out' }) seating: SeatingDto;
}

export class DayRatingDto extends RatingFiguresDto {
  @ApiProperty({ format: 'date' }) gamingDay: string;
}

export class RatingDto {
  @ApiProperty({ example: 'P-10442' }) card: string;
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) propertyId: string | null;
  @ApiProperty({ format: 'date-time', description: 'Open seatings are counted up to this moment' }) asOf: string;
  @ApiProperty({ type: RatingFiguresDto, description: 'The whole period (a trip, when the range is its days)' }) total: RatingFiguresDto;
  @ApiProperty({ type: DayRatingDto, isArray: true, description: 'Each gaming day played' }) days: DayRatingDto[];
  @ApiProperty({ description: 'Visits (seatings) begun in the period: read them, with their figures, a page at a time (GET /v1/patrons/{card}/visits)' })
  visitCount: number;
}

export class VisitsQueryDto extends RatingQueryDto {
  @UuidField({ description: 'The last visit of the page before (its `next`); none: from the first visit', required: false })
  after?: string;

  @TextField({
    description: 'How many visits, oldest first: 1 to 500 (default 100)',
    example: '100',
    maxLength: 3,
    pattern: /^[1-9]\d{0,2}$/,
    patternHint: 'must be a whole number from 1 to 500',
    required: false,
  })
  limit?: string;
}

export class VisitsPageDto {
  @ApiProperty({ example: 'P-10442' }) card: string;
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String }) propertyId: string | null;
  @ApiProperty({ format: 'date-time', description: 'Open seatings are counted up to this moment' }) asOf: string;
  @ApiProperty({ type: VisitDto, isArray: true, description: 'Seatings begun in the period, oldest first, each with its play on those days' })
  visits: VisitDto[];
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'Pass as `after` for the next page; null: this is the last' })
  next: string | null;
}

export class TopPatronsQueryDto extends RatingQueryDto {
  @TextField({
    description: 'How many patrons, most theoretical win first: 1 to 500 (default 50)',
    example: '50',
    maxLength: 3,
    pattern: /^[1-9]\d{0,2}$/,
    patternHint: 'must be a whole number from 1 to 500',
    required: false,
  })
  limit?: string;
}

export class TopPatronDto extends RatingFiguresDto {
  @ApiProperty({ description: '1 for the most theoretical win' }) rank: number;
  @ApiProperty({ example: 'P-10442' }) card: string;
  @ApiProperty({ nullable: true, type: String }) name: string | null;
  @ApiProperty({ nullable: true, type: String }) tier: string | null;
}

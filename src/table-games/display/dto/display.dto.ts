import { ApiProperty } from '@nestjs/swagger';
import { PayTermsFields } from '../../../platform/common/pay-terms.dto';
import type { MinorUnits } from '../../../platform/common/exact-json';
import { MoneyProperty } from '../../../platform/common/validation';
import { RoadsDto } from '../../../platform/common/roads.dto';
import { BET_TYPES, VARIANTS } from '../../../domain';

/**
 * What a table-side display shows the players, and nothing else: the table's game and limits, the
 * shoe's counters, its roads and its last results. No wager, seat, patron, commission, handle, win,
 * drop or dealer is read to build it.
 */

export class DisplayBetDto extends PayTermsFields {
  @ApiProperty({ enum: BET_TYPES, enumName: 'BetType' }) betType: string;
  @MoneyProperty({ description: 'Smallest stake in force, minor units' }) min: MinorUnits;
  @MoneyProperty({ description: 'Largest stake in force, minor units' }) max: MinorUnits;
  @ApiProperty({ example: '8 to 1', description: 'Pay, "to 1" basis' }) pays: string;
}

export class DisplayLimitsDto {
  @MoneyProperty({ description: 'The table minimum in force, minor units' }) minBet: MinorUnits;
  @MoneyProperty({ description: 'The table maximum in force, minor units' }) maxBet: MinorUnits;
  @ApiProperty({ format: 'date-time', description: 'When these limits took effect' }) since: string;
  @ApiProperty({ type: DisplayBetDto, isArray: true, description: 'Every bet offered, with its limits in force and its pay (none at a player-banked table)' })
  bets: DisplayBetDto[];
}

export class DisplayShoeDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ description: 'The shoe number at the table' }) number: number;
  @ApiProperty({ enum: ['OPEN', 'CLOSED'], description: 'OPEN: the shoe in play; CLOSED: the table has no open shoe, this was its last' }) status: string;
  @ApiProperty({ description: 'Coups dealt from the shoe' }) coupsDealt: number;
  @ApiProperty({ description: 'Cards still in the shoe' }) cardsLeft: number;
}

export class DisplayCardsDto {
  @ApiProperty({
    type: String,
    isArray: true,
    nullable: true,
    example: ['9H', 'KS'],
    description: "Player's (chemin de fer: the punters') hand; null in banque",
  })
  player: string[] | null;
  @ApiProperty({ type: String, isArray: true, example: ['7D', '2C'], description: "Banker's hand" }) banker: string[];
  @ApiProperty({ type: String, isArray: true, nullable: true, description: 'Banque: the right hand' }) right: string[] | null;
  @ApiProperty({ type: String, isArray: true, nullable: true, description: 'Banque: the left hand' }) left: string[] | null;
}

export class DisplaySideDto {
  @ApiProperty({ enum: ['RIGHT', 'LEFT'] }) side: string;
  @ApiProperty({ enum: ['PUNTER', 'BANKER', 'TIE'] }) winner: string;
  @ApiProperty({ description: "The side's total" }) total: number;
}

export class DisplayResultDto {
  @ApiProperty({ description: 'Coup number within the shoe' }) coup: number;
  @ApiProperty({
    enum: ['BANKER', 'PLAYER', 'TIE'],
    nullable: true,
    type: String,
    description: 'Null in banque, whose two sides are decided each against the banker (sides)',
  })
  winner: string | null;
  @ApiProperty({ nullable: true, type: Number, description: "Player's (chemin de fer: the punters') total; null in banque" }) playerTotal: number | null;
  @ApiProperty() bankerTotal: number;
  @ApiProperty({ description: 'A natural (8 or 9 on two cards) was shown' }) natural: boolean;
  @ApiProperty() playerPair: boolean;
  @ApiProperty() bankerPair: boolean;
  @ApiProperty({ type: DisplayCardsDto }) cards: DisplayCardsDto;
  @ApiProperty({ type: DisplaySideDto, isArray: true, nullable: true, description: "Banque: each side's result against the banker; null otherwise" })
  sides: DisplaySideDto[] | null;
  @ApiProperty({ description: 'The coup was voided: it is off the roads, and shown struck out' }) voided: boolean;
}

export class DisplayDto {
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty({ description: 'Table code as the pit knows it' }) code: string;
  @ApiProperty({ enum: VARIANTS, enumName: 'Variant' }) variant: string;
  @ApiProperty() currency: string;
  @ApiProperty({ description: 'Decks per shoe' }) decks: number;
  @ApiProperty({ enum: ['OPEN', 'CLOSED'] }) status: string;
  @ApiProperty({ type: DisplayLimitsDto, description: 'The limits in force' }) limits: DisplayLimitsDto;
  @ApiProperty({
    type: DisplayShoeDto,
    nullable: true,
    description: 'The open shoe, else the last one (a closed table shows its last board); null before the first',
  })
  shoe: DisplayShoeDto | null;
  @ApiProperty({
    type: RoadsDto,
    nullable: true,
    description:
      "The shoe's roads, as GET /v1/shoes/{id}/roads answers them (chemin de fer: the punters' hand as Player); null without a shoe, and in banque (two hands against the banker)",
  })
  roads: RoadsDto | null;
  @ApiProperty({ type: DisplayResultDto, isArray: true, description: "The shoe's last 20 results, newest first, voided ones included and marked" })
  results: DisplayResultDto[];
}

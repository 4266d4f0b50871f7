/** The scoreboard's roads as the API answers them (domain/game/roads.ts): GET /v1/shoes/{id}/roads and the table-side display alike. */
import { ApiProperty } from '@nestjs/swagger';

const WINNERS = ['BANKER', 'PLAYER', 'TIE'];
const COLOURS = ['RED', 'BLUE'];

export class BeadCellDto {
  @ApiProperty({ description: 'Column, from 0 at the left' }) column: number;
  @ApiProperty({ description: 'Row, from 0 at the top (six rows)' }) row: number;
  @ApiProperty({ description: 'Coup number within the shoe' }) coup: number;
  @ApiProperty({ enum: WINNERS }) winner: string;
  @ApiProperty() natural: boolean;
  @ApiProperty({ description: 'Marked with a dot at the bottom right' }) playerPair: boolean;
  @ApiProperty({ description: 'Marked with a dot at the top left' }) bankerPair: boolean;
}

export class BigRoadCellDto {
  @ApiProperty() column: number;
  @ApiProperty() row: number;
  @ApiProperty({ nullable: true, type: Number, description: 'The coup in the cell; null for a first cell holding only ties (no winner yet)' })
  coup: number | null;
  @ApiProperty({ enum: ['BANKER', 'PLAYER'], nullable: true, type: String }) winner: string | null;
  @ApiProperty({ description: 'Ties marked on the cell (a slash with the count): those after its coup, and on the first cell those before the first winner' })
  ties: number;
  @ApiProperty() playerPair: boolean;
  @ApiProperty() bankerPair: boolean;
}

export class DerivedCellDto {
  @ApiProperty() column: number;
  @ApiProperty() row: number;
  @ApiProperty({ enum: COLOURS }) colour: string;
}

export class BeadPlateDto {
  @ApiProperty({ example: 6 }) rows: number;
  @ApiProperty({ description: 'Columns in use' }) columns: number;
  @ApiProperty({ type: BeadCellDto, isArray: true }) cells: readonly BeadCellDto[];
}

export class BigRoadDto {
  @ApiProperty({ example: 6 }) rows: number;
  @ApiProperty({ description: 'Columns in use, dragon tails included' }) columns: number;
  @ApiProperty({ type: BigRoadCellDto, isArray: true }) cells: readonly BigRoadCellDto[];
}

export class DerivedRoadDto {
  @ApiProperty({ example: 6 }) rows: number;
  @ApiProperty() columns: number;
  @ApiProperty({ type: DerivedCellDto, isArray: true }) cells: readonly DerivedCellDto[];
}

export class RoadCountsDto {
  @ApiProperty() banker: number;
  @ApiProperty() player: number;
  @ApiProperty() tie: number;
  @ApiProperty() playerPairs: number;
  @ApiProperty() bankerPairs: number;
}

export class DerivedNextDto {
  @ApiProperty({ enum: COLOURS, nullable: true, type: String, description: 'Null while the road has not started' }) bigEyeBoy: string | null;
  @ApiProperty({ enum: COLOURS, nullable: true, type: String }) smallRoad: string | null;
  @ApiProperty({ enum: COLOURS, nullable: true, type: String }) cockroachPig: string | null;
}

export class RoadsNextDto {
  @ApiProperty({ type: DerivedNextDto, description: 'If the next coup were a Banker win' }) BANKER: DerivedNextDto;
  @ApiProperty({ type: DerivedNextDto, description: 'If the next coup were a Player win' }) PLAYER: DerivedNextDto;
}

export class RoadsDto {
  @ApiProperty({ format: 'uuid' }) shoeId: string;
  @ApiProperty({ description: 'Coups on the roads: settled, not voided' }) coups: number;
  @ApiProperty({ type: RoadCountsDto }) counts: RoadCountsDto;
  @ApiProperty({ type: BeadPlateDto }) beadPlate: BeadPlateDto;
  @ApiProperty({ type: BigRoadDto }) bigRoad: BigRoadDto;
  @ApiProperty({ type: DerivedRoadDto }) bigEyeBoy: DerivedRoadDto;
  @ApiProperty({ type: DerivedRoadDto }) smallRoad: DerivedRoadDto;
  @ApiProperty({ type: DerivedRoadDto }) cockroachPig: DerivedRoadDto;
  @ApiProperty({ type: RoadsNextDto, description: 'The look-ahead: what each derived road would add after a Banker, or a Player, win' })
  next: RoadsNextDto;
}

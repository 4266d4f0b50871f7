import { MoneyProperty } from '../../../platform/common/validation';
import type { MinorUnits } from '../../../platform/common/exact-json';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CurrencyField, DateField, QueryIntField, TextField, UuidField } from '../../../platform/common/validation';

export const GROUP_BY = ['property', 'pit', 'table', 'variant', 'betType', 'currency', 'gamingDay', 'month', 'quarter'] as const;
export type GroupBy = (typeof GROUP_BY)[number];

export class RangeQueryDto {
  @DateField({ description: 'First gaming day, YYYY-MM-DD', example: '2026-07-01' })
  from: string;

  @DateField({ description: 'Last gaming day (inclusive), YYYY-MM-DD', example: '2026-09-30' })
  to: string;

  @UuidField({ description: 'Only this property (default: all)', required: false })
  propertyId?: string;
}

export class WinLossQueryDto extends RangeQueryDto {
  @TextField({
    description: `Comma-separated: ${GROUP_BY.join(', ')}. Rows are always split by currency too.`,
    example: 'table,betType',
    maxLength: 200,
    required: false,
    pattern: /^[A-Za-z,]+$/,
    patternHint: `must list dimensions separated by commas: ${GROUP_BY.join(', ')}`,
  })
  groupBy?: string;

  @CurrencyField({
    description:
      "Give every amount in this currency: each gaming day's figures translated at that day's exchange rate (the latest entered on or before it, `POST /v1/exchange-rates`), exactly, and each figure shown rounded once to the minor unit, half away from zero. Rows and totals then all carry this currency. Without it, each row is in its tables' own currency.",
    example: 'USD',
    required: false,
  })
  currency?: string;
}

export class QuarterlyQueryDto {
  @QueryIntField({ description: 'Year, 2000–2100', example: 2026, min: 2000, max: 2100 })
  year: number;

  @QueryIntField({ description: 'Quarter, 1–4', example: 3, min: 1, max: 4 })
  quarter: number;

  @UuidField({ description: 'Property (default: the default property)', required: false })
  propertyId?: string;
}

export class OutcomeCountsDto {
  @ApiProperty() bankerWins: number;
  @ApiProperty() playerWins: number;
  @ApiProperty() ties: number;
  @ApiProperty() naturals: number;
}

export class ExpectedOutcomesDto {
  @ApiProperty({ description: "Expected count from the exact odds of each table's shoe", example: '45.86' }) bankerWins: string;
  @ApiProperty() playerWins: string;
  @ApiProperty() ties: string;
  @ApiProperty() naturals: string;
}

export class PlayFiguresDto {
  @ApiProperty() wagers: number;
  @MoneyProperty({ description: 'Total wagered, minor units' }) handle: MinorUnits;
  @MoneyProperty({ description: "House win: −Σ the customers' net, commission included" }) win: MinorUnits;
  @ApiProperty({ nullable: true, type: String, description: 'win / handle, percent, 4 decimals' }) holdPercent: string | null;
  @MoneyProperty() commissionCharged: MinorUnits;
  @MoneyProperty({ description: 'Σ stake × exact house edge, rounded to the minor unit (mass: the total less premium, so the two add up)' })
  theoreticalWin: MinorUnits;
}

export class FiguresDto {
  @ApiProperty({ nullable: true, type: Number, description: 'Coups (null when rows are split by bet type)' }) coups: number | null;
  @ApiProperty() wagers: number;
  @MoneyProperty({ description: 'Total wagered, minor units' }) handle: MinorUnits;
  @MoneyProperty({ description: 'Paid to customers beyond returned stakes' }) payouts: MinorUnits;
  @MoneyProperty({ description: 'House win: stakes lost − payouts + commission charged' }) win: MinorUnits;
  @ApiProperty({ nullable: true, type: String, description: 'win / handle, percent, 4 decimals' }) holdPercent: string | null;
  @MoneyProperty() commissionCharged: MinorUnits;
  @MoneyProperty() commissionCollected: MinorUnits;
  @MoneyProperty({ description: "charged − collected within the rows' range" }) commissionOutstanding: MinorUnits;
  @MoneyProperty({ description: 'Win without uncollected commission' }) revenue: MinorUnits;
  @MoneyProperty({ description: 'Σ stake × exact house edge, rounded to the minor unit' }) theoreticalWin: MinorUnits;
  @MoneyProperty() winMinusTheoretical: MinorUnits;
  @MoneyProperty({
    description:
      "The standard deviation of the win about theoreticalWin, from the wagers' exact odds (every coup's variance: its stakes per bet through the bets' exact covariances, full shoe; docs/domain.md §6), rounded to the minor unit: an actual win outside theoreticalWin ± 2 × this happens by luck about one period in twenty",
  })
  theoreticalWinStdDev: MinorUnits;
  @ApiProperty({ nullable: true, type: Number, description: 'Player-banked coups (chemin de fer, banque); null when rows are split by bet type' }) bankedCoups:
    number | null;
  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      "The house's commission on the bankers' winnings in the player-banked games, its own revenue line; null when rows are split by bet type (it belongs to none)",
  })
  houseCommission: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'revenue + houseCommission; null when rows are split by bet type' }) totalRevenue: number | null;
  @ApiProperty({ type: OutcomeCountsDto, nullable: true }) outcomes: OutcomeCountsDto | null;
  @ApiProperty({ type: ExpectedOutcomesDto, nullable: true }) expectedOutcomes: ExpectedOutcomesDto | null;
  @ApiProperty({
    type: PlayFiguresDto,
    description: 'Premium play: the dead-chip (rolling-chip) wagers alone (docs/domain.md §14 "Premium and mass")',
  })
  premium: PlayFiguresDto;
  @ApiProperty({ type: PlayFiguresDto, description: 'Mass play: every other wager; each figure is the total less premium, so premium + mass = the totals' })
  mass: PlayFiguresDto;
}

export class WinLossRowDto extends FiguresDto {
  @ApiProperty({
    description: 'The grouping values of this row',
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { currency: 'EUR', tableCode: 'BAC-07', betType: 'BANKER' },
  })
  group: Record<string, string>;
}

export class TotalsDto extends FiguresDto {
  @ApiProperty() currency: string;
}

export class VoidSummaryDto {
  @ApiProperty() coups: number;
  @ApiProperty() wagers: number;
  @MoneyProperty({ description: 'Handle of the voided coups, left out of every figure' }) handle: MinorUnits;
}

export class WinLossDto {
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ enum: GROUP_BY, isArray: true }) groupBy: string[];
  @ApiProperty({ type: WinLossRowDto, isArray: true }) rows: WinLossRowDto[];
  @ApiProperty({ type: TotalsDto, nullable: true, description: 'Grand total (null when the rows hold several currencies; see totalsByCurrency)' })
  totals: TotalsDto | null;
  @ApiProperty({ type: TotalsDto, isArray: true }) totalsByCurrency: TotalsDto[];
  @ApiProperty({ type: VoidSummaryDto, description: 'Voided coups in the range, excluded above' }) voided: VoidSummaryDto;
}

export class LimitLevelLineDto {
  @ApiProperty() currency: string;
  @MoneyProperty({ description: 'The table minimum in force when the coups were dealt' }) minBet: MinorUnits;
  @ApiProperty({ description: 'Tables that dealt at this minimum in the range' }) tables: number;
  @ApiProperty({ description: 'Table-days with a coup at this minimum (a day with a change counts at both)' }) tableDays: number;
  @ApiProperty({ description: 'Coups settled and standing' }) coups: number;
  @ApiProperty({ description: 'Player decisions: each seat with a wager on a coup, summed over the coups' }) playerDecisions: number;
  @ApiProperty({ nullable: true, type: String, description: 'Players a coup (playerDecisions ÷ coups), 2 decimals' }) occupancy: string | null;
  @ApiProperty() wagers: number;
  @MoneyProperty() handle: MinorUnits;
  @MoneyProperty({ description: 'House win: −Σ customer net (commission included)' }) win: MinorUnits;
  @ApiProperty({ nullable: true, type: String, description: 'win / handle, percent, 4 decimals' }) holdPercent: string | null;
  @MoneyProperty() commissionCharged: MinorUnits;
  @MoneyProperty({ description: 'Σ stake × exact house edge, rounded to the minor unit' }) theoreticalWin: MinorUnits;
  @MoneyProperty({ nullable: true, description: 'handle ÷ playerDecisions, rounded half up to the minor unit' }) averageBet: MinorUnits | null;
}

export class TableAccountingLineDto {
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty() tableCode: string;
  @ApiProperty() currency: string;
  @ApiPropertyOptional({ format: 'date', nullable: true, type: String }) gamingDay: string | null;
  @ApiProperty() sessions: number;
  @MoneyProperty() opener: MinorUnits;
  @MoneyProperty() closer: MinorUnits;
  @MoneyProperty() fills: MinorUnits;
  @MoneyProperty() credits: MinorUnits;
  @MoneyProperty() drop: MinorUnits;
  @MoneyProperty({ description: 'closer − opener + credits − fills + drop' }) statisticalWin: MinorUnits;
  @ApiProperty({ nullable: true, type: String, description: 'statistical win / drop, percent' }) dropHoldPercent: string | null;
  @MoneyProperty({ description: 'Wager-level win of the same table and days' }) wagerWin: MinorUnits;
  @MoneyProperty({ description: 'statistical win − wager-level win: the reconciliation item' }) difference: MinorUnits;
}

export class VoidedCoupDto {
  @ApiProperty({ format: 'uuid' }) coupId: string;
  @ApiProperty() tableCode: string;
  @ApiProperty() shoeNumber: number;
  @ApiProperty() coupNumber: number;
  @ApiProperty({ format: 'date', nullable: true, type: String }) gamingDay: string | null;
  @ApiProperty() reason: string;
  @ApiProperty() voidedByKeyId: string;
  @ApiProperty() voidedByRole: string;
  @ApiProperty({ format: 'date-time' }) voidedAt: string;
  @MoneyProperty({ description: 'Handle of the voided coup' }) handle: MinorUnits;
}

export class OfflineCoupDto {
  @ApiProperty({ format: 'uuid' }) coupId: string;
  @ApiProperty() tableCode: string;
  @ApiProperty() shoeNumber: number;
  @ApiProperty() coupNumber: number;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty({ format: 'date-time', description: 'When the terminal recorded it, as the terminal says' }) recordedAt: string;
  @ApiProperty({ format: 'date-time', description: 'When it reached the service and was settled' }) arrivedAt: string;
  @ApiProperty({ description: 'Seconds between the two: 30 or more' }) delaySeconds: number;
  @ApiProperty({ description: 'Voided since' }) voided: boolean;
}

export class VoidedSlipDto {
  @ApiProperty({ format: 'uuid' }) slipId: string;
  @ApiProperty() tableCode: string;
  @ApiProperty({ enum: ['FILL', 'CREDIT'] }) kind: string;
  @ApiProperty() number: number;
  @ApiProperty() year: number;
  @MoneyProperty() amount: MinorUnits;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty() reason: string;
  @ApiProperty() voidedByKeyId: string;
  @ApiProperty({ format: 'date-time' }) voidedAt: string;
}

export class VoidedBuyInDto {
  @ApiProperty({ format: 'uuid' }) buyInId: string;
  @ApiProperty() tableCode: string;
  @ApiProperty({ enum: ['CASH', 'CHIPS', 'MARKER'] }) kind: string;
  @MoneyProperty() amount: MinorUnits;
  @ApiProperty() currency: string;
  @ApiProperty({ nullable: true, type: String }) patronId: string | null;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty() reason: string;
  @ApiProperty() voidedByKeyId: string;
  @ApiProperty() approvedByKeyId: string;
  @ApiProperty({ format: 'date-time' }) voidedAt: string;
}

export class VoidedBankCoupDto {
  @ApiProperty({ format: 'uuid' }) bankCoupId: string;
  @ApiProperty() tableCode: string;
  @ApiProperty() shoeNumber: number;
  @ApiProperty() coupNumber: number;
  @ApiProperty() bankerSeat: number;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty() reason: string;
  @ApiProperty() voidedByKeyId: string;
  @ApiProperty() approvedByKeyId: string;
  @ApiProperty({ format: 'date-time' }) voidedAt: string;
  @MoneyProperty({ description: "The house's commission the void took back" }) commission: MinorUnits;
}

export class IntegrityAlertLineDto {
  @ApiProperty({ format: 'uuid', description: 'The alert, read whole (with its evidence) by the surveillance role' }) alertId: string;
  @ApiProperty({ description: 'The detector that raised it (docs/domain.md §9)', example: 'FIRST_CARD_KNOWLEDGE' }) kind: string;
  @ApiProperty({ enum: ['MEDIUM', 'HIGH'] }) severity: string;
  @ApiProperty({ example: 3.2e-9 }) pValue: number;
  @ApiProperty() tableCode: string;
  @ApiProperty() shoeNumber: number;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty({ nullable: true, type: String }) patronId: string | null;
  @ApiProperty({ nullable: true, type: String }) dealerId: string | null;
  @ApiProperty({ enum: ['OPEN', 'ACKNOWLEDGED', 'CLOSED'], description: 'Its state when the report was read' }) status: string;
  @ApiProperty({ format: 'date-time' }) raisedAt: string;
  @ApiProperty({ nullable: true, type: String, description: 'What was found, when closed' }) closingNote: string | null;
}

export class ExceptionsDto {
  @ApiProperty({ type: VoidedCoupDto, isArray: true }) voidedCoups: VoidedCoupDto[];
  @ApiProperty({ type: VoidedSlipDto, isArray: true }) voidedSlips: VoidedSlipDto[];
  @ApiProperty({ type: VoidedBankCoupDto, isArray: true }) voidedBankCoups: VoidedBankCoupDto[];
  @ApiProperty({ type: VoidedBuyInDto, isArray: true, description: 'Buy-ins voided: out of the drop and the cash reports' }) voidedBuyIns: VoidedBuyInDto[];
  @ApiProperty({
    type: IntegrityAlertLineDto,
    isArray: true,
    description: "Integrity alerts of the period's gaming days, open or not, oldest first (without their evidence)",
  })
  integrityAlerts: IntegrityAlertLineDto[];
  @ApiProperty({
    type: OfflineCoupDto,
    isArray: true,
    description:
      'Coups recorded at a pit terminal while the service could not be reached, sent when it answered again, with their delay, in the order they arrived',
  })
  coupsRecordedOffline: OfflineCoupDto[];
}

export class ProgrammeRevenueDto {
  @ApiProperty() currency: string;
  @ApiProperty({ description: 'Junkets whose members played in the range' }) junkets: number;
  @MoneyProperty({ description: "The junkets' members' rolling (dead chips lost) in the range" }) junketRolling: MinorUnits;
  @MoneyProperty({ description: 'The premium (dead-chip) win, gross' }) premiumWin: MinorUnits;
  @MoneyProperty({ description: "The junkets' programmes' commission on it (as their statements for the range work it out; negative: a share of a loss)" })
  programmeCommission: MinorUnits;
  @MoneyProperty({ description: "The programmes' allowances" }) programmeAllowance: MinorUnits;
  @MoneyProperty({ description: 'premiumWin − programmeCommission − programmeAllowance: the premium revenue the house keeps' }) premiumNetWin: MinorUnits;
}

export class QuarterlyDto {
  @ApiProperty({ format: 'uuid' }) propertyId: string;
  @ApiProperty() propertyName: string;
  @ApiProperty() year: number;
  @ApiProperty() quarter: number;
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ type: TotalsDto, isArray: true, description: 'Per currency' }) totals: TotalsDto[];
  @ApiProperty({ type: WinLossRowDto, isArray: true }) months: WinLossRowDto[];
  @ApiProperty({ type: WinLossRowDto, isArray: true }) variants: WinLossRowDto[];
  @ApiProperty({ type: WinLossRowDto, isArray: true }) tables: WinLossRowDto[];
  @ApiProperty({ type: TableAccountingLineDto, isArray: true, description: 'Per table for the quarter' }) tableAccounting: TableAccountingLineDto[];
  @ApiProperty({ type: ExceptionsDto }) exceptions: ExceptionsDto;
  @ApiProperty({
    type: ProgrammeRevenueDto,
    isArray: true,
    description: "Per currency with junket play: the premium win gross, the junkets' programmes' commission and allowances, and net (docs/domain.md §16)",
  })
  programmes: ProgrammeRevenueDto[];
}

export class ReconciliationDifferenceDto {
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty({ nullable: true, type: String }) betType: string | null;
  @ApiProperty() field: string;
  @ApiProperty({ description: 'Value kept in the rollup' }) rollup: string;
  @ApiProperty({ description: 'Value recomputed from the raw records' }) raw: string;
  @ApiPropertyOptional({ description: 'The patron, for a difference in the patron rollups' }) patronId?: string;
  @ApiPropertyOptional({
    format: 'uuid',
    description: "The visit (seating) of a patron rollup row; 00000000-… for wagers in no visit, ffffffff-… for the patron's whole play of the day",
  })
  visit?: string;
}

export class ReconciliationDto {
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ description: 'Rollup rows compared' }) rowsChecked: number;
  @ApiProperty({ description: 'Settled, unvoided wagers recomputed' }) wagersRecomputed: number;
  @ApiProperty() ok: boolean;
  @ApiProperty({ type: ReconciliationDifferenceDto, isArray: true }) differences: ReconciliationDifferenceDto[];
}

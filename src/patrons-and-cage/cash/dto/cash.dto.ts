import { ApiProperty } from '@nestjs/swagger';
import type { MinorUnits } from '../../../platform/common/exact-json';
import {
  DateField,
  EnumField,
  IntField,
  MAX_SEAT,
  MoneyField,
  MoneyProperty,
  PATRON_MAX_LENGTH,
  PATRON_PATTERN,
  TextField,
  CurrencyField,
  PAYMENT_REFERENCE,
  UuidField,
} from '../../../platform/common/validation';

const patronField = (description: string) =>
  TextField({
    description,
    example: 'P-10442',
    maxLength: PATRON_MAX_LENGTH,
    pattern: PATRON_PATTERN,
    patternHint: 'may hold letters, digits, ., - and _',
    required: false,
  });

export class BuyInInputDto {
  @EnumField(['CASH', 'CHIPS', 'MARKER'], {
    description: 'CASH and MARKER go into the drop box; CHIPS (from another table) do not. A MARKER issues credit to a registered patron.',
    enumName: 'BuyInKind',
    example: 'CASH',
  })
  kind: 'CASH' | 'CHIPS' | 'MARKER';

  @MoneyField({ description: "Amount in the table's currency, minor units", example: 250000 })
  amount: number;

  @patronField("The patron's registered player card; without it, the patron whose card is in at `seat` (if one is given)")
  patronId?: string;

  @IntField({
    description: 'The seat the buy-in is made at: names the patron seated there when patronId is left out',
    example: 3,
    min: 1,
    max: MAX_SEAT,
    required: false,
  })
  seat?: number;
}

export class BuyInDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty({ enum: ['CASH', 'CHIPS', 'MARKER'], enumName: 'BuyInKind' }) kind: string;
  @MoneyProperty() amount: MinorUnits;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiProperty({ nullable: true, type: String }) patronId: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The visit the buy-in was made in' }) seatingId: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The marker issued (kind MARKER)' }) markerId: string | null;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty({ format: 'date-time' }) recordedAt: string;
  @ApiProperty({ description: 'Voided by two supervisors: out of the drop and the cash reports; its marker is owed no more' }) voided: boolean;
}

export class MarkerPaymentInputDto {
  @MoneyField({ description: "Amount paid, in the marker's currency, minor units", example: 100000 })
  amount: number;

  @EnumField(['CASH', 'CHIPS', 'CHECK', 'WIRE'], {
    description: 'How it was paid (CASH goes in the cash-transaction log)',
    enumName: 'MarkerPaymentMethod',
    example: 'CASH',
  })
  method: 'CASH' | 'CHIPS' | 'CHECK' | 'WIRE';

  @TextField({
    description: "What pays it: the cheque's number or the wire's reference (required for CHECK and WIRE)",
    example: 'CHQ 004417',
    ...PAYMENT_REFERENCE,
    required: false,
  })
  reference?: string;

  @UuidField({
    description:
      "Over the property's repayment threshold: the credit request (act REPAYMENT) a second person approved for this payment, whose terms it must match",
    required: false,
  })
  requestId?: string;
}

export class MarkerPaymentDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @MoneyProperty() amount: MinorUnits;
  @ApiProperty({ enum: ['CASH', 'CHIPS', 'CHECK', 'WIRE'] }) method: string;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty({ format: 'date-time' }) paidAt: string;
  @ApiProperty({ nullable: true, type: String, description: "The cheque's or wire's reference" }) reference: string | null;
}

export class MarkerDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() patronId: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The table it was issued at (null: signed at the cage for dead chips)' }) tableId:
    string | null;
  @MoneyProperty() amount: MinorUnits;
  @ApiProperty() currency: string;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty({ format: 'date-time' }) issuedAt: string;
  @ApiProperty({ description: 'Its buy-in was voided: the marker is owed no more' }) voided: boolean;
  @MoneyProperty({ description: 'Written off under two-person approval (0: none)' }) writtenOff: MinorUnits;
  @MoneyProperty({ description: 'Still owed: the amount less every payment and a write-off (nothing once voided)' }) outstanding: MinorUnits;
  @ApiProperty({ type: MarkerPaymentDto, isArray: true }) payments: MarkerPaymentDto[];
}

export class MarkersQueryDto {
  @TextField({
    description: "The patron's player card",
    example: 'P-10442',
    maxLength: PATRON_MAX_LENGTH,
    pattern: PATRON_PATTERN,
    patternHint: 'may hold letters, digits, ., - and _',
  })
  patronId: string;
}

export class CageTransactionInputDto {
  @EnumField(['CHIP_REDEMPTION', 'DEPOSIT', 'WITHDRAWAL'], {
    description: 'CHIP_REDEMPTION and WITHDRAWAL are cash out (chips cashed, front money withdrawn); DEPOSIT is cash in (front money)',
    enumName: 'CageTransactionKind',
    example: 'CHIP_REDEMPTION',
  })
  kind: 'CHIP_REDEMPTION' | 'DEPOSIT' | 'WITHDRAWAL';

  @MoneyField({ description: 'Amount in cash, minor units', example: 450000 })
  amount: number;

  @CurrencyField({
    description: "Currency (ISO 4217); default the property's cash-reporting currency",
    example: 'USD',
    required: false,
  })
  currency?: string;

  @patronField(
    "The patron's registered player card, when known (required over the report threshold; cash in another currency than the property's counts at the gaming day's rate into it, and needs the patron at any amount when there is no rate)",
  )
  patronId?: string;
}

export class CashTransactionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ nullable: true, type: String }) patronId: string | null;
  @ApiProperty({ enum: ['IN', 'OUT'] }) direction: string;
  @ApiProperty({ enum: ['BUY_IN', 'MARKER_PAYMENT', 'CHIP_REDEMPTION', 'DEPOSIT', 'WITHDRAWAL'] }) kind: string;
  @MoneyProperty() amount: MinorUnits;
  @ApiProperty() currency: string;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The table, for a buy-in' }) tableId: string | null;
  @ApiProperty({ format: 'date-time' }) at: string;
}

export class CashReportQueryDto {
  @UuidField({ description: 'The property (thresholds and currency are its own)' })
  propertyId: string;

  @DateField({ description: 'First gaming day, YYYY-MM-DD', example: '2026-11-01' })
  from: string;

  @DateField({ description: 'Last gaming day (inclusive), YYYY-MM-DD', example: '2026-11-30' })
  to: string;
}

export class CashThresholdsDto {
  @ApiProperty({ example: 'USD' }) currency: string;
  @MoneyProperty({ description: 'A single transaction of this amount or more is in the multiple-transaction log' }) mtl: MinorUnits;
  @MoneyProperty({ description: "A patron's cash in (or out) of a gaming day of more than this aggregate is a report candidate" }) ctr: MinorUnits;
  @ApiProperty({ description: '"Just under" the report threshold from this share of it, basis points' }) structuringFloorBps: number;
}

export class PatronCashDayDto {
  @ApiProperty() patronId: string;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty({ enum: ['IN', 'OUT'] }) direction: string;
  @MoneyProperty() total: MinorUnits;
  @ApiProperty({ type: CashTransactionDto, isArray: true }) transactions: CashTransactionDto[];
}

export class StructuringAlertDto extends PatronCashDayDto {
  @ApiProperty({
    enum: ['JUST_UNDER', 'SPLIT', 'ACROSS_DAYS'],
    description:
      "JUST_UNDER: two or more transactions of a gaming day totalling just under the report threshold, or at it; SPLIT: a gaming day's total over it made only of transactions each under the log threshold; ACROSS_DAYS: within a rolling 24 hours, a total over it split over two gaming days, each day's part at or under it (gamingDay is the last transaction's, total and transactions the window's, which may begin before the report's range)",
  })
  pattern: string;
}

export class CashReportDto {
  @ApiProperty({ format: 'uuid' }) propertyId: string;
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ type: CashThresholdsDto }) thresholds: CashThresholdsDto;
  @ApiProperty({
    type: CashTransactionDto,
    isArray: true,
    description: 'Multiple-transaction log: every single cash transaction of the log threshold or more, oldest first',
  })
  multipleTransactionLog: CashTransactionDto[];
  @ApiProperty({
    type: PatronCashDayDto,
    isArray: true,
    description: 'Currency-transaction-report candidates: patron-days whose cash in, or cash out, is more than the report threshold (in and out apart)',
  })
  reportCandidates: PatronCashDayDto[];
  @ApiProperty({
    type: StructuringAlertDto,
    isArray: true,
    description: 'Patron-days, and windows across a gaming-day boundary, that look split to stay under a threshold',
  })
  structuring: StructuringAlertDto[];
  @ApiProperty({ type: PatronCashDayDto, isArray: true, description: "Every named patron's cash in and cash out per gaming day" })
  patronDays: PatronCashDayDto[];
}

export class DropLineDto {
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty() tableCode: string;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty() currency: string;
  @MoneyProperty({ description: 'Cash buy-ins' }) cash: MinorUnits;
  @MoneyProperty({ description: 'Markers issued at the table' }) markers: MinorUnits;
  @MoneyProperty({ description: 'Chips from other tables (not in the box)' }) chips: MinorUnits;
  @MoneyProperty({ description: 'What the box should hold: cash and markers' }) expectedDrop: MinorUnits;
  @MoneyProperty({ nullable: true, description: "The count: the drop of the day's closed sessions (null: none closed)" }) countedDrop: MinorUnits | null;
  @MoneyProperty({ nullable: true, description: 'countedDrop − expectedDrop' }) difference: MinorUnits | null;
  @ApiProperty({ enum: ['RECONCILED', 'EXCEPTION', 'NOT_COUNTED'], description: 'NOT_COUNTED: a session of the day is still open, or none was opened' })
  status: string;
}

export class BuyInsQueryDto {
  @DateField({ description: 'The gaming day, YYYY-MM-DD', example: '2026-11-23' })
  gamingDay: string;
}

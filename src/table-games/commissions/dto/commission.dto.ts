import { MoneyProperty } from '../../../platform/common/validation';
import type { MinorUnits } from '../../../platform/common/exact-json';
import { ApiProperty } from '@nestjs/swagger';
import { IntField, MoneyField, PATRON_PATTERN, TextField } from '../../../platform/common/validation';

export class CollectCommissionDto {
  @IntField({ description: 'Seat whose commission is collected', example: 3, min: 1, max: 20 })
  seat: number;

  @TextField({
    description: 'Patron, when the commission was accrued against one',
    example: 'P-10442',
    maxLength: 64,
    pattern: PATRON_PATTERN,
    patternHint: 'may hold letters, digits, ., - and _',
    required: false,
  })
  patronId?: string;

  @MoneyField({ description: 'Amount collected, minor units (default: everything outstanding)', example: 150, required: false })
  amount?: number;
}

export class SeatCommissionDto {
  @ApiProperty() seat: number;
  @ApiProperty({ nullable: true, type: String }) patronId: string | null;
  @MoneyProperty({ description: 'Commission charged on Banker wins, minor units' }) accrued: MinorUnits;
  @MoneyProperty({ description: 'Collected so far' }) collected: MinorUnits;
  @MoneyProperty({ description: 'Reversed by voided coups' }) voided: MinorUnits;
  @MoneyProperty({ description: 'Still owed: accrued − collected − voided' }) outstanding: MinorUnits;
}

export class ShoeCommissionsDto {
  @ApiProperty({ format: 'uuid' }) shoeId: string;
  @ApiProperty() currency: string;
  @ApiProperty({ type: SeatCommissionDto, isArray: true }) seats: SeatCommissionDto[];
  @MoneyProperty() totalOutstanding: MinorUnits;
}

export class CollectionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() seat: number;
  @ApiProperty({ nullable: true, type: String }) patronId: string | null;
  @MoneyProperty({ description: 'Amount collected' }) amount: MinorUnits;
  @MoneyProperty({ description: 'Still owed by this seat afterwards' }) outstanding: MinorUnits;
}

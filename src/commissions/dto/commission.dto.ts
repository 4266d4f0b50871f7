import { ApiProperty } from '@nestjs/swagger';
import { IntField, MoneyField, TextField } from '../../common/validation';

export const PATRON_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

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
  @ApiProperty({ description: 'Commission charged on Banker wins, minor units' }) accrued: number;
  @ApiProperty({ description: 'Collected so far' }) collected: number;
  @ApiProperty({ description: 'Reversed by voided coups' }) voided: number;
  @ApiProperty({ description: 'Still owed: accrued − collected − voided' }) outstanding: number;
}

export class ShoeCommissionsDto {
  @ApiProperty({ format: 'uuid' }) shoeId: string;
  @ApiProperty() currency: string;
  @ApiProperty({ type: SeatCommissionDto, isArray: true }) seats: SeatCommissionDto[];
  @ApiProperty() totalOutstanding: number;
}

export class CollectionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() seat: number;
  @ApiProperty({ nullable: true, type: String }) patronId: string | null;
  @ApiProperty({ description: 'Amount collected' }) amount: number;
  @ApiProperty({ description: 'Still owed by this seat afterwards' }) outstanding: number;
}

import { MoneyProperty } from '../../../platform/common/validation';
import type { MinorUnits } from '../../../platform/common/exact-json';
import { ApiProperty } from '@nestjs/swagger';
import { DateField, EnumField, IntField, MoneyField, NestedField, TextField } from '../../../platform/common/validation';

export class ChipCountDto {
  @MoneyField({ description: 'Chip denomination, minor units', example: 2500 })
  denomination: number;

  @IntField({ description: 'Number of chips', example: 40, min: 0, max: 1_000_000 })
  count: number;
}

export class OpenSessionDto {
  @TextField({ description: 'Shift name, when the table is counted per shift', example: 'day', maxLength: 20, required: false })
  shift?: string;

  @DateField({ description: 'Gaming day (default: the current one at the property)', example: '2026-11-21', required: false })
  gamingDay?: string;

  @NestedField(() => ChipCountDto, { description: 'Opener inventory by denomination', array: true, minItems: 0, maxItems: 50 })
  opener: ChipCountDto[];
}

export class SlipInputDto {
  @EnumField(['FILL', 'CREDIT'], { description: 'FILL: chips brought to the table; CREDIT: chips returned to the cage', enumName: 'SlipKind', example: 'FILL' })
  kind: 'FILL' | 'CREDIT';

  @NestedField(() => ChipCountDto, { description: 'Chips by denomination', array: true, minItems: 1, maxItems: 50 })
  chips: ChipCountDto[];
}

export class CloseSessionDto {
  @NestedField(() => ChipCountDto, { description: 'Closer inventory by denomination', array: true, minItems: 0, maxItems: 50 })
  closer: ChipCountDto[];

  @MoneyField({ description: 'Drop: cash and markers in the drop box, minor units', example: 1250000, min: 0 })
  drop: number;
}

export class VoidSlipDto {
  @TextField({ description: 'Why the slip is voided', example: 'Fill recorded twice', maxLength: 500, minLength: 3 })
  reason: string;
}

export class SlipDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) sessionId: string;
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty({ enum: ['FILL', 'CREDIT'] }) kind: string;
  @ApiProperty({ description: 'Sequence number within the property, year and kind' }) number: number;
  @ApiProperty() year: number;
  @ApiProperty({ type: ChipCountDto, isArray: true }) chips: ChipCountDto[];
  @MoneyProperty({ description: 'Total, minor units' }) amount: MinorUnits;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty({ nullable: true, type: String }) voidReason: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class SessionDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty({ format: 'date' }) gamingDay: string;
  @ApiProperty() shift: string;
  @ApiProperty({ enum: ['OPEN', 'CLOSED'] }) status: string;
  @ApiProperty({ type: ChipCountDto, isArray: true }) opener: ChipCountDto[];
  @MoneyProperty() openerTotal: MinorUnits;
  @ApiProperty({ type: ChipCountDto, isArray: true, nullable: true }) closer: ChipCountDto[] | null;
  @MoneyProperty({ nullable: true }) closerTotal: MinorUnits | null;
  @MoneyProperty({ nullable: true }) drop: MinorUnits | null;
  @ApiProperty({ type: SlipDto, isArray: true }) slips: SlipDto[];
  @MoneyProperty({ nullable: true, description: 'closer − opener + credits − fills + drop (unvoided slips), once closed' }) statisticalWin: MinorUnits | null;
}

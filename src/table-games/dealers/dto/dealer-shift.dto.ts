import { ApiProperty } from '@nestjs/swagger';
import { DEALER_ID_PATTERN, TextField } from '../../../platform/common/validation';

export class StartShiftDto {
  @TextField({
    description: "The dealer taking the table now: their employee number. Taking a table ends the dealer's shift at any other table.",
    example: 'D-2207',
    maxLength: 64,
    pattern: DEALER_ID_PATTERN,
    patternHint: 'may hold letters, digits, ., - and _',
  })
  dealerId: string;
}

export class DealerShiftDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty({ description: "The dealer's employee number", example: 'D-2207' }) dealerId: string;
  @ApiProperty({ format: 'date-time', description: 'When the dealer took the table' }) startedAt: string;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'When the shift ended: the next dealer took the table, or this dealer took another table (null: still dealing here)',
  })
  endedAt: string | null;
  @ApiProperty({ description: 'The API key that recorded the change' }) recordedByKeyId: string;
}

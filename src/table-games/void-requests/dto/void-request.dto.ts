import { ApiProperty } from '@nestjs/swagger';
import { BoolField, TextField } from '../../../platform/common/validation';

export class RequestVoidDto {
  @TextField({ description: 'Why it must be voided (kept with the void)', example: 'Cards recorded for the wrong table', maxLength: 500, minLength: 3 })
  reason: string;
}

export class RequestCoupVoidDto extends RequestVoidDto {
  @BoolField({
    description:
      "True only when the coup's cards never came out of this shoe (keyed at the wrong table): they go back into its composition. By default they stay out, as they were dealt (a misdeal, a wrong settlement), so the shoe's cards left stay what is physically left",
    required: false,
  })
  returnCards?: boolean;
}

export class DecideVoidDto {
  @TextField({ description: 'A note with the decision (required to reject)', example: 'Checked against the surveillance log', maxLength: 500, required: false })
  note?: string;
}

export class VoidRequestDto {
  @ApiProperty({ format: 'uuid' }) voidRequestId: string;
  @ApiProperty({ enum: ['COUP', 'SLIP', 'BANK_COUP', 'BUY_IN'] }) target: string;
  @ApiProperty({ format: 'uuid' }) targetId: string;
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty() reason: string;
  @ApiProperty({ enum: ['PENDING', 'APPROVED', 'REJECTED'] }) status: string;
  @ApiProperty() requestedByKeyId: string;
  @ApiProperty({ format: 'date-time' }) requestedAt: string;
  @ApiProperty({ nullable: true, type: String }) decidedByKeyId: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) decidedAt: string | null;
  @ApiProperty({ nullable: true, type: String }) decisionNote: string | null;
}

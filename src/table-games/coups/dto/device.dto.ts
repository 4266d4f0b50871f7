import { ApiProperty } from '@nestjs/swagger';
import { HOLD_REASONS } from '../../../domain';
import { TextField } from '../../../platform/common/validation';

/** A coup the table's devices reported that Sabot did not settle, and why. */
export class DeviceHoldDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) tableId: string;
  @ApiProperty({
    enum: HOLD_REASONS,
    enumName: 'DeviceHoldReason',
    description:
      "Why it was held (docs/domain/table-devices.md): the shoe's count skipped or did not move (CARD_SKIPPED, CARD_READ_TWICE), a card out of the tableau's order or after its last (CARD_OUT_OF_ORDER, CARD_AFTER_COMPLETE), one the shoe cannot hold or before a shuffle (CARD_NOT_IN_SHOE, NO_SHOE), a burn mid-coup (BURN_MID_COUP), the button early or not the cards' result (RESULT_BEFORE_COMPLETE, RESULT_DISAGREES), a bet after the first card or not offered (BET_AFTER_CARDS, BET_NOT_OFFERED), or the keyed coup's own refusal (SETTLEMENT_REFUSED)",
  })
  reason: string;
  @ApiProperty({ description: 'What was wrong, in words' }) detail: string;
  @ApiProperty({ format: 'uuid', description: 'The report that showed it' }) reportId: string;
  @ApiProperty({ format: 'uuid', description: 'The DEVICE key that sent that report' }) keyId: string;
  @ApiProperty({ nullable: true, type: String, description: "That report's number in its device's sequence" }) seq: string | null;
  @ApiProperty({ format: 'date-time' }) heldAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When a supervisor cleared it (null: still held)' }) clearedAt: string | null;
  @ApiProperty({ nullable: true, type: String }) clearedByKeyId: string | null;
}

export class ClearDeviceHoldDto {
  @TextField({
    description: 'What the supervisor found, kept with the clearing',
    example: 'Burn card read as dealt; coup keyed at the terminal',
    maxLength: 500,
  })
  note: string;
}

/** A report a device sent that the gateway refused, kept for the supervisor. */
export class RefusedReportDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) keyId: string;
  @ApiProperty({ nullable: true, type: String }) seq: string | null;
  @ApiProperty({ format: 'date-time' }) receivedAt: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The report as it came' }) report: Record<string, unknown>;
  @ApiProperty({ description: 'The code and why: DEVICE_REPORT_INVALID (not the protocol) or DEVICE_SEQUENCE_GAP (not the number due)' }) refused: string;
}

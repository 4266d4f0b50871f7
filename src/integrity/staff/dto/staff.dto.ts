import { ApiProperty } from '@nestjs/swagger';
import { BoolField, EnumArrayField, TextField } from '../../../platform/common/validation';
import { Role } from '../../../platform/common/actor';

/** The roles a person may hold (a TERMINAL key belongs to a table, never to a person). */
export const PERSON_ROLES: Role[] = ['SUPERVISOR', 'FINANCE', 'AUDITOR', 'ADMIN', 'SURVEILLANCE', 'HOST', 'COMPLIANCE', 'CASHIER', 'CASINO_MANAGER'];

export const STAFF_ID_FIELD = {
  maxLength: 64,
  pattern: /^[A-Za-z0-9._-]+$/,
  patternHint: 'may hold letters, digits, ., - and _',
} as const;

export class ProposeStaffChangeDto {
  @TextField({ description: "The person's staff (employee) number: one person, one number", example: 'E-10442', ...STAFF_ID_FIELD })
  staffId: string;

  @TextField({ description: 'Their name as on their licence', example: 'Mei Ling Chan', maxLength: 200 })
  name: string;

  @EnumArrayField(PERSON_ROLES, { description: 'Every role they hold from the approval on (empty: none)', enumName: 'PersonRole', example: ['SUPERVISOR'] })
  roles: Role[];

  @BoolField({ description: 'False takes every role away and stops every key of theirs (default true)', required: false })
  active?: boolean;

  @TextField({
    description: 'Why: a hire, a promotion, a departure (kept with the change)',
    example: 'Hired as pit supervisor, licence G-2291',
    maxLength: 500,
    minLength: 3,
  })
  reason: string;
}

export class DecideStaffChangeDto {
  @TextField({ description: 'A note with the decision', example: 'Checked against the HR record', maxLength: 500, required: false })
  note?: string;
}

export class StaffChangeDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() staffId: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: PERSON_ROLES, enumName: 'PersonRole', isArray: true }) roles: Role[];
  @ApiProperty() active: boolean;
  @ApiProperty() reason: string;
  @ApiProperty({ description: 'The key that proposed it' }) proposedByKeyId: string;
  @ApiProperty({ format: 'date-time' }) proposedAt: string;
  @ApiProperty({ enum: ['PENDING', 'APPROVED', 'REJECTED'], enumName: 'StaffChangeStatus' }) status: string;
  @ApiProperty({ nullable: true, type: String, description: "The key that decided it ('setup' for the register's first administrator)" })
  decidedByKeyId: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) decidedAt: string | null;
  @ApiProperty({ nullable: true, type: String }) decisionNote: string | null;
}

export class StaffMemberDto {
  @ApiProperty() staffId: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: PERSON_ROLES, enumName: 'PersonRole', isArray: true }) roles: Role[];
  @ApiProperty() active: boolean;
  @ApiProperty({ format: 'date-time' }) registeredAt: string;
  @ApiProperty({ format: 'date-time' }) changedAt: string;
  @ApiProperty({ type: [StaffChangeDto], description: 'Every approved change, oldest first: the role history' }) history: StaffChangeDto[];
}

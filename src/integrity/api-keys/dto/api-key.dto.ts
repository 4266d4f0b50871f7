import { ApiProperty } from '@nestjs/swagger';
import { DateTimeField, EnumField, TextField, UuidField } from '../../../platform/common/validation';
import { Role } from '../../../platform/common/actor';

export const ROLES: Role[] = [
  'TERMINAL',
  'SUPERVISOR',
  'FINANCE',
  'AUDITOR',
  'ADMIN',
  'SURVEILLANCE',
  'HOST',
  'COMPLIANCE',
  'CASHIER',
  'DISPLAY',
  'CASINO_MANAGER',
  'DEVICE',
];

export class CreateApiKeyDto {
  @TextField({ description: 'Who or what uses the key', example: 'Pit 3 terminal, table BAC-07', maxLength: 100 })
  name: string;

  @EnumField(ROLES, { description: 'What the key may do', enumName: 'Role', example: 'TERMINAL' })
  role: Role;

  @UuidField({ description: 'The one table a TERMINAL, DISPLAY or DEVICE key acts on (required for them, refused otherwise)', required: false })
  tableId?: string;

  @TextField({
    description:
      'The staff member the key belongs to: their employee number (required for every role but TERMINAL and DISPLAY, refused for them). Two-person rules compare these; nobody mints a key for themselves.',
    example: 'E-10442',
    maxLength: 64,
    pattern: /^[A-Za-z0-9._-]+$/,
    patternHint: 'may hold letters, digits, ., - and _',
    required: false,
  })
  staffId?: string;

  @DateTimeField({ description: 'When the key stops working (ISO 8601)', example: '2027-01-01T06:00:00Z', required: false })
  expiresAt?: string;
}

export class ApiKeyDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ROLES, enumName: 'Role' }) role: Role;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) tableId: string | null;
  @ApiProperty({ description: 'First characters of the key, to recognise it' }) keyPrefix: string;
  @ApiProperty({ nullable: true, type: String, description: 'The staff member the key belongs to (null: a terminal or a display)' }) staffId: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The key that minted this one' }) createdByKeyId: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expiresAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) revokedAt: string | null;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'When its holder claimed it (a new secret the minter never saw); until then two-person rules count the minter as a possible holder',
  })
  claimedAt: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The second administrator's key that witnessed the claim: from then on the key is its person's alone",
  })
  claimWitnessedBy: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) claimWitnessedAt: string | null;
}

export class CreatedApiKeyDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({
    description:
      'The key itself: shown only in this response, stored only as a hash. null when the answer is replayed for a retried Idempotency-Key: a key is shown once (revoke it and mint another if it was lost)',
    example: 'sab_3kq…',
    nullable: true,
    type: String,
  })
  key: string | null;
  @ApiProperty({ type: ApiKeyDto }) apiKey: ApiKeyDto;
}

/** The calling key, as the screens need it: who it is, its role and table (never the key itself). */
export class CallerDto {
  @ApiProperty({ description: "The key's id (`bootstrap-admin` for the service's own ADMIN_API_KEY)" }) keyId: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ROLES, enumName: 'Role' }) role: Role;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The one table the key is bound to (TERMINAL, DISPLAY), else null' }) tableId:
    string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The staff member the key belongs to (null: a terminal, a display or the bootstrap key)' })
  staffId: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) expiresAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When its holder claimed it (POST /v1/api-keys/claim); null: not claimed' })
  claimedAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When a second administrator witnessed the claim; null: not witnessed' })
  claimWitnessedAt: string | null;
}

export class ProposeKeyRevocationDto {
  @TextField({
    description: 'Why the key should stop: a departure, a key lost or shared (kept with the proposal)',
    example: 'Left the company on 2026-12-11',
    maxLength: 500,
    minLength: 3,
  })
  reason: string;
}

export class DecideKeyRevocationDto {
  @TextField({ description: 'A note with the decision (required to reject)', example: 'Confirmed with HR', maxLength: 500, required: false })
  note?: string;
}

export const KEY_REVOCATION_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;

/** The revocation of a key, proposed by one administrator and decided by another. */
export class KeyRevocationDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid', description: 'The key to revoke' }) keyId: string;
  @ApiProperty({ nullable: true, type: String, description: "The key's person (null: a table's key)" }) keyStaffId: string | null;
  @ApiProperty({ enum: ROLES, enumName: 'Role', description: "The key's role" }) keyRole: Role;
  @ApiProperty() reason: string;
  @ApiProperty({ description: 'The key that proposed it' }) proposedByKeyId: string;
  @ApiProperty({ format: 'date-time' }) proposedAt: string;
  @ApiProperty({ enum: KEY_REVOCATION_STATUSES, enumName: 'KeyRevocationStatus' }) status: string;
  @ApiProperty({ nullable: true, type: String, description: 'The key that approved or rejected it' }) decidedByKeyId: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) decidedAt: string | null;
  @ApiProperty({ nullable: true, type: String }) decisionNote: string | null;
}

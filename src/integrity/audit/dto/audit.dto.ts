import { ApiProperty } from '@nestjs/swagger';
import { BigIdField, DateTimeField, TextField } from '../../../platform/common/validation';

const TOKEN = /^[A-Za-z0-9._:\-]+$/;

export class AuditQueryDto {
  @TextField({ description: 'Hash chain: a table id or "admin"', maxLength: 64, pattern: TOKEN, patternHint: 'must be a table id or admin', required: false })
  stream?: string;
  @TextField({ description: 'API key id', maxLength: 64, pattern: TOKEN, patternHint: 'must be a key id', required: false }) keyId?: string;
  @TextField({ description: 'Action, e.g. coup.record', maxLength: 64, pattern: TOKEN, patternHint: 'must be an action name', required: false })
  action?: string;
  @TextField({ description: 'Entity type, e.g. coup', maxLength: 64, pattern: TOKEN, patternHint: 'must be an entity type', required: false })
  entityType?: string;
  @TextField({ description: 'Entity id', maxLength: 64, pattern: TOKEN, patternHint: 'must be an id', required: false }) entityId?: string;
  @TextField({ description: 'Correlation id of the request', maxLength: 64, pattern: TOKEN, patternHint: 'must be a correlation id', required: false })
  correlationId?: string;
  @DateTimeField({ description: 'From (inclusive), ISO 8601', example: '2026-07-01T06:00:00Z', required: false }) from?: string;
  @DateTimeField({ description: 'To (exclusive), ISO 8601', example: '2026-07-02T06:00:00Z', required: false }) to?: string;
  @BigIdField({ description: 'Page after this entry id', required: false })
  afterId?: string;
  @TextField({ description: 'Entries per page, 1–1000 (default 100)', maxLength: 4, pattern: /^\d+$/, patternHint: 'must be a number', required: false })
  limit?: string;
}

export class AuditEntryDto {
  @ApiProperty() id: string;
  @ApiProperty() stream: string;
  @ApiProperty() seq: number;
  @ApiProperty({ description: 'sha256(previous hash ‖ payload), hex' }) hash: string;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty() keyId: string;
  @ApiProperty() role: string;
  @ApiProperty() action: string;
  @ApiProperty() entityType: string;
  @ApiProperty() entityId: string;
  @ApiProperty() correlationId: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The entry as hashed: route, values written…' }) entry: Record<string, unknown>;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'HMAC-SHA256 of the stream and the payload under the audit key named in macKey (a secret kept outside the database); null only for entries written before keying',
  })
  mac: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Which audit key keyed the entry (keys rotate; old ones are kept to verify)' }) macKey:
    string | null;
}

export class BrokenLinkDto {
  @ApiProperty({ nullable: true, type: String, description: 'The stream (null for a ledger or a checkpoint)' }) stream: string | null;
  @ApiProperty({ nullable: true, type: Number }) seq: number | null;
  @ApiProperty({ nullable: true, type: String }) id: string | null;
  @ApiProperty() reason: string;
}

export class CheckedAgainstDto {
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ description: 'sha256 of the signing public key (SPKI DER), hex' }) keyFingerprint: string;
}

export class BreakGlassEventDto {
  @ApiProperty() stream: string;
  @ApiProperty() seq: number;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ description: 'The person made an administrator' }) staffId: string;
  @ApiProperty() reason: string;
  @ApiProperty({ type: String, isArray: true, description: 'Everyone present, as they signed the record' }) present: string[];
  @ApiProperty({ type: String, isArray: true, description: 'The persons whose keys were revoked as lost' }) lost: string[];
}

export class AuditVerificationDto {
  @ApiProperty() ok: boolean;
  @ApiProperty() entriesChecked: number;
  @ApiProperty() streams: number;
  @ApiProperty({ type: BrokenLinkDto, nullable: true, description: 'The first problem (also the first of problems)' }) firstBroken: BrokenLinkDto | null;
  @ApiProperty({ type: BrokenLinkDto, isArray: true, description: "Every problem: each stream's first, then what the newest signed checkpoint shows" })
  problems: BrokenLinkDto[];
  @ApiProperty({ type: CheckedAgainstDto, nullable: true, description: 'The signed checkpoint the database was compared with, if any' })
  checkedAgainst: CheckedAgainstDto | null;
  @ApiProperty({
    type: BreakGlassEventDto,
    isArray: true,
    description:
      'Every break-glass: an administrator made with the database and the audit key, outside the API, the day fewer than two could act (docs/operations.md). Keyed, so not a problem; listed so that none goes unseen',
  })
  breakGlass: BreakGlassEventDto[];
}

export class StreamHeadDto {
  @ApiProperty() stream: string;
  @ApiProperty() seq: number;
  @ApiProperty({ description: 'The chain hash at seq' }) hash: string;
}

export class CheckpointBodyDto {
  @ApiProperty({ enum: ['sabot-checkpoint/1'] }) format: string;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ nullable: true, type: String, description: "sha256 of the previous checkpoint's body (canonical JSON)" }) previous: string | null;
  @ApiProperty({ type: StreamHeadDto, isArray: true }) streams: readonly StreamHeadDto[];
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, description: 'Rows per append-only ledger' }) ledgers: Readonly<
    Record<string, number>
  >;
}

export class SignedCheckpointDto {
  @ApiProperty() id: string;
  @ApiProperty({ type: CheckpointBodyDto }) body: CheckpointBodyDto;
  @ApiProperty({ description: "Ed25519 over the body's canonical JSON (keys sorted), base64" }) signature: string;
  @ApiProperty({ description: 'The signing public key, SPKI PEM' }) publicKey: string;
  @ApiProperty({ description: 'sha256 of the public key (SPKI DER), hex: pin it' }) keyFingerprint: string;
}

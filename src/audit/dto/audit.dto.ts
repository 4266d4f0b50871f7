import { ApiProperty } from '@nestjs/swagger';
import { DateTimeField, TextField } from '../../common/validation';

const TOKEN = /^[A-Za-z0-9._:\-]+$/;

export class AuditQueryDto {
  @TextField({ description: 'Hash chain: a table id or "admin"', maxLength: 64, pattern: TOKEN, patternHint: 'must be a table id or admin', required: false }) stream?: string;
  @TextField({ description: 'API key id', maxLength: 64, pattern: TOKEN, patternHint: 'must be a key id', required: false }) keyId?: string;
  @TextField({ description: 'Action, e.g. coup.record', maxLength: 64, pattern: TOKEN, patternHint: 'must be an action name', required: false }) action?: string;
  @TextField({ description: 'Entity type, e.g. coup', maxLength: 64, pattern: TOKEN, patternHint: 'must be an entity type', required: false }) entityType?: string;
  @TextField({ description: 'Entity id', maxLength: 64, pattern: TOKEN, patternHint: 'must be an id', required: false }) entityId?: string;
  @TextField({ description: 'Correlation id of the request', maxLength: 64, pattern: TOKEN, patternHint: 'must be a correlation id', required: false }) correlationId?: string;
  @DateTimeField({ description: 'From (inclusive), ISO 8601', example: '2026-07-01T06:00:00Z', required: false }) from?: string;
  @DateTimeField({ description: 'To (exclusive), ISO 8601', example: '2026-07-02T06:00:00Z', required: false }) to?: string;
  @TextField({ description: 'Page after this entry id', maxLength: 20, pattern: /^\d+$/, patternHint: 'must be an entry id', required: false }) afterId?: string;
  @TextField({ description: 'Entries per page, 1–1000 (default 100)', maxLength: 4, pattern: /^\d+$/, patternHint: 'must be a number', required: false }) limit?: string;
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
  @ApiProperty({ nullable: true, type: String, description: 'HMAC-SHA256 of the stream and the payload under the audit key named in macKey (a secret kept outside the database); null only for entries written before keying' }) mac: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Which audit key keyed the entry (keys rotate; old ones are kept to verify)' }) macKey: string | null;
}

export class BrokenLinkDto {
  @ApiProperty() stream: string;
  @ApiProperty() seq: number;
  @ApiProperty({ nullable: true, type: String }) id: string | null;
  @ApiProperty() reason: string;
}

export class AuditVerificationDto {
  @ApiProperty() ok: boolean;
  @ApiProperty() entriesChecked: number;
  @ApiProperty() streams: number;
  @ApiProperty({ type: BrokenLinkDto, nullable: true }) firstBroken: BrokenLinkDto | null;
}

import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Role } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { AuditService } from './audit.service';
import { AppError } from '../../platform/common/errors';
import { AuditEntryDto, AuditQueryDto, AuditVerificationDto, SignedCheckpointDto } from './dto/audit.dto';

const AUDITORS: Role[] = ['AUDITOR', 'ADMIN'];

@ApiTags('Audit')
@Controller('v1/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Endpoint('GET', '', {
    operationId: 'listAuditEntries',
    summary: 'Audit entries, oldest first, with filters',
    description:
      "Audit entries oldest first, filtered by stream (a table's id or `admin`), action, entity and time. Each entry carries its hash and the previous entry's.",
    roles: AUDITORS,
    type: AuditEntryDto,
    isArray: true,
  })
  list(@Query() q: AuditQueryDto): Promise<AuditEntryDto[]> {
    return this.audit.list(q);
  }

  @Endpoint('GET', 'verify', {
    operationId: 'verifyAuditChain',
    summary: 'Walk every hash chain and report the first broken link',
    description: 'Walks every audit hash chain from its first entry and reports the first broken link of each, if any.',
    roles: AUDITORS,
    type: AuditVerificationDto,
  })
  verify(): Promise<AuditVerificationDto> {
    return this.audit.verify();
  }

  @Endpoint('POST', 'checkpoints', {
    operationId: 'signAuditCheckpoint',
    summary: 'Sign a checkpoint now: every stream head and every ledger row count, for the auditor to keep outside the casino',
    description:
      "Verifies the database (as GET /v1/audit/verify) and, when it holds, signs with the service's Ed25519 key (kept outside the database) a checkpoint of every audit stream's head (sequence and chain hash) and every append-only ledger's row count, chained to the previous checkpoint. " +
      'Keep the answer as a file: `npm run audit:verify -- --checkpoint FILE` later proves the database still passes through it. The service also signs one every AUDIT_CHECKPOINT_MINUTES.',
    writes: 'an audit_checkpoints row.',
    roles: AUDITORS,
    status: 201,
    type: SignedCheckpointDto,
    errors: ['AUDIT_BROKEN'],
  })
  sign(): Promise<SignedCheckpointDto> {
    return this.audit.checkpoint();
  }

  @Endpoint('GET', 'checkpoints/latest', {
    operationId: 'latestAuditCheckpoint',
    summary: 'The newest signed checkpoint, as a file to keep',
    description:
      'The newest checkpoint the service signed (periodically or on demand), with its signature and public key. An auditor downloads it regularly and keeps it outside the casino.',
    roles: AUDITORS,
    type: SignedCheckpointDto,
    errors: ['NOT_FOUND'],
  })
  async latest(): Promise<SignedCheckpointDto> {
    const c = await this.audit.newestCheckpoint();
    if (!c) throw new AppError('NOT_FOUND', 'No checkpoint has been signed yet: POST /v1/audit/checkpoints signs one');
    return c;
  }
}

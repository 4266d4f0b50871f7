import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Role } from '../access/actor';
import { Endpoint } from '../common/endpoint';
import { AuditService } from './audit.service';
import { AuditEntryDto, AuditQueryDto, AuditVerificationDto } from './dto/audit.dto';

const AUDITORS: Role[] = ['AUDITOR', 'ADMIN'];

@ApiTags('Audit')
@Controller('v1/audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Endpoint('GET', '', { operationId: 'listAuditEntries', summary: 'Audit entries, oldest first, with filters', description: "Audit entries oldest first, filtered by stream (a table's id or `admin`), action, entity and time. Each entry carries its hash and the previous entry's.", roles: AUDITORS, type: AuditEntryDto, isArray: true })
  list(@Query() q: AuditQueryDto): Promise<AuditEntryDto[]> {
    return this.audit.list(q);
  }

  @Endpoint('GET', 'verify', { operationId: 'verifyAuditChain', summary: 'Walk every hash chain and report the first broken link', description: "Walks every audit hash chain from its first entry and reports the first broken link of each, if any.", roles: AUDITORS, type: AuditVerificationDto })
  verify(): Promise<AuditVerificationDto> {
    return this.audit.verify();
  }
}

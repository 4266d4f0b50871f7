import { Controller, Get, Query } from '@nestjs/common';
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

  @Get()
  @Endpoint({ operationId: 'listAuditEntries', summary: 'Audit entries, oldest first, with filters', roles: AUDITORS, type: AuditEntryDto, isArray: true })
  list(@Query() q: AuditQueryDto): Promise<AuditEntryDto[]> {
    return this.audit.list(q);
  }

  @Get('verify')
  @Endpoint({ operationId: 'verifyAuditChain', summary: 'Walk every hash chain and report the first broken link', roles: AUDITORS, type: AuditVerificationDto })
  verify(): Promise<AuditVerificationDto> {
    return this.audit.verify();
  }
}

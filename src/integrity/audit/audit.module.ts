import { Module } from '@nestjs/common';
import { AuditController } from './audit.controller';
import { AuditService } from './audit.service';

/** The audit trail as auditors read it: entries, verification, signed checkpoints. */
@Module({ controllers: [AuditController], providers: [AuditService] })
export class AuditModule {}

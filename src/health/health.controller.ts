import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, PrismaHealthIndicator } from '@nestjs/terminus';
import { Endpoint } from '../common/endpoint';
import { PrismaService } from '../database/prisma.service';

/** Liveness and readiness in one: 200 when the database answers within 2 s, 503 otherwise (@nestjs/terminus). */
@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: PrismaHealthIndicator,
    private readonly prisma: PrismaService,
  ) {}

  @HealthCheck({ swaggerDocumentation: false })
  @Endpoint('GET', '', {
    operationId: 'health',
    summary: 'Service health: 200 when the database answers, 503 when it does not',
    description:
      "Liveness and readiness in one: answers 200 with the database's state when PostgreSQL answers within 2 seconds, 503 when it does not. Load balancers and monitors call it.",
    errors: ['SERVICE_UNAVAILABLE'],
  })
  check(): Promise<HealthCheckResult> {
    return this.health.check([() => this.db.pingCheck('database', this.prisma, { timeout: 2000 })]);
  }
}

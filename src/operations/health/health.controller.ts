import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, PrismaHealthIndicator } from '@nestjs/terminus';
import { Endpoint } from '../../platform/common/endpoint';
import { AppError } from '../../platform/common/errors';
import { ShutdownState } from '../../platform/common/shutdown';
import { PrismaService } from '../../platform/database/prisma.service';

/**
 * Liveness (the process serves: restart it if not) and readiness (it can do its work: send it
 * requests), separately, as orchestrators ask them (@nestjs/terminus). /health is readiness, kept
 * for the monitors already pointed at it.
 */
@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly db: PrismaHealthIndicator,
    private readonly prisma: PrismaService,
    private readonly shutdown: ShutdownState,
  ) {}

  @HealthCheck({ swaggerDocumentation: false })
  @Endpoint('GET', '', {
    operationId: 'health',
    summary: 'Readiness (as /health/ready): 200 when the database answers, 503 when it does not or the instance is shutting down',
    description: 'The same check as /health/ready, under the path load balancers and monitors were first given.',
    errors: ['SERVICE_UNAVAILABLE'],
  })
  check(): Promise<HealthCheckResult> {
    return this.ready();
  }

  @Endpoint('GET', 'live', {
    operationId: 'healthLive',
    summary: 'Liveness: 200 while the process serves requests',
    description:
      'Answers 200 whenever the process can answer at all, whatever the state of the database: a failing liveness check means the process should be restarted. Reads nothing.',
  })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @HealthCheck({ swaggerDocumentation: false })
  @Endpoint('GET', 'ready', {
    operationId: 'healthReady',
    summary: 'Readiness: 200 when the database answers, 503 when it does not or the instance is shutting down',
    description:
      "Answers 200 with the database's state when PostgreSQL answers within 2 seconds; 503 when it does not, and from the moment the instance receives SIGTERM (it finishes the requests in flight, takes no new ones, and stops).",
    errors: ['SERVICE_UNAVAILABLE'],
  })
  ready(): Promise<HealthCheckResult> {
    if (this.shutdown.draining) throw new AppError('SERVICE_UNAVAILABLE', 'This instance is shutting down: send requests to another one');
    return this.health.check([() => this.db.pingCheck('database', this.prisma, { timeout: 2000 })]);
  }
}

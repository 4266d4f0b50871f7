import { Body, Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Role } from '../../platform/common/actor';
import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Endpoint } from '../../platform/common/endpoint';
import { IdParam } from '../../platform/common/validation';
import { AlertDto, AlertQueryDto, AlertStepInputDto, CloseAlertDto, OpenAlertsDto, OpenAlertsQueryDto } from './dto/alert.dto';
import { SurveillanceService } from './surveillance.service';

const READERS: Role[] = ['SURVEILLANCE', 'SUPERVISOR', 'AUDITOR'];
const ACKNOWLEDGERS: Role[] = ['SURVEILLANCE', 'SUPERVISOR'];
const CLOSERS: Role[] = ['SUPERVISOR'];

@ApiTags('Surveillance')
@Controller('v1/surveillance')
export class SurveillanceController {
  constructor(private readonly surveillance: SurveillanceService) {}

  @Endpoint('GET', 'alerts', {
    operationId: 'listAlerts',
    summary: 'Integrity alerts, newest first',
    description:
      "Alerts raised by the detectors (docs/domain.md §9: betting with the count, wins, money or the first card's worth beyond the exact odds, a dealer and a patron together, a run of cards repeated from an earlier shoe), each with its p-value, threshold and evidence, and the evidence added while it stays open, filtered by state, detector, table, shoe, patron or dealer. At most 500.",
    roles: READERS,
    type: AlertDto,
    isArray: true,
  })
  list(@Query() q: AlertQueryDto): Promise<AlertDto[]> {
    return this.surveillance.list(q);
  }

  @Endpoint('GET', 'open-alerts', {
    operationId: 'openAlertsBy',
    summary: 'Alerts not yet closed, by patron, dealer, table, shoe or seat',
    description:
      "The surveillance room's views: every patron (or dealer, table, shoe, or table seat played without a player card: subject `<table id>:<seat>`) with alerts not yet closed, how many are open and acknowledged, how many HIGH, the smallest p-value and the detectors, most serious first. Alerts that do not name such a subject (a repeated run names no patron or dealer) are not in that view. At most 500.",
    roles: READERS,
    type: OpenAlertsDto,
    isArray: true,
  })
  openBy(@Query() q: OpenAlertsQueryDto): Promise<OpenAlertsDto[]> {
    return this.surveillance.openBy(q.by);
  }

  @Endpoint('GET', 'alerts/:id', {
    operationId: 'getAlert',
    summary: 'One integrity alert, with its evidence and steps',
    description: 'One alert with the figures behind it and every step taken on it.',
    roles: READERS,
    type: AlertDto,
    errors: ['NOT_FOUND'],
  })
  get(@IdParam() id: string): Promise<AlertDto> {
    return this.surveillance.get(id);
  }

  @Endpoint('POST', 'alerts/:id/acknowledge', {
    operationId: 'acknowledgeAlert',
    summary: 'Acknowledge an alert (someone is looking into it)',
    description: 'Records that the alert is being looked into, with an optional note. Once per alert; not after it is closed.',
    writes: 'a step on the alert; the audit entry `alert.acknowledge` (the surveillance stream).',
    roles: ACKNOWLEDGERS,
    type: AlertDto,
    errors: ['NOT_FOUND', 'ALERT_ALREADY_ACKNOWLEDGED', 'ALERT_CLOSED'],
  })
  acknowledge(@IdParam() id: string, @Body() dto: AlertStepInputDto, @CurrentContext() ctx: RequestContext): Promise<AlertDto> {
    return this.surveillance.step(id, 'ACKNOWLEDGE', dto.note ?? null, ctx);
  }

  @Endpoint('POST', 'alerts/:id/close', {
    operationId: 'closeAlert',
    summary: 'Close an alert with what was found',
    description: 'Closes the alert with a note saying what was found and done. The alert and its steps stay as they are; nothing more can be recorded on it.',
    writes: 'a step on the alert; the audit entry `alert.close` (the surveillance stream).',
    roles: CLOSERS,
    type: AlertDto,
    errors: ['NOT_FOUND', 'ALERT_CLOSED'],
  })
  close(@IdParam() id: string, @Body() dto: CloseAlertDto, @CurrentContext() ctx: RequestContext): Promise<AlertDto> {
    return this.surveillance.step(id, 'CLOSE', dto.note, ctx);
  }
}

import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Role, SUPERVISORS } from '../../platform/common/actor';
import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Endpoint } from '../../platform/common/endpoint';
import { IdParam } from '../../platform/common/validation';
import { DeviceReportsService } from './device-reports.service';
import { ClearDeviceHoldDto, DeviceHoldDto, RefusedReportDto } from './dto/device.dto';

/** Who reads what a table's devices reported and what was held: the pit's and the floor's overseers. */
const DEVICE_READERS: Role[] = ['SUPERVISOR', 'ADMIN', 'AUDITOR', 'SURVEILLANCE'];

/** The supervisor's view of the table's devices: the coups held and the reports refused (issue 51). */
@ApiTags('Table devices')
@Controller('v1')
export class DeviceHoldsController {
  constructor(private readonly reports: DeviceReportsService) {}

  @Endpoint('GET', 'tables/:id/device-holds', {
    operationId: 'listDeviceHolds',
    summary: "The coups a table's devices reported that were held, those still held first",
    description:
      'Each with its reason, what was wrong and the report that showed it. The devices report over the device gateway (WebSocket /v1/devices/stream, docs/devices.md); a coup the judge would not settle is held here, and nothing of it is settled until a supervisor clears it (the coup is then keyed at the terminal, or dealt again).',
    roles: DEVICE_READERS,
    type: DeviceHoldDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  holds(@IdParam() id: string): Promise<DeviceHoldDto[]> {
    return this.reports.holds(id);
  }

  @Endpoint('POST', 'device-holds/:id/clear', {
    operationId: 'clearDeviceHold',
    summary: 'Clear a held coup: its cards stay dealt, its bets go back, the next coup is read afresh',
    description:
      'The supervisor has dealt with the coup the devices reported (keyed it at the terminal, or had it dealt again), and says what they found. A hold is cleared once (CONFLICT after).',
    writes: 'the hold cleared; the table devices’ memory of the coup let go; the audit entry `device.holdClear` (stream `devices`).',
    roles: SUPERVISORS,
    type: DeviceHoldDto,
    errors: ['NOT_FOUND', 'CONFLICT'],
  })
  clear(@IdParam() id: string, @Body() dto: ClearDeviceHoldDto, @CurrentContext() ctx: RequestContext): Promise<DeviceHoldDto> {
    return this.reports.clear(id, dto.note, ctx);
  }

  @Endpoint('GET', 'tables/:id/device-reports/refused', {
    operationId: 'listRefusedDeviceReports',
    summary: "Reports a table's devices sent that the gateway refused, the latest first",
    description:
      'A report that is not the protocol’s (DEVICE_REPORT_INVALID) or not the number due (DEVICE_SEQUENCE_GAP) changes no record: it is kept here, as it came, for the supervisor.',
    roles: DEVICE_READERS,
    type: RefusedReportDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  refused(@IdParam() id: string): Promise<RefusedReportDto[]> {
    return this.reports.refused(id);
  }
}

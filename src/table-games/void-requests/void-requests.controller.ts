import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Body, Controller, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { Role, SUPERVISORS } from '../../platform/common/actor';
import { Endpoint } from '../../platform/common/endpoint';
import { IdParam } from '../../platform/common/validation';
import { DecideVoidDto, RequestCoupVoidDto, RequestVoidDto, VoidRequestDto } from './dto/void-request.dto';
import { VoidRequestsService } from './void-requests.service';

const READERS: Role[] = ['SUPERVISOR', 'AUDITOR', 'ADMIN'];

@ApiTags('Voids')
@Controller('v1')
export class VoidRequestsController {
  constructor(private readonly voids: VoidRequestsService) {}

  @Endpoint('POST', 'coups/:id/void', {
    operationId: 'requestCoupVoid',
    body: {
      type: RequestCoupVoidDto,
      examples: { wrongTable: { summary: 'A coup keyed at the wrong table', value: { reason: 'Cards recorded for the wrong table: BAC-07 keyed as BAC-08' } } },
    },
    summary: 'Ask to void a coup; a different supervisor must approve it',
    description: 'Asks to void a settled coup, with the reason. Nothing changes until a different supervisor approves.',
    writes: 'the void request; the audit entry `void.request`.',
    roles: SUPERVISORS,
    status: 202,
    type: VoidRequestDto,
    errors: ['NOT_FOUND', 'COUP_ALREADY_VOIDED', 'VOID_ALREADY_REQUESTED'],
  })
  requestCoupVoid(@IdParam() id: string, @Body() dto: RequestCoupVoidDto, @CurrentContext() ctx: RequestContext): Promise<VoidRequestDto> {
    return this.voids.request('COUP', id, dto, ctx);
  }

  @Endpoint('POST', 'slips/:id/void', {
    operationId: 'requestSlipVoid',
    summary: 'Ask to void a fill or credit slip; a different supervisor must approve it',
    description: 'Asks to void a fill or credit slip, with the reason. Nothing changes until a different supervisor approves.',
    writes: 'the void request; the audit entry `void.request`.',
    roles: SUPERVISORS,
    status: 202,
    type: VoidRequestDto,
    errors: ['NOT_FOUND', 'SLIP_ALREADY_VOIDED', 'VOID_ALREADY_REQUESTED'],
  })
  requestSlipVoid(@IdParam() id: string, @Body() dto: RequestVoidDto, @CurrentContext() ctx: RequestContext): Promise<VoidRequestDto> {
    return this.voids.request('SLIP', id, dto, ctx);
  }

  @Endpoint('POST', 'bank-coups/:id/void', {
    operationId: 'requestBankCoupVoid',
    summary: "Ask to void a player-banked coup (the shoe's last); a different supervisor must approve it",
    description:
      "Asks to void a player-banked coup (only the shoe's last coup standing), with the reason. Nothing changes until a different supervisor approves.",
    writes: 'the void request; the audit entry `void.request`.',
    roles: SUPERVISORS,
    status: 202,
    type: VoidRequestDto,
    errors: ['NOT_FOUND', 'COUP_ALREADY_VOIDED', 'VOID_NOT_LAST', 'VOID_ALREADY_REQUESTED'],
  })
  requestBankCoupVoid(@IdParam() id: string, @Body() dto: RequestVoidDto, @CurrentContext() ctx: RequestContext): Promise<VoidRequestDto> {
    return this.voids.request('BANK_COUP', id, dto, ctx);
  }

  @Endpoint('POST', 'buy-ins/:id/void', {
    operationId: 'requestBuyInVoid',
    body: {
      type: RequestVoidDto,
      examples: { keyedTwice: { summary: 'A buy-in keyed twice', value: { reason: 'Keyed twice: the patron bought in 2,000.00 once' } } },
    },
    summary: 'Ask to void a buy-in; a different supervisor must approve it',
    description:
      'Asks to void a buy-in recorded by mistake, with the reason. Nothing changes until a different supervisor approves. A marker buy-in whose marker has been paid on at the cage cannot be voided.',
    writes: 'the void request; the audit entry `void.request`.',
    roles: SUPERVISORS,
    status: 202,
    type: VoidRequestDto,
    errors: ['NOT_FOUND', 'BUY_IN_ALREADY_VOIDED', 'MARKER_PAID_ON', 'VOID_ALREADY_REQUESTED'],
  })
  requestBuyInVoid(@IdParam() id: string, @Body() dto: RequestVoidDto, @CurrentContext() ctx: RequestContext): Promise<VoidRequestDto> {
    return this.voids.request('BUY_IN', id, dto, ctx);
  }

  @Endpoint('POST', 'void-requests/:id/approve', {
    operationId: 'approveVoid',
    body: {
      type: DecideVoidDto,
      examples: { checked: { summary: 'The second supervisor approves', value: { note: 'Checked against the surveillance log' } } },
    },
    summary: 'Approve a void request (not the requester): the void takes effect',
    description:
      "Approves a void request. The approver must be a different person from the requester (the staff members the keys belong to), and neither may have minted the other's key. The void takes effect at once: a coup's wagers are reversed in the rollups and commission ledger by new records (the originals stay readable), a slip leaves table accounting, a bank goes back to its state before the coup, a buy-in leaves the drop and the cash reports (its marker is owed no more).",
    writes:
      'the decision, the void record, reversing ledger rows and rollup changes, and the audit entries `void.approve` and `coup.void` / `slip.void` / `bank.coup.void` / `buyIn.void`, in one transaction.',
    roles: SUPERVISORS,
    type: VoidRequestDto,
    errors: [
      'SAME_PERSON',
      'NOT_FOUND',
      'VOID_REQUEST_DECIDED',
      'COUP_ALREADY_VOIDED',
      'SLIP_ALREADY_VOIDED',
      'BUY_IN_ALREADY_VOIDED',
      'MARKER_PAID_ON',
      'VOID_NOT_LAST',
    ],
  })
  approve(@IdParam() id: string, @Body() dto: DecideVoidDto, @CurrentContext() ctx: RequestContext): Promise<VoidRequestDto> {
    return this.voids.approve(id, dto, ctx);
  }

  @Endpoint('POST', 'void-requests/:id/reject', {
    operationId: 'rejectVoid',
    summary: 'Reject a void request (never by the person who asked for it)',
    description:
      'Rejects a void request, with the reason. Nobody rejects their own request: the person who asked (the staff member the key belongs to) cannot decide it either way.',
    writes: 'the decision; the audit entry `void.reject`.',
    roles: SUPERVISORS,
    type: VoidRequestDto,
    errors: ['SAME_PERSON', 'NOT_FOUND', 'VOID_REQUEST_DECIDED'],
  })
  reject(@IdParam() id: string, @Body() dto: DecideVoidDto, @CurrentContext() ctx: RequestContext): Promise<VoidRequestDto> {
    return this.voids.reject(id, dto, ctx);
  }

  @ApiQuery({ name: 'status', required: false, enum: ['PENDING', 'APPROVED', 'REJECTED'] })
  @Endpoint('GET', 'void-requests', {
    operationId: 'listVoidRequests',
    summary: 'Void requests, oldest first',
    description: 'Void requests oldest first, optionally by status.',
    roles: READERS,
    type: VoidRequestDto,
    isArray: true,
  })
  list(@Query('status') status?: string): Promise<VoidRequestDto[]> {
    return this.voids.list(status);
  }

  @Endpoint('GET', 'void-requests/:id', {
    operationId: 'getVoidRequest',
    summary: 'Read a void request',
    description: 'One void request with who asked, who decided and when.',
    roles: READERS,
    type: VoidRequestDto,
    errors: ['NOT_FOUND'],
  })
  get(@IdParam() id: string): Promise<VoidRequestDto> {
    return this.voids.get(id);
  }
}

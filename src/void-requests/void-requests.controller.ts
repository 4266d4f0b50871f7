import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { Actor, CurrentActor, Role, SUPERVISORS } from '../access/actor';
import { Endpoint } from '../common/endpoint';
import { IdParam } from '../common/validation';
import { DecideVoidDto, RequestVoidDto, VoidRequestDto } from './dto/void-request.dto';
import { VoidRequestsService } from './void-requests.service';

const READERS: Role[] = ['SUPERVISOR', 'AUDITOR', 'ADMIN'];

@ApiTags('Voids')
@Controller('v1')
export class VoidRequestsController {
  constructor(private readonly voids: VoidRequestsService) {}

  @Post('coups/:id/void')
  @Endpoint({ operationId: 'requestCoupVoid', summary: 'Ask to void a coup; a different supervisor must approve it', roles: SUPERVISORS, status: 202, type: VoidRequestDto, errors: ['NOT_FOUND', 'COUP_ALREADY_VOIDED', 'VOID_ALREADY_REQUESTED'] })
  requestCoupVoid(@IdParam() id: string, @Body() dto: RequestVoidDto, @CurrentActor() actor: Actor): Promise<VoidRequestDto> {
    return this.voids.request('COUP', id, dto, actor);
  }

  @Post('slips/:id/void')
  @Endpoint({ operationId: 'requestSlipVoid', summary: 'Ask to void a fill or credit slip; a different supervisor must approve it', roles: SUPERVISORS, status: 202, type: VoidRequestDto, errors: ['NOT_FOUND', 'SLIP_ALREADY_VOIDED', 'VOID_ALREADY_REQUESTED'] })
  requestSlipVoid(@IdParam() id: string, @Body() dto: RequestVoidDto, @CurrentActor() actor: Actor): Promise<VoidRequestDto> {
    return this.voids.request('SLIP', id, dto, actor);
  }

  @Post('bank-coups/:id/void')
  @Endpoint({ operationId: 'requestBankCoupVoid', summary: "Ask to void a player-banked coup (the shoe's last); a different supervisor must approve it", roles: SUPERVISORS, status: 202, type: VoidRequestDto, errors: ['NOT_FOUND', 'COUP_ALREADY_VOIDED', 'VOID_NOT_LAST', 'VOID_ALREADY_REQUESTED'] })
  requestBankCoupVoid(@IdParam() id: string, @Body() dto: RequestVoidDto, @CurrentActor() actor: Actor): Promise<VoidRequestDto> {
    return this.voids.request('BANK_COUP', id, dto, actor);
  }

  @Post('void-requests/:id/approve')
  @Endpoint({ operationId: 'approveVoid', summary: 'Approve a void request (not the requester): the void takes effect', roles: SUPERVISORS, type: VoidRequestDto, errors: ['NOT_FOUND', 'VOID_REQUEST_DECIDED', 'COUP_ALREADY_VOIDED', 'SLIP_ALREADY_VOIDED', 'VOID_NOT_LAST'] })
  approve(@IdParam() id: string, @Body() dto: DecideVoidDto, @CurrentActor() actor: Actor): Promise<VoidRequestDto> {
    return this.voids.approve(id, dto, actor);
  }

  @Post('void-requests/:id/reject')
  @Endpoint({ operationId: 'rejectVoid', summary: 'Reject (or, by its requester, withdraw) a void request', roles: SUPERVISORS, type: VoidRequestDto, errors: ['NOT_FOUND', 'VOID_REQUEST_DECIDED'] })
  reject(@IdParam() id: string, @Body() dto: DecideVoidDto, @CurrentActor() actor: Actor): Promise<VoidRequestDto> {
    return this.voids.reject(id, dto, actor);
  }

  @Get('void-requests')
  @ApiQuery({ name: 'status', required: false, enum: ['PENDING', 'APPROVED', 'REJECTED'] })
  @Endpoint({ operationId: 'listVoidRequests', summary: 'Void requests, oldest first', roles: READERS, type: VoidRequestDto, isArray: true })
  list(@Query('status') status?: string): Promise<VoidRequestDto[]> {
    return this.voids.list(status);
  }

  @Get('void-requests/:id')
  @Endpoint({ operationId: 'getVoidRequest', summary: 'Read a void request', roles: READERS, type: VoidRequestDto, errors: ['NOT_FOUND'] })
  get(@IdParam() id: string): Promise<VoidRequestDto> {
    return this.voids.get(id);
  }
}

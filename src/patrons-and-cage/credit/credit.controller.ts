import { Body, Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CREDIT_OFFICERS, CREDIT_READERS, CREDIT_REQUESTERS } from '../../platform/common/actor';
import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Endpoint } from '../../platform/common/endpoint';
import { CardParam, IdParam } from '../../platform/common/validation';
import { CreditReadsService } from './credit-reads.service';
import { CreditRequestsService } from './credit-requests.service';
import {
  AgeingDto,
  AgeingQueryDto,
  CreditDecisionInputDto,
  CreditLineDto,
  CreditLineQueryDto,
  CreditPolicyDto,
  CreditRequestDto,
  CreditRequestInputDto,
  CreditRequestsQueryDto,
} from './dto/credit.dto';

@ApiTags('Credit')
@Controller('v1')
export class CreditController {
  constructor(
    private readonly requests: CreditRequestsService,
    private readonly reads: CreditReadsService,
  ) {}

  @Endpoint('POST', 'properties/:id/credit-requests', {
    operationId: 'requestCredit',
    summary:
      "Request a credit act: a credit line, a repayment over the threshold, a deposit or write-off of a marker, the credit policy, a programme's terms, a junket statement's agreement",
    description:
      "One person requests; it takes effect when a different person approves it (POST /v1/credit-requests/{id}/approve). A credit line above the property's threshold (or in another currency than its cash currency), a write-off above it, and the credit policy need two approvals, the last by a casino manager. The cage (CASHIER) requests repayments only. What its record would refuse is refused here first: a programme starting on a gaming day it may not (VALIDATION_FAILED, CONFLICT), a statement whose period has not ended or is agreed already (JUNKET_PERIOD_OPEN, JUNKET_PERIOD_LOCKED) or whose figures no longer give the digest asked (CONFLICT), a junket's repayment of more than it owes (JUNKET_OVERPAID). Never edited.",
    writes: 'a credit request; the audit entry `credit.request` (stream `credit`).',
    roles: CREDIT_REQUESTERS,
    status: 201,
    type: CreditRequestDto,
    errors: [
      'NOT_FOUND',
      'UNKNOWN_PATRON',
      'MARKER_OVERPAID',
      'JUNKET_OVERPAID',
      'COMMISSION_OVER_CAP',
      'CONFLICT',
      'JUNKET_PERIOD_OPEN',
      'JUNKET_PERIOD_LOCKED',
    ],
  })
  request(@IdParam() id: string, @Body() dto: CreditRequestInputDto, @CurrentContext() ctx: RequestContext): Promise<CreditRequestDto> {
    return this.requests.request(id, dto, ctx);
  }

  @Endpoint('GET', 'properties/:id/credit-requests', {
    operationId: 'listCreditRequests',
    summary: "The property's credit requests, newest first (at most 500)",
    description: 'Each with its status (PENDING, APPROVED, REJECTED) and its decisions.',
    roles: CREDIT_READERS,
    type: CreditRequestDto,
    isArray: true,
    errors: ['NOT_FOUND'],
  })
  list(@IdParam() id: string, @Query() q: CreditRequestsQueryDto): Promise<CreditRequestDto[]> {
    return this.requests.list(id, q.subject);
  }

  @Endpoint('GET', 'credit-requests/:id', {
    operationId: 'getCreditRequest',
    summary: 'A credit request, with its decisions',
    description: 'Its status (PENDING, APPROVED, REJECTED), the approvals it needs and those given.',
    roles: CREDIT_READERS,
    type: CreditRequestDto,
    errors: ['NOT_FOUND'],
  })
  get(@IdParam() id: string): Promise<CreditRequestDto> {
    return this.requests.get(id);
  }

  @Endpoint('POST', 'credit-requests/:id/approve', {
    operationId: 'approveCreditRequest',
    summary: 'Approve a credit request (a second person)',
    description:
      'By a credit officer who is neither the requester nor an earlier approver (compared as persons, not keys). The approval that completes the request puts it in force: a credit line, a write-off, the policy. An approved repayment is then recorded by the cage quoting the request (requestId). What its record would refuse now is not approved (CREDIT_REQUEST_STALE, saying why): a statement whose figures have changed since it was asked for or whose period was agreed meanwhile, a programme version whose day another version took or over caps lowered since, a junket’s repayment of more than it now owes. Reject it and ask again.',
    writes: 'a decision; on the last approval, the credit line, write-off or policy; the audit entry `credit.approve` (stream `credit`).',
    roles: CREDIT_OFFICERS,
    type: CreditRequestDto,
    errors: ['SAME_PERSON', 'NOT_FOUND', 'CREDIT_REQUEST_DECIDED', 'CREDIT_REQUEST_STALE', 'CONFLICT'],
  })
  approve(@IdParam() id: string, @Body() dto: CreditDecisionInputDto, @CurrentContext() ctx: RequestContext): Promise<CreditRequestDto> {
    return this.requests.approve(id, dto, ctx);
  }

  @Endpoint('POST', 'credit-requests/:id/reject', {
    operationId: 'rejectCreditRequest',
    summary: 'Reject a credit request, saying why',
    description: 'By a credit officer other than the requester. A rejected request is ended: nothing of it takes effect.',
    writes: 'a decision; the audit entry `credit.reject` (stream `credit`).',
    roles: CREDIT_OFFICERS,
    type: CreditRequestDto,
    errors: ['SAME_PERSON', 'NOT_FOUND', 'CREDIT_REQUEST_DECIDED'],
  })
  reject(@IdParam() id: string, @Body() dto: CreditDecisionInputDto, @CurrentContext() ctx: RequestContext): Promise<CreditRequestDto> {
    return this.requests.reject(id, dto, ctx);
  }

  @Endpoint('GET', 'properties/:id/credit-lines/:card', {
    operationId: 'getPatronCreditLine',
    summary: "A patron's credit line at the property: the line in force, what they owe, what is available",
    description: 'The line in force is the latest approved (0: none). Read like every read of a patron’s record: audited.',
    roles: CREDIT_READERS,
    type: CreditLineDto,
    errors: ['NOT_FOUND', 'UNKNOWN_PATRON'],
  })
  patronLine(@IdParam() id: string, @CardParam() card: string, @Query() q: CreditLineQueryDto, @CurrentContext() ctx: RequestContext): Promise<CreditLineDto> {
    return this.reads.patronLine(id, card, q.currency, ctx);
  }

  @Endpoint('GET', 'properties/:id/credit-policy', {
    operationId: 'getCreditPolicy',
    summary: "The property's credit policy in force",
    description: "The latest approved policy; none approved: the engine's defaults (approved false).",
    roles: CREDIT_READERS,
    type: CreditPolicyDto,
    errors: ['NOT_FOUND'],
  })
  policy(@IdParam() id: string): Promise<CreditPolicyDto> {
    return this.reads.policy(id);
  }

  @Endpoint('GET', 'properties/:id/marker-ageing', {
    operationId: 'getMarkerAgeing',
    summary: "The property's markers still owed, aged 30/60/90 days",
    description: 'Every marker still owed on the gaming day asOf (default today), oldest first, with its age and bucket; totals per currency and bucket.',
    roles: CREDIT_READERS,
    type: AgeingDto,
    errors: ['NOT_FOUND'],
  })
  ageing(@IdParam() id: string, @Query() q: AgeingQueryDto, @CurrentContext() ctx: RequestContext): Promise<AgeingDto> {
    return this.reads.ageing(id, q.asOf, ctx);
  }
}

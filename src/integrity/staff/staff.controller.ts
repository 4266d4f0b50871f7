import { Body, Controller, Query } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { ADMINS, Role } from '../../platform/common/actor';
import { CurrentContext, RequestContext } from '../../platform/common/context';
import { Endpoint } from '../../platform/common/endpoint';
import { IdParam } from '../../platform/common/validation';
import { DecideStaffChangeDto, ProposeStaffChangeDto, StaffChangeDto, StaffMemberDto } from './dto/staff.dto';
import { StaffService } from './staff.service';

const READERS: Role[] = ['ADMIN', 'AUDITOR'];

@ApiTags('Staff')
@Controller('v1/staff')
export class StaffController {
  constructor(private readonly staff: StaffService) {}

  @Endpoint('POST', '', {
    operationId: 'proposeStaffChange',
    summary: 'Propose registering a person, or changing their roles; a second administrator must approve',
    description:
      "Proposes a person's record as it should be: name, every role they hold, active or not. Nothing changes until another administrator approves (POST /v1/staff/changes/{id}/approve), except the first administrator of an empty register, whom the bootstrap key registers alone. Nobody proposes a change to their own record. The register keeps at least two active administrators: a change that would leave fewer is refused (TOO_FEW_ADMINISTRATORS), here and again when it is approved.",
    writes: 'the proposal; the audit entry `staff.propose` (admin stream); for the first administrator, also `staff.approve`.',
    roles: ADMINS,
    status: 202,
    type: StaffChangeDto,
    errors: ['SAME_PERSON', 'STAFF_CHANGE_PENDING', 'TOO_FEW_ADMINISTRATORS'],
  })
  propose(@Body() dto: ProposeStaffChangeDto, @CurrentContext() ctx: RequestContext): Promise<StaffChangeDto> {
    return this.staff.propose(dto, ctx);
  }

  @Endpoint('POST', 'changes/:id/approve', {
    operationId: 'approveStaffChange',
    summary: 'Approve a proposed staff change (a second person: never who proposed it, nor the person changed)',
    description:
      "Applies a proposed change to the register. The approving key must be held by another person than the proposing key, counting minters of keys their holders have not claimed yet; nobody approves a change to their own record. Taking a role away stops that role's keys of theirs at once.",
    writes: "the decision, the person's record; the audit entry `staff.approve` (admin stream).",
    roles: ADMINS,
    type: StaffChangeDto,
    errors: ['SAME_PERSON', 'NOT_FOUND', 'STAFF_CHANGE_DECIDED', 'TOO_FEW_ADMINISTRATORS'],
  })
  approve(@IdParam() id: string, @Body() dto: DecideStaffChangeDto, @CurrentContext() ctx: RequestContext): Promise<StaffChangeDto> {
    return this.staff.approve(id, dto, ctx);
  }

  @Endpoint('POST', 'changes/:id/reject', {
    operationId: 'rejectStaffChange',
    summary: 'Reject (or withdraw) a proposed staff change',
    description: 'Rejects a proposed change, with the reason; the proposer may withdraw their own this way.',
    writes: 'the decision; the audit entry `staff.reject` (admin stream).',
    roles: ADMINS,
    type: StaffChangeDto,
    errors: ['NOT_FOUND', 'STAFF_CHANGE_DECIDED'],
  })
  reject(@IdParam() id: string, @Body() dto: DecideStaffChangeDto, @CurrentContext() ctx: RequestContext): Promise<StaffChangeDto> {
    return this.staff.reject(id, dto, ctx);
  }

  @Endpoint('GET', '', {
    operationId: 'listStaff',
    summary: "The staff register, with each person's role history",
    description: 'Every person on the register, by staff number, with the roles they hold now and every approved change.',
    roles: READERS,
    type: StaffMemberDto,
    isArray: true,
  })
  list(): Promise<StaffMemberDto[]> {
    return this.staff.list();
  }

  @ApiQuery({ name: 'status', required: false, enum: ['PENDING', 'APPROVED', 'REJECTED'] })
  @Endpoint('GET', 'changes', {
    operationId: 'listStaffChanges',
    summary: 'Proposed, approved and rejected staff changes, oldest first',
    description: 'Every staff change, optionally by status.',
    roles: READERS,
    type: StaffChangeDto,
    isArray: true,
  })
  changes(@Query('status') status?: string): Promise<StaffChangeDto[]> {
    return this.staff.changes(status);
  }
}

import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../platform/common/context';
import { AccessService, BOOTSTRAP_ADMIN_ID } from '../../foundation/access/access.service';
import { AppError, notFound } from '../../platform/common/errors';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { prismaRunner } from '../../platform/database/sql';
import { administratorFloorProblem, holderSince, staffChangeProblem, staffProposalProblem } from '../../domain';
import { Staff, StaffChange } from '../../generated/prisma/client';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { seal } from '../../foundation/ledger/seals';
import { DecideStaffChangeDto, ProposeStaffChangeDto, StaffChangeDto, StaffMemberDto } from './dto/staff.dto';

/** The audit stream of the staff register and of keys (keys' entries were always on it). */
const ADMIN_STREAM = 'admin';

/**
 * The staff register: each person once, changed only by a proposal one administrator makes and
 * another approves (src/domain/integrity/two-person.ts says who counts as another). The one exception is the
 * first two administrators, whom the bootstrap key registers alone: with nobody registered there is
 * no second person to ask. Once two administrators hold keys, the bootstrap key touches no person.
 */
@Injectable()
export class StaffService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
    private readonly access: AccessService,
  ) {}

  async propose(dto: ProposeStaffChangeDto, ctx: RequestContext): Promise<StaffChangeDto> {
    const { actor } = ctx;
    const active = dto.active ?? true;
    const roles = [...dto.roles].sort();
    if (active && roles.length === 0)
      throw new AppError('VALIDATION_FAILED', 'An active person holds at least one role (to take every role away, set active to false)');
    await this.access.assertNotRetiredBootstrap(actor.keyId, 'change the register');
    const proposer = await this.access.holder(actor.keyId);
    const problem = staffProposalProblem(proposer, dto.staffId);
    if (problem) throw new AppError('SAME_PERSON', problem);
    return this.prisma.transaction(ctx, async (tx) => {
      // Proposals for one person wait for each other, so the second of two at once sees the first.
      await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`staff:${dto.staffId}`}, 0))`;
      const pending = await tx.staffChange.findFirst({ where: { staffId: dto.staffId, status: 'PENDING' }, select: { id: true } });
      if (pending) throw new AppError('STAFF_CHANGE_PENDING', `A change to ${dto.staffId}'s record is already waiting for approval (change ${pending.id})`);
      // Said at once rather than when a second administrator comes to approve (who is asked again then).
      await this.assertAdministratorFloor(tx, dto.staffId, roles, active);
      const change = await tx.staffChange.create({
        data: { staffId: dto.staffId, name: dto.name, roles, active, reason: dto.reason, proposedByKeyId: actor.keyId, proposerPersons: [...proposer.persons] },
      });
      await this.audit.append(tx, ctx, {
        stream: ADMIN_STREAM,
        action: 'staff.propose',
        entityType: 'staff',
        entityId: dto.staffId,
        data: { changeId: change.id, name: dto.name, roles, active, reason: dto.reason },
        seals: [seal('staff_changes', change.id)],
      });
      if (actor.keyId === BOOTSTRAP_ADMIN_ID && roles.includes('ADMIN') && active && (await this.administrators(tx)) < 2) {
        return toChangeDto(await this.apply(tx, ctx, change, 'setup', 'one of the first two administrators, registered by the bootstrap key'));
      }
      return toChangeDto(change);
    });
  }

  async approve(id: string, dto: DecideStaffChangeDto, ctx: RequestContext): Promise<StaffChangeDto> {
    const { actor } = ctx;
    // Who could hold the two keys, read before the transaction (never a second connection inside it).
    await this.access.assertNotRetiredBootstrap(actor.keyId, 'change the register');
    const asked = await this.prisma.staffChange.findUnique({ where: { id }, select: { proposedByKeyId: true, staffId: true, proposerPersons: true } });
    if (!asked) throw notFound('Staff change', id);
    // Who could hold the proposing key when it proposed, and now: a key claimed since does not make them another person.
    const [proposer, approver] = [holderSince(await this.access.holder(asked.proposedByKeyId), asked.proposerPersons), await this.access.holder(actor.keyId)];
    const problem = staffChangeProblem(proposer, approver, asked.staffId);
    if (problem) throw new AppError('SAME_PERSON', problem);
    return this.prisma.transaction(ctx, async (tx) => {
      const change = await this.lockPending(tx, id);
      await this.assertAdministratorFloor(tx, change.staffId, change.roles, change.active);
      return toChangeDto(await this.apply(tx, ctx, change, actor.keyId, dto.note ?? null, { proposedBy: proposer, approvedBy: approver }));
    });
  }

  async reject(id: string, dto: DecideStaffChangeDto, ctx: RequestContext): Promise<StaffChangeDto> {
    if (!dto.note) throw new AppError('VALIDATION_FAILED', 'Say why the change is rejected (note)');
    await this.access.assertNotRetiredBootstrap(ctx.actor.keyId, 'change the register');
    return this.prisma.transaction(ctx, async (tx) => {
      await this.lockPending(tx, id);
      const decided = await tx.staffChange.update({
        where: { id },
        data: { status: 'REJECTED', decidedByKeyId: ctx.actor.keyId, decidedAt: new Date(), decisionNote: dto.note },
      });
      await this.audit.append(tx, ctx, {
        stream: ADMIN_STREAM,
        action: 'staff.reject',
        entityType: 'staff',
        entityId: decided.staffId,
        data: { changeId: id, note: dto.note },
        seals: [seal('staff_changes', id)],
      });
      return toChangeDto(decided);
    });
  }

  async list(): Promise<StaffMemberDto[]> {
    const [people, changes] = await Promise.all([
      this.prisma.staff.findMany({ orderBy: { staffId: 'asc' } }),
      this.prisma.staffChange.findMany({ where: { status: 'APPROVED' }, orderBy: [{ decidedAt: 'asc' }, { proposedAt: 'asc' }] }),
    ]);
    return people.map((p) => toMemberDto(p, changes));
  }

  async changes(status?: string): Promise<StaffChangeDto[]> {
    if (status !== undefined && !['PENDING', 'APPROVED', 'REJECTED'].includes(status))
      throw new AppError('VALIDATION_FAILED', 'status must be PENDING, APPROVED or REJECTED');
    const rows = await this.prisma.staffChange.findMany({
      where: status ? { status: status as StaffChange['status'] } : {},
      orderBy: { proposedAt: 'asc' },
    });
    return rows.map(toChangeDto);
  }

  /**
   * Refuses a change that would leave the register fewer than two active administrators holding a
   * key of their own (an administrator without one cannot act: a second person for the register
   * must be able to). Changes that take an administrator away, and revocations of administrators'
   * keys, wait for each other (one lock for the register's administrators), so two approved at once
   * cannot each count the other's administrator as staying.
   */
  private async assertAdministratorFloor(tx: Tx, staffId: string, roles: readonly string[], active: boolean): Promise<void> {
    const now = await tx.staff.findUnique({ where: { staffId }, select: { roles: true, active: true } });
    const adminBefore = now !== null && now.active && now.roles.includes('ADMIN');
    const adminAfter = active && roles.includes('ADMIN');
    if (!adminBefore || adminAfter) return;
    await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended('staff:administrators', 0))`;
    const others = (await this.access.administratorsWithKeys(prismaRunner(tx))).filter((p) => p !== staffId).length;
    const problem = administratorFloorProblem(staffId, others, adminBefore, adminAfter);
    if (problem) throw new AppError('TOO_FEW_ADMINISTRATORS', problem);
  }

  private administrators(tx: Tx): Promise<number> {
    return tx.staff.count({ where: { active: true, roles: { has: 'ADMIN' } } });
  }

  private async lockPending(tx: Tx, id: string): Promise<StaffChange> {
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM staff_changes WHERE id = ${id}::uuid FOR UPDATE`;
    if (locked.length === 0) throw notFound('Staff change', id);
    const change = await tx.staffChange.findUniqueOrThrow({ where: { id } });
    if (change.status !== 'PENDING') throw new AppError('STAFF_CHANGE_DECIDED', `Staff change ${id} was ${change.status.toLowerCase()} already`);
    return change;
  }

  /** The change approved, and the register made what it says, in the caller's transaction. */
  private async apply(tx: Tx, ctx: RequestContext, change: StaffChange, decidedBy: string, note: string | null, who: object = {}): Promise<StaffChange> {
    const now = new Date();
    const decided = await tx.staffChange.update({
      where: { id: change.id },
      data: { status: 'APPROVED', decidedByKeyId: decidedBy, decidedAt: now, decisionNote: note },
    });
    const state = { name: change.name, roles: change.roles, active: change.active, changedAt: now, lastChangeId: change.id };
    await tx.staff.upsert({ where: { staffId: change.staffId }, create: { staffId: change.staffId, registeredAt: now, ...state }, update: state });
    await this.audit.append(tx, ctx, {
      stream: ADMIN_STREAM,
      action: 'staff.approve',
      entityType: 'staff',
      entityId: change.staffId,
      data: { changeId: change.id, name: change.name, roles: change.roles, active: change.active, decidedBy, note, ...who },
      seals: [seal('staff_changes', change.id), seal('staff', change.staffId)],
    });
    // Their keys are looked up again: a role taken away stops its keys at once (api_keys' validity reads the register).
    this.access.forgetAll();
    return decided;
  }
}

function toChangeDto(c: StaffChange): StaffChangeDto {
  return {
    id: c.id,
    staffId: c.staffId,
    name: c.name,
    roles: c.roles,
    active: c.active,
    reason: c.reason,
    proposedByKeyId: c.proposedByKeyId,
    proposedAt: c.proposedAt.toISOString(),
    status: c.status,
    decidedByKeyId: c.decidedByKeyId,
    decidedAt: c.decidedAt?.toISOString() ?? null,
    decisionNote: c.decisionNote,
  };
}

function toMemberDto(p: Staff, approved: StaffChange[]): StaffMemberDto {
  return {
    staffId: p.staffId,
    name: p.name,
    roles: p.roles,
    active: p.active,
    registeredAt: p.registeredAt.toISOString(),
    changedAt: p.changedAt.toISOString(),
    history: approved.filter((c) => c.staffId === p.staffId).map(toChangeDto),
  };
}

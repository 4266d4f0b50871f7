import type { Actor } from '../../platform/common/actor';
import type { AuditContext, RequestContext } from '../../platform/common/context';
import { Injectable } from '@nestjs/common';
import { AccessService } from '../../foundation/access/access.service';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { holderSince, KeyHolder, samePerson, secondPersonProblem } from '../../domain';
import { AppError, notFound } from '../../platform/common/errors';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { VoidRequest, VoidTarget } from '../../generated/prisma/client';
import { VoidDecision, Voids } from './voids';
import { seal } from '../../foundation/ledger/seals';
import { DecideVoidDto, RequestVoidDto, VoidRequestDto } from './dto/void-request.dto';

/**
 * Two-person voids: one supervisor asks, a different one approves, and only then is the void
 * recorded (in the approval's transaction). Coups, player-banked coups, table-accounting slips and buy-ins alike.
 */
@Injectable()
export class VoidRequestsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly voids: Voids,
    private readonly audit: AuditLog,
    private readonly keys: AccessService,
  ) {}

  /** For each kind of record: the check before a void is asked for, and the void itself. */
  private readonly kinds: Record<
    VoidTarget,
    {
      target: (tx: Tx, id: string, actor: Actor) => Promise<{ tableId: string; label: string }>;
      void: (tx: Tx, ctx: AuditContext, id: string, v: VoidDecision) => Promise<void>;
    }
  > = {
    COUP: { target: (...a) => this.voids.coupTarget(...a), void: (...a) => this.voids.voidCoup(...a) },
    BANK_COUP: { target: (...a) => this.voids.bankCoupTarget(...a), void: (...a) => this.voids.voidBankCoup(...a) },
    SLIP: { target: (...a) => this.voids.slipTarget(...a), void: (...a) => this.voids.voidSlip(...a) },
    BUY_IN: { target: (...a) => this.voids.buyInTarget(...a), void: (...a) => this.voids.voidBuyIn(...a) },
  };

  async request(target: VoidTarget, targetId: string, dto: RequestVoidDto & { returnCards?: boolean }, ctx: RequestContext): Promise<VoidRequestDto> {
    const { actor } = ctx;
    // Who could hold the asking key now is kept with the request: a claim witnessed later does not make the asker another person.
    const asker = await this.keys.holder(actor.keyId);
    return this.prisma.transaction(ctx, async (tx) => {
      // Requests for one record wait for each other, so the second of two at once sees the first
      // and is told VOID_ALREADY_REQUESTED, whatever the timing.
      await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended(${`void-request:${targetId}`}, 0))`;
      const { tableId, label } = await this.kinds[target].target(tx, targetId, actor);
      const pending = await tx.voidRequest.findFirst({ where: { target, targetId, status: 'PENDING' }, select: { id: true } });
      if (pending) throw new AppError('VOID_ALREADY_REQUESTED', `A void of ${label} is already waiting for approval (request ${pending.id})`);
      const r = await tx.voidRequest.create({
        data: {
          target,
          targetId,
          tableId,
          reason: dto.reason,
          requestedByKeyId: actor.keyId,
          requestedByRole: actor.role,
          requesterPersons: [...asker.persons],
          returnCards: target === 'COUP' ? (dto.returnCards ?? false) : null,
        },
      });
      await this.audit.append(tx, ctx, {
        stream: tableId,
        action: 'void.request',
        entityType: target.toLowerCase(),
        entityId: targetId,
        data: { voidRequestId: r.id, reason: dto.reason },
        seals: [seal('void_requests', r.id)],
      });
      return toDto(r);
    });
  }

  async approve(id: string, dto: DecideVoidDto, ctx: RequestContext): Promise<VoidRequestDto> {
    const { actor } = ctx;
    const [asker, approver] = await this.holders(id, actor.keyId);
    const problem = secondPersonProblem(asker, approver);
    if (problem) throw new AppError('SAME_PERSON', problem);
    return this.prisma.transaction(ctx, async (tx) => {
      const r = await this.lockPending(tx, id);
      const v = {
        reason: r.reason,
        requestedBy: { keyId: r.requestedByKeyId, role: r.requestedByRole, tableId: null },
        approvedBy: actor,
        voidRequestId: r.id,
        returnCards: r.returnCards === true,
      };
      await this.kinds[r.target].void(tx, ctx, r.targetId, v);
      const decided = await tx.voidRequest.update({
        where: { id },
        data: { status: 'APPROVED', decidedByKeyId: actor.keyId, decidedAt: new Date(), decisionNote: dto.note ?? null },
      });
      await this.audit.append(tx, ctx, {
        stream: r.tableId,
        action: 'void.approve',
        entityType: r.target.toLowerCase(),
        entityId: r.targetId,
        data: { voidRequestId: id, note: dto.note ?? null, askedBy: asker, approvedBy: approver },
        seals: [seal('void_requests', id)],
      });
      return toDto(decided);
    });
  }

  async reject(id: string, dto: DecideVoidDto, ctx: RequestContext): Promise<VoidRequestDto> {
    const { actor } = ctx;
    if (!dto.note) throw new AppError('VALIDATION_FAILED', 'Say why the void is rejected (note)');
    const [asker, decider] = await this.holders(id, actor.keyId);
    if (samePerson(asker, decider)) {
      throw new AppError('SAME_PERSON', 'Nobody rejects their own void request: another supervisor decides it');
    }
    return this.prisma.transaction(ctx, async (tx) => {
      const r = await this.lockPending(tx, id);
      const decided = await tx.voidRequest.update({
        where: { id },
        data: { status: 'REJECTED', decidedByKeyId: actor.keyId, decidedAt: new Date(), decisionNote: dto.note },
      });
      await this.audit.append(tx, ctx, {
        stream: r.tableId,
        action: 'void.reject',
        entityType: r.target.toLowerCase(),
        entityId: r.targetId,
        data: { voidRequestId: id, note: dto.note, by: actor.keyId },
        seals: [seal('void_requests', id)],
      });
      return toDto(decided);
    });
  }

  /**
   * Who could hold the asking key (when it asked, and now) and the deciding key, read before the
   * decision's transaction (never a second connection inside it). Who asked never changes.
   */
  private async holders(id: string, deciderKeyId: string): Promise<[KeyHolder, KeyHolder]> {
    const r = await this.prisma.voidRequest.findUnique({ where: { id }, select: { requestedByKeyId: true, requesterPersons: true } });
    if (!r) throw notFound('Void request', id);
    return [holderSince(await this.keys.holder(r.requestedByKeyId), r.requesterPersons), await this.keys.holder(deciderKeyId)];
  }

  async list(status?: string): Promise<VoidRequestDto[]> {
    if (status !== undefined && !['PENDING', 'APPROVED', 'REJECTED'].includes(status))
      throw new AppError('VALIDATION_FAILED', 'status must be PENDING, APPROVED or REJECTED');
    const rows = await this.prisma.voidRequest.findMany({
      where: status ? { status: status as VoidRequest['status'] } : {},
      orderBy: { requestedAt: 'asc' },
      take: 500,
    });
    return rows.map(toDto);
  }

  async get(id: string): Promise<VoidRequestDto> {
    const r = await this.prisma.voidRequest.findUnique({ where: { id } });
    if (!r) throw notFound('Void request', id);
    return toDto(r);
  }

  private async lockPending(tx: Parameters<Parameters<PrismaService['$transaction']>[0]>[0], id: string): Promise<VoidRequest> {
    const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM void_requests WHERE id = ${id}::uuid FOR UPDATE`;
    if (rows.length === 0) throw notFound('Void request', id);
    const r = await tx.voidRequest.findUniqueOrThrow({ where: { id } });
    if (r.status !== 'PENDING') throw new AppError('VOID_REQUEST_DECIDED', `This void request was already ${r.status.toLowerCase()}`);
    return r;
  }
}

function toDto(r: VoidRequest): VoidRequestDto {
  return {
    voidRequestId: r.id,
    target: r.target,
    targetId: r.targetId,
    tableId: r.tableId,
    reason: r.reason,
    status: r.status,
    requestedByKeyId: r.requestedByKeyId,
    requestedAt: r.requestedAt.toISOString(),
    decidedByKeyId: r.decidedByKeyId,
    decidedAt: r.decidedAt?.toISOString() ?? null,
    decisionNote: r.decisionNote,
  };
}

import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../platform/common/context';
import { AppError, notFound } from '../../platform/common/errors';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { prismaRunner } from '../../platform/database/sql';
import { JunketOperator } from '../../generated/prisma/client';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { seal } from '../../foundation/ledger/seals';
import { PitService } from '../../foundation/pit/pit.service';
import { LeaveInputDto, MembershipDto, MembershipInputDto } from './dto/junkets.dto';
import { findJunket, JUNKETS_STREAM, todayAt } from './junket-operator';
import { MembershipRow, membershipDto } from './junket-rows';
import { JUNKETS_SQL as SQL } from './junkets-sql';

/**
 * A junket's members (docs/domain.md §16): a patron joins under one of the property's rolling-chip
 * programmes, through an agent, and leaves, each from a gaming day not yet over; every change is a
 * new version of the patron's membership at the property, never an edit.
 */
@Injectable()
export class JunketMembersService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
    private readonly pit: PitService,
  ) {}

  /** A patron joins the junket (or changes agent or programme) from a gaming day not yet over. */
  async join(junketId: string, dto: MembershipInputDto, ctx: RequestContext): Promise<MembershipDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const op = await findJunket(tx, junketId);
      await this.pit.assertRegistered(prismaRunner(tx), [dto.patronId]);
      if (!(await tx.rollingProgramme.findFirst({ where: { propertyId: op.propertyId, code: dto.programme }, select: { id: true } })))
        throw notFound('Programme', dto.programme);
      const agent = dto.agent === undefined ? null : await tx.junketAgent.findUnique({ where: { operatorId_code: { operatorId: op.id, code: dto.agent } } });
      if (dto.agent !== undefined && !agent) throw notFound(`Agent of junket ${op.code}`, dto.agent);
      return this.addMembership(
        tx,
        ctx,
        op,
        dto.patronId,
        { operatorId: op.id, agentId: agent?.id ?? null, agentCode: agent?.code ?? null, programmeCode: dto.programme },
        dto.effectiveFrom,
      );
    });
  }

  /** A member leaves the junket from a gaming day not yet over: from then the patron plays for no junket. */
  async leave(junketId: string, card: string, dto: LeaveInputDto, ctx: RequestContext): Promise<MembershipDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const op = await findJunket(tx, junketId);
      const [latest] = await tx.junketMembership.findMany({
        where: { propertyId: op.propertyId, patronId: card },
        orderBy: { effectiveFrom: 'desc' },
        take: 1,
      });
      if (!latest || latest.operatorId !== op.id) throw new AppError('NOT_FOUND', `Patron ${card} is not a member of junket ${op.code}`);
      return this.addMembership(tx, ctx, op, card, { operatorId: null, agentId: null, agentCode: null, programmeCode: null }, dto.effectiveFrom);
    });
  }

  async memberships(junketId: string, ctx: RequestContext): Promise<MembershipDto[]> {
    return this.prisma.transaction(ctx, async (tx) => {
      const op = await findJunket(tx, junketId);
      const rows = await prismaRunner(tx).query<MembershipRow>(SQL.junketMemberships.bind({ junketId: op.id, propertyId: op.propertyId }));
      await this.audit.patronRead(tx, ctx, { type: 'junket', id: op.id }, { what: 'junket members' });
      return rows.map(membershipDto);
    });
  }

  private async addMembership(
    tx: Tx,
    ctx: RequestContext,
    op: JunketOperator,
    patronId: string,
    v: { operatorId: string | null; agentId: string | null; agentCode: string | null; programmeCode: string | null },
    effectiveFrom: string | undefined,
  ): Promise<MembershipDto> {
    const now = new Date();
    const today = await todayAt(tx, op.propertyId, now);
    const from = effectiveFrom ?? today;
    if (from < today) throw new AppError('VALIDATION_FAILED', `A membership changes from a gaming day not yet over: ${from} is before today, ${today}`);
    // From today only while the patron has no rolling play of today at the property: what was played stays whose it was.
    if (from === today) {
      const [{ played }] = await prismaRunner(tx).query<{ played: boolean }>(SQL.junketPlayedToday.bind({ patronId, propertyId: op.propertyId, today }));
      if (played)
        throw new AppError(
          'CONFLICT',
          `Patron ${patronId} has played or exchanged dead chips at the property today already: the membership changes from tomorrow (effectiveFrom), so that today's play stays whose it was`,
        );
    }
    const [latest] = await tx.junketMembership.findMany({ where: { propertyId: op.propertyId, patronId }, orderBy: { effectiveFrom: 'desc' }, take: 1 });
    const latestDay = latest?.effectiveFrom.toISOString().slice(0, 10);
    if (latestDay !== undefined && from <= latestDay)
      throw new AppError('CONFLICT', `Patron ${patronId}'s membership at the property changes from ${latestDay} already: a new version starts after it`);
    const id = randomUUID();
    await tx.junketMembership.create({
      data: {
        id,
        propertyId: op.propertyId,
        patronId,
        operatorId: v.operatorId,
        agentId: v.agentId,
        programmeCode: v.programmeCode,
        effectiveFrom: new Date(`${from}T00:00:00Z`),
        recordedByKeyId: ctx.actor.keyId,
        recordedAt: now,
      },
    });
    const out = membershipDto({
      id,
      patronId,
      operatorId: v.operatorId,
      agentCode: v.agentCode,
      programmeCode: v.programmeCode,
      effectiveFrom: from,
      recordedByKeyId: ctx.actor.keyId,
      recordedAt: now,
    });
    await this.audit.append(tx, ctx, {
      stream: JUNKETS_STREAM,
      action: 'junket.membership',
      entityType: 'junket',
      entityId: op.id,
      data: { ...out },
      seals: [seal('junket_memberships', id)],
    });
    return out;
  }
}

import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { RequestContext } from '../../platform/common/context';
import { AppError, notFound } from '../../platform/common/errors';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { prismaRunner } from '../../platform/database/sql';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { seal } from '../../foundation/ledger/seals';
import { JunketAgentInputDto, JunketDto, JunketInputDto } from './dto/junkets.dto';
import { balanceBefore, findJunket, JUNKETS_STREAM } from './junket-operator';
import { junketDto } from './junket-rows';
import { AccessService } from '../../foundation/access/access.service';
import { CreditLedger } from '../../foundation/ledger/credit-ledger';

/**
 * Junkets (docs/domain.md §16): the operators, each with its agents (who bring players) and its
 * balance on its account with the casino. Its members (JunketMembersService), its account
 * (JunketAccountService), the credit it reports giving its players (JunketPlayerCreditService) and
 * its statements (JunketStatementsService) are each their own service's.
 */
@Injectable()
export class JunketsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
    private readonly keys: AccessService,
    private readonly lines: CreditLedger,
  ) {}

  /**
   * A junket operator at the property. The credit line asked for it is a credit request (act
   * LIMIT) filed with it: the junket has no credit until a second person approves it
   * (docs/domain/credit.md).
   */
  async create(propertyId: string, dto: JunketInputDto, ctx: RequestContext): Promise<JunketDto> {
    const requester = await this.keys.holder(ctx.actor.keyId);
    return this.prisma.transaction(ctx, async (tx) => {
      const property = await tx.property.findUnique({ where: { id: propertyId } });
      if (!property) throw notFound('Property', propertyId);
      if (await tx.junketOperator.findUnique({ where: { propertyId_code: { propertyId, code: dto.code } }, select: { id: true } }))
        throw new AppError('CONFLICT', `The property has a junket ${dto.code} already`);
      const row = await tx.junketOperator.create({
        data: {
          id: randomUUID(),
          propertyId,
          code: dto.code,
          name: dto.name,
          licence: dto.licence ?? null,
          currency: dto.currency,
          creditLimit: BigInt(dto.creditLimit),
          recordedByKeyId: ctx.actor.keyId,
          recordedAt: new Date(),
        },
      });
      const out = junketDto(row, [], 0n, 0n);
      await this.audit.append(tx, ctx, {
        stream: JUNKETS_STREAM,
        action: 'junket.operator',
        entityType: 'junket',
        entityId: row.id,
        data: { ...out, creditLimit: row.creditLimit },
        seals: [seal('junket_operators', row.id)],
      });
      if (row.creditLimit > 0n) {
        const asked = await this.lines.junketLineAsked(prismaRunner(tx), property, row, row.creditLimit);
        await this.lines.requestIn(tx, ctx, property.id, requester, 'LIMIT', asked, `The credit line asked for junket ${row.code} when it was opened`);
      }
      return out;
    });
  }

  async list(propertyId: string): Promise<JunketDto[]> {
    if (!(await this.prisma.property.findUnique({ where: { id: propertyId }, select: { id: true } }))) throw notFound('Property', propertyId);
    const rows = await this.prisma.junketOperator.findMany({ where: { propertyId }, orderBy: { code: 'asc' } });
    const db = prismaRunner(this.prisma);
    return Promise.all(
      rows.map(async (r) =>
        junketDto(r, await agentsOf(this.prisma, r.id), await balanceBefore(db, r.id, null), (await this.lines.junketLine(db, r.id)).creditLimit),
      ),
    );
  }

  async get(junketId: string): Promise<JunketDto> {
    const row = await findJunket(this.prisma, junketId);
    const db = prismaRunner(this.prisma);
    return junketDto(row, await agentsOf(this.prisma, row.id), await balanceBefore(db, row.id, null), (await this.lines.junketLine(db, row.id)).creditLimit);
  }

  async addAgent(junketId: string, dto: JunketAgentInputDto, ctx: RequestContext): Promise<JunketDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const op = await findJunket(tx, junketId);
      if (await tx.junketAgent.findUnique({ where: { operatorId_code: { operatorId: op.id, code: dto.code } }, select: { id: true } }))
        throw new AppError('CONFLICT', `Junket ${op.code} has an agent ${dto.code} already`);
      const id = randomUUID();
      await tx.junketAgent.create({
        data: { id, operatorId: op.id, code: dto.code, name: dto.name, recordedByKeyId: ctx.actor.keyId, recordedAt: new Date() },
      });
      await this.audit.append(tx, ctx, {
        stream: JUNKETS_STREAM,
        action: 'junket.agent',
        entityType: 'junket',
        entityId: op.id,
        data: { agentId: id, code: dto.code, name: dto.name },
        seals: [seal('junket_agents', id)],
      });
      const db = prismaRunner(tx);
      return junketDto(op, await agentsOf(tx, op.id), await balanceBefore(db, op.id, null), (await this.lines.junketLine(db, op.id)).creditLimit);
    });
  }
}

async function agentsOf(db: Tx | PrismaService, operatorId: string) {
  return (await db.junketAgent.findMany({ where: { operatorId }, orderBy: { code: 'asc' } })).map((a) => ({ code: a.code, name: a.name }));
}

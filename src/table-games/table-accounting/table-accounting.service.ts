import { PitService } from '../../foundation/pit/pit.service';
import { minorUnits, minorUnitsOrNull } from '../../platform/common/exact-json';
import type { RequestContext } from '../../platform/common/context';
import { Injectable } from '@nestjs/common';
import { Actor, assertTableAccess } from '../../platform/common/actor';
import { AppError, notFound } from '../../platform/common/errors';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { gamingDayOf, statisticalWin } from '../../domain';
import { Prisma, SlipVoid, TableSession, TableSlip } from '../../generated/prisma/client';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { seal } from '../../foundation/ledger/seals';
import { ChipCountDto, CloseSessionDto, OpenSessionDto, SessionDto, SlipDto, SlipInputDto } from './dto/table-accounting.dto';

/** Total of a chip count, in minor units. Denominations must not repeat. */
export function chipTotal(chips: ChipCountDto[]): bigint {
  const seen = new Set<number>();
  let total = 0n;
  for (const c of chips) {
    if (seen.has(c.denomination)) throw new AppError('VALIDATION_FAILED', `Denomination ${c.denomination} is listed twice`);
    seen.add(c.denomination);
    total += BigInt(c.denomination) * BigInt(c.count);
  }
  return total;
}

/**
 * Table inventory: sessions with opener and closer counts, fills and credits numbered per
 * property, year and kind, and the drop. Slips are never edited; a wrong one is voided.
 */
@Injectable()
export class TableAccountingService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pit: PitService,
    private readonly audit: AuditLog,
  ) {}

  async open(tableId: string, dto: OpenSessionDto, ctx: RequestContext): Promise<SessionDto> {
    const { actor } = ctx;
    assertTableAccess(actor, tableId);
    const { timeZone, gamingDayStartHour } = await this.pit.withProperty(tableId);
    const gamingDay = dto.gamingDay ?? gamingDayOf(new Date(), timeZone, gamingDayStartHour);
    const shift = dto.shift ?? '';
    const openerTotal = chipTotal(dto.opener);
    return this.prisma.transaction(ctx, async (tx) => {
      await tx.$queryRaw`SELECT id FROM casino_tables WHERE id = ${tableId}::uuid FOR UPDATE`;
      const open = await tx.tableSession.findFirst({ where: { tableId, status: 'OPEN' }, select: { id: true } });
      if (open) throw new AppError('SESSION_ALREADY_OPEN', 'This table already has an open session: close it first');
      const same = await tx.tableSession.findFirst({ where: { tableId, gamingDay: new Date(`${gamingDay}T00:00:00Z`), shift }, select: { id: true } });
      if (same) throw new AppError('CONFLICT', `A session for gaming day ${gamingDay}${shift ? `, shift ${shift}` : ''} already exists at this table`);
      const s = await tx.tableSession.create({
        data: {
          tableId,
          gamingDay: new Date(`${gamingDay}T00:00:00Z`),
          shift,
          opener: dto.opener as unknown as Prisma.InputJsonArray,
          openerTotal,
          openedByKeyId: actor.keyId,
        },
      });
      await this.audit.append(tx, ctx, {
        stream: tableId,
        action: 'session.open',
        entityType: 'tableSession',
        entityId: s.id,
        data: { gamingDay, shift, opener: dto.opener, openerTotal },
        seals: [seal('table_sessions', s.id)],
      });
      return toSessionDto(s, []);
    });
  }

  async addSlip(sessionId: string, dto: SlipInputDto, ctx: RequestContext): Promise<SlipDto> {
    const { actor } = ctx;
    const amount = chipTotal(dto.chips);
    if (amount <= 0n) throw new AppError('VALIDATION_FAILED', 'A slip must move at least one chip');
    return this.prisma.transaction(ctx, async (tx) => {
      const session = await this.lockSession(tx, sessionId, actor);
      if (session.status !== 'OPEN') throw new AppError('SESSION_CLOSED', 'The session is closed: slips go on an open session');
      const { table } = await this.pit.withProperty(session.tableId, tx);
      const year = session.gamingDay.getUTCFullYear();
      // The next number follows the slips themselves (sealed, each with its number): one past the
      // highest of the property's slips of that year and kind, read under a lock held to the end of
      // this transaction, so that numbers never repeat or skip (issue 49: no counter to rewrite).
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`sabot:slips:${table.propertyId}:${year}:${dto.kind}`}, 0))`;
      const [{ last_number }] = await tx.$queryRaw<{ last_number: number }[]>`
        SELECT coalesce(max(number), 0) + 1 AS last_number FROM table_slips
        WHERE property_id = ${table.propertyId}::uuid AND year = ${year} AND kind = ${dto.kind}::"SlipKind"`;
      const slip = await tx.tableSlip.create({
        data: {
          sessionId,
          tableId: session.tableId,
          propertyId: table.propertyId,
          kind: dto.kind,
          year,
          number: last_number,
          chips: dto.chips as unknown as Prisma.InputJsonArray,
          amount,
          gamingDay: session.gamingDay,
          createdByKeyId: actor.keyId,
        },
      });
      await this.audit.append(tx, ctx, {
        stream: session.tableId,
        action: 'slip.create',
        entityType: 'slip',
        entityId: slip.id,
        data: { sessionId, kind: dto.kind, year, number: last_number, chips: dto.chips, amount },
        seals: [seal('table_slips', slip.id)],
      });
      return toSlipDto(slip, null);
    });
  }

  async close(sessionId: string, dto: CloseSessionDto, ctx: RequestContext): Promise<SessionDto> {
    const { actor } = ctx;
    const closerTotal = chipTotal(dto.closer);
    return this.prisma.transaction(ctx, async (tx) => {
      const session = await this.lockSession(tx, sessionId, actor);
      if (session.status !== 'OPEN') throw new AppError('SESSION_CLOSED', 'The session is already closed');
      await tx.tableSession.update({
        where: { id: sessionId },
        data: {
          status: 'CLOSED',
          closer: dto.closer as unknown as Prisma.InputJsonArray,
          closerTotal,
          dropAmount: BigInt(dto.drop),
          closedByKeyId: actor.keyId,
          closedAt: new Date(),
        },
      });
      await this.audit.append(tx, ctx, {
        stream: session.tableId,
        action: 'session.close',
        entityType: 'tableSession',
        entityId: sessionId,
        data: { closer: dto.closer, closerTotal, drop: dto.drop },
        seals: [seal('table_sessions', sessionId)],
      });
      return this.describe(tx, sessionId);
    });
  }

  async get(sessionId: string, actor: Actor): Promise<SessionDto> {
    const s = await this.prisma.tableSession.findUnique({ where: { id: sessionId }, select: { tableId: true } });
    if (!s) throw notFound('Table session', sessionId);
    assertTableAccess(actor, s.tableId);
    return this.describe(this.prisma, sessionId);
  }

  /** A table's latest sessions, newest first. */
  async latest(tableId: string, actor: Actor): Promise<SessionDto[]> {
    assertTableAccess(actor, tableId);
    if (!(await this.prisma.casinoTable.findUnique({ where: { id: tableId }, select: { id: true } }))) throw notFound('Table', tableId);
    const sessions = await this.prisma.tableSession.findMany({
      where: { tableId },
      orderBy: [{ openedAt: 'desc' }, { id: 'desc' }],
      take: LATEST_SESSIONS,
      include: { slips: { include: { void: true }, orderBy: { createdAt: 'asc' } } },
    });
    return sessions.map((s) => toSessionDto(s, s.slips));
  }

  private async lockSession(tx: Tx, sessionId: string, actor: Actor): Promise<TableSession> {
    const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM table_sessions WHERE id = ${sessionId}::uuid FOR UPDATE`;
    if (rows.length === 0) throw notFound('Table session', sessionId);
    const session = await tx.tableSession.findUniqueOrThrow({ where: { id: sessionId } });
    assertTableAccess(actor, session.tableId);
    return session;
  }

  private async describe(db: Tx | PrismaService, sessionId: string): Promise<SessionDto> {
    const s = await db.tableSession.findUniqueOrThrow({
      where: { id: sessionId },
      include: { slips: { include: { void: true }, orderBy: { createdAt: 'asc' } } },
    });
    return toSessionDto(s, s.slips);
  }
}

/** How many of a table's sessions its list answers. */
const LATEST_SESSIONS = 20;

function toSlipDto(s: TableSlip, v: SlipVoid | null): SlipDto {
  return {
    id: s.id,
    sessionId: s.sessionId,
    tableId: s.tableId,
    kind: s.kind,
    number: s.number,
    year: s.year,
    chips: s.chips as unknown as ChipCountDto[],
    amount: minorUnits(s.amount),
    gamingDay: s.gamingDay.toISOString().slice(0, 10),
    voidReason: v?.reason ?? null,
    createdAt: s.createdAt.toISOString(),
  };
}

/** Statistical win of a closed session (domain/finance/accounting.ts), voided slips left out. */
export function sessionStatisticalWin(
  s: Pick<TableSession, 'status' | 'openerTotal' | 'closerTotal' | 'dropAmount'>,
  slips: (TableSlip & { void: SlipVoid | null })[],
): bigint | null {
  if (s.status !== 'CLOSED' || s.closerTotal === null || s.dropAmount === null) return null;
  let credits = 0n;
  let fills = 0n;
  for (const slip of slips) {
    if (slip.void) continue;
    if (slip.kind === 'CREDIT') credits += slip.amount;
    else fills += slip.amount;
  }
  return statisticalWin({ opener: s.openerTotal, closer: s.closerTotal, credits, fills, drop: s.dropAmount });
}

function toSessionDto(s: TableSession, slips: (TableSlip & { void: SlipVoid | null })[]): SessionDto {
  const win = sessionStatisticalWin(s, slips);
  return {
    id: s.id,
    tableId: s.tableId,
    gamingDay: s.gamingDay.toISOString().slice(0, 10),
    shift: s.shift,
    status: s.status,
    opener: s.opener as unknown as ChipCountDto[],
    openerTotal: minorUnits(s.openerTotal),
    closer: (s.closer as unknown as ChipCountDto[] | null) ?? null,
    closerTotal: minorUnitsOrNull(s.closerTotal),
    drop: minorUnitsOrNull(s.dropAmount),
    slips: slips.map((x) => toSlipDto(x, x.void)),
    statisticalWin: minorUnitsOrNull(win),
  };
}

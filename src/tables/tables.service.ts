import { minorUnits, stringifyExact } from '../common/exact-json';
import type { RequestContext, WriteContext } from '../common/context';
import { Injectable } from '@nestjs/common';
import { Actor, assertTableAccess } from '../common/actor';
import { AppError, notFound } from '../common/errors';
import { PrismaService } from '../database/prisma.service';
import { BetType, formatOdds, stakeLimits, offeredBets, parseOdds, ruleSet, SideBet } from '../domain';
import { CasinoTable, Prisma } from '../generated/prisma/client';
import { DEFAULT_PROPERTY_ID } from '../pit/table-rules';
import { publishesToGroup } from '../database/group';
import { prismaRunner } from '../database/sql';
import { AuditLog } from '../ledger/audit-log';
import { CreateTableDto, TableDto } from './dto/table.dto';
import { seal } from '../ledger/seals';
import { BetLimits, limitsOf, rulesOf } from '../pit/table-rules';
import { PitChanges } from '../pit/pit-changes';
import { randomUUID } from 'node:crypto';

@Injectable()
export class TablesService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
    private readonly pit: PitChanges,
  ) {}

  async create(dto: CreateTableDto, ctx: WriteContext): Promise<TableDto> {
    if (dto.maxBet < dto.minBet) throw new AppError('VALIDATION_FAILED', 'maxBet must not be below minBet');
    const pays: Record<string, string> = {};
    for (const p of dto.pays ?? []) pays[p.betType] = formatOdds(parseOdds(p.pays));
    if (dto.tiePays) pays.TIE = formatOdds(parseOdds(dto.tiePays));
    const betLimits: BetLimits = {};
    for (const l of dto.betLimits ?? []) {
      if (l.max < l.min) throw new AppError('VALIDATION_FAILED', `The ${l.betType} limit's max must not be below its min`);
      betLimits[l.betType as BetType] = { min: l.min, max: l.max };
    }
    // Build the rule set once to apply the engine's own checks (decks, side bets by variant…).
    const rules = ruleSet({
      variant: dto.variant,
      decks: dto.decks,
      commissionBps: dto.commissionBps,
      tieBetsStay: dto.tieBetsStay,
      sideBets: dto.sideBets as SideBet[] | undefined,
      pays: Object.fromEntries(Object.entries(pays).map(([b, p]) => [b, parseOdds(p)])),
      perfectPairBothPays: dto.perfectPairBothPays ? parseOdds(dto.perfectPairBothPays) : null,
      rounding: dto.rounding,
    });
    const offered = offeredBets(rules);
    for (const b of [...Object.keys(pays), ...Object.keys(betLimits)]) {
      if (!offered.includes(b as BetType)) throw new AppError('INVALID_RULES', `${b} is not offered at this table, so it cannot have a pay or a limit`);
    }
    const propertyId = dto.propertyId ?? DEFAULT_PROPERTY_ID;
    if (propertyId === DEFAULT_PROPERTY_ID && (await publishesToGroup(prismaRunner(this.prisma)))) {
      throw new AppError(
        'GROUP_NEEDS_PROPERTY',
        "This casino reports to a group: open the table under the property's own id (propertyId), not the default property",
      );
    }
    if (!(await this.prisma.property.findUnique({ where: { id: propertyId }, select: { id: true } }))) throw notFound('Property', propertyId);
    if (await this.prisma.casinoTable.findUnique({ where: { propertyId_code: { propertyId, code: dto.code } }, select: { id: true } })) {
      throw new AppError('CONFLICT', `Table ${dto.code} already exists at this property`);
    }
    const data = {
      propertyId,
      code: dto.code,
      pit: dto.pit ?? '',
      variant: rules.variant,
      currency: dto.currency,
      minBet: BigInt(dto.minBet),
      maxBet: BigInt(dto.maxBet),
      decks: rules.decks,
      commissionBps: rules.commissionBps,
      tieBetsStay: rules.tieBetsStay,
      sideBets: [...rules.sideBets],
      pays: pays as Prisma.InputJsonObject,
      perfectPairBothPays: rules.perfectPairBothPays ? formatOdds(rules.perfectPairBothPays) : null,
      betLimits: betLimits as Prisma.InputJsonObject,
      roundingMode: rules.rounding.mode,
      roundingUnit: rules.rounding.unit,
    };
    // The answer is what the transaction returns (a retry with the Idempotency-Key replays it).
    return this.prisma.transaction(ctx, async (tx) => {
      const id = randomUUID();
      await this.pit.openTable(prismaRunner(tx), {
        ...data,
        id,
        minBet: data.minBet.toString(),
        maxBet: data.maxBet.toString(),
        pays: stringifyExact(pays),
        betLimits: stringifyExact(betLimits),
      });
      const created = await tx.casinoTable.findUniqueOrThrow({ where: { id } });
      await this.audit.append(tx, ctx, {
        stream: 'admin',
        action: 'table.create',
        entityType: 'table',
        entityId: created.id,
        data: { ...data },
        seals: [seal('casino_tables', created.id)],
      });
      return toTableDto(created);
    });
  }

  /** Every table (of one property), or only its own table for a terminal's key: a terminal reads what it writes. */
  async list(actor: Actor, propertyId?: string): Promise<TableDto[]> {
    const where = { ...(propertyId ? { propertyId } : {}), ...(actor.tableId ? { id: actor.tableId } : {}) };
    const rows = await this.prisma.casinoTable.findMany({ where, orderBy: [{ propertyId: 'asc' }, { code: 'asc' }] });
    return rows.map(toTableDto);
  }

  async get(id: string, actor: Actor): Promise<TableDto> {
    assertTableAccess(actor, id);
    return toTableDto(await this.find(id));
  }

  async find(id: string): Promise<CasinoTable> {
    const t = await this.prisma.casinoTable.findUnique({ where: { id } });
    if (!t) throw notFound('Table', id);
    return t;
  }

  async close(id: string, ctx: RequestContext): Promise<TableDto> {
    const { actor } = ctx;
    assertTableAccess(actor, id);
    return this.prisma.transaction(ctx, async (tx) => {
      // The cards still in come out with the table: a patron's time played ends when the game does.
      const cardsOut = await this.pit.closeTable(prismaRunner(tx), id, actor.keyId);
      const closed = await tx.casinoTable.findUniqueOrThrow({ where: { id } });
      for (const c of cardsOut) {
        await this.audit.append(tx, ctx, {
          stream: id,
          action: 'seating.end',
          entityType: 'seating',
          entityId: c.id,
          data: { patronId: c.patron_id, seat: c.seat, endedAt: c.ended_at.toISOString(), tableClosed: true },
          seals: [seal('seatings', c.id)],
        });
      }
      await this.audit.append(tx, ctx, {
        stream: id,
        action: 'table.close',
        entityType: 'table',
        entityId: id,
        data: { status: 'CLOSED' },
        seals: [seal('casino_tables', id)],
      });
      return toTableDto(closed);
    });
  }

  async reopen(id: string, ctx: RequestContext): Promise<TableDto> {
    const { actor } = ctx;
    assertTableAccess(actor, id);
    return this.prisma.transaction(ctx, async (tx) => {
      await this.pit.reopenTable(prismaRunner(tx), id);
      const opened = await tx.casinoTable.findUniqueOrThrow({ where: { id } });
      await this.audit.append(tx, ctx, {
        stream: id,
        action: 'table.reopen',
        entityType: 'table',
        entityId: id,
        data: { status: 'OPEN' },
        seals: [seal('casino_tables', id)],
      });
      return toTableDto(opened);
    });
  }
}

export function toTableDto(t: CasinoTable): TableDto {
  const rules = rulesOf(t);
  return {
    id: t.id,
    propertyId: t.propertyId,
    code: t.code,
    pit: t.pit,
    variant: t.variant,
    currency: t.currency,
    minBet: minorUnits(t.minBet),
    maxBet: minorUnits(t.maxBet),
    decks: t.decks,
    commissionBps: t.commissionBps,
    tiePays: formatOdds(rules.pays.TIE),
    tieBetsStay: t.tieBetsStay,
    sideBets: [...rules.sideBets],
    bets: offeredBets(rules).map((b) => {
      const l = stakeLimits(limitsOf(t), b);
      return { betType: b, min: minorUnits(l.min), max: minorUnits(l.max), pays: formatOdds(rules.pays[b]) };
    }),
    perfectPairBothPays: t.perfectPairBothPays,
    rounding: { mode: rules.rounding.mode, unit: rules.rounding.unit },
    status: t.status,
    createdAt: t.createdAt.toISOString(),
  };
}

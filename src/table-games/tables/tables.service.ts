import { minorUnits, stringifyExact } from '../../platform/common/exact-json';
import type { RequestContext, WriteContext } from '../../platform/common/context';
import { Injectable } from '@nestjs/common';
import { Actor, assertTableAccess } from '../../platform/common/actor';
import { AppError, notFound } from '../../platform/common/errors';
import { PrismaService } from '../../platform/database/prisma.service';
import { BetType, checkLimits, formatOdds, stakeLimits, offeredBets, parseOdds, newTableRules, SideBet, TableLimits } from '../../domain';
import { CasinoTable, Prisma, TableLimitChange } from '../../generated/prisma/client';
import { DEFAULT_PROPERTY_ID } from '../../foundation/pit/table-rules';
import { publishesToGroup } from '../../platform/database/group';
import { prismaRunner } from '../../platform/database/sql';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { ChangeLimitsDto, CreateTableDto, LimitsDto, TableDto } from './dto/table.dto';
import { seal } from '../../foundation/ledger/seals';
import { BetLimits, limitsInForce, limitsOf, rulesOf } from '../../foundation/pit/table-rules';
import { PitChanges } from '../../foundation/pit/pit-changes';
import { PitService } from '../../foundation/pit/pit.service';
import { randomUUID } from 'node:crypto';
import { payTermsView } from '../../platform/common/pay-terms.dto';

@Injectable()
export class TablesService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
    private readonly pit: PitChanges,
    private readonly pitState: PitService,
  ) {}

  async create(dto: CreateTableDto, ctx: WriteContext): Promise<TableDto> {
    if (dto.maxBet < dto.minBet) throw new AppError('VALIDATION_FAILED', 'maxBet must not be below minBet');
    const pays: Record<string, string> = {};
    for (const p of dto.pays ?? []) pays[p.betType] = formatOdds(parseOdds(p.pays));
    if (dto.tiePays) pays.TIE = formatOdds(parseOdds(dto.tiePays));
    // Build the rule set once to apply the engine's own checks (decks, side bets by variant…).
    const rules = newTableRules({
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
    for (const b of Object.keys(pays)) {
      if (!offered.includes(b as BetType)) throw new AppError('INVALID_RULES', `${b} is not offered at this table, so it cannot have a pay`);
    }
    const betLimits = storedBetLimits(checkLimits(rules, limitsInput(dto)));
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
      return toTableDto({ ...created, limitChanges: [] });
    });
  }

  /**
   * Changes a table's limits from its next coup (a history: the change is a new record, never an
   * edit). Checked by the engine against the table's rules, as its opening limits were; refused
   * while a coup of its open shoe is taking bets (COUP_IN_PROGRESS). Answers the table's limits as
   * they stand now, every change with them.
   */
  async changeLimits(id: string, dto: ChangeLimitsDto, ctx: RequestContext): Promise<LimitsDto> {
    assertTableAccess(ctx.actor, id);
    const table = await this.find(id);
    return this.prisma.transaction(ctx, async (tx) => {
      // Under the table's lock: the limits in force, whose bets' own limits stay unless the request sets them.
      await this.pitState.lockTable(prismaRunner(tx), id);
      const latest = await tx.tableLimitChange.findFirst({ where: { tableId: id }, orderBy: { seq: 'desc' } });
      const input = limitsInput(dto);
      const kept = Object.entries(limitsInForce(table, latest).perBet).map(([betType, l]) => ({ betType: betType as BetType, min: l.min, max: l.max }));
      const checked = checkLimits(rulesOf(table), { ...input, perBet: dto.betLimits === undefined ? kept : input.perBet });
      const changed = await this.pit.changeLimits(prismaRunner(tx), id, {
        minBet: checked.table.min,
        maxBet: checked.table.max,
        betLimits: stringifyExact(storedBetLimits(checked)),
        reason: dto.reason,
        keyId: ctx.actor.keyId,
      });
      await this.audit.append(tx, ctx, {
        stream: id,
        action: 'table.limits',
        entityType: 'table',
        entityId: id,
        data: {
          changeId: changed.id,
          seq: changed.seq,
          minBet: checked.table.min,
          maxBet: checked.table.max,
          betLimits: storedBetLimits(checked),
          reason: dto.reason,
          effectiveAt: changed.effectiveAt.toISOString(),
          shoeId: changed.shoeId,
        },
        seals: [seal('table_limits', changed.id), ...(changed.shoeId ? [seal('shoes', changed.shoeId)] : [])],
      });
      return limitsDto(table, await tx.tableLimitChange.findMany({ where: { tableId: id }, orderBy: { seq: 'asc' } }));
    });
  }

  /** A table's limits: its opening limits and every change since, oldest first, the last in force. */
  async limits(id: string, actor: Actor): Promise<LimitsDto> {
    assertTableAccess(actor, id);
    const table = await this.find(id);
    return limitsDto(table, await this.prisma.tableLimitChange.findMany({ where: { tableId: id }, orderBy: { seq: 'asc' } }));
  }

  /** Every table (of one property), or only its own table for a terminal's key: a terminal reads what it writes. */
  async list(actor: Actor, propertyId?: string): Promise<TableDto[]> {
    const where = { ...(propertyId ? { propertyId } : {}), ...(actor.tableId ? { id: actor.tableId } : {}) };
    const rows = await this.prisma.casinoTable.findMany({ where, orderBy: [{ propertyId: 'asc' }, { code: 'asc' }], include: LATEST_CHANGE });
    return rows.map(toTableDto);
  }

  async get(id: string, actor: Actor): Promise<TableDto> {
    assertTableAccess(actor, id);
    const t = await this.prisma.casinoTable.findUnique({ where: { id }, include: LATEST_CHANGE });
    if (!t) throw notFound('Table', id);
    return toTableDto(t);
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
      const closed = await tx.casinoTable.findUniqueOrThrow({ where: { id }, include: LATEST_CHANGE });
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
      const opened = await tx.casinoTable.findUniqueOrThrow({ where: { id }, include: LATEST_CHANGE });
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

/** A table read with its latest change of limits (the one in force), if any. */
const LATEST_CHANGE = { limitChanges: { orderBy: { seq: 'desc' }, take: 1 } } as const;

/** Limits as a request gives them, in the engine's terms. */
function limitsInput(dto: { minBet: number; maxBet: number; betLimits?: { betType: string; min: number; max: number }[] }) {
  return {
    minBet: BigInt(dto.minBet),
    maxBet: BigInt(dto.maxBet),
    perBet: (dto.betLimits ?? []).map((l) => ({ betType: l.betType as BetType, min: BigInt(l.min), max: BigInt(l.max) })),
  };
}

/** Each bet's own limits as stored (bet type → {min, max} in minor units). */
function storedBetLimits(limits: TableLimits): BetLimits {
  return Object.fromEntries(Object.entries(limits.perBet).map(([b, l]) => [b, { min: Number(l.min), max: Number(l.max) }]));
}

/** The limits of each bet the table offers, under `limits`. */
function betViews(t: CasinoTable, limits: TableLimits) {
  const rules = rulesOf(t);
  return offeredBets(rules).map((b) => {
    const l = stakeLimits(limits, b);
    return { betType: b, min: minorUnits(l.min), max: minorUnits(l.max), ...payTermsView(rules, b) };
  });
}

function limitsDto(t: CasinoTable, changes: TableLimitChange[]): LimitsDto {
  const opening = limitsOf(t);
  const levels = [
    {
      changeId: null,
      seq: 0,
      minBet: minorUnits(opening.table.min),
      maxBet: minorUnits(opening.table.max),
      bets: betViews(t, opening),
      reason: 'opening limits',
      changedByKeyId: null,
      effectiveAt: t.createdAt.toISOString(),
    },
    ...changes.map((c) => {
      const limits = limitsInForce(t, c);
      return {
        changeId: c.id,
        seq: c.seq,
        minBet: minorUnits(limits.table.min),
        maxBet: minorUnits(limits.table.max),
        bets: betViews(t, limits),
        reason: c.reason,
        changedByKeyId: c.changedByKeyId,
        effectiveAt: c.effectiveAt.toISOString(),
      };
    }),
  ];
  return { tableId: t.id, currency: t.currency, inForce: levels[levels.length - 1], history: levels };
}

export function toTableDto(t: CasinoTable & { limitChanges: TableLimitChange[] }): TableDto {
  const rules = rulesOf(t);
  const change = t.limitChanges[0] ?? null;
  const limits = limitsInForce(t, change);
  return {
    id: t.id,
    propertyId: t.propertyId,
    code: t.code,
    pit: t.pit,
    variant: t.variant,
    currency: t.currency,
    minBet: minorUnits(limits.table.min),
    maxBet: minorUnits(limits.table.max),
    limitsSince: (change?.effectiveAt ?? t.createdAt).toISOString(),
    decks: t.decks,
    commissionBps: t.commissionBps,
    tiePays: formatOdds(rules.pays.TIE),
    tieBetsStay: t.tieBetsStay,
    sideBets: [...rules.sideBets],
    bets: betViews(t, limits),
    perfectPairBothPays: t.perfectPairBothPays,
    rounding: { mode: rules.rounding.mode, unit: rules.rounding.unit },
    status: t.status,
    createdAt: t.createdAt.toISOString(),
  };
}

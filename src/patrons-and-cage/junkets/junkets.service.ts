import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { canonicalJson } from '../../platform/common/canonical';
import type { RequestContext } from '../../platform/common/context';
import { AppError, notFound } from '../../platform/common/errors';
import { minorUnits } from '../../platform/common/exact-json';
import { assertDayRange } from '../../platform/common/validation';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { loadQueries } from '../../platform/database/named-sql';
import { prismaRunner, SqlRunner } from '../../platform/database/sql';
import {
  AccountEntry,
  AccountEntryKind,
  admitEntry,
  admitLock,
  balanceEffect,
  balanceOf,
  gamingDayOf,
  JunketStatement,
  junketStatement,
  MemberPlayDay,
  MembershipVersion,
  ProgrammeVersion,
} from '../../domain';
import { JunketOperator } from '../../generated/prisma/client';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { lockJunketPeriods } from '../../foundation/ledger/locked-periods';
import { seal } from '../../foundation/ledger/seals';
import { PitService } from '../../foundation/pit/pit.service';
import {
  AccountEntryDto,
  AccountEntryInputDto,
  AgreedPeriodDto,
  AgreeInputDto,
  AgreementDto,
  JunketAgentInputDto,
  JunketDto,
  JunketInputDto,
  LeaveInputDto,
  MembershipDto,
  MembershipInputDto,
  PeriodQueryDto,
  PlayerCreditDto,
  PlayerCreditInputDto,
  StatementDto,
  StatementFiguresDto,
} from './dto/junkets.dto';

/** The audit stream of junkets: their operators, members, accounts and agreed statements. */
export const JUNKETS_STREAM = 'junkets';

type Junket = { junketId: string };
type Period = { junketId: string; from: string; to: string };
type Members = { patrons: string[]; propertyId: string; currency: string; from: string; to: string };

const SQL = loadQueries<{
  lockJunket: Junket;
  junketEntryTotals: Junket & { before: string | null };
  junketEntries: Period;
  junketMemberships: Junket & { propertyId: string };
  junketMemberPlay: Members;
  junketMemberExchanges: Members;
  junketProgrammes: { propertyId: string };
  junketPlayerCredit: Junket & { to: string };
  junketAgreed: Junket;
  junketPlayedToday: { patronId: string; propertyId: string; today: string };
  junketPlayerOwes: Junket & { patronId: string };
}>(path.join(__dirname, 'junkets.sql'));

interface AgreedRow {
  id: string;
  from: string;
  to: string;
  figures: StatementFiguresDto;
  digest: string;
  junketSignatory: string;
  agreedByKeyId: string;
  agreedAt: Date;
}

interface MembershipRow {
  id: string;
  patronId: string;
  operatorId: string | null;
  agentCode: string | null;
  programmeCode: string | null;
  effectiveFrom: string;
  recordedByKeyId: string;
  recordedAt: Date;
}

/**
 * Junkets (docs/domain.md §16): operators, their agents and members, the operator's account with the
 * casino (markers, repayments, payouts, agreed statements' credit), the junket's own credit to its
 * players as it reports it, and the statement of a period, agreed and locked.
 */
@Injectable()
export class JunketsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
    private readonly pit: PitService,
  ) {}

  async create(propertyId: string, dto: JunketInputDto, ctx: RequestContext): Promise<JunketDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      if (!(await tx.property.findUnique({ where: { id: propertyId }, select: { id: true } }))) throw notFound('Property', propertyId);
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
      const out = junketDto(row, [], 0n);
      await this.audit.append(tx, ctx, {
        stream: JUNKETS_STREAM,
        action: 'junket.operator',
        entityType: 'junket',
        entityId: row.id,
        data: { ...out, creditLimit: row.creditLimit },
        seals: [seal('junket_operators', row.id)],
      });
      return out;
    });
  }

  async list(propertyId: string): Promise<JunketDto[]> {
    if (!(await this.prisma.property.findUnique({ where: { id: propertyId }, select: { id: true } }))) throw notFound('Property', propertyId);
    const rows = await this.prisma.junketOperator.findMany({ where: { propertyId }, orderBy: { code: 'asc' } });
    const db = prismaRunner(this.prisma);
    return Promise.all(rows.map(async (r) => junketDto(r, await agentsOf(this.prisma, r.id), await balanceBefore(db, r.id, null))));
  }

  async get(junketId: string): Promise<JunketDto> {
    const row = await this.operator(this.prisma, junketId);
    return junketDto(row, await agentsOf(this.prisma, row.id), await balanceBefore(prismaRunner(this.prisma), row.id, null));
  }

  async addAgent(junketId: string, dto: JunketAgentInputDto, ctx: RequestContext): Promise<JunketDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const op = await this.operator(tx, junketId);
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
      return junketDto(op, await agentsOf(tx, op.id), await balanceBefore(prismaRunner(tx), op.id, null));
    });
  }

  /** A patron joins the junket (or changes agent or programme) from a gaming day not yet over. */
  async join(junketId: string, dto: MembershipInputDto, ctx: RequestContext): Promise<MembershipDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const op = await this.operator(tx, junketId);
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
      const op = await this.operator(tx, junketId);
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
      const op = await this.operator(tx, junketId);
      const rows = await prismaRunner(tx).query<MembershipRow>(SQL.junketMemberships.bind({ junketId: op.id, propertyId: op.propertyId }));
      await this.audit.patronRead(tx, ctx, { type: 'junket', id: op.id }, { what: 'junket members' });
      return rows.map(membershipDto);
    });
  }

  /** A marker, a repayment or a payout on the junket's account, dated today. */
  async addEntry(junketId: string, dto: AccountEntryInputDto, ctx: RequestContext): Promise<AccountEntryDto> {
    if ((dto.kind === 'MARKER') !== (dto.method === undefined))
      throw new AppError(
        'VALIDATION_FAILED',
        dto.kind === 'MARKER' ? 'A marker has no payment method' : `A ${dto.kind.toLowerCase()} says how it was paid: method`,
      );
    return this.prisma.transaction(ctx, async (tx) => {
      const op = await this.operator(tx, junketId);
      const db = prismaRunner(tx);
      await db.run(SQL.lockJunket.bind({ junketId: op.id }));
      const balance = await balanceBefore(db, op.id, null);
      const amount = BigInt(dto.amount);
      admitEntry(dto.kind, amount, balance, op.creditLimit);
      const now = new Date();
      const row = await tx.junketAccountEntry.create({
        data: {
          id: randomUUID(),
          operatorId: op.id,
          kind: dto.kind,
          amount,
          currency: op.currency,
          method: dto.method ?? null,
          gamingDay: new Date(`${await this.today(tx, op.propertyId, now)}T00:00:00Z`),
          at: now,
          recordedByKeyId: ctx.actor.keyId,
        },
      });
      const out = entryDto(row, balance + balanceEffect({ kind: dto.kind, amount }));
      await this.audit.append(tx, ctx, {
        stream: JUNKETS_STREAM,
        action: 'junket.entry',
        entityType: 'junket',
        entityId: op.id,
        data: { ...out, amount, balance: balance + balanceEffect({ kind: dto.kind, amount }) },
        seals: [seal('junket_account_entries', row.id)],
      });
      return out;
    });
  }

  /** The junket's account entries over a range of gaming days, each with the balance after it. */
  async entries(junketId: string, q: PeriodQueryDto): Promise<AccountEntryDto[]> {
    assertDayRange(q.from, q.to);
    const op = await this.operator(this.prisma, junketId);
    const db = prismaRunner(this.prisma);
    let balance = await balanceBefore(db, op.id, q.from);
    const rows = await db.query<{
      id: string;
      kind: AccountEntryKind;
      amount: string;
      currency: string;
      method: string | null;
      statementId: string | null;
      gamingDay: string;
      at: Date;
      recordedByKeyId: string;
    }>(SQL.junketEntries.bind({ junketId: op.id, from: q.from, to: q.to }));
    return rows.map((r) => {
      balance += balanceEffect({ kind: r.kind, amount: BigInt(r.amount) });
      return {
        id: r.id,
        kind: r.kind,
        amount: minorUnits(BigInt(r.amount)),
        currency: r.currency,
        method: r.method,
        statementId: r.statementId,
        gamingDay: r.gamingDay,
        at: r.at.toISOString(),
        recordedByKeyId: r.recordedByKeyId,
        balance: minorUnits(balance),
      };
    });
  }

  /** Credit the junket reports it gave its player (or the player's repayment): outside the casino's books, kept beside them. */
  async addPlayerCredit(junketId: string, dto: PlayerCreditInputDto, ctx: RequestContext): Promise<PlayerCreditDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const op = await this.operator(tx, junketId);
      const db = prismaRunner(tx);
      await this.pit.assertRegistered(db, [dto.patronId]);
      await db.run(SQL.lockJunket.bind({ junketId: op.id }));
      const now = new Date();
      const today = await this.today(tx, op.propertyId, now);
      const day = dto.gamingDay ?? today;
      if (day > today) throw new AppError('VALIDATION_FAILED', `The junket reports credit already given: ${day} is after today, ${today}`);
      if (!(await tx.junketMembership.findFirst({ where: { operatorId: op.id, patronId: dto.patronId }, select: { id: true } })))
        throw new AppError('NOT_FOUND', `Patron ${dto.patronId} has never been a member of junket ${op.code}: the junket's credit to its players is theirs`);
      if (dto.kind === 'REPAYMENT') {
        const [{ owes }] = await db.query<{ owes: string }>(SQL.junketPlayerOwes.bind({ junketId: op.id, patronId: dto.patronId }));
        if (BigInt(dto.amount) > BigInt(owes))
          throw new AppError(
            'JUNKET_OVERPAID',
            `As the junket reports it, patron ${dto.patronId} owes it ${owes} (minor units): a repayment of ${dto.amount} is more than that`,
            {
              balance: BigInt(owes),
            },
          );
      }
      const agreed = await db.query<AgreedRow>(SQL.junketAgreed.bind({ junketId: op.id }));
      const last = agreed.at(-1);
      if (last && day <= last.to)
        throw new AppError('JUNKET_PERIOD_LOCKED', `Junket ${op.code}'s statement to ${last.to} is agreed: credit is reported for a later day`, {
          from: last.from,
          to: last.to,
        });
      const id = randomUUID();
      await tx.junketPlayerCredit.create({
        data: {
          id,
          operatorId: op.id,
          patronId: dto.patronId,
          kind: dto.kind,
          amount: BigInt(dto.amount),
          currency: op.currency,
          gamingDay: new Date(`${day}T00:00:00Z`),
          recordedByKeyId: ctx.actor.keyId,
          recordedAt: now,
        },
      });
      const out: PlayerCreditDto = {
        id,
        patronId: dto.patronId,
        kind: dto.kind,
        amount: minorUnits(BigInt(dto.amount)),
        currency: op.currency,
        gamingDay: day,
        recordedByKeyId: ctx.actor.keyId,
        recordedAt: now.toISOString(),
      };
      await this.audit.append(tx, ctx, {
        stream: JUNKETS_STREAM,
        action: 'junket.player-credit',
        entityType: 'junket',
        entityId: op.id,
        data: { ...out, amount: BigInt(dto.amount) },
        seals: [seal('junket_player_credit', id)],
      });
      return out;
    });
  }

  /**
   * The statement of a period: as agreed (with whether the records still give it) when the period
   * is one agreed, else as the records stand. A range overlapping an agreed period otherwise is refused.
   */
  async statement(junketId: string, q: PeriodQueryDto, ctx: RequestContext): Promise<StatementDto> {
    assertDayRange(q.from, q.to);
    return this.prisma.transaction(ctx, async (tx) => {
      const op = await this.operator(tx, junketId);
      const db = prismaRunner(tx);
      const agreed = await db.query<AgreedRow>(SQL.junketAgreed.bind({ junketId: op.id }));
      const exact = agreed.find((a) => a.from === q.from && a.to === q.to);
      const overlap = agreed.find((a) => a !== exact && a.from <= q.to && q.from <= a.to);
      if (!exact && overlap)
        throw new AppError('JUNKET_PERIOD_LOCKED', `The period ${overlap.from} to ${overlap.to} is agreed: ask for it whole, or for days outside it`, {
          from: overlap.from,
          to: overlap.to,
        });
      const figures = await this.figures(db, op, q.from, q.to);
      const digest = digestOf(figures);
      await this.audit.patronRead(tx, ctx, { type: 'junket', id: op.id }, { what: 'junket statement', from: q.from, to: q.to });
      if (!exact) return { status: 'OPEN', figures, digest, reproduced: true, agreement: null };
      // Reproduced: the records give the figures agreed, and the figures kept are still those agreed.
      const reproduced = digest === exact.digest && digestOf(exact.figures) === exact.digest;
      return { status: 'AGREED', figures: exact.figures, digest, reproduced, agreement: agreementDto(exact) };
    });
  }

  /**
   * Agrees a period's statement and locks the period: the figures are those the junket saw (their
   * digest), the period has ended, and none agreed overlaps it or comes after it. The statement's
   * commission and allowances are credited to the junket's account by a SETTLEMENT entry.
   */
  async agree(junketId: string, dto: AgreeInputDto, ctx: RequestContext): Promise<StatementDto> {
    assertDayRange(dto.from, dto.to);
    return this.prisma.transaction(ctx, async (tx) => {
      const op = await this.operator(tx, junketId);
      const db = prismaRunner(tx);
      await db.run(SQL.lockJunket.bind({ junketId: op.id }));
      // Voids of the property's coups in flight finish first (and are then in the figures); later ones see this agreement.
      await lockJunketPeriods(db, op.propertyId, true);
      const now = new Date();
      const agreed = await db.query<AgreedRow>(SQL.junketAgreed.bind({ junketId: op.id }));
      admitLock(dto.from, dto.to, await this.today(tx, op.propertyId, now), agreed);
      const figures = await this.figures(db, op, dto.from, dto.to);
      const digest = digestOf(figures);
      if (digest !== dto.digest)
        throw new AppError(
          'CONFLICT',
          `The statement's figures are not those the junket saw (its digest is now ${digest}): read it again (GET …/statement) and agree what it says`,
          { digest },
        );
      const id = randomUUID();
      await tx.junketStatement.create({
        data: {
          id,
          operatorId: op.id,
          fromDay: new Date(`${dto.from}T00:00:00Z`),
          toDay: new Date(`${dto.to}T00:00:00Z`),
          figures: JSON.parse(canonicalJson(figures)) as object,
          digest,
          junketSignatory: dto.junketSignatory,
          agreedByKeyId: ctx.actor.keyId,
          agreedAt: now,
        },
      });
      const entryId = randomUUID();
      await tx.junketAccountEntry.create({
        data: {
          id: entryId,
          operatorId: op.id,
          kind: 'SETTLEMENT',
          amount: BigInt(figures.account.credited),
          currency: op.currency,
          statementId: id,
          gamingDay: new Date(`${dto.to}T00:00:00Z`),
          at: now,
          recordedByKeyId: ctx.actor.keyId,
        },
      });
      const agreement: AgreementDto = { id, junketSignatory: dto.junketSignatory, agreedByKeyId: ctx.actor.keyId, agreedAt: now.toISOString(), digest };
      await this.audit.patronRead(tx, ctx, { type: 'junket', id: op.id }, { what: 'junket statement', from: dto.from, to: dto.to });
      await this.audit.append(tx, ctx, {
        stream: JUNKETS_STREAM,
        action: 'junket.statement',
        entityType: 'junket',
        entityId: op.id,
        data: { ...agreement, from: dto.from, to: dto.to, closing: figures.account.closing, credited: figures.account.credited },
        seals: [seal('junket_statements', id), seal('junket_account_entries', entryId)],
      });
      return { status: 'AGREED', figures, digest, reproduced: true, agreement };
    });
  }

  /** The junket's agreed statements, oldest first. */
  async agreedStatements(junketId: string): Promise<AgreedPeriodDto[]> {
    const op = await this.operator(this.prisma, junketId);
    const rows = await prismaRunner(this.prisma).query<AgreedRow>(SQL.junketAgreed.bind({ junketId: op.id }));
    return rows.map((r) => ({ ...agreementDto(r), from: r.from, to: r.to }));
  }

  /** The statement's figures as the records stand (docs/domain.md §16). */
  private async figures(db: SqlRunner, op: JunketOperator, from: string, to: string): Promise<StatementFiguresDto> {
    const memberships = await db.query<MembershipRow>(SQL.junketMemberships.bind({ junketId: op.id, propertyId: op.propertyId }));
    const versions = new Map<string, MembershipVersion[]>();
    for (const m of memberships) versions.set(m.patronId, [...(versions.get(m.patronId) ?? []), m]);
    const members: Members = { patrons: [...versions.keys()], propertyId: op.propertyId, currency: op.currency, from, to };
    const play = await db.query<{ patronId: string; day: string; wagers: number; stake: string; net: string; rolled: string; theo: string; expected: string }>(
      SQL.junketMemberPlay.bind(members),
    );
    const exchanges = await db.query<{ patronId: string; day: string; purchased: string; returned: string }>(SQL.junketMemberExchanges.bind(members));
    const programmes = new Map<string, ProgrammeVersion[]>();
    for (const p of await db.query<ProgrammeVersion & { code: string }>(SQL.junketProgrammes.bind({ propertyId: op.propertyId })))
      programmes.set(p.code, [...(programmes.get(p.code) ?? []), p]);
    const days: MemberPlayDay[] = play.map((p) => ({
      patronId: p.patronId,
      day: p.day,
      wagers: p.wagers,
      handle: BigInt(p.stake),
      customerNet: BigInt(p.net),
      rolled: BigInt(p.rolled),
      theoE12: BigInt(p.theo),
      expectedRolledE12: BigInt(p.expected),
    }));
    const totals = await db.query<{ kind: AccountEntryKind; amount: string }>(SQL.junketEntryTotals.bind({ junketId: op.id, before: from }));
    const entries = await db.query<{ kind: AccountEntryKind; amount: string; gamingDay: string }>(SQL.junketEntries.bind({ junketId: op.id, from, to }));
    const credit = await db.query<{ patronId: string; kind: 'ADVANCE' | 'REPAYMENT'; amount: string; gamingDay: string }>(
      SQL.junketPlayerCredit.bind({ junketId: op.id, to }),
    );
    const s = junketStatement({
      operatorId: op.id,
      from,
      to,
      memberships: versions,
      play: days,
      exchanges: exchanges.map((e) => ({ patronId: e.patronId, day: e.day, purchased: BigInt(e.purchased), returned: BigInt(e.returned) })),
      programmes,
      opening: balanceOf(totals.map((t) => ({ kind: t.kind, amount: BigInt(t.amount) }))),
      entries: entries.filter((e) => e.kind !== 'SETTLEMENT').map((e): AccountEntry => ({ kind: e.kind, amount: BigInt(e.amount), day: e.gamingDay })),
      playerCredit: credit.map((c) => ({ patronId: c.patronId, kind: c.kind, amount: BigInt(c.amount), day: c.gamingDay })),
    });
    return figuresDto(op, from, to, s);
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
    const today = await this.today(tx, op.propertyId, now);
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

  private async operator(db: Tx | PrismaService, junketId: string): Promise<JunketOperator> {
    const op = await db.junketOperator.findUnique({ where: { id: junketId } });
    if (!op) throw notFound('Junket', junketId);
    return op;
  }

  private async today(tx: Tx, propertyId: string, now: Date): Promise<string> {
    const p = await tx.property.findUniqueOrThrow({ where: { id: propertyId }, select: { timeZone: true, gamingDayStartHour: true } });
    return gamingDayOf(now, p.timeZone, p.gamingDayStartHour);
  }
}

async function balanceBefore(db: SqlRunner, junketId: string, before: string | null): Promise<bigint> {
  const totals = await db.query<{ kind: AccountEntryKind; amount: string }>(SQL.junketEntryTotals.bind({ junketId, before }));
  return balanceOf(totals.map((t) => ({ kind: t.kind, amount: BigInt(t.amount) })));
}

async function agentsOf(db: Tx | PrismaService, operatorId: string) {
  return (await db.junketAgent.findMany({ where: { operatorId }, orderBy: { code: 'asc' } })).map((a) => ({ code: a.code, name: a.name }));
}

/** The SHA-256 of the figures' canonical JSON (RFC 8785): what both sides agree to. */
const digestOf = (figures: StatementFiguresDto) => createHash('sha256').update(canonicalJson(figures)).digest('hex');

function junketDto(r: JunketOperator, agents: { code: string; name: string }[], balance: bigint): JunketDto {
  return {
    id: r.id,
    propertyId: r.propertyId,
    code: r.code,
    name: r.name,
    licence: r.licence,
    currency: r.currency,
    creditLimit: minorUnits(r.creditLimit),
    balance: minorUnits(balance),
    agents,
    recordedByKeyId: r.recordedByKeyId,
    recordedAt: r.recordedAt.toISOString(),
  };
}

function membershipDto(m: MembershipRow): MembershipDto {
  return {
    id: m.id,
    patronId: m.patronId,
    junketId: m.operatorId,
    agent: m.agentCode,
    programme: m.programmeCode,
    effectiveFrom: m.effectiveFrom,
    recordedByKeyId: m.recordedByKeyId,
    recordedAt: m.recordedAt.toISOString(),
  };
}

function entryDto(
  r: {
    id: string;
    kind: string;
    amount: bigint;
    currency: string;
    method: string | null;
    statementId: string | null;
    gamingDay: Date;
    at: Date;
    recordedByKeyId: string;
  },
  balance: bigint,
): AccountEntryDto {
  return {
    id: r.id,
    kind: r.kind,
    amount: minorUnits(r.amount),
    currency: r.currency,
    method: r.method,
    statementId: r.statementId,
    gamingDay: r.gamingDay.toISOString().slice(0, 10),
    at: r.at.toISOString(),
    recordedByKeyId: r.recordedByKeyId,
    balance: minorUnits(balance),
  };
}

function agreementDto(a: AgreedRow): AgreementDto {
  return { id: a.id, junketSignatory: a.junketSignatory, agreedByKeyId: a.agreedByKeyId, agreedAt: a.agreedAt.toISOString(), digest: a.digest };
}

function figuresDto(op: JunketOperator, from: string, to: string, s: JunketStatement): StatementFiguresDto {
  const m = minorUnits;
  return {
    junketId: op.id,
    code: op.code,
    currency: op.currency,
    from,
    to,
    programmes: s.programmes.map((p) => ({
      code: p.code,
      members: p.members,
      rolled: m(p.rolled),
      handle: m(p.handle),
      win: m(p.win),
      commission: m(p.commission),
      allowance: m(p.allowance),
      netWin: m(p.netWin),
      daysOutside: [...p.daysOutside],
    })),
    members: s.members.map((x) => ({
      patronId: x.patronId,
      agents: [...x.agents],
      programmes: [...x.programmes],
      purchased: m(x.purchased),
      returned: m(x.returned),
      rolled: m(x.rolled),
      wagers: x.wagers,
      handle: m(x.handle),
      win: m(x.win),
      rollingWinPercent: x.rollingWinPercent,
    })),
    agents: s.agents.map((a) => ({ agent: a.agent, members: a.members, rolled: m(a.rolled), handle: m(a.handle), win: m(a.win) })),
    totals: {
      purchased: m(s.totals.purchased),
      returned: m(s.totals.returned),
      netPurchased: m(s.totals.netPurchased),
      rolled: m(s.totals.rolled),
      inHand: m(s.totals.inHand),
      agrees: s.totals.agrees,
      wagers: s.totals.wagers,
      handle: m(s.totals.handle),
      win: m(s.totals.win),
      rollingWinPercent: s.totals.rollingWinPercent,
      theoreticalWin: m(s.totals.theoreticalWin),
      theoreticalRollingWinPercent: s.totals.theoreticalRollingWinPercent,
      commission: m(s.totals.commission),
      allowance: m(s.totals.allowance),
      netWin: m(s.totals.netWin),
    },
    account: {
      opening: m(s.account.opening),
      markers: m(s.account.markers),
      repayments: m(s.account.repayments),
      payouts: m(s.account.payouts),
      credited: m(s.account.credited),
      closing: m(s.account.closing),
      due: s.account.due,
    },
    playerCredit: s.playerCredit.map((c) => ({ patronId: c.patronId, advanced: m(c.advanced), repaid: m(c.repaid), outstanding: m(c.outstanding) })),
  };
}

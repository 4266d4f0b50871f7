import { Injectable, OnModuleInit } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { canonicalJson } from '../../platform/common/canonical';
import { minorUnits } from '../../platform/common/exact-json';
import type { RequestContext } from '../../platform/common/context';
import { AppError, notFound } from '../../platform/common/errors';
import { assertDayRange } from '../../platform/common/validation';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { prismaRunner, SqlRunner } from '../../platform/database/sql';
import {
  AccountEntry,
  AccountEntryKind,
  admitAsApproved,
  admitChipsInHand,
  admitLock,
  balanceOf,
  JunketStatement,
  junketStatement,
  MemberPlayDay,
  MembershipVersion,
  ProgrammeVersion,
} from '../../domain';
import { JunketOperator } from '../../generated/prisma/client';
import { ApprovalChecks } from '../../foundation/ledger/approval-checks';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { CreditLedger } from '../../foundation/ledger/credit-ledger';
import { lockJunketPeriods } from '../../foundation/ledger/locked-periods';
import { seal } from '../../foundation/ledger/seals';
import { AgreedPeriodDto, AgreeInputDto, AgreementDto, PeriodQueryDto, StatementDto, StatementFiguresDto, StatementSharesDto } from './dto/junkets.dto';
import { findJunket, JUNKETS_STREAM, todayAt } from './junket-operator';
import { AgreedRow, agreementDto, figuresDto, MembershipRow } from './junket-rows';
import { JUNKETS_SQL as SQL, Members } from './junkets-sql';

/**
 * A junket's statements (docs/domain.md §16): the statement of a period as the records stand, or as
 * agreed; a period's statement agreed and the period locked, its commission and allowances credited
 * to the junket's account; and the periods agreed.
 */
/** The terms of a STATEMENT credit request (credit-requests.service.ts). */
interface StatementTerms {
  junketId: string;
  from: string;
  to: string;
  digest: string;
}

@Injectable()
export class JunketStatementsService implements OnModuleInit {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
    private readonly credit: CreditLedger,
    private readonly checks: ApprovalChecks,
  ) {}

  /** A statement's agreement is refused when asked for, and when approved, for what would refuse its record. */
  onModuleInit(): void {
    this.checks.register('STATEMENT', (tx, asked) => this.admitAgreement(tx, asked.terms as unknown as StatementTerms));
  }

  /**
   * What agreeing a statement needs of the records now, before anyone records it: the period has
   * ended and is not locked, and its figures give the digest the junket saw; asked and approved alike
   * (ApprovalChecks says which refusal each gets).
   */
  private async admitAgreement(tx: Tx, t: StatementTerms): Promise<void> {
    const op = await findJunket(tx, t.junketId);
    const db = prismaRunner(tx);
    const agreed = await db.query<AgreedRow>(SQL.junketAgreed.bind({ junketId: op.id }));
    admitLock(t.from, t.to, await todayAt(tx, op.propertyId, new Date()), agreed);
    const digest = digestOf(figuresDto(op, t.from, t.to, await this.statementOf(db, op, t.from, t.to)));
    if (digest !== t.digest)
      throw new AppError(
        'CONFLICT',
        `The statement's figures are not those asked to be agreed (its digest is now ${digest}): read it again (GET …/statement) and ask to agree what it says`,
        { digest },
      );
  }

  /**
   * The statement of a period: as agreed (with whether the records still give it) when the period
   * is one agreed, else as the records stand. A range overlapping an agreed period otherwise is refused.
   */
  async statement(junketId: string, q: PeriodQueryDto, ctx: RequestContext): Promise<StatementDto> {
    assertDayRange(q.from, q.to);
    return this.prisma.transaction(ctx, async (tx) => {
      const op = await findJunket(tx, junketId);
      const db = prismaRunner(tx);
      const agreed = await db.query<AgreedRow>(SQL.junketAgreed.bind({ junketId: op.id }));
      const exact = agreed.find((a) => a.from === q.from && a.to === q.to);
      const overlap = agreed.find((a) => a !== exact && a.from <= q.to && q.from <= a.to);
      if (!exact && overlap)
        throw new AppError('JUNKET_PERIOD_LOCKED', `The period ${overlap.from} to ${overlap.to} is agreed: ask for it whole, or for days outside it`, {
          from: overlap.from,
          to: overlap.to,
        });
      const statement = await this.statementOf(db, op, q.from, q.to);
      const figures = figuresDto(op, q.from, q.to, statement);
      const digest = digestOf(figures);
      const shares = await this.sharesOf(tx, op, statement);
      await this.audit.patronRead(tx, ctx, { type: 'junket', id: op.id }, { what: 'junket statement', from: q.from, to: q.to });
      if (!exact) return { status: 'OPEN', figures, digest, reproduced: true, agreement: null, shares };
      // Reproduced: the records give the figures agreed, and the figures kept are still those agreed.
      const reproduced = digest === exact.digest && digestOf(exact.figures) === exact.digest;
      return { status: 'AGREED', figures: exact.figures, digest, reproduced, agreement: agreementDto(exact), shares };
    });
  }

  /**
   * Agrees a period's statement and locks the period: the figures are those the junket saw (their
   * digest), the period has ended, and none agreed overlaps it or comes after it. The statement's
   * commission and allowances are credited to the junket's account by a SETTLEMENT entry.
   *
   * Agreed for the casino by two persons besides the junket's signatory (docs/domain/junkets.md):
   * only as the credit request (act STATEMENT) one credit officer asked and another approved, each
   * term the same, once; and never while the junket's players would hold fewer than no dead chips at
   * the period's end (more lost than the cage issued them).
   */
  async agree(junketId: string, dto: AgreeInputDto, ctx: RequestContext): Promise<StatementDto> {
    assertDayRange(dto.from, dto.to);
    return this.prisma.transaction(ctx, async (tx) => {
      const op = await findJunket(tx, junketId);
      const db = prismaRunner(tx);
      const requestId = dto.requestId ?? null;
      if (requestId !== null) await this.credit.lockRequest(db, requestId);
      const request = requestId === null ? null : await this.credit.request(db, requestId);
      if (requestId !== null && !request) throw notFound('Credit request', requestId);
      admitAsApproved('STATEMENT', requestId, request, op.propertyId, {
        junketId: op.id,
        from: dto.from,
        to: dto.to,
        digest: dto.digest,
        junketSignatory: dto.junketSignatory,
      });
      const approved = request!;
      const recorded = await tx.junketStatement.findUnique({ where: { requestId: approved.id }, select: { id: true } });
      if (recorded) throw new AppError('CONFLICT', `Credit request ${approved.id} is recorded already: agreed statement ${recorded.id}`);
      await db.run(SQL.lockJunket.bind({ junketId: op.id }));
      // Voids of the property's coups in flight finish first (and are then in the figures); later ones see this agreement.
      await lockJunketPeriods(db, op.propertyId, true);
      const now = new Date();
      const agreed = await db.query<AgreedRow>(SQL.junketAgreed.bind({ junketId: op.id }));
      admitLock(dto.from, dto.to, await todayAt(tx, op.propertyId, now), agreed);
      const statement = await this.statementOf(db, op, dto.from, dto.to);
      const figures = figuresDto(op, dto.from, dto.to, statement);
      const digest = digestOf(figures);
      if (digest !== dto.digest)
        throw new AppError(
          'CONFLICT',
          `The statement's figures are not those the junket saw (its digest is now ${digest}): read it again (GET …/statement) and agree what it says`,
          { digest },
        );
      admitChipsInHand(op.code, statement.totals, await this.chipsInHandAtEnd(db, op, dto.from, dto.to, statement));
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
          requestId: approved.id,
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
      const agreement: AgreementDto = {
        id,
        junketSignatory: dto.junketSignatory,
        agreedByKeyId: ctx.actor.keyId,
        agreedAt: now.toISOString(),
        digest,
        requestId: approved.id,
        requestedByKeyId: approved.requestedByKeyId,
        approvedByKeyIds: approved.decisions.filter((d) => d.approve).map((d) => d.keyId),
      };
      await this.audit.patronRead(tx, ctx, { type: 'junket', id: op.id }, { what: 'junket statement', from: dto.from, to: dto.to });
      await this.audit.append(tx, ctx, {
        stream: JUNKETS_STREAM,
        action: 'junket.statement',
        entityType: 'junket',
        entityId: op.id,
        data: { ...agreement, from: dto.from, to: dto.to, closing: figures.account.closing, credited: figures.account.credited },
        seals: [seal('junket_statements', id), seal('junket_account_entries', entryId)],
      });
      return { status: 'AGREED', figures, digest, reproduced: true, agreement, shares: await this.sharesOf(tx, op, statement) };
    });
  }

  /** The statement's shares of the dues by member and by agent, each with the name registered. */
  private async sharesOf(tx: Tx, op: JunketOperator, statement: JunketStatement): Promise<StatementSharesDto> {
    const cards = statement.shares.members.map((m) => m.id);
    const patrons = cards.length ? await tx.patron.findMany({ where: { card: { in: cards } }, select: { card: true, name: true } }) : [];
    const agents = await tx.junketAgent.findMany({ where: { operatorId: op.id }, select: { code: true, name: true } });
    const named = (names: Map<string, string | null>) => (x: JunketStatement['shares']['members'][number]) => ({
      id: x.id,
      name: names.get(x.id) ?? null,
      commission: minorUnits(x.commission),
      allowance: minorUnits(x.allowance),
    });
    return {
      members: statement.shares.members.map(named(new Map(patrons.map((p) => [p.card, p.name])))),
      agents: statement.shares.agents.map(named(new Map(agents.map((a) => [a.code, a.name])))),
    };
  }

  /** The junket's agreed statements, oldest first. */
  async agreedStatements(junketId: string): Promise<AgreedPeriodDto[]> {
    const op = await findJunket(this.prisma, junketId);
    const rows = await prismaRunner(this.prisma).query<AgreedRow>(SQL.junketAgreed.bind({ junketId: op.id }));
    return rows.map((r) => ({ ...agreementDto(r), from: r.from, to: r.to }));
  }

  /**
   * The dead chips the junket's players hold at the end of a period (`period` its statement):
   * everything they bought under the junket up to its last day, less returned, less lost, from the
   * junket's first membership day (the period's own when it starts no later).
   */
  private async chipsInHandAtEnd(db: SqlRunner, op: JunketOperator, from: string, to: string, period: JunketStatement): Promise<bigint> {
    const [{ since }] = await db.query<{ since: string | null }>(SQL.junketFirstDay.bind({ junketId: op.id }));
    if (since === null || since >= from) return period.totals.inHand;
    return (await this.statementOf(db, op, since, to)).totals.inHand;
  }

  /** The statement as the engine works it out from the records (docs/domain.md §16). */
  private async statementOf(db: SqlRunner, op: JunketOperator, from: string, to: string): Promise<JunketStatement> {
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
    return junketStatement({
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
  }
}

/** The SHA-256 of the figures' canonical JSON (RFC 8785): what both sides agree to. */
const digestOf = (figures: StatementFiguresDto) => createHash('sha256').update(canonicalJson(figures)).digest('hex');

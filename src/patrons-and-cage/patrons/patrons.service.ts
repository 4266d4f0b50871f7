import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../platform/common/context';
import { minorUnits, minorUnitsOrNull } from '../../platform/common/exact-json';
import { AppError, notFound } from '../../platform/common/errors';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { assertDayRange } from '../../platform/common/validation';
import { pgRunner, prismaRunner } from '../../platform/database/sql';
import { addBetSums, BetType, emptySums, PlayedInterval, PlaySums, Rating, ratingOf, RatingTheory } from '../../domain';
import { AuditLog, PATRONS_STREAM } from '../../foundation/ledger/audit-log';
import { theoryOf } from '../../foundation/pit/table-rules';
import {
  PatronDto,
  RatingDto,
  RatingFiguresDto,
  RatingQueryDto,
  RegisterPatronDto,
  TopPatronDto,
  TopPatronsQueryDto,
  VisitsPageDto,
  VisitsQueryDto,
} from './dto/patron.dto';
import { PATRONS_SQL as SQL } from './patrons-sql';
import { seal } from '../../foundation/ledger/seals';
import { SeatingRow, toSeatingDto } from './seating-row';

/** A patron's rated play as one statement reads it (patrons.sql ratedPlay): rows as positional arrays. */
interface PlayRow {
  card: string | null;
  /** [gaming day, table, bet type, wagers, handle, net, theo × 10^12], summed over visits */
  sums: [string, string, BetType, number, string, string, string][];
  /** [gaming day, coups, variance × 10^12] of the whole play */
  coups: [string, number, string][];
  /** [gaming day, card in, card out (null: still in)] of each seating */
  seatings: [string, string, string | null][];
}

/** A page of a patron's visits as one statement reads it (patrons.sql visitsPage). */
interface VisitsRow {
  card: string | null;
  after_found: boolean;
  seatings: (Omit<SeatingRow, 'started_at' | 'ended_at'> & { started_at: string; ended_at: string | null })[];
  /** [visit, table, bet type, wagers, handle, net, theo × 10^12] */
  sums: [string, string, BetType, number, string, string, string][];
  /** [visit, coups, variance × 10^12] */
  coups: [string, number, string][];
}

/** How many visits a page holds unless the caller says: a host's screen of them. */
const VISITS_PER_PAGE = 100;

/**
 * The patron register and rated play (docs/domain.md §10): every figure of a rating from the
 * ledger, through the engine's formulas (domain/patrons/rating.ts). Every read of a patron's record is in
 * the audit chain, with who read it.
 */
@Injectable()
export class PatronsService {
  private readonly theoryOf = new Map<string, RatingTheory>();

  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
  ) {}

  async register(dto: RegisterPatronDto, ctx: RequestContext): Promise<PatronDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const exists = await tx.patron.findUnique({ where: { card: dto.card }, select: { card: true } });
      if (exists) throw new AppError('CONFLICT', `A patron with card ${dto.card} is registered already`);
      const p = await tx.patron.create({ data: { card: dto.card, name: dto.name ?? null, tier: dto.tier ?? null, registeredByKeyId: ctx.actor.keyId } });
      await this.audit.append(tx, ctx, {
        stream: PATRONS_STREAM,
        action: 'patron.register',
        entityType: 'patron',
        entityId: p.card,
        data: { card: p.card, name: p.name, tier: p.tier },
        seals: [seal('patrons', p.card)],
      });
      return { card: p.card, name: p.name, tier: p.tier, registeredAt: p.registeredAt.toISOString(), seated: [] };
    });
  }

  /** The patron of a card in a list of one, or none: a card search's answer. */
  async find(card: string, ctx: RequestContext): Promise<PatronDto[]> {
    try {
      return [await this.get(card, ctx)];
    } catch (e) {
      if (e instanceof AppError && e.code === 'NOT_FOUND') return [];
      throw e;
    }
  }

  /** A patron's record and where their card is in now; the read is audited. */
  async get(card: string, ctx: RequestContext): Promise<PatronDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const p = await this.patron(tx, card);
      const seated = await prismaRunner(tx).query<SeatingRow>(SQL.openSeatingsOf.bind({ card }));
      await this.audit.patronRead(tx, ctx, { type: 'patron', id: card }, { read: 'record' });
      return { card: p.card, name: p.name, tier: p.tier, registeredAt: p.registeredAt.toISOString(), seated: seated.map(toSeatingDto) };
    });
  }

  /**
   * Rated play over a range of gaming days: the period and each day, from the patron rollups (a
   * few rows a day, however many wagers), and how many visits were begun in it (read a page at a
   * time: visits). The read is audited.
   */
  async rating(card: string, q: RatingQueryDto, ctx: RequestContext): Promise<RatingDto> {
    assertDayRange(q.from, q.to);
    const range = { card, from: q.from, to: q.to, propertyId: q.propertyId ?? null };
    const [play] = await pgRunner(this.prisma.pool).query<PlayRow>(SQL.ratedPlay.bind(range));
    if (play.card === null) throw notFound('Patron', card);
    const asOf = new Date();
    const theories = await this.theories(this.prisma, [...new Set(play.sums.map((r) => r[1]))]);
    // Each group's sums gathered once: the period and each gaming day.
    const total = emptySums();
    const byDay = new Map<string, PlaySums>();
    for (const [day, table, betType, wagers, handle, net, theo] of play.sums) {
      const bet = { wagers, handle: BigInt(handle), net: BigInt(net), theoE12: BigInt(theo) };
      const share = theories.get(table)?.compShareBps ?? 0;
      for (const s of [total, group(byDay, day)]) addBetSums(s, betType, bet, share);
    }
    for (const [day, coups, varE12] of play.coups) {
      for (const s of [total, group(byDay, day)]) {
        s.coups += coups;
        s.varE12 += BigInt(varE12);
      }
    }
    const intervals: PlayedInterval[] = [];
    const intervalsByDay = new Map<string, PlayedInterval[]>();
    for (const [day, startedAt, endedAt] of play.seatings) {
      const played = { start: Date.parse(startedAt), end: endedAt === null ? asOf.getTime() : Date.parse(endedAt) };
      intervals.push(played);
      intervalsByDay.set(day, [...(intervalsByDay.get(day) ?? []), played]);
    }
    const days = [...new Set([...byDay.keys(), ...intervalsByDay.keys()])].sort();
    // Every read of a patron's record is in the audit chain before it is answered.
    await this.audit.patronRead(this.prisma, ctx, { type: 'patron', id: card }, { read: 'rating', from: q.from, to: q.to, propertyId: range.propertyId });
    return {
      ...answered(range, asOf),
      total: toFigures(ratingOf(total, intervals)),
      days: days.map((d) => ({ gamingDay: d, ...toFigures(ratingOf(byDay.get(d) ?? emptySums(), intervalsByDay.get(d) ?? [])) })),
      visitCount: play.seatings.length,
    };
  }

  /**
   * A page of the visits (seatings) begun in a range, oldest first, each with its rated play on
   * those days. The read is audited.
   */
  async visits(card: string, q: VisitsQueryDto, ctx: RequestContext): Promise<VisitsPageDto> {
    assertDayRange(q.from, q.to);
    const limit = q.limit === undefined ? VISITS_PER_PAGE : Number(q.limit);
    if (limit > 500) throw new AppError('VALIDATION_FAILED', 'limit must be 1 to 500');
    const range = { card, from: q.from, to: q.to, propertyId: q.propertyId ?? null };
    const [page] = await pgRunner(this.prisma.pool).query<VisitsRow>(SQL.visitsPage.bind({ ...range, after: q.after ?? null, limit }));
    if (page.card === null) throw notFound('Patron', card);
    if (!page.after_found) throw new AppError('VALIDATION_FAILED', `after must be one of this patron's visits; ${q.after} is not`);
    const asOf = new Date();
    const seatings: SeatingRow[] = page.seatings.slice(0, limit).map((r) => ({
      ...r,
      started_at: new Date(r.started_at),
      ended_at: r.ended_at === null ? null : new Date(r.ended_at),
    }));
    const theories = await this.theories(this.prisma, [...new Set(page.sums.map((r) => r[1]))]);
    const byVisit = new Map<string, PlaySums>();
    for (const [visit, table, betType, wagers, handle, net, theo] of page.sums) {
      addBetSums(
        group(byVisit, visit),
        betType,
        { wagers, handle: BigInt(handle), net: BigInt(net), theoE12: BigInt(theo) },
        theories.get(table)?.compShareBps ?? 0,
      );
    }
    for (const [visit, coups, varE12] of page.coups) {
      const s = group(byVisit, visit);
      s.coups += coups;
      s.varE12 += BigInt(varE12);
    }
    await this.audit.patronRead(
      this.prisma,
      ctx,
      { type: 'patron', id: card },
      { read: 'visits', from: q.from, to: q.to, propertyId: range.propertyId, after: q.after ?? null },
    );
    return {
      ...answered(range, asOf),
      visits: seatings.map((r) => ({
        seating: toSeatingDto(r),
        ...toFigures(ratingOf(byVisit.get(r.id) ?? emptySums(), [{ start: r.started_at.getTime(), end: (r.ended_at ?? asOf).getTime() }])),
      })),
      next: page.seatings.length > limit ? seatings[seatings.length - 1].id : null,
    };
  }

  /**
   * The patrons of the most theoretical win over a range, with each one's rated play (docs/domain.md
   * §10), from the patron rollups. The read is audited (it reads patrons' records).
   */
  async top(q: TopPatronsQueryDto, ctx: RequestContext): Promise<TopPatronDto[]> {
    assertDayRange(q.from, q.to);
    const limit = q.limit === undefined ? 50 : Number(q.limit);
    if (limit > 500) throw new AppError('VALIDATION_FAILED', 'limit must be 1 to 500');
    return this.prisma.transaction(ctx, async (tx) => {
      const db = prismaRunner(tx);
      const range = { from: q.from, to: q.to, propertyId: q.propertyId ?? null };
      const sums = await db.query<{ patron_id: string; table_id: string; bet_type: BetType; wagers: number; handle: string; net: string; theo: string }>(
        SQL.topPatrons.bind({ ...range, limit }),
      );
      const cards = [...new Set(sums.map((r) => r.patron_id))].sort();
      const coups = await db.query<{ patron_id: string; coups: number; var: string }>(SQL.patronsCoups.bind({ ...range, cards }));
      const seatings = await db.query<SeatingRow>(SQL.patronsSeatings.bind({ ...range, cards }));
      const patrons = new Map((await tx.patron.findMany({ where: { card: { in: cards } } })).map((p) => [p.card, p]));
      const theories = await this.theories(tx, [...new Set(sums.map((r) => r.table_id))]);
      const asOf = new Date();
      const play = new Map(cards.map((c) => [c, emptySums()]));
      for (const r of sums) {
        const share = theories.get(r.table_id)?.compShareBps ?? 0;
        addBetSums(play.get(r.patron_id)!, r.bet_type, { wagers: r.wagers, handle: BigInt(r.handle), net: BigInt(r.net), theoE12: BigInt(r.theo) }, share);
      }
      for (const r of coups) {
        const s = play.get(r.patron_id)!;
        s.coups += r.coups;
        s.varE12 += BigInt(r.var);
      }
      const intervals = new Map<string, PlayedInterval[]>();
      for (const r of seatings)
        intervals.set(r.patron_id, [...(intervals.get(r.patron_id) ?? []), { start: r.started_at.getTime(), end: (r.ended_at ?? asOf).getTime() }]);
      const rated = cards.map((card) => ({ card, rating: ratingOf(play.get(card)!, intervals.get(card) ?? []) }));
      rated.sort((a, b) => (a.rating.theoE12 === b.rating.theoE12 ? (a.card < b.card ? -1 : 1) : a.rating.theoE12 > b.rating.theoE12 ? -1 : 1));
      await this.audit.patronRead(tx, ctx, { type: 'report', id: 'top-patrons' }, { read: 'top-patrons', ...range, limit, cards });
      return rated.map(({ card, rating }, i) => ({
        rank: i + 1,
        card,
        name: patrons.get(card)?.name ?? null,
        tier: patrons.get(card)?.tier ?? null,
        ...toFigures(rating),
      }));
    });
  }

  private async patron(tx: Tx | PrismaService, card: string) {
    const p = await tx.patron.findUnique({ where: { card } });
    if (!p) throw notFound('Patron', card);
    return p;
  }

  /**
   * Each table's theory and its property's comp share. Kept once read: a table's rules and a
   * property's comp share never change.
   */
  private async theories(tx: Tx | PrismaService, tableIds: string[]): Promise<Map<string, RatingTheory>> {
    const missing = tableIds.filter((id) => !this.theoryOf.has(id));
    if (missing.length) {
      const tables = await tx.casinoTable.findMany({ where: { id: { in: missing } }, include: { property: { select: { compShareBps: true } } } });
      for (const { property, ...t } of tables) this.theoryOf.set(t.id, { ...theoryOf(t), compShareBps: property.compShareBps });
    }
    return new Map(tableIds.flatMap((id) => (this.theoryOf.has(id) ? [[id, this.theoryOf.get(id)!] as const] : [])));
  }
}

/** What a rating and a page of visits both begin with: whose, which range, as of when. */
function answered(range: { card: string; from: string; to: string; propertyId: string | null }, asOf: Date) {
  return { card: range.card, from: range.from, to: range.to, propertyId: range.propertyId, asOf: asOf.toISOString() };
}

/** The sums of one group (a day, a visit), made on first use. */
function group<K>(m: Map<K, PlaySums>, k: K): PlaySums {
  let s = m.get(k);
  if (!s) m.set(k, (s = emptySums()));
  return s;
}

function toFigures(r: Rating): RatingFiguresDto {
  return {
    coups: r.coups,
    wagers: r.wagers,
    handle: minorUnits(r.handle),
    averageBet: minorUnitsOrNull(r.averageBet),
    actualWin: minorUnits(r.actualWin),
    theoreticalWin: minorUnits(r.theoreticalWin),
    theoStdDev: minorUnits(r.theoStdDev),
    withinTwoSigma: r.withinTwoSigma,
    secondsPlayed: r.secondsPlayed,
    decisionsPerHour: r.decisionsPerHour,
    comps: minorUnits(r.comps),
    byBetType: Object.fromEntries(
      Object.entries(r.byBetType).map(([bet, b]) => [
        bet,
        { wagers: b.wagers, handle: minorUnits(b.handle), actualWin: minorUnits(b.actualWin), theoreticalWin: minorUnits(b.theoreticalWin) },
      ]),
    ),
  };
}

import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context';
import { minorUnits, minorUnitsOrNull } from '../common/exact-json';
import { AppError, notFound } from '../common/errors';
import { PrismaService, Tx } from '../database/prisma.service';
import { prismaRunner } from '../database/sql';
import { BetType, PlayedInterval, rate, RatedWager, Rating, RatingTheory } from '../domain';
import { AuditLog } from '../ledger/audit-log';
import { theoryOf } from '../pit/table-rules';
import { PatronDto, RatingDto, RatingFiguresDto, RatingQueryDto, RegisterPatronDto } from './dto/patron.dto';
import { PATRONS_SQL as SQL } from './patrons-sql';
import { SeatingRow, toSeatingDto } from './seating-row';

/** The audit stream of the patron register and of every read of a patron's record. */
export const PATRONS_STREAM = 'patrons';

interface WagerRow {
  coup_id: string;
  table_id: string;
  seating_id: string | null;
  bet_type: BetType;
  amount: string;
  net: string;
  gaming_day: string;
}

/**
 * The patron register and rated play (docs/domain.md §10): every figure of a rating from the
 * ledger, through the engine's formulas (domain/rating.ts). Every read of a patron's record is in
 * the audit chain, with who read it.
 */
@Injectable()
export class PatronsService {
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
      });
      return { card: p.card, name: p.name, tier: p.tier, registeredAt: p.registeredAt.toISOString(), seated: [] };
    });
  }

  /** A patron's record and where their card is in now; the read is audited. */
  async get(card: string, ctx: RequestContext): Promise<PatronDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const p = await this.patron(tx, card);
      const seated = await prismaRunner(tx).query<SeatingRow>(SQL.openSeatingsOf.bind({ card }));
      await this.audited(tx, ctx, card, { read: 'record' });
      return { card: p.card, name: p.name, tier: p.tier, registeredAt: p.registeredAt.toISOString(), seated: seated.map(toSeatingDto) };
    });
  }

  /** Rated play over a range of gaming days: the period, each day, each visit. The read is audited. */
  async rating(card: string, q: RatingQueryDto, ctx: RequestContext): Promise<RatingDto> {
    if (q.from > q.to) throw new AppError('VALIDATION_FAILED', `The range ends (${q.to}) before it starts (${q.from})`);
    return this.prisma.transaction(ctx, async (tx) => {
      await this.patron(tx, card);
      const db = prismaRunner(tx);
      const range = { card, from: q.from, to: q.to, propertyId: q.propertyId ?? null };
      const [wagerRows, seatings] = [await db.query<WagerRow>(SQL.ratedWagers.bind(range)), await db.query<SeatingRow>(SQL.seatingsOf.bind(range))];
      const asOf = new Date();
      const theories = await this.theories(tx, [...new Set([...wagerRows.map((w) => w.table_id), ...seatings.map((s) => s.table_id)])]);
      const interval = (r: SeatingRow): PlayedInterval => ({ start: r.started_at.getTime(), end: (r.ended_at ?? asOf).getTime() });
      const figures = (ws: RatedWager[] = [], ss: SeatingRow[] = []) => toFigures(rate(ws, theories, ss.map(interval)));
      // Each wager and seating grouped once by gaming day and by visit.
      const wagersByDay = groupBy(wagerRows, (w) => w.gaming_day, toRated);
      const wagersByVisit = groupBy(wagerRows, (w) => w.seating_id, toRated);
      const seatingsByDay = groupBy(
        seatings,
        (r) => r.gaming_day,
        (r) => r,
      );
      const days = [...new Set([...wagersByDay.keys(), ...seatingsByDay.keys()])].sort();
      await this.audited(tx, ctx, card, { read: 'rating', from: q.from, to: q.to, propertyId: range.propertyId });
      return {
        card,
        from: q.from,
        to: q.to,
        propertyId: range.propertyId,
        asOf: asOf.toISOString(),
        total: figures(wagerRows.map(toRated), seatings),
        days: days.map((d) => ({ gamingDay: d, ...figures(wagersByDay.get(d), seatingsByDay.get(d)) })),
        visits: seatings.map((r) => ({ seating: toSeatingDto(r), ...figures(wagersByVisit.get(r.id), [r]) })),
      };
    });
  }

  private async patron(tx: Tx, card: string) {
    const p = await tx.patron.findUnique({ where: { card } });
    if (!p) throw notFound('Patron', card);
    return p;
  }

  /** Each table's theory and its property's comp share. */
  private async theories(tx: Tx, tableIds: string[]): Promise<Map<string, RatingTheory>> {
    const tables = await tx.casinoTable.findMany({ where: { id: { in: tableIds } }, include: { property: { select: { compShareBps: true } } } });
    return new Map(tables.map(({ property, ...t }) => [t.id, { ...theoryOf(t), compShareBps: property.compShareBps }]));
  }

  private async audited(tx: Tx, ctx: RequestContext, card: string, data: Record<string, unknown>): Promise<void> {
    await this.audit.append(tx, ctx, { stream: PATRONS_STREAM, action: 'patron.read', entityType: 'patron', entityId: card, data });
  }
}

/** Rows grouped by a key (rows without one left out), each mapped, in their order. */
function groupBy<T, K, V>(rows: readonly T[], key: (r: T) => K | null, value: (r: T) => V): Map<K, V[]> {
  const out = new Map<K, V[]>();
  for (const r of rows) {
    const k = key(r);
    if (k === null) continue;
    const list = out.get(k);
    if (list) list.push(value(r));
    else out.set(k, [value(r)]);
  }
  return out;
}

function toRated(w: WagerRow): RatedWager {
  return { coupId: w.coup_id, tableId: w.table_id, betType: w.bet_type, amount: BigInt(w.amount), net: BigInt(w.net) };
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

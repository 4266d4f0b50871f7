import { Injectable } from '@nestjs/common';
import { AppError, notFound } from '../common/errors';
import { PrismaService } from '../database/prisma.service';
import { EDGE_SCALE, fractionToDecimal, MAX_DECKS, MIN_DECKS, outcomeProbabilities, roundMoney } from '../domain';
import { Prisma } from '../generated/prisma/client';
import { DEFAULT_PROPERTY_ID } from '../properties/properties.service';
import { isCalendarDate } from '../table-accounting/table-accounting.service';
import { edgesOf } from '../tables/tables.service';
import {
  ExceptionsDto,
  FiguresDto,
  GROUP_BY,
  GroupBy,
  QuarterlyDto,
  QuarterlyQueryDto,
  RangeQueryDto,
  ReconciliationDifferenceDto,
  ReconciliationDto,
  TableAccountingLineDto,
  TotalsDto,
  WinLossDto,
  WinLossQueryDto,
  WinLossRowDto,
} from './dto/report.dto';

/** Additive sums behind every figure (bigint, exact). Expected counts are × 10^6. */
interface Sums {
  coups: bigint | null;
  wagers: bigint;
  handle: bigint;
  payouts: bigint;
  commission: bigint;
  collected: bigint;
  net: bigint;
  theoE12: bigint;
  banker: bigint;
  player: bigint;
  tie: bigint;
  naturals: bigint;
  expBanker: bigint;
  expPlayer: bigint;
  expTie: bigint;
  expNaturals: bigint;
}

interface Row {
  group: Record<string, string>;
  sums: Sums;
}

const emptySums = (withCoups: boolean): Sums => ({
  coups: withCoups ? 0n : null, wagers: 0n, handle: 0n, payouts: 0n, commission: 0n, collected: 0n, net: 0n, theoE12: 0n,
  banker: 0n, player: 0n, tie: 0n, naturals: 0n, expBanker: 0n, expPlayer: 0n, expTie: 0n, expNaturals: 0n,
});

function addSums(into: Sums, s: Sums): void {
  for (const k of Object.keys(into) as (keyof Sums)[]) {
    if (k === 'coups') into.coups = into.coups === null || s.coups === null ? null : into.coups + s.coups;
    else into[k] = (into[k] as bigint) + (s[k] as bigint);
  }
}

/** Grouping dimensions: fixed SQL over the rollups (alias r), tables (t) and properties (p). */
const DIMENSIONS: Record<GroupBy, [sql: string, alias: string][]> = {
  property: [['p.id::text', 'propertyId'], ['p.name', 'propertyName']],
  pit: [['t.pit', 'pit']],
  table: [['t.id::text', 'tableId'], ['t.code', 'tableCode']],
  variant: [['t.variant::text', 'variant']],
  betType: [['r.bet_type::text', 'betType']],
  currency: [['t.currency::text', 'currency']],
  gamingDay: [["to_char(r.gaming_day, 'YYYY-MM-DD')", 'gamingDay']],
  month: [["to_char(r.gaming_day, 'YYYY-MM')", 'month']],
  quarter: [["to_char(r.gaming_day, 'YYYY-\"Q\"Q')", 'quarter']],
};

const pct = (num: bigint, den: bigint): string | null => (den === 0n ? null : fractionToDecimal({ numerator: num * 100n, denominator: den }, 4));
/** A theoretical win (× 10^12) in minor units, through the one rounding function. */
const theoToMoney = (e12: bigint): bigint => (e12 < 0n ? -roundMoney(-e12, 1n, EDGE_SCALE, { mode: 'HALF_UP', unit: 1 }) : roundMoney(e12, 1n, EDGE_SCALE, { mode: 'HALF_UP', unit: 1 }));
const expected = (x: bigint) => fractionToDecimal({ numerator: x, denominator: 1_000_000n }, 2);

export function figures(s: Sums): FiguresDto {
  const win = -s.net;
  const outstanding = s.commission - s.collected;
  const theo = theoToMoney(s.theoE12);
  const hasCoups = s.coups !== null;
  return {
    coups: hasCoups ? Number(s.coups) : null,
    wagers: Number(s.wagers),
    handle: Number(s.handle),
    payouts: Number(s.payouts),
    win: Number(win),
    holdPercent: pct(win, s.handle),
    commissionCharged: Number(s.commission),
    commissionCollected: Number(s.collected),
    commissionOutstanding: Number(outstanding),
    revenue: Number(win - outstanding),
    theoreticalWin: Number(theo),
    winMinusTheoretical: Number(win - theo),
    outcomes: hasCoups ? { bankerWins: Number(s.banker), playerWins: Number(s.player), ties: Number(s.tie), naturals: Number(s.naturals) } : null,
    expectedOutcomes: hasCoups ? { bankerWins: expected(s.expBanker), playerWins: expected(s.expPlayer), ties: expected(s.expTie), naturals: expected(s.expNaturals) } : null,
  };
}

/** Exact outcome probabilities per deck count, as decimals for SQL (statistics, not money). */
const PROBABILITIES = Array.from({ length: MAX_DECKS - MIN_DECKS + 1 }, (_, i) => {
  const decks = MIN_DECKS + i;
  const p = outcomeProbabilities(decks);
  return { decks, banker: fractionToDecimal(p.banker, 15), player: fractionToDecimal(p.player, 15), tie: fractionToDecimal(p.tie, 15), natural: fractionToDecimal(p.natural, 15) };
});

export function parseRange(q: RangeQueryDto): { from: string; to: string } {
  for (const [name, v] of [['from', q.from], ['to', q.to]] as const) {
    if (!isCalendarDate(v)) throw new AppError('VALIDATION_FAILED', `${name} ${v} is not a calendar date (YYYY-MM-DD)`);
  }
  if (q.from > q.to) throw new AppError('VALIDATION_FAILED', `from (${q.from}) is after to (${q.to})`);
  const limit = new Date(`${q.from}T00:00:00Z`);
  limit.setUTCFullYear(limit.getUTCFullYear() + 10);
  if (new Date(`${q.to}T00:00:00Z`) >= limit) throw new AppError('VALIDATION_FAILED', 'A report covers at most ten years');
  return { from: q.from, to: q.to };
}

export function parseGroupBy(text: string | undefined): GroupBy[] {
  if (!text) return [];
  const dims = [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))];
  for (const d of dims) {
    if (!GROUP_BY.includes(d as GroupBy)) throw new AppError('VALIDATION_FAILED', `Cannot group by "${d}": use ${GROUP_BY.join(', ')}`);
  }
  return dims as GroupBy[];
}

@Injectable()
export class ReportsService {
  constructor(private readonly prisma: PrismaService) {}

  async winLoss(q: WinLossQueryDto): Promise<WinLossDto> {
    const { from, to } = parseRange(q);
    const groupBy = parseGroupBy(q.groupBy);
    const rows = await this.rows(groupBy, from, to, q.propertyId);
    const totals = totalsByCurrency(rows);
    return {
      from,
      to,
      groupBy,
      rows: rows.map((r) => ({ group: r.group, ...figures(r.sums) })),
      totals: totals.length === 1 ? totals[0] : null,
      totalsByCurrency: totals,
      voided: await this.voidSummary(from, to, q.propertyId),
    };
  }

  async quarterly(q: QuarterlyQueryDto): Promise<QuarterlyDto> {
    const year = Number(q.year);
    const quarter = Number(q.quarter);
    if (year < 2000 || year > 2100) throw new AppError('VALIDATION_FAILED', 'year must be between 2000 and 2100');
    const propertyId = q.propertyId ?? DEFAULT_PROPERTY_ID;
    const property = await this.prisma.property.findUnique({ where: { id: propertyId } });
    if (!property) throw notFound('Property', propertyId);
    const firstMonth = (quarter - 1) * 3;
    const from = new Date(Date.UTC(year, firstMonth, 1)).toISOString().slice(0, 10);
    const to = new Date(Date.UTC(year, firstMonth + 3, 0)).toISOString().slice(0, 10);

    // One pass over the rollups, per table and month; every section is summed from it.
    const base = await this.rows(['table', 'variant', 'month'], from, to, propertyId);
    const section = (keys: string[]): WinLossRowDto[] => {
      const out = new Map<string, Row>();
      for (const r of base) {
        const group = Object.fromEntries(keys.map((k) => [k, r.group[k]]));
        const key = JSON.stringify(group);
        const acc = out.get(key) ?? { group, sums: emptySums(true) };
        addSums(acc.sums, r.sums);
        out.set(key, acc);
      }
      return [...out.values()].sort((a, b) => JSON.stringify(a.group).localeCompare(JSON.stringify(b.group))).map((r) => ({ group: r.group, ...figures(r.sums) }));
    };
    return {
      propertyId,
      propertyName: property.name,
      year,
      quarter,
      from,
      to,
      totals: totalsByCurrency(base),
      months: section(['currency', 'month']),
      variants: section(['currency', 'variant']),
      tables: section(['currency', 'tableId', 'tableCode', 'variant']),
      tableAccounting: await this.tableAccounting(from, to, propertyId, false),
      exceptions: await this.exceptions(from, to, propertyId),
    };
  }

  /** Table inventory against wager-level win, per table and gaming day (or per table for the range). */
  async tableAccounting(from: string, to: string, propertyId: string | undefined, byDay: boolean): Promise<TableAccountingLineDto[]> {
    const day = byDay ? Prisma.sql`to_char(s.gaming_day, 'YYYY-MM-DD')` : Prisma.sql`NULL::text`;
    const dayW = byDay ? Prisma.sql`to_char(r.gaming_day, 'YYYY-MM-DD')` : Prisma.sql`NULL::text`;
    const prop = propertyId ? Prisma.sql`AND t.property_id = ${propertyId}::uuid` : Prisma.empty;
    const sessions = await this.prisma.$queryRaw<{ table_id: string; day: string | null; sessions: bigint; opener: string; closer: string; drop: string; fills: string; credits: string }[]>`
      SELECT s.table_id::text, ${day} AS day, count(*) AS sessions, sum(s.opener_total)::text AS opener, sum(s.closer_total)::text AS closer,
             sum(s.drop_amount)::text AS drop, coalesce(sum(x.fills), 0)::text AS fills, coalesce(sum(x.credits), 0)::text AS credits
      FROM table_sessions s JOIN casino_tables t ON t.id = s.table_id
      LEFT JOIN LATERAL (
        SELECT sum(sl.amount) FILTER (WHERE sl.kind = 'FILL') AS fills, sum(sl.amount) FILTER (WHERE sl.kind = 'CREDIT') AS credits
        FROM table_slips sl LEFT JOIN slip_voids v ON v.slip_id = sl.id WHERE sl.session_id = s.id AND v.id IS NULL
      ) x ON true
      WHERE s.status = 'CLOSED' AND s.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
      GROUP BY 1, 2`;
    const wagerWins = await this.prisma.$queryRaw<{ table_id: string; day: string | null; win: string }[]>`
      SELECT r.table_id::text, ${dayW} AS day, (-sum(r.customer_net))::text AS win
      FROM wager_rollups r JOIN casino_tables t ON t.id = r.table_id
      WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
      GROUP BY 1, 2`;
    const lines = new Map<string, TableAccountingLineDto & { raw: { opener: bigint; closer: bigint; fills: bigint; credits: bigint; drop: bigint; wagerWin: bigint } }>();
    const line = (tableId: string, gamingDay: string | null) => {
      const key = `${tableId}|${gamingDay}`;
      let l = lines.get(key);
      if (!l) {
        l = { tableId, tableCode: '', currency: '', gamingDay, sessions: 0, opener: 0, closer: 0, fills: 0, credits: 0, drop: 0, statisticalWin: 0, dropHoldPercent: null, wagerWin: 0, difference: 0, raw: { opener: 0n, closer: 0n, fills: 0n, credits: 0n, drop: 0n, wagerWin: 0n } };
        lines.set(key, l);
      }
      return l;
    };
    for (const s of sessions) {
      const l = line(s.table_id, s.day);
      l.sessions = Number(s.sessions);
      Object.assign(l.raw, { opener: BigInt(s.opener), closer: BigInt(s.closer), drop: BigInt(s.drop), fills: BigInt(s.fills), credits: BigInt(s.credits) });
    }
    for (const w of wagerWins) line(w.table_id, w.day).raw.wagerWin = BigInt(w.win);
    const tables = new Map((await this.prisma.casinoTable.findMany({ where: { id: { in: [...new Set([...lines.values()].map((l) => l.tableId))] } }, select: { id: true, code: true, currency: true } })).map((t) => [t.id, t]));
    return [...lines.values()]
      .map(({ raw, ...l }) => {
        const stat = raw.closer - raw.opener + raw.credits - raw.fills + raw.drop;
        const t = tables.get(l.tableId)!;
        return {
          ...l, tableCode: t.code, currency: t.currency, opener: Number(raw.opener), closer: Number(raw.closer), fills: Number(raw.fills),
          credits: Number(raw.credits), drop: Number(raw.drop), statisticalWin: Number(stat), dropHoldPercent: pct(stat, raw.drop),
          wagerWin: Number(raw.wagerWin), difference: Number(stat - raw.wagerWin),
        };
      })
      .sort((a, b) => a.tableCode.localeCompare(b.tableCode) || (a.gamingDay ?? '').localeCompare(b.gamingDay ?? ''));
  }

  async tableAccountingReport(q: RangeQueryDto): Promise<TableAccountingLineDto[]> {
    const { from, to } = parseRange(q);
    return this.tableAccounting(from, to, q.propertyId, true);
  }

  async exceptions(from: string, to: string, propertyId?: string): Promise<ExceptionsDto> {
    const prop = propertyId ? Prisma.sql`AND t.property_id = ${propertyId}::uuid` : Prisma.empty;
    const coups = await this.prisma.$queryRaw<{ coup_id: string; table_code: string; shoe_number: number; coup_number: number; gaming_day: string | null; reason: string; by: string; role: string; at: Date; handle: string }[]>`
      SELECT c.id::text AS coup_id, t.code AS table_code, s.number AS shoe_number, c.number AS coup_number, to_char(c.gaming_day, 'YYYY-MM-DD') AS gaming_day,
             v.reason, v.voided_by_key_id AS by, v.voided_by_role::text AS role, v.created_at AS at,
             coalesce((SELECT sum(w.amount) FROM wagers w WHERE w.coup_id = c.id AND w.status = 'SETTLED'), 0)::text AS handle
      FROM coup_voids v JOIN coups c ON c.id = v.coup_id JOIN shoes s ON s.id = c.shoe_id JOIN casino_tables t ON t.id = c.table_id
      WHERE coalesce(c.gaming_day, v.created_at::date) BETWEEN ${from}::date AND ${to}::date ${prop}
      ORDER BY v.created_at`;
    const slips = await this.prisma.$queryRaw<{ slip_id: string; table_code: string; kind: string; number: number; year: number; amount: string; gaming_day: string; reason: string; by: string; at: Date }[]>`
      SELECT sl.id::text AS slip_id, t.code AS table_code, sl.kind::text, sl.number, sl.year, sl.amount::text, to_char(sl.gaming_day, 'YYYY-MM-DD') AS gaming_day,
             v.reason, v.voided_by_key_id AS by, v.created_at AS at
      FROM slip_voids v JOIN table_slips sl ON sl.id = v.slip_id JOIN casino_tables t ON t.id = sl.table_id
      WHERE sl.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
      ORDER BY v.created_at`;
    return {
      voidedCoups: coups.map((c) => ({ coupId: c.coup_id, tableCode: c.table_code, shoeNumber: c.shoe_number, coupNumber: c.coup_number, gamingDay: c.gaming_day, reason: c.reason, voidedByKeyId: c.by, voidedByRole: c.role, voidedAt: c.at.toISOString(), handle: Number(c.handle) })),
      voidedSlips: slips.map((s) => ({ slipId: s.slip_id, tableCode: s.table_code, kind: s.kind, number: s.number, year: s.year, amount: Number(s.amount), gamingDay: s.gaming_day, reason: s.reason, voidedByKeyId: s.by, voidedAt: s.at.toISOString() })),
    };
  }

  /**
   * Recomputes the rollups of a range from the raw records (settled wagers of unvoided coups,
   * commission collections) and lists every difference.
   */
  async reconcile(q: RangeQueryDto): Promise<ReconciliationDto> {
    const { from, to } = parseRange(q);
    const prop = q.propertyId ? Prisma.sql`AND t.property_id = ${q.propertyId}::uuid` : Prisma.empty;
    const raw = await this.prisma.$queryRaw<{ table_id: string; day: string; bet_type: string; wagers: string; handle: string; payouts: string; commission: string; net: string; wins: string; losses: string; pushes: string }[]>`
      SELECT w.table_id::text, to_char(c.gaming_day, 'YYYY-MM-DD') AS day, w.bet_type::text, count(*)::text AS wagers, sum(w.amount)::text AS handle,
             sum(w.payout)::text AS payouts, sum(w.commission)::text AS commission, sum(w.net)::text AS net,
             count(*) FILTER (WHERE w.result = 'WIN')::text AS wins, count(*) FILTER (WHERE w.result = 'LOSE')::text AS losses, count(*) FILTER (WHERE w.result = 'PUSH')::text AS pushes
      FROM wagers w JOIN coups c ON c.id = w.coup_id JOIN casino_tables t ON t.id = w.table_id
      WHERE w.status = 'SETTLED' AND c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
        AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)
      GROUP BY 1, 2, 3`;
    const collected = await this.prisma.$queryRaw<{ table_id: string; day: string; amount: string }[]>`
      SELECT e.table_id::text, to_char(e.gaming_day, 'YYYY-MM-DD') AS day, (-sum(e.amount))::text AS amount
      FROM commission_entries e JOIN casino_tables t ON t.id = e.table_id
      WHERE e.kind = 'COLLECTION' AND e.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
      GROUP BY 1, 2`;
    const rawCoups = await this.prisma.$queryRaw<{ table_id: string; day: string; coups: string; banker: string; player: string; tie: string; naturals: string }[]>`
      SELECT c.table_id::text, to_char(c.gaming_day, 'YYYY-MM-DD') AS day, count(*)::text AS coups,
             count(*) FILTER (WHERE c.winner = 'BANKER')::text AS banker, count(*) FILTER (WHERE c.winner = 'PLAYER')::text AS player,
             count(*) FILTER (WHERE c.winner = 'TIE')::text AS tie, count(*) FILTER (WHERE c.natural)::text AS naturals
      FROM coups c JOIN casino_tables t ON t.id = c.table_id
      WHERE c.status = 'SETTLED' AND c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
        AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)
      GROUP BY 1, 2`;
    const rollups = await this.prisma.$queryRaw<{ table_id: string; day: string; bet_type: string; wagers: string; handle: string; payouts: string; commission: string; net: string; wins: string; losses: string; pushes: string; collected: string; theo: string }[]>`
      SELECT r.table_id::text, to_char(r.gaming_day, 'YYYY-MM-DD') AS day, r.bet_type::text, r.wagers::text, r.handle::text, r.payouts::text, r.commission::text,
             r.customer_net::text AS net, r.wins::text, r.losses::text, r.pushes::text, r.commission_collected::text AS collected, r.theo_e12::text AS theo
      FROM wager_rollups r JOIN casino_tables t ON t.id = r.table_id
      WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}`;
    const coupRollups = await this.prisma.$queryRaw<{ table_id: string; day: string; coups: string; banker: string; player: string; tie: string; naturals: string }[]>`
      SELECT r.table_id::text, to_char(r.gaming_day, 'YYYY-MM-DD') AS day, r.coups::text, r.banker_wins::text AS banker, r.player_wins::text AS player, r.ties::text AS tie, r.naturals::text
      FROM coup_rollups r JOIN casino_tables t ON t.id = r.table_id
      WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}`;

    const tables = new Map((await this.prisma.casinoTable.findMany()).map((t) => [t.id, t]));
    const differences: ReconciliationDifferenceDto[] = [];
    const compare = (expectedByKey: Map<string, Record<string, string>>, actualByKey: Map<string, Record<string, string>>, fields: string[], hasBet: boolean) => {
      for (const key of new Set([...expectedByKey.keys(), ...actualByKey.keys()])) {
        const [tableId, gamingDay, betType] = key.split('|');
        for (const f of fields) {
          const want = expectedByKey.get(key)?.[f] ?? '0';
          const got = actualByKey.get(key)?.[f] ?? '0';
          if (BigInt(want) !== BigInt(got)) differences.push({ tableId, gamingDay, betType: hasBet ? betType : null, field: f, rollup: got, raw: want });
        }
      }
    };
    const wagerFields = ['wagers', 'handle', 'payouts', 'commission', 'net', 'wins', 'losses', 'pushes', 'collected', 'theo'];
    const expectedWagers = new Map<string, Record<string, string>>();
    for (const r of raw) {
      const edge = edgesOf(tables.get(r.table_id)!)[r.bet_type as keyof ReturnType<typeof edgesOf>] ?? 0n;
      expectedWagers.set(`${r.table_id}|${r.day}|${r.bet_type}`, { ...r, collected: '0', theo: (BigInt(r.handle) * edge).toString() });
    }
    for (const c of collected) {
      const key = `${c.table_id}|${c.day}|BANKER`;
      expectedWagers.set(key, { ...(expectedWagers.get(key) ?? {}), collected: c.amount });
    }
    compare(expectedWagers, new Map(rollups.map((r) => [`${r.table_id}|${r.day}|${r.bet_type}`, r])), wagerFields, true);
    compare(new Map(rawCoups.map((r) => [`${r.table_id}|${r.day}`, r])), new Map(coupRollups.map((r) => [`${r.table_id}|${r.day}`, r])), ['coups', 'banker', 'player', 'tie', 'naturals'], false);
    return {
      from,
      to,
      rowsChecked: rollups.length + coupRollups.length,
      wagersRecomputed: raw.reduce((n, r) => n + Number(r.wagers), 0),
      ok: differences.length === 0,
      differences,
    };
  }

  // -------------------------------------------------------------------------------------------

  /** Rollup sums grouped by the dimensions (always by currency too). */
  private async rows(groupBy: GroupBy[], from: string, to: string, propertyId?: string): Promise<Row[]> {
    const dims = [...new Set<GroupBy>([...groupBy, 'currency'])];
    const cols = dims.flatMap((d) => DIMENSIONS[d]);
    const select = Prisma.raw(cols.map(([sql, alias]) => `${sql} AS "${alias}"`).join(', '));
    const group = Prisma.raw(cols.map(([sql]) => sql).join(', '));
    const prop = propertyId ? Prisma.sql`AND t.property_id = ${propertyId}::uuid` : Prisma.empty;
    const wagerRows = await this.prisma.$queryRaw<Record<string, string>[]>`
      SELECT ${select}, sum(r.wagers)::text AS "_wagers", sum(r.handle)::text AS "_handle", sum(r.payouts)::text AS "_payouts",
             sum(r.commission)::text AS "_commission", sum(r.commission_collected)::text AS "_collected", sum(r.customer_net)::text AS "_net",
             sum(r.theo_e12)::text AS "_theo"
      FROM wager_rollups r JOIN casino_tables t ON t.id = r.table_id JOIN properties p ON p.id = t.property_id
      WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
      GROUP BY ${group}`;
    const withCoups = !dims.includes('betType');
    const out = new Map<string, Row>();
    const rowFor = (rec: Record<string, string>) => {
      const g = Object.fromEntries(cols.map(([, alias]) => [alias, rec[alias]]));
      const key = JSON.stringify(g);
      let row = out.get(key);
      if (!row) out.set(key, (row = { group: g, sums: emptySums(withCoups) }));
      return row;
    };
    for (const rec of wagerRows) {
      const s = rowFor(rec).sums;
      s.wagers += BigInt(rec._wagers);
      s.handle += BigInt(rec._handle);
      s.payouts += BigInt(rec._payouts);
      s.commission += BigInt(rec._commission);
      s.collected += BigInt(rec._collected);
      s.net += BigInt(rec._net);
      s.theoE12 += BigInt(rec._theo);
    }
    if (withCoups) {
      const probabilities = Prisma.join(PROBABILITIES.map((p) => Prisma.sql`(${p.decks}::int, ${p.banker}::numeric, ${p.player}::numeric, ${p.tie}::numeric, ${p.natural}::numeric)`));
      const coupRows = await this.prisma.$queryRaw<Record<string, string>[]>`
        SELECT ${select}, sum(r.coups)::text AS "_coups", sum(r.banker_wins)::text AS "_banker", sum(r.player_wins)::text AS "_player",
               sum(r.ties)::text AS "_tie", sum(r.naturals)::text AS "_naturals",
               round(sum(r.coups * pr.banker) * 1000000)::text AS "_expBanker", round(sum(r.coups * pr.player) * 1000000)::text AS "_expPlayer",
               round(sum(r.coups * pr.tie) * 1000000)::text AS "_expTie", round(sum(r.coups * pr.nat) * 1000000)::text AS "_expNaturals"
        FROM coup_rollups r JOIN casino_tables t ON t.id = r.table_id JOIN properties p ON p.id = t.property_id
        JOIN (VALUES ${probabilities}) AS pr(decks, banker, player, tie, nat) ON pr.decks = t.decks
        WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
        GROUP BY ${group}`;
      for (const rec of coupRows) {
        const s = rowFor(rec).sums;
        s.coups = (s.coups ?? 0n) + BigInt(rec._coups);
        s.banker += BigInt(rec._banker);
        s.player += BigInt(rec._player);
        s.tie += BigInt(rec._tie);
        s.naturals += BigInt(rec._naturals);
        s.expBanker += BigInt(rec._expBanker);
        s.expPlayer += BigInt(rec._expPlayer);
        s.expTie += BigInt(rec._expTie);
        s.expNaturals += BigInt(rec._expNaturals);
      }
    }
    const order = cols.map(([, a]) => a);
    return [...out.values()].sort((a, b) => {
      for (const k of order) {
        const c = (a.group[k] ?? '').localeCompare(b.group[k] ?? '');
        if (c) return c;
      }
      return 0;
    });
  }

  private async voidSummary(from: string, to: string, propertyId?: string) {
    const prop = propertyId ? Prisma.sql`AND t.property_id = ${propertyId}::uuid` : Prisma.empty;
    const [v] = await this.prisma.$queryRaw<{ coups: bigint; wagers: bigint; handle: string }[]>`
      SELECT count(DISTINCT c.id) AS coups, count(w.id) AS wagers, coalesce(sum(w.amount), 0)::text AS handle
      FROM coup_voids v JOIN coups c ON c.id = v.coup_id JOIN casino_tables t ON t.id = c.table_id
      LEFT JOIN wagers w ON w.coup_id = c.id AND w.status = 'SETTLED'
      WHERE c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}`;
    return { coups: Number(v.coups), wagers: Number(v.wagers), handle: Number(v.handle) };
  }
}

function totalsByCurrency(rows: Row[]): TotalsDto[] {
  const by = new Map<string, Sums>();
  for (const r of rows) {
    const c = r.group.currency;
    const acc = by.get(c) ?? emptySums(r.sums.coups !== null);
    addSums(acc, r.sums);
    by.set(c, acc);
  }
  return [...by.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([currency, s]) => ({ currency, ...figures(s) }));
}

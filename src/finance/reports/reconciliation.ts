import { AppError } from '../../platform/common/errors';
import { PrismaService } from '../../platform/database/prisma.service';
import { BetType, coupPlayDeltas, coupVariances } from '../../domain';
import { CasinoTable, Prisma } from '../../generated/prisma/client';
import { covariancesOf, edgesOf, lossesOf } from '../../foundation/pit/table-rules';
import { RangeQueryDto, ReconciliationDifferenceDto, ReconciliationDto } from './dto/report.dto';
import { parseRange } from './report-figures';

/** The reconciliation (GET /v1/reports/reconciliation): a range recomputed from the raw records, every difference from the rollups listed. */

/**
 * Recomputes the rollups of a range from the raw records (settled wagers of unvoided coups,
 * commission collections) and lists every difference. The ledgers are partitioned by gaming
 * month: a settled wager carries its coup's gaming day, and each query bounds both tables' days,
 * so that each reads the months of the range alone (test/e2e/operations/partitions.spec.ts).
 */
export async function reconcile(db: PrismaService, q: RangeQueryDto): Promise<ReconciliationDto> {
  const { from, to } = parseRange(q);
  const detached = await db.$queryRaw<{ month: string }[]>`
    SELECT to_char(month, 'YYYY-MM') AS month FROM ledger_months_detached
    WHERE month <= ${to}::date AND month >= date_trunc('month', ${from}::date)::date ORDER BY month`;
  if (detached.length) {
    throw new AppError(
      'LEDGER_MONTH_DETACHED',
      `The coups and wagers of ${detached.map((d) => d.month).join(', ')} are detached to the archive: attach them again to reconcile this range`,
    );
  }
  const prop = q.propertyId ? Prisma.sql`AND t.property_id = ${q.propertyId}::uuid` : Prisma.empty;
  type Rec = Record<string, string>;
  const raw = await db.$queryRaw<Rec[]>`
    SELECT c.table_id::text, to_char(c.gaming_day, 'YYYY-MM-DD') AS day, w.bet_type::text, count(*)::text AS wagers, sum(w.amount)::text AS handle,
           sum(w.payout)::text AS payouts, sum(w.commission)::text AS commission, sum(w.net)::text AS net,
           count(*) FILTER (WHERE w.result = 'WIN')::text AS wins, count(*) FILTER (WHERE w.result = 'LOSE')::text AS losses, count(*) FILTER (WHERE w.result = 'PUSH')::text AS pushes,
           count(*) FILTER (WHERE w.dead_chips)::text AS p_wagers, coalesce(sum(w.amount) FILTER (WHERE w.dead_chips), 0)::text AS p_handle,
           coalesce(sum(w.commission) FILTER (WHERE w.dead_chips), 0)::text AS p_commission, coalesce(sum(w.net) FILTER (WHERE w.dead_chips), 0)::text AS p_net
    FROM wagers w JOIN coups c ON c.id = w.coup_id AND c.gaming_day = w.gaming_day JOIN casino_tables t ON t.id = c.table_id
    WHERE w.status = 'SETTLED' AND w.gaming_day BETWEEN ${from}::date AND ${to}::date AND c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
      AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)
    GROUP BY 1, 2, 3`;
  const collected = await db.$queryRaw<Rec[]>`
    SELECT e.table_id::text, to_char(e.gaming_day, 'YYYY-MM-DD') AS day, (-sum(e.amount))::text AS amount
    FROM commission_entries e JOIN casino_tables t ON t.id = e.table_id
    WHERE e.kind = 'COLLECTION' AND e.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
    GROUP BY 1, 2`;
  const rawCoups = await db.$queryRaw<Rec[]>`
    SELECT c.table_id::text, to_char(c.gaming_day, 'YYYY-MM-DD') AS day, count(*)::text AS coups,
           count(*) FILTER (WHERE c.winner = 'BANKER')::text AS banker, count(*) FILTER (WHERE c.winner = 'PLAYER')::text AS player,
           count(*) FILTER (WHERE c.winner = 'TIE')::text AS tie, count(*) FILTER (WHERE c.natural)::text AS naturals
    FROM coups c JOIN casino_tables t ON t.id = c.table_id
    WHERE c.status = 'SETTLED' AND c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
      AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)
    GROUP BY 1, 2`;
  const byDayBet = await db.$queryRaw<Rec[]>`
    SELECT r.table_id::text, to_char(r.gaming_day, 'YYYY-MM-DD') AS day, r.bet_type::text, r.wagers::text, r.handle::text, r.payouts::text, r.commission::text,
           r.customer_net::text AS net, r.wins::text, r.losses::text, r.pushes::text, r.commission_collected::text AS collected, r.theo_e12::text AS theo, r.var_e12::text AS var, r.premium_wagers::text AS p_wagers, r.premium_handle::text AS p_handle,
           r.premium_commission::text AS p_commission, r.premium_customer_net::text AS p_net, r.premium_theo_e12::text AS p_theo
    FROM wager_rollups r JOIN casino_tables t ON t.id = r.table_id
    WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}`;
  const byDay = await db.$queryRaw<Rec[]>`
    SELECT r.table_id::text, to_char(r.gaming_day, 'YYYY-MM-DD') AS day, r.coups::text, r.banker_wins::text AS banker, r.player_wins::text AS player,
           r.ties::text AS tie, r.naturals::text, r.wagers::text, r.handle::text, r.payouts::text, r.commission::text, r.customer_net::text AS net,
           r.commission_collected::text AS collected, r.theo_e12::text AS theo, r.var_e12::text AS var, r.banked_coups::text AS banked, r.house_commission::text AS house,
           r.voided_coups::text, r.voided_wagers::text, r.voided_handle::text, r.premium_wagers::text AS p_wagers, r.premium_handle::text AS p_handle,
           r.premium_commission::text AS p_commission, r.premium_customer_net::text AS p_net, r.premium_theo_e12::text AS p_theo
    FROM table_day_rollups r JOIN casino_tables t ON t.id = r.table_id
    WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}`;
  const rawBanked = await db.$queryRaw<Rec[]>`
    SELECT b.table_id::text, to_char(b.gaming_day, 'YYYY-MM-DD') AS day, count(*)::text AS banked, sum(b.commission)::text AS house
    FROM bank_coups b JOIN casino_tables t ON t.id = b.table_id
    WHERE b.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop} AND NOT EXISTS (SELECT 1 FROM bank_coup_voids v WHERE v.bank_coup_id = b.id)
    GROUP BY 1, 2`;
  // Voided coups and their settled wagers, as the void summary reads them from the rollups.
  const rawVoided = await db.$queryRaw<Rec[]>`
    SELECT c.table_id::text, to_char(c.gaming_day, 'YYYY-MM-DD') AS day, count(DISTINCT c.id)::text AS voided_coups, count(w.id)::text AS voided_wagers,
           coalesce(sum(w.amount), 0)::text AS voided_handle
    FROM coup_voids v JOIN coups c ON c.id = v.coup_id JOIN casino_tables t ON t.id = c.table_id
    LEFT JOIN wagers w ON w.coup_id = c.id AND w.gaming_day = c.gaming_day AND w.gaming_day BETWEEN ${from}::date AND ${to}::date AND w.status = 'SETTLED'
    WHERE c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
    GROUP BY 1, 2`;
  // Month rollups are compared for the months lying wholly inside the range.
  const firstMonth = from.endsWith('-01') ? from : new Date(Date.UTC(Number(from.slice(0, 4)), Number(from.slice(5, 7)), 1)).toISOString().slice(0, 10);
  const lastMonthEnd = new Date(Date.UTC(Number(to.slice(0, 4)), Number(to.slice(5, 7)) - 1, Number(to.slice(8, 10)) + 1));
  const lastMonth = new Date(Date.UTC(lastMonthEnd.getUTCFullYear(), lastMonthEnd.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
  const byMonth = await db.$queryRaw<Rec[]>`
    SELECT r.table_id::text, to_char(r.month, 'YYYY-MM-DD') AS day, r.bet_type::text, r.wagers::text, r.handle::text, r.payouts::text, r.commission::text,
           r.customer_net::text AS net, r.wins::text, r.losses::text, r.pushes::text, r.commission_collected::text AS collected, r.theo_e12::text AS theo, r.var_e12::text AS var, r.premium_wagers::text AS p_wagers, r.premium_handle::text AS p_handle,
           r.premium_commission::text AS p_commission, r.premium_customer_net::text AS p_net, r.premium_theo_e12::text AS p_theo
    FROM month_rollups r JOIN casino_tables t ON t.id = r.table_id
    WHERE r.month BETWEEN ${firstMonth}::date AND ${lastMonth}::date ${prop}`;

  const tables = new Map((await db.casinoTable.findMany()).map((t) => [t.id, t]));
  // Each coup's variance again from its wagers: its stakes per bet type, one row a coup, put
  // through the table's covariances by the domain's coupVariances, as the settlement does.
  const coupStakes = await db.$queryRaw<{ table_id: string; day: string; bets: string[]; stakes: string[] }[]>`
    SELECT s.table_id::text, s.day, array_agg(s.bet_type) AS bets, array_agg(s.st::text) AS stakes
    FROM (
      SELECT w.coup_id, c.table_id, to_char(c.gaming_day, 'YYYY-MM-DD') AS day, w.bet_type::text AS bet_type, sum(w.amount) AS st
      FROM wagers w JOIN coups c ON c.id = w.coup_id AND c.gaming_day = w.gaming_day JOIN casino_tables t ON t.id = c.table_id
      WHERE w.status = 'SETTLED' AND w.gaming_day BETWEEN ${from}::date AND ${to}::date AND c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
        AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)
      GROUP BY 1, 2, 3, 4
    ) s
    GROUP BY s.coup_id, s.table_id, s.day`;
  // Premium play (the dead-chip wagers' part) beside the totals, at each table grain.
  const premiumFields = ['p_wagers', 'p_handle', 'p_commission', 'p_net', 'p_theo'];
  const moneyFields = ['wagers', 'handle', 'payouts', 'commission', 'net', 'collected', 'theo', 'var', ...premiumFields];
  const betFields = [...moneyFields, 'wins', 'losses', 'pushes'];
  const expectedDayBet = new Map<string, Record<string, bigint>>();
  const expectedDay = new Map<string, Record<string, bigint>>();
  const expectedMonth = new Map<string, Record<string, bigint>>();
  const add = (m: Map<string, Record<string, bigint>>, key: string, values: Record<string, bigint>) => {
    const acc = m.get(key) ?? {};
    for (const [k, v] of Object.entries(values)) acc[k] = (acc[k] ?? 0n) + v;
    m.set(key, acc);
  };
  const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
  const inMonths = (day: string) => monthOf(day) >= firstMonth && monthOf(day) <= lastMonth;
  for (const r of raw) {
    const edge = edgesOf(tables.get(r.table_id)!)[r.bet_type as keyof ReturnType<typeof edgesOf>] ?? 0n;
    const v: Record<string, bigint> = Object.fromEntries(
      ['wagers', 'handle', 'payouts', 'commission', 'net', 'wins', 'losses', 'pushes', 'p_wagers', 'p_handle', 'p_commission', 'p_net'].map((f) => [
        f,
        BigInt(r[f]),
      ]),
    );
    v.theo = BigInt(r.handle) * edge;
    v.p_theo = BigInt(r.p_handle) * edge;
    add(expectedDayBet, `${r.table_id}|${r.day}|${r.bet_type}`, v);
    add(expectedDay, `${r.table_id}|${r.day}`, {
      wagers: v.wagers,
      handle: v.handle,
      payouts: v.payouts,
      commission: v.commission,
      net: v.net,
      theo: v.theo,
      ...Object.fromEntries(premiumFields.map((f) => [f, v[f]])),
    });
    if (inMonths(r.day)) add(expectedMonth, `${r.table_id}|${monthOf(r.day)}|${r.bet_type}`, v);
  }
  for (const r of coupStakes) {
    const stakes = new Map(r.bets.map((b, i) => [b as BetType, BigInt(r.stakes[i])]));
    const { own, whole } = coupVariances(stakes, covariancesOf(tables.get(r.table_id)!));
    for (const [b, v] of own) {
      add(expectedDayBet, `${r.table_id}|${r.day}|${b}`, { var: v });
      if (inMonths(r.day)) add(expectedMonth, `${r.table_id}|${monthOf(r.day)}|${b}`, { var: v });
    }
    add(expectedDay, `${r.table_id}|${r.day}`, { var: whole });
  }
  for (const c of collected) {
    add(expectedDayBet, `${c.table_id}|${c.day}|BANKER`, { collected: BigInt(c.amount) });
    add(expectedDay, `${c.table_id}|${c.day}`, { collected: BigInt(c.amount) });
    if (inMonths(c.day)) add(expectedMonth, `${c.table_id}|${monthOf(c.day)}|BANKER`, { collected: BigInt(c.amount) });
  }
  const voidedFields = ['voided_coups', 'voided_wagers', 'voided_handle'];
  for (const v of rawVoided) add(expectedDay, `${v.table_id}|${v.day}`, Object.fromEntries(voidedFields.map((f) => [f, BigInt(v[f])])));
  for (const b of rawBanked) add(expectedDay, `${b.table_id}|${b.day}`, { banked: BigInt(b.banked), house: BigInt(b.house) });
  for (const c of rawCoups)
    add(expectedDay, `${c.table_id}|${c.day}`, Object.fromEntries(['coups', 'banker', 'player', 'tie', 'naturals'].map((f) => [f, BigInt(c[f])])));

  const differences: ReconciliationDifferenceDto[] = [];
  const compare = (grain: string, expected: Map<string, Record<string, bigint>>, actual: Rec[], keyOf: (r: Rec) => string, fields: string[]) => {
    const got = new Map(actual.map((r) => [keyOf(r), r]));
    for (const key of new Set([...expected.keys(), ...got.keys()])) {
      const [tableId, gamingDay, betType] = key.split('|');
      for (const f of fields) {
        const want = expected.get(key)?.[f] ?? 0n;
        const have = BigInt(got.get(key)?.[f] ?? '0');
        if (want !== have)
          differences.push({ tableId, gamingDay, betType: betType ?? null, field: `${grain}.${f}`, rollup: have.toString(), raw: want.toString() });
      }
    }
  };
  compare('byDayAndBet', expectedDayBet, byDayBet, (r) => `${r.table_id}|${r.day}|${r.bet_type}`, betFields);
  compare('byDay', expectedDay, byDay, (r) => `${r.table_id}|${r.day}`, [
    ...moneyFields,
    'coups',
    'banker',
    'player',
    'tie',
    'naturals',
    'banked',
    'house',
    ...voidedFields,
  ]);
  compare('byMonthAndBet', expectedMonth, byMonth, (r) => `${r.table_id}|${r.day}|${r.bet_type}`, betFields);
  const patronRows = await reconcilePatrons(db, from, to, prop, tables, differences);
  const limitRows = await reconcileLimits(db, from, to, prop, tables, differences);
  return {
    from,
    to,
    rowsChecked: byDayBet.length + byDay.length + byMonth.length + patronRows + limitRows,
    wagersRecomputed: raw.reduce((n, r) => n + Number(r.wagers), 0),
    ok: differences.length === 0,
    differences,
  };
}

/**
 * The limit rollups of a range recomputed from the settled wagers of unvoided coups, by the change
 * of limits each coup was under (its limits_id; none: the opening limits, seq 0); each difference is
 * added to `differences`, named by the level (`byDayAndLimits[seq].field`). Returns how many rollup
 * rows were compared.
 */
async function reconcileLimits(
  db: PrismaService,
  from: string,
  to: string,
  prop: Prisma.Sql,
  tables: Map<string, CasinoTable>,
  differences: ReconciliationDifferenceDto[],
): Promise<number> {
  type Rec = Record<string, string>;
  const bets = await db.$queryRaw<Rec[]>`
    SELECT c.table_id::text, to_char(c.gaming_day, 'YYYY-MM-DD') AS day, coalesce(l.seq, 0)::text AS seq, w.bet_type::text, count(*)::text AS wagers,
           sum(w.amount)::text AS handle, sum(w.net)::text AS net, sum(w.commission)::text AS commission
    FROM wagers w JOIN coups c ON c.id = w.coup_id AND c.gaming_day = w.gaming_day JOIN casino_tables t ON t.id = c.table_id
    LEFT JOIN table_limits l ON l.id = c.limits_id
    WHERE w.status = 'SETTLED' AND w.gaming_day BETWEEN ${from}::date AND ${to}::date AND c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
      AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)
    GROUP BY 1, 2, 3, 4`;
  const coups = await db.$queryRaw<Rec[]>`
    SELECT c.table_id::text, to_char(c.gaming_day, 'YYYY-MM-DD') AS day, coalesce(l.seq, 0)::text AS seq, count(DISTINCT c.id)::text AS coups,
           count(DISTINCT w.coup_id::text || ':' || w.seat)::text AS players
    FROM coups c JOIN casino_tables t ON t.id = c.table_id
    LEFT JOIN table_limits l ON l.id = c.limits_id
    LEFT JOIN wagers w ON w.coup_id = c.id AND w.gaming_day = c.gaming_day AND w.gaming_day BETWEEN ${from}::date AND ${to}::date AND w.status = 'SETTLED'
    WHERE c.status = 'SETTLED' AND c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
      AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)
    GROUP BY 1, 2, 3`;
  const kept = await db.$queryRaw<Rec[]>`
    SELECT r.table_id::text, to_char(r.gaming_day, 'YYYY-MM-DD') AS day, r.limits_seq::text AS seq, r.coups::text, r.players::text, r.wagers::text,
           r.handle::text, r.customer_net::text AS net, r.commission::text, r.theo_e12::text AS theo
    FROM limit_rollups r JOIN casino_tables t ON t.id = r.table_id
    WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}`;
  const expected = new Map<string, Record<string, bigint>>();
  const add = (key: string, values: Record<string, bigint>) => {
    const acc = expected.get(key) ?? {};
    for (const [k, v] of Object.entries(values)) acc[k] = (acc[k] ?? 0n) + v;
    expected.set(key, acc);
  };
  for (const r of bets) {
    const edge = edgesOf(tables.get(r.table_id)!)[r.bet_type as BetType] ?? 0n;
    add(`${r.table_id}|${r.day}|${r.seq}`, {
      wagers: BigInt(r.wagers),
      handle: BigInt(r.handle),
      net: BigInt(r.net),
      commission: BigInt(r.commission),
      theo: BigInt(r.handle) * edge,
    });
  }
  for (const c of coups) add(`${c.table_id}|${c.day}|${c.seq}`, { coups: BigInt(c.coups), players: BigInt(c.players) });
  const got = new Map(kept.map((r) => [`${r.table_id}|${r.day}|${r.seq}`, r]));
  for (const key of new Set([...expected.keys(), ...got.keys()])) {
    const [tableId, gamingDay, seq] = key.split('|');
    for (const f of ['coups', 'players', 'wagers', 'handle', 'net', 'commission', 'theo']) {
      const want = expected.get(key)?.[f] ?? 0n;
      const have = BigInt(got.get(key)?.[f] ?? '0');
      if (want !== have)
        differences.push({ tableId, gamingDay, betType: null, field: `byDayAndLimits[${seq}].${f}`, rollup: have.toString(), raw: want.toString() });
    }
  }
  return kept.length;
}

/**
 * The patron rollups of a range recomputed from the rated wagers of unvoided coups, coup by coup
 * as the settlement keeps them (domain/patrons/rating.ts coupPlayDeltas); each difference is added to
 * `differences`. Returns how many rollup rows were compared.
 */
export async function reconcilePatrons(
  db: PrismaService,
  from: string,
  to: string,
  prop: Prisma.Sql,
  tables: Map<string, CasinoTable>,
  differences: ReconciliationDifferenceDto[],
) {
  type Rec = Record<string, string> & { dead?: boolean | null };
  const rated = await db.$queryRaw<Rec[]>`
    SELECT w.coup_id::text, c.table_id::text, to_char(c.gaming_day, 'YYYY-MM-DD') AS day, w.patron_id, w.seating_id::text, w.bet_type::text,
           w.amount::text, w.net::text, w.dead_chips AS dead, w.result::text
    FROM wagers w JOIN coups c ON c.id = w.coup_id AND c.gaming_day = w.gaming_day JOIN casino_tables t ON t.id = c.table_id
    WHERE w.patron_id IS NOT NULL AND w.status = 'SETTLED' AND w.gaming_day BETWEEN ${from}::date AND ${to}::date AND c.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}
      AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)
    ORDER BY w.coup_id`;
  const keptBets = await db.$queryRaw<Rec[]>`
    SELECT r.table_id::text, to_char(r.gaming_day, 'YYYY-MM-DD') AS day, r.patron_id, r.seating_key::text AS visit, r.bet_type::text,
           r.wagers::text, r.handle::text, r.customer_net::text AS net, r.theo_e12::text AS theo,
           r.dead_wagers::text AS d_wagers, r.dead_handle::text AS d_handle, r.dead_customer_net::text AS d_net, r.dead_rolled::text AS d_rolled,
           r.dead_theo_e12::text AS d_theo, r.dead_expected_rolled_e12::text AS d_expected
    FROM patron_rollups r JOIN casino_tables t ON t.id = r.table_id
    WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}`;
  const keptCoups = await db.$queryRaw<Rec[]>`
    SELECT r.table_id::text, to_char(r.gaming_day, 'YYYY-MM-DD') AS day, r.patron_id, r.seating_key::text AS visit, r.coups::text, r.var_e12::text AS var, r.dead_var_e12::text AS d_var
    FROM patron_coup_rollups r JOIN casino_tables t ON t.id = r.table_id
    WHERE r.gaming_day BETWEEN ${from}::date AND ${to}::date ${prop}`;
  const bets = new Map<string, Record<string, bigint>>();
  const coups = new Map<string, Record<string, bigint>>();
  const add = (m: Map<string, Record<string, bigint>>, key: string, values: Record<string, bigint>) => {
    const acc = m.get(key) ?? {};
    for (const [k, v] of Object.entries(values)) acc[k] = (acc[k] ?? 0n) + v;
    m.set(key, acc);
  };
  const flush = (group: Rec[]) => {
    if (group.length === 0) return;
    const { table_id: tableId, day } = group[0];
    const table = tables.get(tableId)!;
    const d = coupPlayDeltas(
      group.map((w) => ({
        patronId: w.patron_id,
        seatingId: w.seating_id,
        betType: w.bet_type as BetType,
        amount: BigInt(w.amount),
        net: BigInt(w.net),
        dead: w.dead === true,
        result: w.result as 'WIN' | 'LOSE' | 'PUSH',
      })),
      { edgesE12: edgesOf(table), covariancesE12: covariancesOf(table), lossesE12: lossesOf(table) },
    );
    for (const b of d.bets)
      add(bets, `${tableId}|${day}|${b.betType}|${b.patronId}|${b.visit}`, {
        wagers: BigInt(b.sums.wagers),
        handle: b.sums.handle,
        net: b.sums.net,
        theo: b.sums.theoE12,
        d_wagers: BigInt(b.dead.wagers),
        d_handle: b.dead.handle,
        d_net: b.dead.net,
        d_rolled: b.dead.rolled,
        d_theo: b.dead.theoE12,
        d_expected: b.dead.expectedRolledE12,
      });
    for (const c of d.coups) add(coups, `${tableId}|${day}||${c.patronId}|${c.visit}`, { coups: 1n, var: c.varE12, d_var: c.deadVarE12 });
  };
  let group: Rec[] = [];
  for (const w of rated) {
    if (group.length && group[0].coup_id !== w.coup_id) {
      flush(group);
      group = [];
    }
    group.push(w);
  }
  flush(group);
  const compare = (grain: string, expected: Map<string, Record<string, bigint>>, actual: Rec[], keyOf: (r: Rec) => string, fields: string[]) => {
    const got = new Map(actual.map((r) => [keyOf(r), r]));
    for (const key of new Set([...expected.keys(), ...got.keys()])) {
      const [tableId, gamingDay, betType, patronId, visit] = key.split('|');
      for (const f of fields) {
        const want = expected.get(key)?.[f] ?? 0n;
        const have = BigInt(got.get(key)?.[f] ?? '0');
        if (want !== have)
          differences.push({
            tableId,
            gamingDay,
            betType: betType || null,
            field: `${grain}.${f}`,
            rollup: have.toString(),
            raw: want.toString(),
            patronId,
            visit,
          });
      }
    }
  };
  compare('byPatronVisitAndBet', bets, keptBets, (r) => `${r.table_id}|${r.day}|${r.bet_type}|${r.patron_id}|${r.visit}`, [
    'wagers',
    'handle',
    'net',
    'theo',
    'd_wagers',
    'd_handle',
    'd_net',
    'd_rolled',
    'd_theo',
    'd_expected',
  ]);
  compare('byPatronVisit', coups, keptCoups, (r) => `${r.table_id}|${r.day}||${r.patron_id}|${r.visit}`, ['coups', 'var', 'd_var']);
  return keptBets.length + keptCoups.length;
}

// -------------------------------------------------------------------------------------------

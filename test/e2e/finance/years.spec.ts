import { startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPatrons, givenPit } from '../../support/builders';
import { statementsDuring } from '../../support/statements';

/**
 * Years of records: a report of a range of gaming days must read that range, never a table that
 * holds every day in full, or it slows down as the years are kept (npm run bench:reports measures
 * it; here its plans are checked). Each statement the range reports send is captured as the service
 * sends it and explained with sequential scans switched off, so that a whole-table read shows only
 * where no index can narrow it to the range.
 */
let ctx: TestContext;
let finance: string;
let auditor: string;
let propertyId: string;
beforeAll(async () => {
  ctx = await startTestApp();
  finance = await givenKey(ctx, 'FINANCE');
  auditor = await givenKey(ctx, 'AUDITOR');
  await givenPatrons(ctx, 'Y-1');
  propertyId = (await ctx.prisma.property.findFirstOrThrow()).id;
});
afterAll(() => ctx.close());

/** Tables that take rows every gaming day and keep them: read in full, they grow with the years. */
const KEPT_BY_DAY = new Set([
  'table_sessions',
  'table_slips',
  'slip_voids',
  'commission_entries',
  'shoes',
  'coup_voids',
  'bank_coups',
  'bank_coup_voids',
  'buy_ins',
  'buy_in_voids',
  'cash_transactions',
  'markers',
  'marker_payments',
  'seatings',
  'wager_rollups',
  'table_day_rollups',
  'month_rollups',
  'patron_rollups',
  'patron_coup_rollups',
  'exchange_rates',
  'surveillance_alerts',
  'audit_log',
]);

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Index Cond'?: string; Plans?: PlanNode[] };

/** The first column of each index, by the index's name. */
async function firstColumns(): Promise<Map<string, string>> {
  const { rows } = await ctx.prisma.pool.query<{ index: string; col: string }>(
    `SELECT c.relname AS index, a.attname AS col FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'`,
  );
  return new Map(rows.map((r) => [r.index, r.col]));
}

/**
 * The tables of KEPT_BY_DAY a statement reads in full: by a sequential scan, or through an index
 * with no condition on the index's first column (a walk of the whole index).
 */
async function readInFull(sql: string, values: unknown[], first: Map<string, string>): Promise<string[]> {
  const client = await ctx.prisma.pool.connect();
  let plan: PlanNode;
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL enable_seqscan = off');
    const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) ${sql}`, values);
    plan = rows[0]['QUERY PLAN'][0].Plan;
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
  const narrowed = (n: PlanNode) => !!n['Index Name'] && !!n['Index Cond'] && n['Index Cond'].includes(`(${first.get(n['Index Name']) ?? '?'} `);
  const found: string[] = [];
  const walk = (n: PlanNode) => {
    const table = n['Relation Name'];
    if (table && KEPT_BY_DAY.has(table)) {
      const type = n['Node Type'];
      if (type === 'Seq Scan') found.push(`${table} (sequential scan)`);
      else if ((type === 'Index Scan' || type === 'Index Only Scan') && !narrowed(n)) found.push(`${table} (all of ${n['Index Name']})`);
      else if (type === 'Bitmap Heap Scan' && !(n.Plans ?? []).every((c) => c['Node Type'] !== 'Bitmap Index Scan' || narrowed(c)))
        found.push(`${table} (bitmap of all)`);
    }
    for (const c of n.Plans ?? []) walk(c);
  };
  walk(plan);
  return found;
}

it('no range report reads a table of every gaming day in full: each reads its range through an index', async () => {
  const { terminal, shoe } = await givenPit(ctx);
  const coup = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, {
    cards: { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] },
    wagers: [
      { seat: 1, betType: 'BANKER', amount: 1000, patronId: 'Y-1' },
      { seat: 2, betType: 'PLAYER', amount: 500 },
    ],
  });
  expect(coup.status).toBe(201);
  expect((await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/close`, {})).status).toBe(200);
  const day = coup.body.gamingDay as string;
  const [from, to] = [`${day.slice(0, 7)}-01`, day];
  const quarter = Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1;
  const reports = [
    `/v1/reports/quarterly?year=${day.slice(0, 4)}&quarter=${quarter}`,
    `/v1/reports/win-loss?from=${from}&to=${to}&groupBy=table,gamingDay`,
    `/v1/reports/win-loss?from=${from}&to=${to}&groupBy=property,betType`,
    `/v1/reports/table-accounting?from=${from}&to=${to}`,
    `/v1/reports/reconciliation?from=${from}&to=${to}`,
    `/v1/reports/drop-reconciliation?propertyId=${propertyId}&from=${from}&to=${to}`,
  ];
  // Read by the auditor (finance may not read patrons or the cash report).
  const audited = [`/v1/reports/top-patrons?from=${from}&to=${to}`, `/v1/compliance/cash-report?propertyId=${propertyId}&from=${from}&to=${to}`];
  const first = await firstColumns();
  const answers: Record<string, number> = {};
  const statements = await statementsDuring(async () => {
    for (const r of reports) answers[r] = (await ctx.as(finance).get(r)).status;
    for (const r of audited) answers[r] = (await ctx.as(auditor).get(r)).status;
  });
  expect(answers).toEqual(Object.fromEntries([...reports, ...audited].map((r) => [r, 200])));
  const reads = statements.filter((s) => /^\s*(WITH|SELECT)\b/i.test(s.text) && !/\bpg_|information_schema/.test(s.text));
  expect(reads.length).toBeGreaterThan(reports.length);
  const whole: { sql: string; tables: string[] }[] = [];
  for (const s of reads) {
    const tables = await readInFull(s.text, s.values, first);
    if (tables.length) whole.push({ sql: s.text.replace(/\s+/g, ' ').slice(0, 140), tables });
  }
  expect(whole).toEqual([]);
});

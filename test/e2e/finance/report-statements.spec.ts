import fs from 'node:fs';
import path from 'node:path';
import { seedQuarter } from '../../../bench/seed-quarter';
import { startTestApp, TestContext } from '../../support/app';
import { givenKey } from '../../support/builders';
import { statementsDuring } from '../../support/statements';

/**
 * Every statement the reports send, and the shape of its plan, for a seeded quarter: kept in
 * src/finance/reports/queries/<report>.sql, one file per report file of src/finance/reports/, as a reviewer reads
 * them. A change to a statement, or to how PostgreSQL runs it (a scan that became sequential, a
 * partition read that was not, a join order), fails here until the files are written again with
 * `QUERIES=write npx jest test/e2e/finance/report-statements.spec.ts` and the difference is committed,
 * where a reviewer sees it.
 *
 * The quarter is bench/seed-quarter.ts's (seeded: the same rows every run), small enough that
 * ANALYZE reads every row, so the statistics, and the plans, are the same every run.
 */
const QUERIES = path.join(__dirname, '..', '..', '..', 'src', 'finance', 'reports', 'queries');
const WRITE = process.env.QUERIES === 'write';

const Q = { from: '2026-04-01', to: '2026-06-30', month: ['2026-05-01', '2026-05-31'] } as const;

/** The requests each report file answers, by the file. */
const REPORTS: Record<string, { title: string; url: string }[]> = {
  'win-loss': [
    { title: 'the quarter, no grouping', url: `/v1/reports/win-loss?from=${Q.from}&to=${Q.to}` },
    { title: 'by table and gaming day', url: `/v1/reports/win-loss?from=${Q.from}&to=${Q.to}&groupBy=table,gamingDay` },
    { title: 'by pit, variant and bet type', url: `/v1/reports/win-loss?from=${Q.from}&to=${Q.to}&groupBy=pit,variant,betType` },
    { title: 'by table and bet type, as CSV', url: `/v1/reports/win-loss.csv?from=${Q.from}&to=${Q.to}&groupBy=table,betType` },
  ],
  quarterly: [{ title: 'the quarterly statement', url: '/v1/reports/quarterly?year=2026&quarter=2' }],
  'table-accounting-report': [{ title: 'the quarter', url: `/v1/reports/table-accounting?from=${Q.from}&to=${Q.to}` }],
  reconciliation: [{ title: 'a month', url: `/v1/reports/reconciliation?from=${Q.month[0]}&to=${Q.month[1]}` }],
  'limit-levels': [{ title: 'the quarter', url: `/v1/reports/limit-levels?from=${Q.from}&to=${Q.to}` }],
  pace: [
    { title: 'the quarter', url: `/v1/reports/pace?from=${Q.from}&to=${Q.to}` },
    { title: "a pit's commission tables for a month", url: `/v1/reports/pace?from=${Q.month[0]}&to=${Q.month[1]}&pit=Pit%201&variant=COMMISSION` },
  ],
  // {property}: the seeded quarter's property, found once it is seeded.
  yield: [
    { title: "the quarter's advice", url: `/v1/reports/yield-advice?propertyId={property}&from=${Q.from}&to=${Q.to}` },
    {
      title: 'the quarter, its last four weeks held back',
      url: `/v1/reports/yield-evaluation?propertyId={property}&from=${Q.from}&to=${Q.to}&holdBackWeeks=4`,
    },
  ],
};
let property = '';

let ctx: TestContext;
let finance: string;
beforeAll(async () => {
  ctx = await startTestApp();
  finance = await givenKey(ctx, 'FINANCE');
  await seedQuarter(ctx.databaseUrl, { wagers: 12_000, tables: 6, year: 2026, quarter: 2, maxMinutes: 5, progress: false, patrons: 40 });
  await ctx.prisma.pool.query('VACUUM ANALYZE');
  property = (await ctx.prisma.pool.query<{ id: string }>('SELECT property_id::text AS id FROM casino_tables GROUP BY 1 ORDER BY count(*) DESC LIMIT 1'))
    .rows[0].id;
}, 180_000);
afterAll(() => ctx?.close());

/** Statements that are not the report's own: who is calling, transactions, the audit of the read. */
const NOT_THE_REPORTS =
  /^\s*(BEGIN|COMMIT|ROLLBACK|SET|SAVEPOINT|RELEASE|INSERT|UPDATE|DELETE|SELECT pg_advisory|SELECT 1\b)|\bFROM api_keys\b|\baudit_heads\b/i;

/** A plan's shape: each node's type, join type, relation and index, indented by depth; no costs, rows or timings. */
function shapeOf(node: Record<string, unknown>, depth = 0): string[] {
  const parts = [
    node['Node Type'],
    node['Join Type'],
    node['Parent Relationship'] === 'InitPlan' ? '(init plan)' : null,
    node['Relation Name'],
    node['Index Name'],
  ]
    .filter((p) => typeof p === 'string' && p.length > 0)
    .map((p) => (p === node['Index Name'] ? `using ${String(p)}` : String(p)));
  const children = (node.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [`${'  '.repeat(depth)}${parts.join(' ')}`, ...children.flatMap((c) => shapeOf(c, depth + 1))];
}

async function planShape(text: string, values: unknown[]): Promise<string[]> {
  // A report streamed as it is read (COPY (…) TO STDOUT) is planned as its query.
  const copied = /^\s*COPY\s*\(([\s\S]*)\)\s*TO\s+STDOUT\b[\s\S]*$/i.exec(text);
  if (copied) text = copied[1];
  const { rows } = await ctx.prisma.pool.query<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>(`EXPLAIN (FORMAT JSON) ${text}`, values);
  return shapeOf(rows[0]['QUERY PLAN'][0].Plan);
}

/** A statement as kept: its text with trailing spaces and blank lines dropped. */
const tidy = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.length > 0)
    .join('\n');

async function snapshotOf(report: string, major: string): Promise<string> {
  const out = [
    `-- Generated by test/e2e/finance/report-statements.spec.ts (QUERIES=write): every statement src/finance/reports/${report}.ts`,
    '-- sends for the requests below, on a seeded quarter (bench/seed-quarter.ts, 2026 Q2), each with the shape',
    `-- of its plan on PostgreSQL ${major}. Do not edit: a change to a statement or its plan shows here as a difference to review.`,
  ];
  for (const { title, url: template } of REPORTS[report]) {
    const url = template.replace('{property}', property);
    let status = 0;
    const sent = await statementsDuring(async () => {
      status = (await ctx.as(finance).get(url)).status;
    });
    expect({ url, status }).toEqual({ url, status: 200 });
    // Statements a report sends side by side arrive in any order: kept in the order of their text.
    const own = sent.filter((s) => !NOT_THE_REPORTS.test(s.text)).sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
    expect({ url, statements: own.length > 0 }).toEqual({ url, statements: true });
    out.push('', `-- ${title}: GET ${template.replace(/^\/v1/, '')}`);
    for (const [i, s] of own.entries()) {
      out.push('', `-- statement ${i + 1} of ${own.length}, plan:`, ...(await planShape(s.text, s.values)).map((l) => `--   ${l}`), `${tidy(s.text)};`);
    }
  }
  return out.join('\n') + '\n';
}

describe('the reports’ statements and plans, as committed in src/finance/reports/queries/', () => {
  for (const report of Object.keys(REPORTS)) {
    it(`${report}.ts`, async () => {
      const file = path.join(QUERIES, `${report}.sql`);
      const { rows } = await ctx.prisma.pool.query<{ major: string }>(`SELECT split_part(current_setting('server_version'), '.', 1) AS major`);
      const now = await snapshotOf(report, rows[0].major);
      if (WRITE) {
        fs.mkdirSync(QUERIES, { recursive: true });
        fs.writeFileSync(file, now);
      }
      const kept = fs.readFileSync(file, 'utf8');
      // Plans are PostgreSQL's own: on another major version than the files were written on (the
      // embedded server, say), only the statements are compared.
      const plansOf = /of its plan on PostgreSQL (\d+)\./.exec(kept)?.[1];
      const statementsOnly = (t: string) => t.replace(/of its plan on PostgreSQL \d+\./, '').replace(/^-- {3}.*\n/gm, '');
      // The monthly partitions a plan scans are those made so far ahead of today: a month more
      // appears as the calendar turns, so a run of them is compared as one line.
      const months = (t: string) =>
        t
          .replace(/\b(\w+?)_20\d\d_\d\d\b/g, '$1_<month>')
          .split('\n')
          .filter((line, i, all) => !(line.includes('_<month>') && line === all[i - 1]))
          .join('\n');
      if (plansOf === rows[0].major) expect(months(now)).toBe(months(kept));
      else expect(statementsOnly(now)).toBe(statementsOnly(kept));
    }, 60_000);
  }

  it('keeps a file for every report file of src/finance/reports/ that sends SQL, and none for another', () => {
    const kept = fs.readdirSync(QUERIES).map((f) => f.replace(/\.sql$/, ''));
    expect(kept.sort()).toEqual(Object.keys(REPORTS).sort());
    const reportFiles = fs
      .readdirSync(path.join(QUERIES, '..'))
      .filter((f) => f.endsWith('.ts') && /\$queryRaw|\.query[<(]/.test(fs.readFileSync(path.join(QUERIES, '..', f), 'utf8')))
      .map((f) => f.replace(/\.ts$/, ''));
    expect(reportFiles.sort()).toEqual(Object.keys(REPORTS).sort());
  });
});

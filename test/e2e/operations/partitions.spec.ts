import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { attachLedgerMonth, detachLedgerMonth, ensureLedgerMonths, ledgerMonths } from '../../../src/platform/database/ledger-months';
import { pgRunner } from '../../../src/platform/database/sql';
import { PIT_SQL } from '../../../src/foundation/pit/pit-sql';
import { startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPit, givenVoid } from '../../support/builders';
import { serviceUrl, withClient } from '../../support/database';
import { statementsDuring } from '../../support/statements';

/**
 * The ledgers partitioned by gaming month (issue 20; prisma/migrations/20261130090000_ledger_partitions).
 * Open rows (a coup taking bets, a bet not yet settled) have no gaming day and sit in the open
 * partitions; a settled row sits in its month's. What is checked here is what that must buy: each
 * statement reads the partitions it needs and no other (on its real plan, with its real values),
 * and a month leaves the ledgers for the archive and comes back with nothing lost.
 */
let ctx: TestContext;
let finance: string;
let auditor: string;
beforeAll(async () => {
  ctx = await startTestApp();
  finance = await givenKey(ctx, 'FINANCE');
  auditor = await givenKey(ctx, 'AUDITOR');
});
afterAll(() => ctx.close());

const TIE = { player: ['KS', '6D'], banker: ['3H', '2C', 'AS'] }; // 6–6
const BANKER_7 = { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] };
const PLAYER_9 = { player: ['9S', 'KD'], banker: ['8H', 'KC'] };

/** The tables a statement's plan reads (partitions by their own names), and the indexes it uses. */
async function planOf(sql: string, values: unknown[] = []): Promise<{ relations: string[]; indexes: string[] }> {
  const { rows } = await ctx.prisma.pool.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, values);
  const text = JSON.stringify(rows[0]['QUERY PLAN']);
  const names = (key: string) => [...new Set([...text.matchAll(new RegExp(`"${key}":"(\\w+)"`, 'g'))].map((m) => m[1]))].sort();
  return { relations: names('Relation Name'), indexes: names('Index Name') };
}

/** A statement that reads coups or wagers (not a rollup's column of that name). */
const READS_LEDGER = /\b(FROM|JOIN)\s+"?(public"?\."?)?"?(coups|wagers)"?\s/i;
const ledgerPartitions = (relations: string[]) => relations.filter((r) => /^(coups|wagers)_/.test(r));
const suffixOf = (day: string) => day.slice(0, 7).replace('-', '_');

/** A settled tie carrying a bet, a coup opened for betting and dealt, and one more coup voided: every way a row reaches the ledgers. */
async function playADay() {
  const { terminal, supervisor, shoe, table } = await givenPit(ctx, { tieBetsStay: true });
  const second = await givenKey(ctx, 'SUPERVISOR');
  const tie = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: TIE, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] });
  expect(tie.status).toBe(201);
  const betting = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { wagers: [{ seat: 2, betType: 'PLAYER', amount: 500 }] });
  expect(betting.body.status).toBe('BETTING');
  const dealt = await ctx.as(terminal).post(`/v1/coups/${betting.body.id}/cards`, PLAYER_9);
  expect(dealt.status).toBe(200);
  const voided = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 3, betType: 'BANKER', amount: 700 }] });
  await givenVoid(ctx, 'coups', voided.body.id, 'Misdeal seen on camera', supervisor, second);
  const carried = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: TIE, wagers: [{ seat: 4, betType: 'PLAYER', amount: 300 }] });
  expect(carried.body.carriedForward).toHaveLength(1);
  return { table, shoe, day: tie.body.gamingDay as string, coups: [tie.body, dealt.body, voided.body, carried.body] };
}

describe('each row sits in its own partition', () => {
  it('settled coups and wagers in their month, open ones (a carried bet) in the open partition; settling moved the betting coup and its bets', async () => {
    const { day, coups } = await playADay();
    const { rows } = await ctx.prisma.pool.query<{ part: string; status: string }>(
      `SELECT tableoid::regclass::text AS part, status::text FROM coups WHERE id = ANY($1::uuid[])
       UNION ALL SELECT tableoid::regclass::text, status::text FROM wagers WHERE coup_id = ANY($1::uuid[]) OR carried_from_id IN (SELECT id FROM wagers WHERE coup_id = ANY($1::uuid[]))
       ORDER BY 1, 2`,
      [coups.map((c) => c.id)],
    );
    const month = suffixOf(day);
    expect(rows).toEqual([
      ...coups.map(() => ({ part: `coups_${month}`, status: 'SETTLED' })),
      // a bet on each coup, and the tie's carried bet, settled on the coup dealt after betting
      ...[1, 2, 3, 4, 5].map(() => ({ part: `wagers_${month}`, status: 'SETTLED' })),
      { part: 'wagers_open', status: 'OPEN' },
    ]);
  });
});

describe('each statement reads the partitions it needs', () => {
  it("the coup path's lookups of open rows read the open partition alone, through its index of a shoe's open wagers", async () => {
    const { shoe } = await playADay();
    const [{ name }] = (
      await ctx.prisma.pool.query<{ name: string }>(
        `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'wagers_open' AND indexdef ~ '\\(shoe_id\\) WHERE'`,
      )
    ).rows;
    const client = await ctx.prisma.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off'); // a small test table still shows which index can serve
      for (const sql of [PIT_SQL.readShoe.text]) {
        const { rows } = await client.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, [shoe.id]);
        const text = JSON.stringify(rows[0]['QUERY PLAN']);
        expect([...new Set([...text.matchAll(/"Relation Name":"(wagers\w*)"/g)].map((m) => m[1]))]).toEqual(['wagers_open']);
        expect(text).toContain(`"Index Name":"${name}"`);
      }
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });

  it("every statement the reconciliation of a month sends reads that month's coups and wagers and no other partition", async () => {
    const { day } = await playADay();
    const month = suffixOf(day);
    const [from, to] = [`${day.slice(0, 7)}-01`, new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)), 0)).toISOString().slice(0, 10)];
    let answer: { status: number; body: { differences: unknown[] } } | undefined;
    const statements = await statementsDuring(async () => {
      answer = await ctx.as(finance).get(`/v1/reports/reconciliation?from=${from}&to=${to}`);
    });
    expect(answer?.status).toBe(200);
    expect(answer?.body.differences).toEqual([]);
    const ledgerStatements = statements.filter((s) => READS_LEDGER.test(s.text));
    expect(ledgerStatements.length).toBeGreaterThanOrEqual(5); // settled wagers, coups, voided coups, variance, rated play
    for (const s of ledgerStatements) {
      const read = ledgerPartitions((await planOf(s.text, s.values)).relations);
      const sql = s.text.replace(/\s+/g, ' ').slice(0, 160);
      expect({ sql, others: read.filter((r) => r !== `coups_${month}` && r !== `wagers_${month}`) }).toEqual({ sql, others: [] });
      expect({ sql, read: read.length > 0 }).toEqual({ sql, read: true });
    }
  });

  it('a quarter reads its three months; the win/loss statement, read from rollups, reads no ledger at all', async () => {
    const { rows } = await ctx.prisma.pool.query<{ m: string }>(`SELECT to_char(date_trunc('quarter', current_date), 'YYYY-MM-DD') AS m`);
    const first = rows[0].m;
    const last = (
      await ctx.prisma.pool.query<{ d: string }>(
        `SELECT to_char(date_trunc('quarter', current_date) + interval '3 months' - interval '1 day', 'YYYY-MM-DD') AS d`,
      )
    ).rows[0].d;
    const plan = await planOf(
      `SELECT count(*) FROM wagers w JOIN coups c ON c.id = w.coup_id AND c.gaming_day = w.gaming_day
                               WHERE w.gaming_day BETWEEN $1::date AND $2::date AND c.gaming_day BETWEEN $1::date AND $2::date`,
      [first, last],
    );
    const months = [0, 1, 2].map((i) => suffixOf(new Date(Date.UTC(Number(first.slice(0, 4)), Number(first.slice(5, 7)) - 1 + i, 1)).toISOString()));
    expect(ledgerPartitions(plan.relations)).toEqual([...months.map((m) => `coups_${m}`), ...months.map((m) => `wagers_${m}`)]);

    const winLoss = await statementsDuring(async () => {
      expect((await ctx.as(finance).get(`/v1/reports/win-loss?from=${first}&to=${last}&groupBy=table,betType`)).status).toBe(200);
    });
    expect(winLoss.length).toBeGreaterThan(0);
    expect(winLoss.filter((s) => READS_LEDGER.test(s.text)).map((s) => s.text.slice(0, 80))).toEqual([]);
    // The quarterly statement lists the quarter's voids: the quarter's months, and the open
    // partition for coups cancelled before their cards.
    const quarterly = await statementsDuring(async () => {
      expect(
        (await ctx.as(finance).get(`/v1/reports/quarterly?year=${first.slice(0, 4)}&quarter=${Math.floor(Number(first.slice(5, 7)) / 3) + 1}`)).status,
      ).toBe(200);
    });
    const allowed = new Set([...months.flatMap((m) => [`coups_${m}`, `wagers_${m}`]), 'coups_open']);
    const ledgerStatements = quarterly.filter((s) => READS_LEDGER.test(s.text));
    expect(ledgerStatements.length).toBeGreaterThan(0);
    for (const s of ledgerStatements) {
      const sql = s.text.replace(/\s+/g, ' ').slice(0, 160);
      const read = ledgerPartitions((await planOf(s.text, s.values)).relations);
      expect({ sql, others: read.filter((r) => !allowed.has(r)) }).toEqual({ sql, others: [] });
    }
  });
});

it('the wagers hold no index entry by shoe for a settled wager, nor by carried wager for one that carries none', async () => {
  const { rows } = await ctx.prisma.pool.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE tablename = 'wagers' AND indexdef ~ '(shoe_id|carried_from_id)' ORDER BY 1`,
  );
  // Defined on the partitioned table: each partition holds its own, and a month's leave with it.
  expect(rows).toEqual([
    { name: 'wagers_carried_from_id_idx', def: expect.stringMatching(/INDEX .* ONLY .* \(carried_from_id\) WHERE \(carried_from_id IS NOT NULL\)$/) },
    { name: 'wagers_open_by_shoe_idx', def: expect.stringMatching(/INDEX .* ONLY .* \(shoe_id\) WHERE \(status = 'OPEN'::"WagerStatus"\)$/) },
  ]);
});

describe('months ahead, kept by the service', () => {
  it('this month and the next three exist; the service creates a missing month but may neither detach nor drop one', async () => {
    const months = (await ledgerMonths(pgRunner(ctx.prisma.pool))).filter((m) => m.state === 'ATTACHED').map((m) => m.month);
    const { rows } = await ctx.prisma.pool.query<{ m: string }>(
      `SELECT to_char(current_date + make_interval(months => i), 'YYYY-MM') AS m FROM generate_series(0, 3) i`,
    );
    expect(months).toEqual(expect.arrayContaining(rows.map((r) => r.m)));

    await withClient(serviceUrl(ctx.databaseUrl), async (service) => {
      const far = new Date(Date.UTC(2031, 0, 15));
      const outcomes = await ensureLedgerMonths(pgRunner(service), far);
      expect(outcomes.find((o) => o.month === '2031-01')).toEqual({ month: '2031-01', outcome: 'created' });
      expect((await ensureLedgerMonths(pgRunner(service), far)).find((o) => o.month === '2031-01')?.outcome).toBe('exists');
      await expect(detachLedgerMonth(pgRunner(service), '2031-01')).rejects.toThrow(/permission denied/);
      await expect(service.query('DROP TABLE wagers_2031_01')).rejects.toThrow(/must be owner/);
      await expect(service.query('TRUNCATE wagers_2031_01')).rejects.toThrow(/permission denied/);
    });
  });

  it('a month is written YYYY-MM; a month with no partition, or not detached, is refused with what is wrong', async () => {
    const owner = pgRunner(ctx.prisma.pool);
    await expect(detachLedgerMonth(owner, '2026-13')).rejects.toThrow('A month is written YYYY-MM');
    await expect(detachLedgerMonth(owner, '1999-01')).rejects.toThrow('the ledgers hold no partition for 1999-01');
    await expect(attachLedgerMonth(owner, '2031-01')).rejects.toThrow('2031-01 is not a detached month');
  });
});

describe('npm run ledger', () => {
  const cli = (...args: string[]) =>
    promisify(execFile)(process.execPath, [path.join(__dirname, '../../../dist/src/server/ledger.cli.js'), ...args], {
      env: { ...process.env, DATABASE_URL: ctx.databaseUrl },
    }).then(
      (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
    );

  it('lists the months, says what is wrong with a bad one (exit 1), and shows its usage when called wrongly (exit 2)', async () => {
    const { rows } = await ctx.prisma.pool.query<{ m: string }>(`SELECT to_char(current_date, 'YYYY-MM') AS m`);
    const months = await cli('months');
    expect(months.code).toBe(0);
    expect(months.out).toMatch(new RegExp(`${rows[0].m}.*ATTACHED`));
    expect(await cli('detach', '2026-13')).toMatchObject({ code: 1, err: expect.stringContaining('A month is written YYYY-MM, e.g. 2026-01: not "2026-13"') });
    expect(await cli('detach')).toMatchObject({
      code: 2,
      err: expect.stringContaining('Usage: DATABASE_URL=postgres://… npm run ledger -- months | detach YYYY-MM | attach YYYY-MM'),
    });
  });
});

describe('a month detached to the archive and attached again for an audit', () => {
  it('a detach behind a long read of the ledgers gives up on the lock rather than queue the pit behind it, and changes nothing', async () => {
    const { day } = await playADay();
    const month = day.slice(0, 7);
    await withClient(ctx.databaseUrl, async (report) => {
      await report.query('BEGIN');
      await report.query('SELECT count(*) FROM wagers'); // a report's read, still open: it holds the ledgers' lock
      await expect(detachLedgerMonth(pgRunner(ctx.prisma.pool), month)).rejects.toThrow('canceling statement due to lock timeout');
      await report.query('ROLLBACK');
    });
    expect((await ledgerMonths(pgRunner(ctx.prisma.pool))).find((m) => m.month === month)?.state).toBe('ATTACHED');
    const { rows } = await ctx.prisma.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ledger_archive_steps WHERE month = $1::date`, [`${month}-01`]);
    expect(rows[0].n).toBe('0');
  });

  it('the reports stand on the rollups, the reconciliation waits for the month, the audit trail holds, and nothing is lost', async () => {
    // The month the pit is dealing in: nothing is dealt here while it is away.
    const { day, coups } = await playADay();
    const month = day.slice(0, 7);
    const rollupsBefore = (await ctx.as(finance).get(`/v1/reports/win-loss?from=${day}&to=${day}&groupBy=table,betType`)).body;
    const counts = async () =>
      (
        await ctx.prisma.pool.query<{ coups: string; wagers: string }>(
          `SELECT (SELECT count(*) FROM coups WHERE gaming_day = $1::date) AS coups, (SELECT count(*) FROM wagers WHERE gaming_day = $1::date) AS wagers`,
          [day],
        )
      ).rows[0];
    const before = await counts();
    expect(Number(before.wagers)).toBeGreaterThan(0);

    const owner = pgRunner(ctx.prisma.pool);
    await detachLedgerMonth(owner, month);
    expect(await counts()).toEqual({ coups: '0', wagers: '0' });
    const listed = (await ledgerMonths(owner)).find((m) => m.month === month);
    expect(listed).toMatchObject({ state: 'DETACHED', detachedCoups: expect.any(String), detachedWagers: expect.any(String) });
    expect(Number(listed!.detachedWagers)).toBeGreaterThanOrEqual(Number(before.wagers));

    // Finance's statements do not move: they read the rollups.
    expect((await ctx.as(finance).get(`/v1/reports/win-loss?from=${day}&to=${day}&groupBy=table,betType`)).body).toEqual(rollupsBefore);
    // The reconciliation, which recomputes from the raw rows, says why it cannot.
    const refused = await ctx.as(finance).get(`/v1/reports/reconciliation?from=${day}&to=${day}`);
    expect([refused.status, refused.body.code]).toEqual([409, 'LEDGER_MONTH_DETACHED']);
    expect(refused.body.message).toContain(month);
    // The auditor's verification counts the archived rows as the archive recorded them, and checks them against the chain.
    expect((await ctx.as(auditor).get('/v1/audit/verify')).body).toMatchObject({ ok: true });
    // The detached partitions refuse change as the ledgers do.
    const suffix = suffixOf(day);
    await expect(ctx.prisma.pool.query(`UPDATE wagers_${suffix} SET net = 0`)).rejects.toThrow('UPDATE on wagers_' + suffix);
    await expect(ctx.prisma.pool.query(`DELETE FROM coups_${suffix}`)).rejects.toThrow('DELETE on coups_' + suffix);
    // A coup of the month is not found while it is away.
    expect((await ctx.as(auditor).get(`/v1/coups/${coups[0].id}`)).status).toBe(404);

    await attachLedgerMonth(owner, month);
    expect(await counts()).toEqual(before);
    expect((await ledgerMonths(owner)).find((m) => m.month === month)?.state).toBe('ATTACHED');
    const rec = await ctx.as(finance).get(`/v1/reports/reconciliation?from=${day}&to=${day}`);
    expect([rec.status, rec.body.differences]).toEqual([200, []]);
    expect((await ctx.as(auditor).get('/v1/audit/verify')).body).toMatchObject({ ok: true });
    expect((await ctx.as(auditor).get(`/v1/coups/${coups[0].id}`)).body.id).toBe(coups[0].id);
    // Back in the ledgers, the month's rows are history again.
    await expect(ctx.prisma.pool.query(`DELETE FROM wagers WHERE gaming_day = $1::date`, [day])).rejects.toThrow('DELETE on wagers');
  });

  it('a month archived whose rows were then cut is seen by the verification: the archive held fewer wagers than the chain settled', async () => {
    const { day } = await playADay();
    const month = day.slice(0, 7);
    const suffix = suffixOf(day);
    const owner = pgRunner(ctx.prisma.pool);
    // The superuser cuts a wager behind the triggers, then archives the month: the archive records what is left.
    await withClient(ctx.databaseUrl, async (su) => {
      await su.query('SET session_replication_role = replica');
      await su.query(`DELETE FROM wagers_${suffix} WHERE id = (SELECT id FROM wagers_${suffix} LIMIT 1)`);
    });
    await detachLedgerMonth(owner, month);
    try {
      const res = await ctx.as(auditor).get('/v1/audit/verify');
      expect(res.body.ok).toBe(false);
      expect(JSON.stringify(res.body)).toContain(
        `ledger_archive_steps ${month}: the month detached to the archive holds other wagers than the audit log settled in it`,
      );
    } finally {
      await attachLedgerMonth(owner, month);
    }
  });
});

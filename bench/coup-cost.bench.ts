/**
 * npm run bench:coup-cost — what one whole coup costs, build against build, side by side in one run:
 * the service's CPU, the PostgreSQL transactions it takes, the rows it writes and the WAL bytes it
 * makes, per coup. Unlike coups a second, these hardly move with a neighbour's load, so they say what
 * a change did to the work a coup takes.
 *
 * SERVICE_DIRS: the checkouts whose builds run, comma-separated (default: this one), in alternating
 * rounds (ROUNDS, default 3). Each round of each build: a fresh, empty database the service migrates
 * itself at its start (so a build of another commit runs on its own schema), TERMINALS terminals
 * (default 4) with a table and a shoe each, a warm-up, then COUPS whole coups of 8 wagers each from
 * real shuffled shoes (the same for every build), the terminals in parallel.
 */
import { Client } from 'pg';
import { withClient } from './bench-db';
import { dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../src/domain';
import { benchTerminal, jsonPoster, processCpuMs, startServiceProcess } from './service-process';
import { machine, writeJson } from './stats';

const DIRS = (process.env.SERVICE_DIRS ?? process.cwd()).split(',').filter(Boolean);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const TERMINALS = Number(process.env.TERMINALS ?? 4);
const COUPS = Number(process.env.COUPS ?? 800);
const ADMIN = 'bench-admin-key-0123456789abcdef0123456789';
const BETS = ['BANKER', 'PLAYER', 'BANKER', 'TIE', 'PLAYER_PAIR', 'BANKER_PAIR', 'DRAGON_7', 'PANDA_8'];
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DB = 'sabot_bench_coup_cost';

interface Cost {
  dir: string;
  round: number;
  serviceCpuMs: number;
  transactions: number;
  rowsWritten: number;
  walBytes: number;
}

const admin = <T>(fn: (c: Client) => Promise<T>, url = ADMIN_URL) => withClient(url, fn);

/** The database's counters: transactions committed, rows written, and the WAL position. */
async function counters(url: string): Promise<{ xacts: number; rows: number; wal: string }> {
  // An idle backend reports its counters within 10 s (PostgreSQL 15's PGSTAT_IDLE_INTERVAL).
  await new Promise((r) => setTimeout(r, 11_000));
  return admin(async (c) => {
    const { rows } = await c.query<{ xacts: string; rows: string; wal: string }>(
      `SELECT xact_commit::text AS xacts, (tup_inserted + tup_updated + tup_deleted)::text AS rows, pg_current_wal_lsn()::text AS wal
       FROM pg_stat_database WHERE datname = current_database()`,
    );
    return { xacts: Number(rows[0].xacts), rows: Number(rows[0].rows), wal: rows[0].wal };
  }, url);
}

async function measure(dir: string, round: number): Promise<Cost> {
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${DB}"`);
  });
  const u = new URL(ADMIN_URL);
  u.pathname = `/${DB}`;
  const url = u.toString();
  const service = await startServiceProcess({ DATABASE_URL: url, ADMIN_API_KEY: ADMIN, DB_POOL_SIZE: '16', SURVEILLANCE: 'off' }, dir);
  const http = jsonPoster(TERMINALS * 2);
  const post = async (key: string, p: string, body: unknown) => {
    const res = await http(service.base + p, key, body);
    if (res.status >= 400) throw new Error(`${p}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };
  try {
    const terminals: { key: string; tableId: string; shoeId: string; cards: number[]; pos: number; random: () => number }[] = [];
    for (let i = 0; i < TERMINALS; i++) {
      const { tableId, key } = await benchTerminal(post, ADMIN, `C-${i}`);
      terminals.push({ key, tableId, shoeId: '', cards: [], pos: 1e9, random: seededRandom(500 + i) });
    }
    const coup = async (t: (typeof terminals)[number]) => {
      let d = t.pos > 390 ? null : dealPuntoBanco(t.cards, t.pos);
      if (!d) {
        if (t.shoeId) await post(t.key, `/v1/shoes/${t.shoeId}/close`, {});
        t.shoeId = (await post(t.key, `/v1/tables/${t.tableId}/shoes`, {})).body.id;
        t.cards = shuffledShoe(8, t.random);
        t.pos = 0;
        d = dealPuntoBanco(t.cards, 0)!;
      }
      t.pos += d.used;
      await post(t.key, `/v1/shoes/${t.shoeId}/coups`, {
        cards: { player: d.player.map(formatCard), banker: d.banker.map(formatCard) },
        wagers: BETS.map((betType, i) => ({ seat: i + 1, betType, amount: 100 * (1 + Math.floor(t.random() * 50)) })),
      });
    };
    // Warm-up: every terminal's first shoe and a few coups (prepared statements, caches, JIT).
    await Promise.all(
      terminals.map(async (t) => {
        for (let i = 0; i < 20; i++) await coup(t);
      }),
    );
    // Whole shoes only in the measured part: a new shoe every ~80 coups is part of the cost.
    const before = await counters(url);
    const cpu0 = processCpuMs(service.child.pid!);
    await Promise.all(
      terminals.map(async (t) => {
        for (let i = 0; i < COUPS / TERMINALS; i++) await coup(t);
      }),
    );
    const cpu1 = processCpuMs(service.child.pid!);
    const after = await counters(url);
    const walBytes = await admin(async (c) =>
      Number((await c.query<{ d: string }>('SELECT pg_wal_lsn_diff($1, $2)::text AS d', [after.wal, before.wal])).rows[0].d),
    );
    return {
      dir,
      round,
      serviceCpuMs: (cpu1 - cpu0) / COUPS,
      transactions: (after.xacts - before.xacts) / COUPS,
      rowsWritten: (after.rows - before.rows) / COUPS,
      walBytes: walBytes / COUPS,
    };
  } finally {
    await service.stop();
  }
}

async function main() {
  const costs: Cost[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const dir of DIRS) {
      const c = await measure(dir, round);
      costs.push(c);
      console.log(
        `round ${round} ${dir}: service CPU ${c.serviceCpuMs.toFixed(3)} ms, ${c.transactions.toFixed(2)} transactions, ${c.rowsWritten.toFixed(1)} rows written, ${Math.round(c.walBytes)} WAL bytes a coup`,
      );
    }
  }
  await admin(async (c) => c.query(`DROP DATABASE IF EXISTS "${DB}" WITH (FORCE)`));
  console.log('\nmedians a coup:');
  for (const dir of DIRS) {
    const mine = costs.filter((c) => c.dir === dir);
    const median = (f: (c: Cost) => number) => {
      const v = mine.map(f).sort((a, b) => a - b);
      return v[Math.floor(v.length / 2)];
    };
    console.log(
      `${dir}: service CPU ${median((c) => c.serviceCpuMs).toFixed(3)} ms, ${median((c) => c.transactions).toFixed(2)} transactions, ${median((c) => c.rowsWritten).toFixed(1)} rows, ${Math.round(median((c) => c.walBytes))} WAL bytes`,
    );
  }
  console.log(`written ${writeJson('coup-cost', { machine: machine(), terminals: TERMINALS, coups: COUPS, costs })}`);
}

main().catch((e) => {
  console.error('bench:coup-cost failed:', e);
  process.exit(1);
});

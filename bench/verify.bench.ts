/**
 * npm run bench:verify — what the auditor's verification costs, and how it grows: a fresh database
 * filled through the service's own API (whole coups of 8 wagers at TABLES tables, a patron seated at
 * each, a buy-in and a cage transaction now and then), verified at each size of SIZES coups the way
 * `npm run audit:verify` does (every chain walked with its MACs, every ledger rebuilt from the chain,
 * every seal checked, every open shoe dealt again), with the walk and the records' checks timed
 * apart, and each of the records' checks timed on its own (CHECKS=1). Loopback only; prints a table
 * and writes bench/results/verify.json. KEEP=1 keeps the database.
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { checkRecords } from '../src/integrity/audit/records';
import { walkChains } from '../src/integrity/audit/verification';
import { verifyAgainstCheckpoints } from '../src/server/verify.cli';
import { newAuditKeyText, parseAuditKeys } from '../src/platform/config/keyring';
import { dealPuntoBanco, formatCard, seededRandom, shuffledShoe } from '../src/domain';
import { benchDatabase } from './bench-db';
import { jsonPoster, startServiceProcess } from './service-process';
import { machine, writeJson } from './stats';

const SIZES = (process.env.SIZES ?? '2000,8000').split(',').map(Number);
const TABLES = Number(process.env.TABLES ?? 16);
const ADMIN = 'bench-admin-key-0123456789abcdef0123456789';
const BETS = ['BANKER', 'PLAYER', 'BANKER', 'TIE', 'PLAYER_PAIR', 'BANKER_PAIR', 'PLAYER', 'BANKER'];
const KEYS = newAuditKeyText('bench');

async function main() {
  const db = await benchDatabase('verify');
  const service = await startServiceProcess({ DATABASE_URL: db.url, ADMIN_API_KEY: ADMIN, AUDIT_KEYS: KEYS, SURVEILLANCE: 'off' });
  const httpPost = jsonPoster(TABLES * 2);
  const keyring = parseAuditKeys(KEYS);
  const rows: Record<string, unknown>[] = [];
  try {
    const post = async (key: string, p: string, body: unknown) => {
      const res = await httpPost(service.base + p, key, body);
      if (res.status >= 300) throw new Error(`${p}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    };
    // The register as a casino sets it up: two administrators, a host, a cashier.
    const admins: string[] = [];
    for (const staffId of ['V-ADM-1', 'V-ADM-2']) {
      await post(ADMIN, '/v1/staff', { staffId, name: staffId, roles: ['ADMIN'], reason: 'bench' });
      admins.push((await post(ADMIN, '/v1/api-keys', { name: staffId, role: 'ADMIN', staffId })).key);
    }
    const person = async (staffId: string, role: string) => {
      const change = await post(admins[0], '/v1/staff', { staffId, name: staffId, roles: [role], reason: 'bench' });
      await post(admins[1], `/v1/staff/changes/${change.id}/approve`, {});
      return (await post(admins[0], '/v1/api-keys', { name: staffId, role, staffId })).key;
    };
    const host = await person('V-HOST', 'HOST');
    const cashier = await person('V-CASHIER', 'CASHIER');
    const tables = [];
    for (let i = 0; i < TABLES; i++) {
      const table = await post(ADMIN, '/v1/tables', {
        code: `V-${i}`,
        variant: 'COMMISSION',
        currency: 'USD',
        minBet: 100,
        maxBet: 1_000_000,
        sideBets: ['PLAYER_PAIR', 'BANKER_PAIR'],
      });
      const key = (await post(ADMIN, '/v1/api-keys', { name: `terminal ${i}`, role: 'TERMINAL', tableId: table.id })).key;
      await post(host, '/v1/patrons', { card: `V-P-${i}` });
      await post(key, `/v1/tables/${table.id}/seatings`, { patronId: `V-P-${i}`, seat: 1 });
      const random = seededRandom(7000 + i);
      tables.push({ table, key, shoeId: (await post(key, `/v1/tables/${table.id}/shoes`, {})).id, cards: shuffledShoe(8, random), pos: 0, random, n: 0 });
    }
    let coups = 0;
    const propertyId = tables[0].table.propertyId;
    for (const size of SIZES) {
      const t0 = performance.now();
      await Promise.all(
        tables.map(async (t) => {
          while (coups < size) {
            coups++;
            let d = dealPuntoBanco(t.cards, t.pos);
            if (!d || t.pos > 390) {
              await post(t.key, `/v1/shoes/${t.shoeId}/close`, {});
              t.shoeId = (await post(t.key, `/v1/tables/${t.table.id}/shoes`, {})).id;
              t.cards = shuffledShoe(8, t.random);
              t.pos = 0;
              d = dealPuntoBanco(t.cards, 0)!;
            }
            t.pos += d.used;
            if (++t.n % 50 === 0) {
              await post(t.key, `/v1/tables/${t.table.id}/buy-ins`, { kind: 'CASH', amount: 50_000, seat: 1 });
              await post(cashier, `/v1/properties/${propertyId}/cash-transactions`, { kind: 'CHIP_REDEMPTION', amount: 20_000, patronId: `V-P-0` });
            }
            await post(t.key, `/v1/shoes/${t.shoeId}/coups`, {
              cards: { player: d.player.map(formatCard), banker: d.banker.map(formatCard) },
              wagers: BETS.map((betType, i) => ({ seat: i + 1, betType, amount: 100 * (1 + Math.floor(t.random() * 50)) })),
            });
          }
        }),
      );
      const writeSeconds = (performance.now() - t0) / 1000;
      const c = new Client({ connectionString: db.url });
      await c.connect();
      const counts = (
        await c.query<{ coups: string; wagers: string; entries: string; seals: string }>(
          'SELECT (SELECT count(*) FROM coups) AS coups, (SELECT count(*) FROM wagers) AS wagers, (SELECT count(*) FROM audit_log) AS entries, (SELECT count(*) FROM row_seals) AS seals',
        )
      ).rows[0];
      await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      let t1 = performance.now();
      const walk = await walkChains(c, keyring);
      const walkMs = performance.now() - t1;
      t1 = performance.now();
      const records = await checkRecords(c, keyring);
      const recordsMs = performance.now() - t1;
      await c.query('ROLLBACK');
      await c.end();
      t1 = performance.now();
      const cli = await verifyAgainstCheckpoints(db.url, [], null, keyring);
      const cliMs = performance.now() - t1;
      if (walk.findings.length + records.length + cli.findings.length > 0)
        throw new Error(`the bench's records do not verify: ${JSON.stringify([...walk.findings, ...records, ...cli.findings].slice(0, 3))}`);
      const row = {
        coups: Number(counts.coups),
        wagers: Number(counts.wagers),
        auditEntries: Number(counts.entries),
        seals: Number(counts.seals),
        writeSeconds: Number(writeSeconds.toFixed(1)),
        walkMs: Math.round(walkMs),
        recordsMs: Math.round(recordsMs),
        cliMs: Math.round(cliMs),
        cliMsPer1000Coups: Number(((cliMs / Number(counts.coups)) * 1000).toFixed(1)),
      };
      rows.push(row);
      console.log(
        `${row.coups} coups, ${row.wagers} wagers, ${row.auditEntries} entries, ${row.seals} seals: walk ${row.walkMs} ms, records ${row.recordsMs} ms, audit:verify ${row.cliMs} ms (${row.cliMsPer1000Coups} ms per 1,000 coups)`,
      );
    }
  } finally {
    await service.stop();
    // KEEP=1 leaves the database for a closer look (EXPLAIN of the checks).
    if (process.env.KEEP !== '1') await db.drop();
    else console.log(`kept ${db.url}`);
  }
  console.log(`written ${writeJson('verify', { machine: machine(), tables: TABLES, rows })}`);
}

main().catch((e: Error) => {
  console.error(e);
  process.exit(1);
});

import { SYSTEM_CONTEXT } from '../src/platform/common/context';
/**
 * npm run bench:coups — a casino floor of pit terminals against the service, measured against the
 * database's own limit on the same machine in the same run. Loopback only, bounded in time.
 *
 *  1. the service (dist/src/server/main.js) as its own process on a fresh database;
 *  2. TERMINALS terminals, each with its own table, shoe and API key, recording whole coups dealt
 *     from real shuffled shoes, 8 wagers each (main and side bets), through the public API:
 *     a saturation run (closed loop, as fast as answers come) and a fixed offered rate (open loop);
 *  3. the database's limit: plain `pg`, the same rows per coup in the same transaction shape
 *     (lock the shoe, coup, wagers, rollups, commission, audit, shoe), at the same concurrency.
 * Prints a summary table and writes bench/results/coups.json.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { auditParams } from '../src/foundation/ledger/audit-log';
import { newAuditKeyText, parseAuditKeys } from '../src/platform/config/keyring';

/** The database-limit loop keys its audit entries as the service does. */
const BENCH_KEYRING = parseAuditKeys(newAuditKeyText('bench'));
const LOSE: 'WIN' | 'LOSE' | 'PUSH' = 'LOSE';
import { COUPS_SQL } from '../src/table-games/coups/coups-sql';
import { BetType, dealPuntoBanco, evaluateCoup, formatCard, parseCards, seededRandom, shuffledShoe } from '../src/domain';
import { rollupParams } from '../src/foundation/ledger/rollups';
import { PIT_SQL } from '../src/foundation/pit/pit-sql';
import { benchDatabase } from './bench-db';
import { benchHost, benchTerminal, jsonPoster, machineCpuMs, processCpuMs, sampleRss, startServiceProcess } from './service-process';
import { machine, summarize, writeJson } from './stats';

const TERMINALS = Number(process.env.TERMINALS ?? 32);
const SATURATION_SECONDS = Number(process.env.SATURATION_SECONDS ?? 15);
const RATE = Number(process.env.RATE ?? 100);
const RATE_SECONDS = Number(process.env.RATE_SECONDS ?? 15);
const POOL = process.env.DB_POOL_SIZE ?? '16';
/** RATED=1: every seat of every table has a patron's card in, so that every wager is rated (patron rollups). */
const RATED = process.env.RATED === '1';
const ADMIN = 'bench-admin-key-0123456789abcdef0123456789';
const BETS = ['BANKER', 'PLAYER', 'BANKER', 'TIE', 'PLAYER_PAIR', 'BANKER_PAIR', 'DRAGON_7', 'PANDA_8'];

const httpPost = jsonPoster(TERMINALS * 2);

interface Terminal {
  key: string;
  tableId: string;
  shoeId: string;
  cards: number[];
  pos: number;
  seq: number;
  random: () => number;
}

async function main() {
  const db = await benchDatabase('coups');
  // SERVICE_DIR: another checkout's build (another commit), driven by this same load, side by side.
  const service = await startServiceProcess({ DATABASE_URL: db.url, ADMIN_API_KEY: ADMIN, DB_POOL_SIZE: POOL }, process.env.SERVICE_DIR ?? process.cwd());
  const base = service.base;
  try {
    const post = async (key: string, p: string, body: unknown) => {
      const res = await httpPost(base + p, key, body);
      if (res.status >= 400 && res.status !== 409) throw new Error(`${p}: ${res.status} ${JSON.stringify(res.body)}`);
      return res;
    };
    const terminals: Terminal[] = [];
    let host: string | null = null;
    // The staff register as a casino sets it up, for the host who registers the patrons.
    if (RATED) host = await benchHost(post, ADMIN, 'B');
    for (let i = 0; i < TERMINALS; i++) {
      const { tableId, key } = await benchTerminal(post, ADMIN, `B-${i}`);
      const shoe = (await post(key, `/v1/tables/${tableId}/shoes`, {})).body;
      if (host) {
        for (let seat = 1; seat <= BETS.length; seat++) {
          await post(host, '/v1/patrons', { card: `B-${i}-${seat}` });
          await post(key, `/v1/tables/${tableId}/seatings`, { patronId: `B-${i}-${seat}`, seat });
        }
      }
      const random = seededRandom(1000 + i);
      terminals.push({ key, tableId, shoeId: shoe.id, cards: shuffledShoe(8, random), pos: 0, seq: 0, random });
    }
    /** One coup from the terminal's shoe; a new shoe when this one runs low. */
    const recordCoup = async (t: Terminal): Promise<number> => {
      let d = dealPuntoBanco(t.cards, t.pos);
      if (!d || t.pos > 390) {
        await post(t.key, `/v1/shoes/${t.shoeId}/close`, {});
        t.shoeId = (await post(t.key, `/v1/tables/${t.tableId}/shoes`, {})).body.id;
        t.cards = shuffledShoe(8, t.random);
        t.pos = 0;
        d = dealPuntoBanco(t.cards, 0)!;
      }
      t.pos += d.used;
      const body = {
        cards: { player: d.player.map(formatCard), banker: d.banker.map(formatCard) },
        wagers: BETS.map((betType, i) => ({ seat: i + 1, betType, amount: 100 * (1 + Math.floor(t.random() * 50)) })),
      };
      const t0 = performance.now();
      const r = await post(t.key, `/v1/shoes/${t.shoeId}/coups`, body);
      if (r.status !== 201) throw new Error(`coup: ${r.status} ${JSON.stringify(r.body)}`);
      return performance.now() - t0;
    };

    // Warm-up.
    await Promise.all(
      terminals.map(async (t) => {
        for (let i = 0; i < 5; i++) await recordCoup(t);
      }),
    );

    const rss = sampleRss(service.child);
    // The offered rate first, on a steady database; then saturation (whose burst of writes the
    // database is still absorbing for a while after it ends).
    // Fixed offered rate: RATE coups a second, spread over the terminals, whatever the answers.
    const rateLat: number[] = [];
    const pending: Promise<void>[] = [];
    const busy = new Set<Terminal>();
    let skipped = 0;
    const start = performance.now();
    for (let i = 0; i < RATE * RATE_SECONDS; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const t = terminals[i % terminals.length];
      if (busy.has(t)) {
        skipped++;
        continue;
      } // a terminal sends its next coup only when the last is settled
      busy.add(t);
      pending.push(
        recordCoup(t).then((ms) => {
          rateLat.push(ms);
          busy.delete(t);
        }),
      );
    }
    await Promise.all(pending);
    // How far behind the surveillance worker is when the offered rate ends (0: it keeps up).
    const unsurveyedAfterRate = await unsurveyed(db.url);
    const fixedRate = { offeredPerSecond: RATE, completed: rateLat.length, skippedBusyTerminal: skipped, latencyMs: summarize(rateLat), unsurveyedAfterRate };
    // Saturation: every terminal records as fast as it is answered.
    const satLat: number[] = [];
    const satEnd = performance.now() + SATURATION_SECONDS * 1000;
    const satStart = performance.now();
    const cpuStart = { service: processCpuMs(service.child.pid!), machine: machineCpuMs() };
    await Promise.all(
      terminals.map(async (t) => {
        while (performance.now() < satEnd) satLat.push(await recordCoup(t));
      }),
    );
    const satSeconds = (performance.now() - satStart) / 1000;
    const cpuPerCoupMs = {
      service: (processCpuMs(service.child.pid!) - cpuStart.service) / satLat.length,
      machine: (machineCpuMs() - cpuStart.machine) / satLat.length,
    };
    const saturation = {
      coupsPerSecond: satLat.length / satSeconds,
      wagersPerSecond: (satLat.length * 8) / satSeconds,
      latencyMs: summarize(satLat),
      cpuPerCoupMs,
    };

    const peakRssMb = rss.stop();
    // The worker's backlog after saturation, and how long it takes to catch up.
    const backlog = await unsurveyed(db.url);
    const catchUpStart = performance.now();
    while (backlog !== null && (await unsurveyed(db.url))! > 0 && performance.now() - catchUpStart < 120_000) await new Promise((r) => setTimeout(r, 200));
    const surveillance = backlog === null ? null : { backlogAfterSaturation: backlog, catchUpSeconds: (performance.now() - catchUpStart) / 1000 };

    // The database's limit, same run, same concurrency, same rows.
    const dbLimit = await databaseLimit(db.url, TERMINALS, SATURATION_SECONDS);

    const fmt = (x: number) => x.toFixed(1);
    console.log(`\nbench:coups — ${TERMINALS} terminals, 8 wagers a coup, DB pool ${POOL}`);
    console.log(
      `saturation (${SATURATION_SECONDS} s): ${fmt(saturation.coupsPerSecond)} coups/s, ${fmt(saturation.wagersPerSecond)} wagers/s, latency p50 ${fmt(saturation.latencyMs.median)} p95 ${fmt(saturation.latencyMs.p95)} p99 ${fmt(saturation.latencyMs.p99)} ms`,
    );
    console.log(
      `CPU per coup at saturation: the service ${cpuPerCoupMs.service.toFixed(3)} ms, the whole machine (service, database, this load generator) ${cpuPerCoupMs.machine.toFixed(3)} ms`,
    );
    console.log(
      `fixed rate ${RATE}/s (${RATE_SECONDS} s): latency p50 ${fmt(fixedRate.latencyMs.median)} p95 ${fmt(fixedRate.latencyMs.p95)} p99 ${fmt(fixedRate.latencyMs.p99)} ms (${rateLat.length} coups, ${skipped} skipped while a terminal was busy)`,
    );
    if (surveillance !== null) {
      console.log(
        `surveillance: ${unsurveyedAfterRate} coups not yet surveyed when the offered rate ended; ${surveillance.backlogAfterSaturation} after saturation, surveyed ${surveillance.catchUpSeconds.toFixed(1)} s later`,
      );
    }
    console.log(`database limit (plain pg, same rows and transaction shape): ${fmt(dbLimit.coupsPerSecond)} coups/s`);
    console.log(`service / database limit: ${((100 * saturation.coupsPerSecond) / dbLimit.coupsPerSecond).toFixed(1)} %`);
    console.log(`service peak RSS: ${fmt(peakRssMb)} MB`);
    console.log(
      `written ${writeJson('coups', { when: new Date().toISOString(), machine: machine(), terminals: TERMINALS, pool: POOL, saturation, fixedRate, surveillance, dbLimit, fractionOfDbLimit: saturation.coupsPerSecond / dbLimit.coupsPerSecond, peakRssMb })}`,
    );
  } catch (e) {
    console.error('bench:coups failed:', e);
    process.exitCode = 1;
  } finally {
    await service.stop();
    await db.drop();
  }
}

/**
 * The database's limit: the very statements the service sends for a whole coup — the shoe
 * snapshot, then the one write guarded by the shoe's version and the terminal's key (settlement,
 * rollups, audit) — built by the service's own code, prepared, on plain pg at the same
 * concurrency, with none of the service's work (HTTP, validation, the engine). A fixed coup: 8 wagers.
 */
async function databaseLimit(url: string, concurrency: number, seconds: number) {
  const pool = new Pool({ connectionString: url, max: concurrency });
  const c0 = await pool.connect();
  const shoes = (
    await c0.query(
      `SELECT s.id, s.table_id, s.property_id, (SELECT k.id FROM api_keys k WHERE k.table_id = s.table_id LIMIT 1) AS key_id FROM shoes s WHERE s.status = 'OPEN' ORDER BY s.id`,
    )
  ).rows as { id: string; table_id: string; property_id: string; key_id: string }[];
  c0.release();
  const outcome = evaluateCoup('EZ', { player: parseCards(['9S', 'KD']), banker: parseCards(['8H', 'KC']) });
  const day = new Date().toISOString().slice(0, 10);
  let done = 0;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    shoes.slice(0, concurrency).map(async (shoe) => {
      const c = await pool.connect();
      let n = 100000;
      while (performance.now() < end) {
        n++;
        const rows = BETS.map((betType, i) => ({
          id: randomUUID(),
          stored: false,
          seat: i + 1,
          betType: betType as BetType,
          amount: 1000n,
          patronId: null,
          seatingId: null,
          carriedFromId: null,
          result: LOSE,
          payout: 0n,
          commission: 0n,
          net: -1000n,
          carriesOver: false,
        }));
        rows[0] = { ...rows[0], result: 'WIN', payout: 1000n, commission: 50n, net: 950n };
        const snap = await c.query<{ version: string }>({ name: PIT_SQL.readShoe.name, text: PIT_SQL.readShoe.text, values: [shoe.id] });
        const coupId = randomUUID();
        const accrued = rows.filter((r) => r.commission > 0n);
        const s = COUPS_SQL.settleCoup.bind({
          shoeId: shoe.id,
          tableId: shoe.table_id,
          propertyId: shoe.property_id,
          coupId,
          coupNumber: n,
          openCoupId: null,
          remaining: new Array<number>(52).fill(8),
          cardsDealt: 0,
          coupCount: n,
          lastCoupNumber: null,
          playerCards: ['9S', 'KD'],
          bankerCards: ['8H', 'KC'],
          winner: outcome.winner,
          playerTotal: outcome.playerTotal,
          bankerTotal: outcome.bankerTotal,
          cardCount: outcome.cardCount,
          natural: outcome.natural,
          settledAt: new Date().toISOString(),
          gamingDay: day,
          limitsId: null,
          recordedOfflineAt: null,
          newIds: rows.map((r) => r.id),
          newSeats: rows.map((r) => r.seat),
          newBetTypes: rows.map((r) => r.betType),
          newAmounts: rows.map((r) => r.amount.toString()),
          newPatrons: rows.map((r) => r.patronId),
          newSeatings: rows.map((r) => r.seatingId),
          newResults: rows.map((r) => r.result),
          newPayouts: rows.map((r) => r.payout.toString()),
          newCommissions: rows.map((r) => r.commission.toString()),
          newNets: rows.map((r) => r.net.toString()),
          newDead: rows.map(() => null),
          storedIds: [],
          storedResults: [],
          storedPayouts: [],
          storedCommissions: [],
          storedNets: [],
          carriedIds: [],
          carriedSeats: [],
          carriedBetTypes: [],
          carriedAmounts: [],
          carriedPatrons: [],
          carriedSeatings: [],
          carriedFrom: [],
          carriedDead: [],
          createdByKeyId: 'db-limit',
          accrualSeats: accrued.map((r) => r.seat),
          accrualPatrons: accrued.map((r) => r.patronId),
          accrualAmounts: accrued.map((r) => r.commission.toString()),
          accrualWagers: accrued.map((r) => r.id),
          version: snap.rows[0].version,
          storedCount: 0,
          confirmKeyId: shoe.key_id,
          confirmKeyHash: null,
          answerRecordId: null,
          answerScope: null,
          answerKey: null,
          answerRequestHash: null,
          answerStatus: null,
          answerBody: null,
          answerMac: null,
          answerMacKey: null,
          ...rollupParams(
            { tableId: shoe.table_id, propertyId: shoe.property_id, gamingDay: day, winner: outcome.winner, natural: outcome.natural, limitsId: null },
            rows.map((r) => ({ ...r, dead: false })),
            { edgesE12: {}, covariancesE12: new Map(), lossesE12: {} },
            1n,
          ),
          ...auditParams(
            SYSTEM_CONTEXT,
            // Not 'coup.settle': surveillance would survey these coups, whose same four cards over
            // and over no shoe could hold (it says so for each, and passes over them).
            { stream: `db-limit-${shoe.table_id}`, action: 'bench.coup', entityType: 'coup', entityId: coupId, data: { wagers: rows.map((r) => r.id) } },
            BENCH_KEYRING,
          ),
        });
        const r = await c.query<{ applied: string }>({ name: s.name, text: s.text, values: s.values });
        if (Number(r.rows[0].applied) === 1) done++;
      }
      c.release();
    }),
  );
  const secs = (performance.now() - started) / 1000;
  await pool.end();
  return { coupsPerSecond: done / secs, coups: done, seconds: secs, statementsPerCoup: 2 };
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

/** Settled coups the surveillance worker has not surveyed yet; null when it is off (SURVEILLANCE=off). */
async function unsurveyed(url: string): Promise<number | null> {
  if ((process.env.SURVEILLANCE ?? 'on') === 'off') return null;
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM coups c WHERE c.status = 'SETTLED' AND NOT EXISTS (SELECT 1 FROM coup_surveillance s WHERE s.coup_id = c.id)`,
    );
    return rows[0].n;
  } finally {
    await pool.end();
  }
}

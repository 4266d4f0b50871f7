import fs from 'node:fs';
import path from 'node:path';
import { DEVICE_FAULTS, DeviceEvent, ruleSet, seededRandom, SIDE_BETS, deviceShoe } from '../src/domain';
import { benchDatabase } from './bench-db';
import { DeviceClient, onTheWire } from './device-client';
import { benchStaffKeys, startServiceProcess } from './service-process';
import { machine, summarize } from './stats';

/**
 * `npm run sim:table`: tables whose devices report seeded shoes to the device gateway (issue 51) over
 * real WebSockets, at a real pace, with faults put in at a rate: a card dropped, read twice or out of
 * its turn, a burn read as dealt, the button pressed early or wrong, a bet moved after the first card,
 * the chip reader restarting mid-coup (no fault: nothing must be held). Each table has its own
 * connection, its own seeded shoe and its own fault draws. A supervisor clears every hold.
 *
 * It says what was put in and what came of it: faults injected, held with the reason the fault must
 * give (caught), not held (missed), coups held that had no fault (held wrongly), coups settled against
 * the clean ones, and the time from the button's report to its answer (the coup settled before it).
 *
 *   SIM_TABLES (4)  SIM_COUPS (20, per table)  SIM_COUPS_PER_HOUR (60)  SIM_SPEED (60: a minute in a second)
 *   SIM_FAULT_RATE (0.2)  SIM_SEED (2026)
 *   SIM_URL and SIM_ADMIN_KEY: a running service (its bootstrap key; SIM_SUPERVISOR_KEY once the bootstrap key
 *   is retired); else one is started on a bench database of its own.
 */
export interface SimOptions {
  readonly tables: number;
  readonly coups: number;
  readonly coupsPerHour: number;
  readonly speed: number;
  readonly faultRate: number;
  readonly seed: number;
}

const env = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);

const rules = ruleSet({ variant: 'COMMISSION', sideBets: [...SIDE_BETS] });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Api = <T>(key: string, method: string, route: string, body?: unknown) => Promise<T>;
interface Hold {
  id: string;
  reason: string;
  detail: string;
  clearedAt: string | null;
}

interface Tally {
  injected: Record<string, number>;
  caught: Record<string, number>;
  missed: string[];
  heldWrongly: string[];
  clean: number;
  settled: number;
  buttonToAnswerMs: number[];
  reports: number;
}

async function main(): Promise<void> {
  let base = process.env.SIM_URL ?? '';
  let admin = process.env.SIM_ADMIN_KEY ?? '';
  let stop = async () => {};
  let databaseUrl = '';
  let servicePid: number | null = null;
  if (!base) {
    const db = await benchDatabase(`sim_${process.pid}`);
    databaseUrl = db.url;
    admin = `sab_sim_${process.pid}_bootstrap_key_0123456789`;
    const service = await startServiceProcess({ DATABASE_URL: db.url, ADMIN_API_KEY: admin, SURVEILLANCE: 'off' });
    base = service.base;
    servicePid = service.child.pid ?? null;
    stop = async () => {
      await service.stop();
      if (process.env.SIM_KEEP_DATABASE !== '1') await db.drop();
    };
  }
  try {
    // The supervisor who clears the holds: given, or registered by two administrators the bootstrap key sets up (a new database).
    let supervisor = process.env.SIM_SUPERVISOR_KEY ?? '';
    if (!supervisor) {
      const keptAs = `sim-${process.pid}-${Date.now()}`;
      supervisor = (await benchStaffKeys(base, admin, databaseUrl || 'postgres://sim/none', keptAs, ['SUPERVISOR'])).SUPERVISOR;
      fs.rmSync(path.join(process.cwd(), 'bench', 'results', `${keptAs}-administrators-none.json`), { force: true });
      if (databaseUrl)
        fs.rmSync(path.join(process.cwd(), 'bench', 'results', `${keptAs}-administrators-${new URL(databaseUrl).pathname.slice(1)}.json`), { force: true });
    }
    const o: SimOptions = {
      tables: env('SIM_TABLES', 4),
      coups: env('SIM_COUPS', 20),
      coupsPerHour: env('SIM_COUPS_PER_HOUR', 60),
      speed: env('SIM_SPEED', 60),
      faultRate: env('SIM_FAULT_RATE', 0.2),
      seed: env('SIM_SEED', 2026),
    };
    const cpuBefore = cpuMsOf(servicePid);
    const result = await simulate(base, admin, supervisor, o);
    const cpuMs = servicePid === null ? null : cpuMsOf(servicePid)! - cpuBefore!;
    const serviceCpu = cpuMs === null ? null : { ms: cpuMs, perReportMs: cpuMs / result.reports, perCoupMs: cpuMs / (result.settled || 1) };
    console.log(JSON.stringify({ ...result, serviceCpu, machine: machine() }, null, 2));
    const tally = result;
    if (tally.faults.missed || tally.heldWrongly.length || tally.settled !== tally.cleanCoups) process.exitCode = 1;
  } finally {
    await stop();
  }
}

/** The tables played through the gateway of the service at `base`, and what came of it. */
export async function simulate(base: string, admin: string, supervisor: string, o: SimOptions) {
  const api: Api = async <T>(key: string, method: string, route: string, body?: unknown): Promise<T> => {
    const res = await fetch(base + route, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<T>;
  };
  const tally: Tally = { injected: {}, caught: {}, missed: [], heldWrongly: [], clean: 0, settled: 0, buttonToAnswerMs: [], reports: 0 };
  const started = Date.now();
  await Promise.all(Array.from({ length: o.tables }, (_, i) => playTable(i, base, api, admin, supervisor, tally, o)));
  const injected = Object.values(tally.injected).reduce((a, b) => a + b, 0);
  const caught = Object.values(tally.caught).reduce((a, b) => a + b, 0);
  return {
    ...o,
    seconds: (Date.now() - started) / 1000,
    faults: { injected, caught, missed: tally.missed.length, byKind: tally.injected, caughtByKind: tally.caught, missedWhere: tally.missed },
    heldWrongly: tally.heldWrongly,
    cleanCoups: tally.clean,
    settled: tally.settled,
    reports: tally.reports,
    buttonToAnswerMs: summarize(tally.buttonToAnswerMs),
  };
}

async function playTable(i: number, base: string, api: Api, admin: string, supervisor: string, tally: Tally, o: SimOptions) {
  const table = await api<{ id: string }>(admin, 'POST', '/v1/tables', {
    code: `SIM-${process.pid % 10000}-${o.seed % 1000}-${i}`,
    variant: 'COMMISSION',
    currency: 'HKD',
    minBet: 100,
    maxBet: 100_000_000,
    sideBets: [...SIDE_BETS],
  });
  const terminal = (await api<{ key: string }>(admin, 'POST', '/v1/api-keys', { name: `sim terminal ${i}`, role: 'TERMINAL', tableId: table.id })).key;
  const shoe = await api<{ id: string }>(terminal, 'POST', `/v1/tables/${table.id}/shoes`, {});
  const device = (await api<{ key: string }>(admin, 'POST', '/v1/api-keys', { name: `sim table controller ${i}`, role: 'DEVICE', tableId: table.id })).key;
  const random = seededRandom(o.seed * 7919 + i);
  const { events, coups } = deviceShoe(rules, o.seed + i, 8, o.coups);
  const { client: link, welcome } = await DeviceClient.open(base, device);
  let seq = welcome.lastSeq;
  const send = async (e: DeviceEvent) => {
    tally.reports++;
    return link.send(onTheWire(e, ++seq));
  };
  const kinds = Object.keys(DEVICE_FAULTS);
  // The shuffle and the burn, before the first coup.
  for (const e of events.slice(0, events.indexOf(coups[0].events[0]))) await send(e);
  let shift = 0;
  const coupMs = 3_600_000 / o.coupsPerHour / o.speed;
  // Tables do not deal in step: each starts somewhere within its first coup's time.
  await sleep(random() * coupMs);
  for (const [n, coup] of coups.entries()) {
    const shifted = coup.events.map((e) => (e.type === 'CARD_DEALT' ? { ...e, drawn: e.drawn + shift } : e));
    const kind = random() < o.faultRate ? kinds[Math.floor(random() * kinds.length)] : null;
    const faulted = kind ? DEVICE_FAULTS[kind](shifted) : null;
    const reports = faulted ? faulted.events : shifted;
    // A fault that draws a card more (a burn read as dealt) moves the shoe's count for the rest of the shoe.
    const last = (list: readonly DeviceEvent[]) => Math.max(...list.map((e) => (e.type === 'CARD_DEALT' ? e.drawn : 0)));
    if (faulted) shift += last(faulted.events) - last(shifted);
    const expected = faulted?.reason ?? null;
    if (kind && faulted) tally.injected[kind] = (tally.injected[kind] ?? 0) + 1;
    if (!expected) tally.clean++;
    for (const e of reports) {
      await sleep(coupMs / reports.length);
      const t0 = performance.now();
      const answer = await send(e);
      if (answer.type !== 'ACK') throw new Error(`table ${i} coup ${n}: ${JSON.stringify(answer)}`);
      if (e.type === 'RESULT_CONFIRMED') tally.buttonToAnswerMs.push(performance.now() - t0);
    }
    const open = (await api<Hold[]>(supervisor, 'GET', `/v1/tables/${table.id}/device-holds`)).filter((h) => h.clearedAt === null);
    const where = `table ${i} coup ${n}${kind ? ` (${kind})` : ''}`;
    if (expected && open.some((h) => h.reason === expected)) tally.caught[kind!] = (tally.caught[kind!] ?? 0) + 1;
    else if (expected) tally.missed.push(`${where}: ${open.map((h) => h.reason).join(', ') || 'nothing held'}`);
    else if (open.length) tally.heldWrongly.push(`${where}: ${open.map((h) => `${h.reason} ${h.detail}`).join('; ')}`);
    for (const h of open) await api(supervisor, 'POST', `/v1/device-holds/${h.id}/clear`, { note: 'simulator: the coup was dealt again' });
  }
  link.close();
  // Read first, then added: `x += await y` would add to the total as it stood before the wait.
  const settled = (await api<unknown[]>(supervisor, 'GET', `/v1/shoes/${shoe.id}/coups`)).length;
  tally.settled += settled;
}

/** The CPU a process has used so far (user and system), in milliseconds, from /proc (null: not known). */
function cpuMsOf(pid: number | null): number | null {
  if (pid === null) return null;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

if (require.main === module) void main();

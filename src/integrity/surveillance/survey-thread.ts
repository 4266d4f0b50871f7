import { setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Client } from 'pg';
import { Rest } from '../../platform/common/rest';
import type { AuditKeyring } from '../../platform/config/keyring';
import { Surveyor } from './surveyor';

/**
 * The surveillance thread: the whole of surveillance, its database work and its arithmetic, on a
 * thread of its own at the lowest priority with a connection of its own. The pit's requests never
 * wait behind it, on the event loop, for a pooled connection or for a processor (on Linux a
 * thread's nice value is its own, so only this thread yields to everything else).
 */
export interface SurveyThreadData {
  readonly kind: 'sabot:surveillance';
  readonly databaseUrl: string;
  readonly pollMs: number;
  readonly share: number;
  readonly recordDays: number;
  readonly keyring: AuditKeyring;
}

/** What the thread tells the service: a line for its log. */
export interface SurveyThreadNote {
  readonly level: 'log' | 'warn';
  readonly message: string;
}

/** The service asks the thread to stop with this message; the thread ends its pass in hand first. */
export const STOP = 'stop';

/**
 * The longest rest after one pass. A pass that found the caches cold (a shift's first coups: each
 * table's rules and shoe read once) may work for a second or two; resting nine times that would
 * leave the log unread for most of a minute. Alerts are due within seconds: the rest is capped.
 */
export const MAX_REST_MS = 1_000;

/**
 * Passes until stopped. After each it rests so that its work stays within its share of the time
 * (at most MAX_REST_MS); with nothing to do it looks again after pollMs. A failed pass (the
 * connection lost, the database restarting) is said once, and the thread connects again.
 */
async function survey(data: SurveyThreadData, rest: Rest, running: () => boolean, note: (n: SurveyThreadNote) => void): Promise<void> {
  let client: Client | null = null;
  let surveyor: Surveyor | null = null;
  let failing = false;
  const drop = async () => {
    const c = client;
    client = null;
    surveyor = null;
    await c?.end().catch(() => undefined);
  };
  while (running()) {
    try {
      if (!surveyor) {
        // The named queries are prepared once per connection; a prepared statement's plan would
        // turn generic after five runs, blind to how many coups and entries a pass asks for (a scan
        // of the whole log instead of an index walk). Each pass's queries are planned for their values.
        client = new Client({
          connectionString: data.databaseUrl,
          statement_timeout: 60_000,
          application_name: 'sabot surveillance',
          // A surveyor's commit that a crash loses is surveyed again from the cursor it moved with
          // it: the surveyor need not wait for the disk.
          options: '-c plan_cache_mode=force_custom_plan -c synchronous_commit=off',
        });
        client.on('error', () => undefined); // the next query fails and the pass says so
        await client.connect();
        const candidate = new Surveyor(client, data.keyring, (level, message) => note({ level, message }), { recordDays: data.recordDays });
        if (!(await candidate.claim())) {
          await drop(); // another instance surveys; look again later
          await rest.for(MAX_REST_MS);
          continue;
        }
        surveyor = candidate;
      }
      const began = performance.now();
      const done = await surveyor.passOnce();
      if (failing) note({ level: 'log', message: 'Surveying again' });
      failing = false;
      const worked = performance.now() - began;
      if (done === 0) await rest.for(data.pollMs);
      else await rest.for(Math.min(MAX_REST_MS, worked / data.share - worked));
    } catch (e) {
      if (!running()) break;
      if (!failing) note({ level: 'warn', message: `Surveillance pass failed, retrying: ${e instanceof Error ? e.message : String(e)}` });
      failing = true;
      await drop();
      await rest.for(1_000);
    }
  }
  await drop();
}

if (!isMainThread && parentPort && (workerData as SurveyThreadData | undefined)?.kind === 'sabot:surveillance') {
  const port = parentPort;
  try {
    setPriority(19);
  } catch {
    // Where a thread cannot lower its own priority it still keeps the event loop free.
  }
  const rest = new Rest();
  let running = true;
  port.on('message', (m: unknown) => {
    if (m !== STOP) return;
    running = false;
    rest.stop();
  });
  void survey(
    workerData as SurveyThreadData,
    rest,
    () => running,
    (n) => port.postMessage(n),
  ).finally(() => port.close());
}

import { Client } from 'pg';
import { dealtHands, personKeyOn } from '../../support/builders';
import { cloneTestDatabase } from '../../support/database';
import { client, ensureBuilt, exited, startService, waitForHealth } from '../../support/process';

/**
 * SIGKILL in the middle of the writes the first fault test does not cover: stepwise coups (open,
 * wagers, cards), player-banked coups (banks passing from seat to seat) and two-person slip voids
 * (slip, request, approval). Three terminals run their scripts at once; the service is killed the
 * moment a set number of requests has been acknowledged, whatever the clock says. After a restart
 * each script resumes at its first unanswered request, with the same Idempotency-Keys: every
 * acknowledged write is there exactly once, nothing is half written, the reports reconcile and the
 * audit log (chains, MACs, ledgers against the chain) verifies.
 */
jest.setTimeout(240_000);
const ADMIN = 'faults-admin-key-0123456789abcdef0123456789';
const KILL_AFTER = 45;

type Api = ReturnType<typeof client>;
interface Step {
  key: string;
  path: () => string;
  body: () => unknown;
  /** What the answer tells the steps after it. */
  after?: (answer: Record<string, any>) => void;
}

const hands = (seed: number, n: number) => dealtHands(6, seed, n);

describe('SIGKILL in the middle of stepwise coups, bank coups and slip voids', () => {
  it('every acknowledged write is there once; resumed scripts complete; reports reconcile; the audit log verifies', async () => {
    ensureBuilt();
    const db = await cloneTestDatabase();
    try {
      const env = { DATABASE_URL: db.url, ADMIN_API_KEY: ADMIN };
      const first = startService(env);
      await waitForHealth(first);
      const admin = client(first.url, ADMIN);
      const made = async (p: string, body: unknown) => {
        const r = await admin.post(p, body);
        if (r.status !== 201) throw new Error(`${p}: ${r.status} ${JSON.stringify(r.body)}`);
        return r.body;
      };
      const punto = await made('/v1/tables', { code: `FW-P-${Date.now() % 100000}`, variant: 'COMMISSION', currency: 'EUR', minBet: 100, maxBet: 100000 });
      const chemmy = await made('/v1/tables', {
        code: `FW-C-${Date.now() % 100000}`,
        variant: 'CHEMIN_DE_FER',
        decks: 6,
        currency: 'EUR',
        minBet: 100,
        maxBet: 1_000_000,
      });
      const puntoKey = (await made('/v1/api-keys', { name: 'p', role: 'TERMINAL', tableId: punto.id })).key as string;
      const chemmyKey = (await made('/v1/api-keys', { name: 'c', role: 'TERMINAL', tableId: chemmy.id })).key as string;
      // Two supervisors on the staff register, their keys claimed: the two halves of a void.
      const supervisor = (n: number) => personKeyOn(db.url, (k) => client(first.url, k), ADMIN, { name: `s${n}`, role: 'SUPERVISOR', staffId: `E-FW-${n}` });
      const sup1 = await supervisor(1);
      const sup2 = await supervisor(2);
      const puntoShoe = (await client(first.url, puntoKey).post(`/v1/tables/${punto.id}/shoes`, {})).body.id as string;
      const chemmyShoe = (await client(first.url, chemmyKey).post(`/v1/tables/${chemmy.id}/shoes`, {})).body.id as string;
      const session = (await client(first.url, sup1).post(`/v1/tables/${punto.id}/sessions`, { opener: [{ denomination: 2500, count: 100 }] })).body
        .id as string;

      // The three scripts. State carried between steps lives in these objects, filled from answers.
      const stepwise: Step[] = [];
      for (const [i, h] of hands(11, 20).entries()) {
        const s: { coup?: string } = {};
        stepwise.push(
          {
            key: puntoKey,
            path: () => `/v1/shoes/${puntoShoe}/coups`,
            body: () => ({ wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] }),
            after: (a) => (s.coup = a.id),
          },
          { key: puntoKey, path: () => `/v1/coups/${s.coup}/wagers`, body: () => ({ wagers: [{ seat: 2, betType: 'PLAYER', amount: 700 + i }] }) },
          { key: puntoKey, path: () => `/v1/coups/${s.coup}/cards`, body: () => h },
        );
      }
      // A bank held by one seat at a time: the seat after the banker calls banco; a lost bank passes
      // and the next step opens the bank for the seat the answer named.
      const bank: { id?: string; holder: number; passedTo?: number } = { holder: 1 };
      const banked: Step[] = [
        {
          key: chemmyKey,
          path: () => `/v1/shoes/${chemmyShoe}/banks`,
          body: () => ({ bankerSeat: 1, amount: 5_000, rotation: [1, 2, 3, 4] }),
          after: (a) => (bank.id = a.id),
        },
      ];
      for (const h of hands(12, 30)) {
        banked.push({
          key: chemmyKey,
          path: () => (bank.passedTo !== undefined ? `/v1/shoes/${chemmyShoe}/banks` : `/v1/banks/${bank.id}/coups`),
          body: () =>
            bank.passedTo !== undefined ? { bankerSeat: bank.passedTo, amount: 5_000 } : { cards: h, stakes: [{ seat: (bank.holder % 4) + 1, call: 'BANCO' }] },
          after: (a) => {
            if (bank.passedTo !== undefined) [bank.id, bank.holder, bank.passedTo] = [a.id, a.bankerSeat, undefined];
            else if (a.bank.status === 'PASSED') bank.passedTo = a.nextBanker;
          },
        });
      }
      const slips: Step[] = [];
      for (let i = 0; i < 12; i++) {
        const s: { slip?: string; request?: string } = {};
        slips.push(
          {
            key: sup1,
            path: () => `/v1/table-sessions/${session}/slips`,
            body: () => ({ kind: 'FILL', chips: [{ denomination: 2500, count: i + 1 }] }),
            after: (a) => (s.slip = a.id),
          },
          { key: sup1, path: () => `/v1/slips/${s.slip}/void`, body: () => ({ reason: `fill ${i} keyed twice` }), after: (a) => (s.request = a.voidRequestId) },
          { key: sup2, path: () => `/v1/void-requests/${s.request}/approve`, body: () => ({}) },
        );
      }
      const scripts = { stepwise, banked, slips };

      let acked = 0;
      let killed = false;
      const position: Record<string, number> = {};
      const run = async (base: string, name: keyof typeof scripts, from: number, untilKill: boolean) => {
        const steps = scripts[name];
        for (let i = from; i < steps.length && !(untilKill && killed); i++) {
          const step = steps[i];
          const body = step.body();
          const send = () => client(base, step.key).post(step.path(), body, { 'Idempotency-Key': `${name}-${i}` });
          let r: Awaited<ReturnType<Api['post']>>;
          try {
            // The killed process left no claim behind: a retry is answered at once (never IDEMPOTENCY_IN_PROGRESS).
            r = await send();
          } catch (e) {
            if (untilKill && killed) return;
            throw e;
          }
          if (r.status >= 300) throw new Error(`${name} step ${i}: ${r.status} ${JSON.stringify(r.body)}`);
          step.after?.(r.body);
          position[name] = i + 1;
          if (untilKill && ++acked === KILL_AFTER) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        }
      };
      await Promise.all((Object.keys(scripts) as (keyof typeof scripts)[]).map((n) => run(first.url, n, 0, true)));
      await exited(first.child);
      expect(acked).toBeGreaterThanOrEqual(KILL_AFTER);

      const second = startService(env);
      await waitForHealth(second);
      try {
        // Each script resumes at its first unanswered request, with the same keys.
        await Promise.all((Object.keys(scripts) as (keyof typeof scripts)[]).map((n) => run(second.url, n, position[n] ?? 0, false)));
        const check = new Client({ connectionString: db.url });
        await check.connect();
        try {
          const q = async (sql: string, values: unknown[] = []) => (await check.query(sql, values)).rows;
          // Stepwise: 20 coups, each settled once with its two wagers; numbers without gaps.
          const coups = await q(
            `SELECT c.number, c.status, count(w.id) FILTER (WHERE w.status = 'SETTLED') AS settled FROM coups c LEFT JOIN wagers w ON w.coup_id = c.id WHERE c.shoe_id = $1 GROUP BY 1, 2 ORDER BY 1`,
            [puntoShoe],
          );
          expect(coups.map((c) => [c.number, c.status, Number(c.settled)])).toEqual(Array.from({ length: 20 }, (_, k) => [k + 1, 'SETTLED', 2]));
          // Banked: every scripted coup played once, numbered without gaps; each bank's coups chain.
          const bankCoups = await q(`SELECT number FROM bank_coups WHERE shoe_id = $1 ORDER BY number`, [chemmyShoe]);
          expect(bankCoups.map((r) => r.number)).toEqual(Array.from({ length: bankCoups.length }, (_, k) => k + 1));
          expect(bankCoups.length).toBe(
            banked.filter((_, i) => i > 0).length - (await q(`SELECT count(*)::int AS n FROM banks WHERE shoe_id = $1`, [chemmyShoe]))[0].n + 1,
          );
          // Slips: 12 fills, each voided once by a request approved once.
          const voided = await q(
            `SELECT s.id, count(v.slip_id)::int AS voids, count(r.id) FILTER (WHERE r.status = 'APPROVED')::int AS approved
            FROM table_slips s LEFT JOIN slip_voids v ON v.slip_id = s.id LEFT JOIN void_requests r ON r.target_id = s.id WHERE s.session_id = $1 AND s.kind = 'FILL' GROUP BY s.id`,
            [session],
          );
          expect(voided).toHaveLength(12);
          for (const v of voided) expect([v.voids, v.approved]).toEqual([1, 1]);
        } finally {
          await check.end();
        }
        const auditor = await personKeyOn(db.url, (k) => client(second.url, k), ADMIN, { name: 'aud', role: 'AUDITOR', staffId: 'E-FW-aud' });
        const today = new Date().toISOString().slice(0, 10);
        const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
        const rec = await client(second.url, auditor).get(`/v1/reports/reconciliation?from=${yesterday}&to=${today}`);
        expect([rec.body.ok, rec.body.differences]).toEqual([true, []]);
        const verified = await client(second.url, auditor).get('/v1/audit/verify');
        expect([verified.body.ok, verified.body.problems]).toEqual([true, []]);
        console.log(`FAULTS sigkill-writes: ${JSON.stringify({ acknowledgedBeforeKill: acked, resumedAt: position })}`);
      } finally {
        second.child.kill('SIGTERM');
        await exited(second.child);
      }
    } finally {
      await db.drop();
    }
  });
});

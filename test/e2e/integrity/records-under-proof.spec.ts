import { PoolClient } from 'pg';
import { AUDIT_KEYS, startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPit } from '../../support/builders';

/**
 * Issue 49's findings 5 and 6, each as the examiner found it: a record rewritten, or deleted, by the
 * database's superuser with every trigger off, and what it did to what people see. Each is named by
 * the verification (GET /v1/audit/verify) now, or can no longer change what anyone sees.
 */
let ctx: TestContext;
let auditor: string;
beforeAll(async () => {
  ctx = await startTestApp();
  auditor = await givenKey(ctx, 'AUDITOR');
});
afterAll(() => ctx?.close());

const TIE = { player: ['KS', '6D'], banker: ['3H', '2C', 'AS'] }; // 6–6
const BANKER_7 = { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] };

/** `fn` on a connection of the database's owner with every trigger off (session_replication_role = replica). */
async function asSuperuser<T>(fn: (su: PoolClient) => Promise<T>): Promise<T> {
  const su = await ctx.prisma.pool.connect();
  try {
    await su.query('SET session_replication_role = replica');
    return await fn(su);
  } finally {
    await su.query('RESET session_replication_role').catch(() => undefined);
    su.release();
  }
}

const problems = async (): Promise<{ id: string | null; reason: string }[]> => (await ctx.as(auditor).get('/v1/audit/verify').expect(200)).body.problems;

describe('finding 5: what must be sealed follows from the audit entries', () => {
  it('a withdrawn tie bet set back to OPEN with its seal deleted, then paid by the next coup, is named by the verification', async () => {
    const { terminal, shoe } = await givenPit(ctx, { code: 'F5-SEAL', tieBetsStay: true });
    const tie = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: TIE, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] });
    const carried = tie.body.carriedForward[0].id as string;
    expect((await ctx.as(terminal).post(`/v1/wagers/${carried}/withdraw`, {})).status).toBe(200);
    expect((await problems()).filter((p) => p.id === `wagers/${carried}`)).toEqual([]);
    await asSuperuser(async (su) => {
      await su.query(`UPDATE wagers SET status = 'OPEN' WHERE id = $1::uuid AND gaming_day IS NULL`, [carried]);
      expect((await su.query(`DELETE FROM row_seals WHERE relation = 'wagers' AND row_key = $1`, [carried])).rowCount).toBe(1);
    });
    const named = async () => (await problems()).filter((p) => p.id === `wagers/${carried}`);
    expect(await named()).toHaveLength(1);
    // The next coup pays it (the shoe was not touched): still named, as a bet sealed withdrawn whose seal is gone.
    const paid = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7 });
    expect(paid.status).toBe(201);
    expect(paid.body.wagers.map((w: { id: string }) => w.id)).toContain(carried);
    const [finding] = await named();
    expect(finding.reason).toMatch(/wager\.withdraw.*its seal is gone/);
  });
});

describe('finding 6: the slips are numbered from the slips', () => {
  it('a slip counter lowered by the superuser neither refuses the next slip nor repeats a number: the next number follows the sealed slips', async () => {
    const { supervisor, table } = await givenPit(ctx, { code: 'F6-SLIPS' });
    const s = ctx.as(supervisor);
    const session = (await s.post(`/v1/tables/${table.id}/sessions`, { opener: [{ denomination: 2500, count: 40 }] }).expect(201)).body;
    const slip = async () => s.post(`/v1/table-sessions/${session.id}/slips`, { kind: 'FILL', chips: [{ denomination: 2500, count: 4 }] });
    const first = (await slip()).body;
    const second = (await slip()).body;
    expect(second.number).toBe(first.number + 1);
    // What the examiner did: the counter of the last number issued set back (where there still is one).
    await asSuperuser(async (su) => {
      if ((await su.query(`SELECT to_regclass('slip_counters') IS NOT NULL AS present`)).rows[0].present)
        await su.query(`UPDATE slip_counters SET last_number = 0 WHERE property_id = $1::uuid`, [table.propertyId]);
    });
    const third = await slip();
    expect(third.status).toBe(201);
    expect(third.body.number).toBe(second.number + 1);
    // Two slips at once still take two numbers, one after the other.
    const both = await Promise.all([slip(), slip()]);
    expect(both.map((r) => r.status)).toEqual([201, 201]);
    expect(both.map((r) => r.body.number).sort((a, b) => a - b)).toEqual([third.body.number + 1, third.body.number + 2]);
  });
});

describe('finding 6: a stored answer is replayed only as the service stored it', () => {
  /** The answer's column rewritten through its text, whatever its type (jsonb before the answers were keyed, text since). */
  async function rewriteAnswer(su: PoolClient, key: string, edit: (text: string) => string): Promise<void> {
    const [{ type }] = (
      await su.query(`SELECT data_type AS type FROM information_schema.columns WHERE table_name = 'idempotency_records' AND column_name = 'response_body'`)
    ).rows;
    const [{ body }] = (await su.query(`SELECT response_body::text AS body FROM idempotency_records WHERE key = $1`, [key])).rows;
    await su.query(`UPDATE idempotency_records SET response_body = $2::text::${type === 'jsonb' ? 'jsonb' : 'text'} WHERE key = $1`, [key, edit(body)]);
  }
  const forge = (text: string) => text.replace(/"winner":\s*"BANKER"/, '"winner":"PLAYER"').replace(/"payout":\s*\d+/g, '"payout":999999');

  it("a rewritten record is not replayed to the terminal's retry (another winner, another payout): refused with IDEMPOTENCY_ANSWER_UNPROVEN, and named by the verification", async () => {
    const { terminal, shoe } = await givenPit(ctx, { code: 'F6-ANSWER' });
    const send = () =>
      ctx
        .as(terminal)
        .post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 1, betType: 'BANKER', amount: 10_000 }] })
        .set('Idempotency-Key', 'F6-ANSWER-1');
    const first = await send();
    expect(first.status).toBe(201);
    expect(first.body.outcome.winner).toBe('BANKER');
    await asSuperuser((su) => rewriteAnswer(su, 'F6-ANSWER-1', forge));
    const retry = await send();
    expect(retry.body.outcome?.winner).not.toBe('PLAYER');
    expect([retry.status, retry.body.code]).toEqual([500, 'IDEMPOTENCY_ANSWER_UNPROVEN']);
    const [{ id }] = (await ctx.prisma.pool.query(`SELECT id::text FROM idempotency_records WHERE key = 'F6-ANSWER-1'`)).rows;
    expect((await problems()).filter((p) => p.id === `idempotency_records/${id}`)).toHaveLength(1);
    // Nothing was made twice.
    expect((await ctx.as(terminal).get(`/v1/shoes/${shoe.id}/coups`)).body).toHaveLength(1);
  });

  it('an answer forged with the audit key itself still disagrees with the ledger it reports: refused', async () => {
    const { terminal, shoe } = await givenPit(ctx, { code: 'F6-LEDGER' });
    const send = () =>
      ctx
        .as(terminal)
        .post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 1, betType: 'BANKER', amount: 10_000 }] })
        .set('Idempotency-Key', 'F6-LEDGER-1');
    expect((await send()).status).toBe(201);
    await asSuperuser(async (su) => {
      await rewriteAnswer(su, 'F6-LEDGER-1', forge);
      // Keyed again with the audit key (as only its holder could): the MAC holds, the ledger does not agree.
      const { answerMac, parseAuditKeys } = await import('../../../src/platform/config/keyring');
      const keyring = parseAuditKeys(AUDIT_KEYS);
      const [r] = (
        await su.query(`SELECT id::text, scope, key, request_hash, status_code, response_body::text AS body FROM idempotency_records WHERE key = 'F6-LEDGER-1'`)
      ).rows;
      if ((await su.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'idempotency_records' AND column_name = 'mac'`)).rowCount)
        await su.query(`UPDATE idempotency_records SET mac = $2 WHERE id = $1::uuid`, [
          r.id,
          answerMac(keyring.keys.get(keyring.currentId)!, {
            id: r.id,
            scope: r.scope,
            key: r.key,
            requestHash: r.request_hash,
            status: r.status_code,
            body: r.body,
          }),
        ]);
    });
    const retry = await send();
    expect([retry.status, retry.body.code]).toEqual([500, 'IDEMPOTENCY_ANSWER_UNPROVEN']);
    expect(retry.body.message).toMatch(/outcome|wager/);
  });

  it('a deleted record is named by the verification: the entry written with the answer names it', async () => {
    const { terminal, shoe } = await givenPit(ctx, { code: 'F6-GONE' });
    const sent = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7 }).set('Idempotency-Key', 'F6-GONE-1');
    expect(sent.status).toBe(201);
    const [{ id }] = (await ctx.prisma.pool.query(`SELECT id::text FROM idempotency_records WHERE key = 'F6-GONE-1'`)).rows;
    await asSuperuser((su) => su.query(`DELETE FROM idempotency_records WHERE id = $1::uuid`, [id]));
    const named = (await problems()).filter((p) => p.id === `idempotency_records/${id}`);
    expect(named.map((p) => p.reason)).toEqual([expect.stringMatching(/coup\.settle|is gone/)]);
  });
});

import { Client } from 'pg';
import { databaseSnapshot, startTestApp, TestContext } from '../../support/app';
import { givenCreditOfficers, givenKey, givenPatrons, givenPit } from '../../support/builders';
import { approvedProgrammeRequest, givenProgramme, ProgrammeTerms } from '../../support/credit-acts';
import { gamingDayOf } from '../../../src/domain';

/**
 * Rolling-chip play (docs/domain.md §14): a VIP trip from front money to its settlement, dead chips
 * on the wagers, the rolling account counted both ways, and what may not happen.
 */
let ctx: TestContext;
let cashier: string;
let host: string;
let auditor: string;
/** Front money deposited at the cage of the default property. */
let deposit: (patronId: string, amount: number, currency: string) => Promise<unknown>;
beforeAll(async () => {
  ctx = await startTestApp();
  cashier = await givenKey(ctx, 'CASHIER');
  deposit = (patronId: string, amount: number, currency: string) =>
    ctx.as(cashier).post('/v1/properties/00000000-0000-4000-8000-000000000001/cash-transactions', { kind: 'DEPOSIT', amount, currency, patronId }).expect(201);
  host = await givenKey(ctx, 'HOST');
  auditor = await givenKey(ctx, 'AUDITOR');
});
afterAll(() => ctx?.close());

const BANKER_WINS = { player: ['KS', 'QH'], banker: ['9S', 'KD'] };
const PLAYER_WINS = { player: ['8S', 'KH'], banker: ['QS', 'JD'] };
const TIE = { player: ['9H', 'KC'], banker: ['9C', 'QD'] };
const today = () => gamingDayOf(new Date(), 'UTC', 6); // the default property: UTC, 06:00

describe('a VIP trip, from front money to its settlement', () => {
  const card = `V-${process.pid}`;
  let pit: Awaited<ReturnType<typeof givenPit>>;
  const coup = (cards: object, wagers: object[]) => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards, wagers });
  const dead = (betType: string, amount: number) => ({ seat: 1, betType, amount, patronId: card, chipKind: 'DEAD' });
  const exchange = (body: object) => ctx.as(cashier).post(`/v1/patrons/${card}/chip-exchanges`, body);

  beforeAll(async () => {
    await givenPatrons(ctx, card);
    // HK$1,000 to HK$100,000 a hand, in cents.
    pit = await givenPit(ctx, { currency: 'HKD', minBet: 100_000, maxBet: 10_000_000 });
  });

  it('plays the trip and answers each wager in the chips it was placed in', async () => {
    // HK$100,000 of dead chips against front money deposited at the cage.
    await deposit(card, 10_000_000, 'HKD');
    const bought = await exchange({ kind: 'PURCHASE', amount: 10_000_000, settledIn: 'FRONT_MONEY', currency: 'HKD' }).expect(201);
    expect(bought.body).toMatchObject({ kind: 'PURCHASE', amount: 10_000_000, currency: 'HKD', tableId: null, gamingDay: today() });
    // Banker HK$40,000 wins: paid in cash chips (HK$38,000 after commission); the dead chips stay.
    const c1 = await coup(BANKER_WINS, [dead('BANKER', 4_000_000)]).expect(201);
    expect(c1.body.wagers[0]).toMatchObject({ chipKind: 'DEAD', result: 'WIN', net: 3_800_000 });
    await coup(PLAYER_WINS, [dead('BANKER', 4_000_000)]).expect(201); // rolled: 40,000
    await coup(PLAYER_WINS, [dead('PLAYER', 6_000_000)]).expect(201); // wins 60,000 in cash chips
    await coup(BANKER_WINS, [dead('PLAYER', 6_000_000)]).expect(201); // rolled: 60,000; none left in hand
    // The player converts HK$50,000 of cash chips back into dead chips at the table, to keep rolling.
    await exchange({ kind: 'PURCHASE', amount: 5_000_000, settledIn: 'CASH_CHIPS', tableId: pit.table.id }).expect(201);
    const c5 = await coup(TIE, [dead('BANKER', 3_000_000)]).expect(201); // a tie: the Banker bet pushes, the chips stay
    expect(c5.body.wagers[0]).toMatchObject({ chipKind: 'DEAD', result: 'PUSH', net: 0 });
    // Rolled: 30,000. A cash bet of the same patron beside it is not rolling play.
    const c6 = await coup(PLAYER_WINS, [dead('BANKER', 3_000_000), { seat: 1, betType: 'PLAYER', amount: 1_000_000, patronId: card }]).expect(201);
    expect(c6.body.wagers.map((w: { chipKind: string }) => w.chipKind)).toEqual(['DEAD', 'CASH']);
    // The trip ends: HK$20,000 of dead chips exchanged back at the cage.
    await exchange({ kind: 'RETURN', amount: 2_000_000, settledIn: 'CASH_CHIPS', currency: 'HKD' }).expect(201);
  });

  it('counts rolling both ways, and they agree: bought 150,000 − returned 20,000 = lost 130,000', async () => {
    const res = await ctx.as(host).get(`/v1/patrons/${card}/rolling?from=${today()}&to=${today()}`).expect(200);
    expect(res.body.accounts).toEqual([
      {
        currency: 'HKD',
        purchased: 15_000_000,
        returned: 2_000_000,
        netPurchased: 13_000_000,
        rolled: 13_000_000,
        inHand: 0,
        agrees: true,
        wagers: 6,
        handle: 26_000_000,
        // +38,000 − 40,000 + 60,000 − 60,000 + 0 − 30,000: the house won HK$32,000.
        win: 3_200_000,
        rollingWinPercent: '24.6154',
        // Banker 140,000 × 1.0579 % + Player 120,000 × 1.2351 % (8 decks, the exact edges of §4):
        // 296,316.57 cents, checked from §4's outcome probabilities apart from the engine's edges.
        theoreticalWin: 296_317,
        theoreticalWinStdDev: expect.any(Number),
        theoreticalRollingWinPercent: '2.5217',
        programme: null,
      },
    ]);
    // √(2·40,000²·0.860019 + 2·60,000²·0.904691 + 2·30,000²·0.860019) in cents: each coup's own variance.
    expect(Math.abs(res.body.accounts[0].theoreticalWinStdDev - 10_398_978)).toBeLessThanOrEqual(2);
  });

  it('under a programme: commission and allowance on the rolling, or a share of the win, with the win net of them', async () => {
    const property = '00000000-0000-4000-8000-000000000001';
    const finance = await givenKey(ctx, 'FINANCE');
    // Each programme's terms requested by one credit officer, approved by another, recorded quoting the request.
    const add = (terms: ProgrammeTerms) => givenProgramme(ctx, finance, property, terms);
    await add({ code: `ROLL-${process.pid}`, name: 'Rolling 1.2 %', basis: 'ROLLING', commissionBps: 120, allowanceBps: 20, effectiveFrom: today() });
    await add({ code: `SHARE-${process.pid}`, name: 'Win/loss 40 %', basis: 'WIN_LOSS', commissionBps: 4_000, effectiveFrom: today() });
    const under = async (code: string) =>
      (await ctx.as(host).get(`/v1/patrons/${card}/rolling?from=${today()}&to=${today()}&propertyId=${property}&programme=${code}`).expect(200)).body
        .accounts[0].programme;
    // 1.2 % of HK$130,000 rolled = 1,560.00; 0.2 % allowance = 260.00; the house keeps 32,000 − 1,820 = 30,180.00.
    expect(await under(`ROLL-${process.pid}`)).toEqual({
      code: `ROLL-${process.pid}`,
      commission: 156_000,
      allowance: 26_000,
      netWin: 3_018_000,
      daysOutside: [],
    });
    // 40 % of the house's HK$32,000 win = 12,800.00; the house keeps 19,200.00.
    expect(await under(`SHARE-${process.pid}`)).toEqual({
      code: `SHARE-${process.pid}`,
      commission: 1_280_000,
      allowance: 0,
      netWin: 1_920_000,
      daysOutside: [],
    });
  });

  it('lists the exchanges, oldest first', async () => {
    const res = await ctx.as(auditor).get(`/v1/patrons/${card}/chip-exchanges?from=${today()}&to=${today()}`).expect(200);
    expect(res.body.map((e: { kind: string; amount: number; settledIn: string }) => [e.kind, e.amount, e.settledIn])).toEqual([
      ['PURCHASE', 10_000_000, 'FRONT_MONEY'],
      ['PURCHASE', 5_000_000, 'CASH_CHIPS'],
      ['RETURN', 2_000_000, 'CASH_CHIPS'],
    ]);
  });

  it('the audit verifies the exchanges and the dead-chip wagers', async () => {
    expect((await ctx.as(auditor).get('/v1/audit/verify')).body).toMatchObject({ ok: true });
  });
});

describe('dead chips on the layout', () => {
  it('a dead-chip bet of nobody is refused, and nothing is written', async () => {
    const pit = await givenPit(ctx);
    const before = await databaseSnapshot(ctx.prisma);
    const res = await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: BANKER_WINS, wagers: [{ seat: 3, betType: 'BANKER', amount: 1_000, chipKind: 'DEAD' }] });
    expect([res.status, res.body.code]).toEqual([422, 'DEAD_CHIPS_NEED_PATRON']);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
  });

  it('a dead-chip bet of the patron seated is theirs; a tie bet carried stays in dead chips', async () => {
    const card = `VS-${process.pid}`;
    await givenPatrons(ctx, card);
    const pit = await givenPit(ctx, { tieBetsStay: true });
    await ctx.as(pit.terminal).post(`/v1/tables/${pit.table.id}/seatings`, { patronId: card, seat: 2 }).expect(201);
    const tied = await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: TIE, wagers: [{ seat: 2, betType: 'BANKER', amount: 5_000, chipKind: 'DEAD' }] })
      .expect(201);
    expect(tied.body.wagers[0]).toMatchObject({ patronId: card, chipKind: 'DEAD' });
    expect(tied.body.carriedForward[0]).toMatchObject({ patronId: card, chipKind: 'DEAD', status: 'OPEN' });
    const next = await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: PLAYER_WINS, wagers: [] }).expect(201);
    expect(next.body.wagers[0]).toMatchObject({ chipKind: 'DEAD', result: 'LOSE' });
  });

  it.each([
    ['chips that are not cash or dead', { seat: 1, betType: 'BANKER', amount: 1_000, chipKind: 'GOLD' }],
    ['chips as a number', { seat: 1, betType: 'BANKER', amount: 1_000, chipKind: 1 }],
  ])('%s: 400, nothing written', async (_what, wager) => {
    const pit = await givenPit(ctx);
    const before = await databaseSnapshot(ctx.prisma);
    const res = await ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { cards: BANKER_WINS, wagers: [wager] });
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
  });
});

describe('what an exchange may not be', () => {
  const card = `VX-${process.pid}`;
  beforeAll(() => givenPatrons(ctx, card));

  it.each([
    ['a return into a marker', { kind: 'RETURN', amount: 100, settledIn: 'MARKER' }, 400, 'VALIDATION_FAILED'],
    [
      'dead chips bought for cash at the table (cash goes to front money first)',
      { kind: 'PURCHASE', amount: 100, settledIn: 'CASH' },
      400,
      'VALIDATION_FAILED',
    ],
    ['nothing', { kind: 'PURCHASE', amount: 0, settledIn: 'FRONT_MONEY' }, 400, 'VALIDATION_FAILED'],
    ['a fraction', { kind: 'PURCHASE', amount: 10.5, settledIn: 'FRONT_MONEY' }, 400, 'VALIDATION_FAILED'],
    ['an unknown table', { kind: 'PURCHASE', amount: 100, settledIn: 'FRONT_MONEY', tableId: '00000000-0000-4000-8000-00000000abcd' }, 404, 'NOT_FOUND'],
  ])('%s: refused, nothing written', async (_what, body, status, code) => {
    const before = await databaseSnapshot(ctx.prisma);
    const res = await ctx.as(cashier).post(`/v1/patrons/${card}/chip-exchanges`, body);
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
  });

  it('in another currency than the table’s: refused', async () => {
    const pit = await givenPit(ctx, { currency: 'HKD' });
    const res = await ctx
      .as(cashier)
      .post(`/v1/patrons/${card}/chip-exchanges`, { kind: 'PURCHASE', amount: 100, settledIn: 'FRONT_MONEY', tableId: pit.table.id, currency: 'MOP' });
    expect([res.status, res.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('a return of more dead chips than the patron holds: refused (the cage pays out for no chips it did not issue)', async () => {
    const holder = `VH-${process.pid}`;
    await givenPatrons(ctx, holder);
    const before = await databaseSnapshot(ctx.prisma);
    const none = await ctx
      .as(cashier)
      .post(`/v1/patrons/${holder}/chip-exchanges`, { kind: 'RETURN', amount: 500_000, settledIn: 'CASH_CHIPS', currency: 'EUR' });
    expect([none.status, none.body.code]).toEqual([422, 'DEAD_CHIPS_NOT_HELD']);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
    await deposit(holder, 300_000, 'EUR');
    await ctx
      .as(cashier)
      .post(`/v1/patrons/${holder}/chip-exchanges`, { kind: 'PURCHASE', amount: 300_000, settledIn: 'FRONT_MONEY', currency: 'EUR' })
      .expect(201);
    const pit = await givenPit(ctx);
    await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`, {
        cards: PLAYER_WINS,
        wagers: [{ seat: 1, betType: 'BANKER', amount: 100_000, patronId: holder, chipKind: 'DEAD' }],
      })
      .expect(201);
    // Held: 300,000 bought − 100,000 lost. One more than that is refused; that much is taken.
    const over = await ctx
      .as(cashier)
      .post(`/v1/patrons/${holder}/chip-exchanges`, { kind: 'RETURN', amount: 200_001, settledIn: 'CASH_CHIPS', currency: 'EUR' });
    expect(over.body).toMatchObject({ code: 'DEAD_CHIPS_NOT_HELD', details: { held: 200_000 } });
    await ctx
      .as(cashier)
      .post(`/v1/patrons/${holder}/chip-exchanges`, { kind: 'RETURN', amount: 200_000, settledIn: 'CASH_CHIPS', currency: 'EUR' })
      .expect(201);
  });

  it('for a card nobody registered: refused', async () => {
    const res = await ctx.as(cashier).post('/v1/patrons/NOBODY-1/chip-exchanges', { kind: 'PURCHASE', amount: 100, settledIn: 'FRONT_MONEY' });
    expect([res.status, res.body.code]).toEqual([422, 'UNKNOWN_PATRON']);
  });

  it('by a terminal: forbidden; and a rolling account of a card nobody registered: 404', async () => {
    const pit = await givenPit(ctx);
    expect((await ctx.as(pit.terminal).post(`/v1/patrons/${card}/chip-exchanges`, { kind: 'PURCHASE', amount: 100, settledIn: 'FRONT_MONEY' })).status).toBe(
      403,
    );
    expect((await ctx.as(host).get(`/v1/patrons/NOBODY-2/rolling?from=${today()}&to=${today()}`)).status).toBe(404);
  });
});

describe('what a programme may not be', () => {
  const property = '00000000-0000-4000-8000-000000000001';
  let finance: string;
  beforeAll(async () => {
    finance = await givenKey(ctx, 'FINANCE');
  });
  const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const yesterday = () => new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const body = (o: object): ProgrammeTerms => ({ code: `P-${process.pid}`, name: 'x', basis: 'ROLLING', commissionBps: 100, effectiveFrom: tomorrow(), ...o });

  it.each([
    ['back-dated (a day already begun)', () => body({ effectiveFrom: yesterday() }), 400, 'VALIDATION_FAILED'],
    ['a rate over 100 %', () => body({ commissionBps: 10_001 }), 400, 'VALIDATION_FAILED'],
    ['a negative allowance', () => body({ allowanceBps: -1 }), 400, 'VALIDATION_FAILED'],
    ['an unknown basis', () => body({ basis: 'TURNOVER' }), 400, 'VALIDATION_FAILED'],
    ['a code with spaces', () => body({ code: 'VIP ROLL' }), 400, 'VALIDATION_FAILED'],
  ])('%s: refused when requested, nothing written', async (_what, make, status, code) => {
    const { requester } = await givenCreditOfficers(ctx);
    const before = await databaseSnapshot(ctx.prisma);
    const res = await ctx.as(requester).post(`/v1/properties/${property}/credit-requests`, { act: 'PROGRAMME', ...make(), reason: 'x' });
    expect([res.status, res.body.code]).toEqual([status, code]);
    expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
  });

  it('a version on or before the latest of its code: CONFLICT; after it: taken, and both listed', async () => {
    const code = `V-${process.pid}`;
    const same = body({ code, effectiveFrom: tomorrow() });
    // Two requests for the same version, both approved before either is recorded: the second record is refused.
    const [first, second] = [await approvedProgrammeRequest(ctx, property, same), await approvedProgrammeRequest(ctx, property, same)];
    await ctx
      .as(finance)
      .post(`/v1/properties/${property}/rolling-programmes`, { ...same, requestId: first })
      .expect(201);
    const again = await ctx.as(finance).post(`/v1/properties/${property}/rolling-programmes`, { ...same, requestId: second });
    expect([again.status, again.body.code]).toEqual([409, 'CONFLICT']);
    // Asked for once the version is on file: refused when asked, as its record would be; and a new version from today too.
    const { requester } = await givenCreditOfficers(ctx);
    const ask = (terms: object) => ctx.as(requester).post(`/v1/properties/${property}/credit-requests`, { act: 'PROGRAMME', ...terms, reason: 'terms' });
    const asked = await ask(same);
    expect([asked.status, asked.body.code]).toEqual([409, 'CONFLICT']);
    expect(asked.body.message).toContain('a new version starts after it');
    const later = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    await givenProgramme(ctx, finance, property, body({ code, commissionBps: 90, effectiveFrom: later }));
    const list = await ctx.as(finance).get(`/v1/properties/${property}/rolling-programmes`).expect(200);
    expect(list.body.filter((p: { code: string }) => p.code === code).map((p: { commissionBps: number }) => p.commissionBps)).toEqual([100, 90]);
    // Asked while it could start, approved after another version took its day: not approved, said why.
    const later10 = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
    const pending = (await ask(body({ code, commissionBps: 80, effectiveFrom: later10 })).expect(201)).body;
    await givenProgramme(ctx, finance, property, body({ code, commissionBps: 85, effectiveFrom: later10 }));
    const { approver } = await givenCreditOfficers(ctx);
    const stale = await ctx.as(approver).post(`/v1/credit-requests/${pending.id}/approve`, {});
    expect([stale.status, stale.body.code]).toEqual([409, 'CREDIT_REQUEST_STALE']);
    expect(stale.body.message).toContain('reject this request and ask again');
  });

  it('a terminal may not set one; an unknown property: 404; a programme asked for without its property, or unknown: refused', async () => {
    const pit = await givenPit(ctx);
    expect((await ctx.as(pit.terminal).post(`/v1/properties/${property}/rolling-programmes`, body({}))).status).toBe(403);
    expect((await ctx.as(finance).post('/v1/properties/00000000-0000-4000-8000-00000000abcd/rolling-programmes', body({}))).status).toBe(404);
    await givenPatrons(ctx, 'PRG-1');
    const noProperty = await ctx.as(host).get(`/v1/patrons/PRG-1/rolling?from=${today()}&to=${today()}&programme=X`);
    expect([noProperty.status, noProperty.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const unknown = await ctx.as(host).get(`/v1/patrons/PRG-1/rolling?from=${today()}&to=${today()}&programme=NOPE&propertyId=${property}`);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('the superuser', () => {
  let su: Client;
  const card = `VT-${process.pid}`;
  let wagerId: string;
  beforeAll(async () => {
    await givenPatrons(ctx, card);
    const pit = await givenPit(ctx);
    await deposit(card, 100_000, 'EUR');
    await ctx
      .as(cashier)
      .post(`/v1/patrons/${card}/chip-exchanges`, { kind: 'PURCHASE', amount: 100_000, settledIn: 'FRONT_MONEY', currency: 'EUR' })
      .expect(201);
    const c = await ctx
      .as(pit.terminal)
      .post(`/v1/shoes/${pit.shoe.id}/coups`, {
        cards: PLAYER_WINS,
        wagers: [{ seat: 1, betType: 'BANKER', amount: 10_000, patronId: card, chipKind: 'DEAD' }],
      })
      .expect(201);
    wagerId = c.body.wagers[0].id;
    su = new Client({ connectionString: ctx.databaseUrl });
    await su.connect();
  });
  afterAll(() => su?.end());
  afterEach(() => su.query('RESET session_replication_role'));

  const findings = async () => {
    const res = await ctx.as(auditor).get('/v1/audit/verify').expect(200);
    return res.body.problems.map((p: { reason: string }) => p.reason).join('\n');
  };

  it('turns a rolled dead-chip wager into cash behind the triggers: the wager no longer matches its entry', async () => {
    await su.query('SET session_replication_role = replica');
    await su.query('UPDATE wagers SET dead_chips = NULL WHERE id = $1', [wagerId]);
    expect(await findings()).toContain('differs from what the audit log says was settled');
    await su.query('UPDATE wagers SET dead_chips = true WHERE id = $1', [wagerId]);
  });

  it('writes a return of dead chips around the service: it has no seal', async () => {
    await su.query('SET session_replication_role = replica');
    await su.query(
      `INSERT INTO chip_exchanges (id, property_id, patron_id, kind, amount, currency, settled_in, gaming_day, at, recorded_by_key_id)
       VALUES (gen_random_uuid(), '00000000-0000-4000-8000-000000000001', $1, 'RETURN', 90000, 'EUR', 'CASH_CHIPS', current_date, now(), 'nobody')`,
      [card],
    );
    expect(await findings()).toContain('has no seal');
  });
});

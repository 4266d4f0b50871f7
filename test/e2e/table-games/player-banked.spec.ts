import { gamingDayOf } from '../../../src/domain';
import { databaseSnapshot, startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPit } from '../../support/builders';

/**
 * Whole shoes of the player-banked games through the API, with known cards and every amount worked
 * out by hand (commission 5 %, floored to the minor unit): who pays whom, the house's commission,
 * the bank before and after, who holds the bank next, and the commission in the reports.
 */
let ctx: TestContext;
let finance: string;
const today = () => gamingDayOf(new Date(), 'UTC', 6);

beforeAll(async () => {
  ctx = await startTestApp();
  finance = await givenKey(ctx, 'FINANCE');
});
afterAll(() => ctx.close());

/** Everything a refused request must leave as it was: every row of every table. */
const state = () => databaseSnapshot(ctx.prisma);

async function refused(call: () => Promise<{ status: number; body: { code: string; message: string } }>, status: number, code: string) {
  const before = await state();
  const res = await call();
  expect([res.status, res.body.code]).toEqual([status, code]);
  expect(res.body.message).toEqual(expect.any(String));
  expect(await state()).toEqual(before);
  return res.body;
}

const STAND_5_VS_7 = { player: ['KS', '5D'], banker: ['7H', 'KC'] }; // punter stands on 5 (his choice), banker 7 stands: banker wins
const NATURAL_9_VS_8 = { player: ['9S', 'KD'], banker: ['8H', 'KC'] }; // punters win
const TIE_6 = { player: ['KS', '6D'], banker: ['3H', '2C', 'AS'] }; // punter stands on 6; banker 5 draws: 6 all

describe('chemin de fer: a whole shoe', () => {
  it('a banker wins three coups running (banco, banco suivi, a tie between), retires; the bank is offered, taken, lost and passed', async () => {
    const pit = await givenPit(ctx, { code: 'CHEMMY-1', variant: 'CHEMIN_DE_FER' });
    const t = ctx.as(pit.terminal);
    const shoe = pit.shoe.id;

    // Seat 1 opens the bank at 10,000; seats 1–6 play, the bank travelling 1 → 2 → … → 6.
    const opened = await t.post(`/v1/shoes/${shoe}/banks`, { bankerSeat: 1, amount: 10_000, rotation: [1, 2, 3, 4, 5, 6] });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ number: 1, game: 'CHEMIN_DE_FER', bankerSeat: 1, how: 'NEW', bank: 10_000, status: 'ACTIVE', nextBanker: 1 });
    const bank1 = opened.body.id;

    // Coup 1: seats 2 and 3 cover 5,000 of the 10,000; 5,000 is set aside for the banker. Banker wins.
    const c1 = await t.post(`/v1/banks/${bank1}/coups`, {
      cards: STAND_5_VS_7,
      stakes: [
        { seat: 2, amount: 3_000 },
        { seat: 3, amount: 2_000 },
      ],
    });
    expect(c1.status).toBe(201);
    expect(c1.body).toMatchObject({
      number: 1,
      bankerSeat: 1,
      bankBefore: 10_000,
      covered: 5_000,
      setAside: 5_000,
      commission: 250,
      bankAfter: 9_750,
      nextBanker: 1,
      handPlayer: 2,
      outcome: { winner: 'BANKER', punterTotal: 5, bankerTotal: 7 },
      punters: [
        { seat: 2, stake: 3_000, net: -3_000 },
        { seat: 3, stake: 2_000, net: -2_000 },
      ],
      bank: { bank: 9_750, setAside: 5_000, houseCommission: 250, status: 'ACTIVE', coups: 1 },
    });

    // Coup 2: seat 4 calls banco (covers the whole 9,750) and loses: 5 % of 9,750 = 487.5 → 487.
    const c2 = await t.post(`/v1/banks/${bank1}/coups`, { cards: STAND_5_VS_7, stakes: [{ seat: 4, call: 'BANCO' }] });
    expect(c2.body).toMatchObject({
      bankBefore: 9_750,
      covered: 9_750,
      setAside: 0,
      commission: 487,
      bankAfter: 2 * 9_750 - 487,
      punters: [{ seat: 4, stake: 9_750, net: -9_750, call: 'BANCO' }],
      bank: { bancoSuivi: 4 },
    });

    // Someone else cannot claim seat 4's banco suivi.
    await refused(() => t.post(`/v1/banks/${bank1}/coups`, { cards: TIE_6, stakes: [{ seat: 5, call: 'BANCO_SUIVI' }] }), 422, 'INVALID_STAKES');
    // Nor may the stakes exceed the bank (19,013).
    await refused(
      () =>
        t.post(`/v1/banks/${bank1}/coups`, {
          cards: TIE_6,
          stakes: [
            { seat: 5, amount: 19_000 },
            { seat: 6, amount: 100 },
          ],
        }),
      422,
      'STAKES_EXCEED_BANK',
    );
    // Nor two bancos at once.
    await refused(
      () =>
        t.post(`/v1/banks/${bank1}/coups`, {
          cards: TIE_6,
          stakes: [
            { seat: 5, call: 'BANCO' },
            { seat: 6, call: 'BANCO' },
          ],
        }),
      422,
      'BANCO_CONFLICT',
    );
    // Nor a draw the rules forbid: the punter stands on 7.
    await refused(
      () =>
        t.post(`/v1/banks/${bank1}/coups`, { cards: { player: ['KS', '7D', '2C'], banker: ['3H', '2C', 'AS'] }, stakes: [{ seat: 4, call: 'BANCO_SUIVI' }] }),
      422,
      'MISDEAL',
    );

    // Coup 3: seat 4's banco suivi covers 19,013; a tie: the stakes stand, nothing moves.
    const c3 = await t.post(`/v1/banks/${bank1}/coups`, { cards: TIE_6, stakes: [{ seat: 4, call: 'BANCO_SUIVI' }] });
    expect(c3.body).toMatchObject({
      bankBefore: 19_013,
      covered: 19_013,
      commission: 0,
      bankAfter: 19_013,
      stakesStand: true,
      punters: [{ seat: 4, net: 0 }],
      bank: { standingStakes: [{ seat: 4, amount: 19_013, call: 'BANCO_SUIVI' }] },
    });
    // The banker may not retire with stakes standing, nor may other stakes replace them.
    await refused(() => t.post(`/v1/banks/${bank1}/retire`, {}), 409, 'BANK_NOT_RETIRABLE');
    await refused(() => t.post(`/v1/banks/${bank1}/coups`, { cards: STAND_5_VS_7, stakes: [{ seat: 5, amount: 1_000 }] }), 409, 'STAKES_STAND');

    // Coup 4: the standing banco is played again (stakes left out) and loses: 5 % of 19,013 = 950.65 → 950.
    const c4 = await t.post(`/v1/banks/${bank1}/coups`, { cards: STAND_5_VS_7 });
    expect(c4.body).toMatchObject({
      bankBefore: 19_013,
      covered: 19_013,
      commission: 950,
      bankAfter: 2 * 19_013 - 950,
      punters: [{ seat: 4, stake: 19_013, net: -19_013 }],
      bank: { standingStakes: null, houseCommission: 250 + 487 + 950 },
    });

    // The banker retires with the bank (37,076) and the 5,000 set aside; the bank is offered at 37,076.
    const retired = await t.post(`/v1/banks/${bank1}/retire`, {});
    expect(retired.status).toBe(200);
    expect(retired.body).toMatchObject({ status: 'RETIRED', bank: 37_076, setAside: 5_000, bankerTakes: 42_076, offer: 37_076, nextBanker: 2 });
    // A retired banker no longer acts.
    await refused(() => t.post(`/v1/banks/${bank1}/coups`, { cards: STAND_5_VS_7, stakes: [{ seat: 2, amount: 1_000 }] }), 409, 'BANK_CLOSED');
    await refused(() => t.post(`/v1/banks/${bank1}/retire`, {}), 409, 'BANK_CLOSED');

    // Seat 2 declines the offer; seat 4 cannot jump the rotation: seat 3 is next. Seat 3 may not
    // take it for less than the offer; it puts up 40,000 and takes it out of turn (seat 2's turn).
    const wrong = await refused(() => t.post(`/v1/shoes/${shoe}/banks`, { bankerSeat: 4, amount: 40_000, declined: [2] }), 409, 'WRONG_BANKER');
    expect(wrong.message).toContain('seat 3');
    await refused(() => t.post(`/v1/shoes/${shoe}/banks`, { bankerSeat: 3, amount: 37_075, declined: [2] }), 422, 'BANK_BELOW_OFFER');
    const taken = await t.post(`/v1/shoes/${shoe}/banks`, { bankerSeat: 3, amount: 40_000, declined: [2] });
    expect(taken.body).toMatchObject({ number: 2, bankerSeat: 3, how: 'OFFER_TAKEN', bank: 40_000, rotation: [1, 2, 3, 4, 5, 6], outOfTurnFor: 2 });
    await refused(() => t.post(`/v1/shoes/${shoe}/banks`, { bankerSeat: 4, amount: 1_000 }), 409, 'BANK_ALREADY_ACTIVE');

    // Coup 5: seats 4, 5, 6 cover 25,000; a bystander behind seat 2 adds 5,000; 10,000 uncovered is
    // set aside. Seats 4 and 5 stake the same: seat 4, first from the banker's right, plays the hand.
    // The punters win: the banker pays 30,000 and keeps the 10,000 set aside. Seat 3 held the bank out
    // of turn, so the rotation did not move: the bank goes back to seat 2, the first who declined.
    const c5 = await t.post(`/v1/banks/${taken.body.id}/coups`, {
      cards: NATURAL_9_VS_8,
      stakes: [
        { seat: 4, amount: 10_000 },
        { seat: 5, amount: 10_000 },
        { seat: 6, amount: 5_000 },
        { seat: 2, amount: 5_000, bystander: true },
      ],
    });
    expect(c5.body).toMatchObject({
      number: 5,
      bankerSeat: 3,
      bankBefore: 40_000,
      covered: 30_000,
      setAside: 10_000,
      commission: 0,
      bankAfter: null,
      nextBanker: 2,
      handPlayer: 4,
      punters: [
        { seat: 4, net: 10_000 },
        { seat: 5, net: 10_000 },
        { seat: 6, net: 5_000 },
        { seat: 2, net: 5_000, bystander: true },
      ],
      bank: { status: 'PASSED', bankerTakes: 10_000, nextBanker: 2 },
    });

    // The next bank is seat 2's, at any amount within the table's limits.
    await refused(() => t.post(`/v1/shoes/${shoe}/banks`, { bankerSeat: 4, amount: 5_000 }), 409, 'WRONG_BANKER');
    await refused(() => t.post(`/v1/shoes/${shoe}/banks`, { bankerSeat: 2, amount: 50 }), 422, 'BET_LIMIT');
    const passed = await t.post(`/v1/shoes/${shoe}/banks`, { bankerSeat: 2, amount: 5_000 });
    expect(passed.body).toMatchObject({ number: 3, bankerSeat: 2, how: 'PASSED', bank: 5_000, outOfTurnFor: null });
    // The banker may add to the bank before a coup: 5,000 + 1,000 at stake; seat 5 covers 6,000 and loses.
    const c6 = await t.post(`/v1/banks/${passed.body.id}/coups`, { cards: STAND_5_VS_7, bankerAdds: 1_000, stakes: [{ seat: 5, amount: 6_000 }] });
    expect(c6.body).toMatchObject({ bankBefore: 6_000, covered: 6_000, commission: 300, bankAfter: 11_700 });

    // The shoe's record, and the house's commission — its only revenue here — in the reports.
    const banks = (await t.get(`/v1/shoes/${shoe}/banks`)).body;
    expect(banks.map((b: { number: number; status: string; bankerSeat: number }) => [b.number, b.bankerSeat, b.status])).toEqual([
      [1, 1, 'RETIRED'],
      [2, 3, 'PASSED'],
      [3, 2, 'ACTIVE'],
    ]);
    expect((await t.get(`/v1/banks/${bank1}/coups`)).body.map((c: { number: number; commission: number }) => c.commission)).toEqual([250, 487, 0, 950]);
    const report = await ctx.as(finance).get(`/v1/reports/win-loss?from=${today()}&to=${today()}&groupBy=table`);
    const row = report.body.rows.find((r: { group: { tableCode: string } }) => r.group.tableCode === 'CHEMMY-1');
    expect(row).toMatchObject({ wagers: 0, handle: 0, win: 0, bankedCoups: 6, houseCommission: 250 + 487 + 950 + 300, totalRevenue: 1_987 });
    const day = today();
    const quarterly = await ctx.as(finance).get(`/v1/reports/quarterly?year=${day.slice(0, 4)}&quarter=${Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1}`);
    expect(quarterly.body.tables.find((l: { group: { tableCode: string } }) => l.group.tableCode === 'CHEMMY-1')).toMatchObject({
      houseCommission: 1_987,
      bankedCoups: 6,
      handle: 0,
    });
    const rec = await ctx.as(finance).get(`/v1/reports/reconciliation?from=${today()}&to=${today()}`);
    expect([rec.body.ok, rec.body.differences]).toEqual([true, []]);

    // Closing the shoe ends the active bank: its banker takes the bank.
    expect((await ctx.as(pit.supervisor).post(`/v1/shoes/${shoe}/close`, {})).status).toBe(200);
    expect((await t.get(`/v1/banks/${passed.body.id}`)).body).toMatchObject({ status: 'SHOE_CLOSED', bankerTakes: 11_700 });
  });

  it('the first bank needs the rotation; a casino-banked table has no banks', async () => {
    const pit = await givenPit(ctx, { code: 'CHEMMY-2', variant: 'CHEMIN_DE_FER' });
    await refused(() => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/banks`, { bankerSeat: 1, amount: 1_000 }), 400, 'VALIDATION_FAILED');
    await refused(() => ctx.as(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/banks`, { bankerSeat: 7, amount: 1_000, rotation: [1, 2] }), 422, 'INVALID_STAKES');
    const puntoBanco = await givenPit(ctx, { code: 'PB-1' });
    await refused(
      () => ctx.as(puntoBanco.terminal).post(`/v1/shoes/${puntoBanco.shoe.id}/banks`, { bankerSeat: 1, amount: 1_000, rotation: [1, 2] }),
      422,
      'NOT_PLAYER_BANKED',
    );
    // A terminal of another table cannot touch this game.
    await refused(
      () => ctx.as(puntoBanco.terminal).post(`/v1/shoes/${pit.shoe.id}/banks`, { bankerSeat: 1, amount: 1_000, rotation: [1, 2] }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('baccarat banque: a whole shoe', () => {
  it('two sides settled apart, à cheval, opposite bancos at half shares, a retirement continued from the same cards, a bank that cannot pay everyone', async () => {
    const pit = await givenPit(ctx, { code: 'BANQUE-1', variant: 'BANQUE' });
    const t = ctx.as(pit.terminal);
    const shoe = pit.shoe.id;
    const b1 = await t.post(`/v1/shoes/${shoe}/banks`, { bankerSeat: 1, amount: 20_000, rotation: [1, 2, 3, 4, 5, 6], how: 'AUCTION' });
    expect(b1.body).toMatchObject({ game: 'BANQUE', how: 'AUCTION', bank: 20_000 });
    // A banque banker may not retire before a coup.
    await refused(() => t.post(`/v1/banks/${b1.body.id}/retire`, { amount: 20_000 }), 409, 'BANK_NOT_RETIRABLE');

    // Coup 1: right wins (natural 9 against the banker's 7), left loses (5 against 7). The natural ends
    // the coup for everyone: the left stands on its two cards.
    // Seat 2 right 5,000 wins; seat 3 left 4,000 loses; seat 4 à cheval 3,001 = 1,501 right (wins) + 1,500 left (loses).
    const c1 = await t.post(`/v1/banks/${b1.body.id}/coups`, {
      cards: { right: ['9S', 'KD'], left: ['2H', '3C'], banker: ['7H', 'KC'] },
      stakes: [
        { seat: 2, side: 'RIGHT', amount: 5_000 },
        { seat: 3, side: 'LEFT', amount: 4_000 },
        { seat: 4, side: 'A_CHEVAL', amount: 3_001 },
      ],
    });
    expect(c1.status).toBe(201);
    expect(c1.body).toMatchObject({
      bankBefore: 20_000,
      covered: 12_001,
      commission: 0,
      bankAfter: 20_000 + 5_500 - 6_501,
      nextBanker: 1,
      bankBroken: false,
      outcome: { right: { winner: 'PUNTER', punterTotal: 9 }, left: { winner: 'BANKER', punterTotal: 5 }, bankerTotal: 7 },
      punters: [
        { seat: 2, net: 5_000 },
        { seat: 3, net: -4_000 },
        { seat: 4, side: 'A_CHEVAL', stake: 3_001, net: 1 },
      ],
    });

    // Two bancos on the same side conflict; one from each side goes half shares (18,999: 9,500 right, 9,499 left).
    await refused(
      () =>
        t.post(`/v1/banks/${b1.body.id}/coups`, {
          cards: { right: ['KS', '5D'], left: ['TS', '4D', 'KH'], banker: ['7C', 'KD'] },
          stakes: [
            { seat: 2, side: 'RIGHT', call: 'BANCO' },
            { seat: 5, side: 'RIGHT', call: 'BANCO' },
          ],
        }),
      422,
      'BANCO_CONFLICT',
    );
    // A draw the rules forbid: a punter hand on 4 must draw.
    await refused(
      () =>
        t.post(`/v1/banks/${b1.body.id}/coups`, {
          cards: { right: ['KS', '5D'], left: ['TS', '4D'], banker: ['7C', 'KD'] },
          stakes: [{ seat: 2, side: 'RIGHT', amount: 100 }],
        }),
      422,
      'MISDEAL',
    );
    const c2 = await t.post(`/v1/banks/${b1.body.id}/coups`, {
      cards: { right: ['KS', '5D'], left: ['TS', '4D', 'KH'], banker: ['7C', 'KD'] },
      stakes: [
        { seat: 2, side: 'RIGHT', call: 'BANCO' },
        { seat: 5, side: 'LEFT', call: 'BANCO' },
      ],
    });
    // The banker wins both: 18,999 collected; 5 % = 949.95 → 949.
    expect(c2.body).toMatchObject({
      bankBefore: 18_999,
      covered: 18_999,
      commission: 949,
      bankAfter: 18_999 * 2 - 949,
      punters: [
        { seat: 2, stake: 9_500, net: -9_500 },
        { seat: 5, stake: 9_499, net: -9_499 },
      ],
    });

    // Seat 1 retires, stating 37,049; seat 3 continues the bank from the same cards at that amount.
    const r = await t.post(`/v1/banks/${b1.body.id}/retire`, { amount: 37_049 });
    expect(r.body).toMatchObject({ status: 'RETIRED', bankerTakes: 37_049, offer: 37_049 });
    const b2 = await t.post(`/v1/shoes/${shoe}/banks`, { bankerSeat: 3, amount: 37_049 });
    expect(b2.body).toMatchObject({ number: 2, bankerSeat: 3, how: 'CONTINUED', bank: 37_049 });

    // Coup 3: the right wins, the left loses. A draw after the right's natural is a misdeal; the left's
    // 4 stands undrawn (it would have to draw without the natural), and that record is the right one.
    await refused(
      () =>
        t.post(`/v1/banks/${b2.body.id}/coups`, {
          cards: { right: ['9C', 'KH'], left: ['2S', '2D', 'KC'], banker: ['6H', 'QS'] },
          stakes: [{ seat: 6, side: 'LEFT', amount: 1_000 }],
        }),
      422,
      'MISDEAL',
    );
    // Paid from the banker's right (seats 4, 5, …) while the bank lasts: 37,049 + 1,000 collected; seat 4 gets 30,000, seat 5 the 8,049 left, and no claim on 11,951.
    const c3 = await t.post(`/v1/banks/${b2.body.id}/coups`, {
      cards: { right: ['9C', 'KH'], left: ['2S', '2D'], banker: ['6H', 'QS'] },
      stakes: [
        { seat: 6, side: 'LEFT', amount: 1_000 },
        { seat: 5, side: 'RIGHT', amount: 20_000 },
        { seat: 4, side: 'RIGHT', amount: 30_000 },
      ],
    });
    expect(c3.body).toMatchObject({
      bankBefore: 37_049,
      commission: 0,
      bankAfter: 0,
      bankBroken: true,
      nextBanker: 4,
      punters: [
        { seat: 4, net: 30_000, unpaid: 0 },
        { seat: 5, net: 8_049, unpaid: 11_951 },
        { seat: 6, net: -1_000, unpaid: 0 },
      ],
      bank: { status: 'BROKE', nextBanker: 4 },
    });
    await refused(
      () =>
        t.post(`/v1/banks/${b2.body.id}/coups`, {
          cards: { right: ['9C', 'KH'], left: ['2S', '2D', 'KC'], banker: ['6H', 'QS'] },
          stakes: [{ seat: 4, side: 'RIGHT', amount: 100 }],
        }),
      409,
      'BANK_CLOSED',
    );

    const report = await ctx.as(finance).get(`/v1/reports/win-loss?from=${today()}&to=${today()}&groupBy=variant`);
    const line = report.body.rows.find((x: { group: { variant: string } }) => x.group.variant === 'BANQUE');
    expect(line).toMatchObject({ handle: 0, bankedCoups: 3, houseCommission: 949 });
  });

  it('stakes accepted: the bank pays every winner and stays unlimited for the rest of the shoe', async () => {
    const pit = await givenPit(ctx, { code: 'BANQUE-2', variant: 'BANQUE' });
    const t = ctx.as(pit.terminal);
    const b = await t.post(`/v1/shoes/${pit.shoe.id}/banks`, { bankerSeat: 1, amount: 1_000, rotation: [1, 2, 3] });
    const c = await t.post(`/v1/banks/${b.body.id}/coups`, {
      cards: { right: ['9S', 'KD'], left: ['9H', 'KC'], banker: ['7H', 'KS'] },
      stakes: [
        { seat: 2, side: 'RIGHT', amount: 5_000 },
        { seat: 3, side: 'LEFT', amount: 5_000 },
      ],
      declareStakesAccepted: true,
    });
    expect(c.body).toMatchObject({
      bankAfter: 1_000 - 10_000,
      bankBroken: false,
      punters: [
        { seat: 2, net: 5_000 },
        { seat: 3, net: 5_000 },
      ],
      bank: { status: 'ACTIVE', stakesAccepted: true },
    });
  });
});

describe('voiding a player-banked coup', () => {
  it("two supervisors void the shoe's last coups one by one; the bank goes back to its state before each, reopened if the coup had closed it", async () => {
    const pit = await givenPit(ctx, { code: 'CHEMMY-3', variant: 'CHEMIN_DE_FER' });
    const t = ctx.as(pit.terminal);
    const supervisor2 = await givenKey(ctx, 'SUPERVISOR');
    const bank = (await t.post(`/v1/shoes/${pit.shoe.id}/banks`, { bankerSeat: 1, amount: 10_000, rotation: [1, 2, 3] })).body;
    // Coup 1: seat 2 covers 4,000 and loses (commission 200; bank 7,800; 6,000 set aside).
    const c1 = (await t.post(`/v1/banks/${bank.id}/coups`, { cards: STAND_5_VS_7, stakes: [{ seat: 2, amount: 4_000 }] })).body;
    expect(c1).toMatchObject({ commission: 200, bankAfter: 7_800, setAside: 6_000 });
    // Coup 2: seat 3's banco wins: the bank passes to seat 2.
    const c2 = (await t.post(`/v1/banks/${bank.id}/coups`, { cards: NATURAL_9_VS_8, stakes: [{ seat: 3, call: 'BANCO' }] })).body;
    expect(c2.bank).toMatchObject({ status: 'PASSED', nextBanker: 2 });

    // Coup 1 is not the last: refused at once, nothing written.
    const notLast = await refused(() => ctx.as(pit.supervisor).post(`/v1/bank-coups/${c1.id}/void`, { reason: 'wrong stake' }), 409, 'VOID_NOT_LAST');
    expect(notLast.message).toContain('coup 2 came after it');
    // The database keeps a closed bank closed without a void.
    await expect(ctx.prisma.$executeRaw`UPDATE banks SET status = 'ACTIVE' WHERE id = ${bank.id}::uuid`).rejects.toThrow(/not allowed/);

    // Coup 2 voided by two supervisors: the bank is seat 1's again, as it stood after coup 1.
    const asked = await ctx.as(pit.supervisor).post(`/v1/bank-coups/${c2.id}/void`, { reason: 'Banco called by the wrong seat' });
    expect(asked.status).toBe(202);
    await refused(() => ctx.as(pit.supervisor).post(`/v1/void-requests/${asked.body.voidRequestId}/approve`, {}), 403, 'SAME_PERSON');
    expect((await ctx.as(supervisor2).post(`/v1/void-requests/${asked.body.voidRequestId}/approve`, {})).status).toBe(200);
    expect((await t.get(`/v1/banks/${bank.id}`)).body).toMatchObject({
      status: 'ACTIVE',
      bank: 7_800,
      setAside: 6_000,
      houseCommission: 200,
      coups: 1,
      nextBanker: 1,
      bancoSuivi: null,
    });
    const listed = (await t.get(`/v1/banks/${bank.id}/coups`)).body;
    expect(listed.map((c: { number: number; void: { reason: string } | null }) => [c.number, c.void?.reason ?? null])).toEqual([
      [1, null],
      [2, 'Banco called by the wrong seat'],
    ]);
    await refused(() => ctx.as(pit.supervisor).post(`/v1/bank-coups/${c2.id}/void`, { reason: 'again' }), 409, 'COUP_ALREADY_VOIDED');

    // Now coup 1 is the last one standing: voided, the bank is back to its opening 10,000 and no commission.
    const asked1 = await ctx.as(pit.supervisor).post(`/v1/bank-coups/${c1.id}/void`, { reason: 'Stake recorded on the wrong seat' });
    expect((await ctx.as(supervisor2).post(`/v1/void-requests/${asked1.body.voidRequestId}/approve`, {})).status).toBe(200);
    expect((await t.get(`/v1/banks/${bank.id}`)).body).toMatchObject({ status: 'ACTIVE', bank: 10_000, setAside: 0, houseCommission: 0, coups: 0 });

    // The coup played again, correctly, takes the shoe's next number; reports count only it.
    const again = await t.post(`/v1/banks/${bank.id}/coups`, { cards: STAND_5_VS_7, stakes: [{ seat: 3, amount: 4_000 }] });
    expect(again.body).toMatchObject({ number: 3, commission: 200, bankAfter: 7_800 });
    const row = (await ctx.as(finance).get(`/v1/reports/win-loss?from=${today()}&to=${today()}&groupBy=table`)).body.rows.find(
      (r: { group: { tableCode: string } }) => r.group.tableCode === 'CHEMMY-3',
    );
    expect(row).toMatchObject({ bankedCoups: 1, houseCommission: 200 });
    const rec = await ctx.as(finance).get(`/v1/reports/reconciliation?from=${today()}&to=${today()}`);
    expect([rec.body.ok, rec.body.differences]).toEqual([true, []]);
    const day = today();
    const q = await ctx.as(finance).get(`/v1/reports/quarterly?year=${day.slice(0, 4)}&quarter=${Math.floor((Number(day.slice(5, 7)) - 1) / 3) + 1}`);
    expect(
      q.body.exceptions.voidedBankCoups
        .filter((v: { tableCode: string }) => v.tableCode === 'CHEMMY-3')
        .map((v: { coupNumber: number; commission: number }) => [v.coupNumber, v.commission]),
    ).toEqual([
      [2, 0],
      [1, 200],
    ]);
  });

  it('a retired bank cannot have its coups voided', async () => {
    const pit = await givenPit(ctx, { code: 'CHEMMY-4', variant: 'CHEMIN_DE_FER' });
    const t = ctx.as(pit.terminal);
    const bank = (await t.post(`/v1/shoes/${pit.shoe.id}/banks`, { bankerSeat: 1, amount: 10_000, rotation: [1, 2, 3] })).body;
    const c1 = (await t.post(`/v1/banks/${bank.id}/coups`, { cards: STAND_5_VS_7, stakes: [{ seat: 2, amount: 4_000 }] })).body;
    await t.post(`/v1/banks/${bank.id}/retire`, {});
    await refused(() => ctx.as(pit.supervisor).post(`/v1/bank-coups/${c1.id}/void`, { reason: 'late' }), 409, 'VOID_NOT_LAST');
  });
});

describe('a bank under concurrent requests', () => {
  it('coups sent at once are played one after another on the bank; a retried request with its Idempotency-Key is played once', async () => {
    const pit = await givenPit(ctx, { code: 'CHEMMY-5', variant: 'CHEMIN_DE_FER' });
    const t = ctx.as(pit.terminal);
    const bank = (await t.post(`/v1/shoes/${pit.shoe.id}/banks`, { bankerSeat: 1, amount: 100_000, rotation: [1, 2, 3] })).body;
    const sent = await Promise.all(
      Array.from({ length: 6 }, (_, i) => t.post(`/v1/banks/${bank.id}/coups`, { cards: STAND_5_VS_7, stakes: [{ seat: 2 + (i % 2), amount: 100 }] })),
    );
    expect(sent.map((r) => r.status)).toEqual(Array(6).fill(201));
    const byNumber = sent.map((r) => r.body).sort((a, b) => a.number - b.number);
    expect(byNumber.map((c) => c.number)).toEqual([1, 2, 3, 4, 5, 6]);
    // Each coup staked against the bank the previous one left.
    for (let i = 1; i < 6; i++) expect(byNumber[i].bankBefore).toBe(byNumber[i - 1].bankAfter);
    const key = { 'Idempotency-Key': 'CHEMMY-5-coup-7' };
    const body = { cards: { player: ['QS', '5H'], banker: ['7D', 'QC'] }, stakes: [{ seat: 2, amount: 100 }] }; // six decks hold six K♠: other cards
    const first = await t.post(`/v1/banks/${bank.id}/coups`, body).set(key);
    const retried = await t.post(`/v1/banks/${bank.id}/coups`, body).set(key);
    expect([first.status, retried.status, retried.body.id]).toEqual([201, 201, first.body.id]);
    expect((await t.get(`/v1/banks/${bank.id}`)).body).toMatchObject({ coups: 7, houseCommission: 7 * 5 });
  });
});

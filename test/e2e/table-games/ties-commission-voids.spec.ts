import { startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPatrons, givenPit, givenVoid } from '../../support/builders';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
  await givenPatrons(ctx, 'P-1', 'P-7');
});
afterAll(() => ctx.close());

const TIE = { player: ['KS', '6D'], banker: ['3H', '2C', 'AS'] }; // 6–6
const BANKER_7 = { player: ['KS', '5D', 'KH'], banker: ['7H', 'KC'] };
const PLAYER_9 = { player: ['9S', 'KD'], banker: ['8H', 'KC'] };

describe('ties', () => {
  it('returns tied Player/Banker bets where they do not stay', async () => {
    const { terminal, shoe } = await givenPit(ctx, { tieBetsStay: false });
    const res = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: TIE, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] });
    expect(res.body.wagers[0]).toMatchObject({ result: 'PUSH', net: 0 });
    expect(res.body.carriedForward).toEqual([]);
    const next = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7 });
    expect(next.body.wagers).toEqual([]);
  });

  it('carries tied bets to the next coup as new wagers linked to the original, settled there', async () => {
    const { terminal, shoe } = await givenPit(ctx, { tieBetsStay: true });
    const tie = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, {
      cards: TIE,
      wagers: [
        { seat: 1, betType: 'BANKER', amount: 1000, patronId: 'P-1' },
        { seat: 2, betType: 'PLAYER', amount: 500 },
        { seat: 3, betType: 'TIE', amount: 100 },
      ],
    });
    expect(tie.status).toBe(201);
    const originals = Object.fromEntries(tie.body.wagers.map((w: { betType: string; id: string }) => [w.betType, w.id]));
    expect(tie.body.carriedForward).toHaveLength(2);
    expect(tie.body.carriedForward.map((w: { carriedFromId: string }) => w.carriedFromId).sort()).toEqual([originals.BANKER, originals.PLAYER].sort());
    expect(tie.body.carriedForward.every((w: { status: string; coupId: null }) => w.status === 'OPEN' && w.coupId === null)).toBe(true);

    const next = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 4, betType: 'PLAYER', amount: 200 }] });
    const bySeat = Object.fromEntries(next.body.wagers.map((w: { seat: number }) => [w.seat, w]));
    expect(bySeat[1]).toMatchObject({
      betType: 'BANKER',
      amount: 1000,
      patronId: 'P-1',
      result: 'WIN',
      payout: 1000,
      commission: 50,
      net: 950,
      carriedFromId: originals.BANKER,
    });
    expect(bySeat[2]).toMatchObject({ betType: 'PLAYER', result: 'LOSE', net: -500, carriedFromId: originals.PLAYER });
    expect(bySeat[4]).toMatchObject({ result: 'LOSE', carriedFromId: null });
  });

  it('lets a carried bet be withdrawn before the next coup is dealt, and not after', async () => {
    const { terminal, shoe } = await givenPit(ctx, { tieBetsStay: true });
    const tie = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, {
      cards: TIE,
      wagers: [
        { seat: 1, betType: 'BANKER', amount: 1000 },
        { seat: 2, betType: 'PLAYER', amount: 1000 },
      ],
    });
    const [a, b] = tie.body.carriedForward;
    // Stepwise: open the next coup; the carried bets join it; one is withdrawn before the cards.
    const open = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, {});
    expect(open.status).toBe(201);
    expect(open.body.status).toBe('BETTING');
    expect(open.body.wagers.map((w: { id: string }) => w.id).sort()).toEqual([a.id, b.id].sort());
    const withdrawn = await ctx.as(terminal).post(`/v1/wagers/${a.id}/withdraw`);
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.status).toBe('WITHDRAWN');
    const dealt = await ctx.as(terminal).post(`/v1/coups/${open.body.id}/cards`, PLAYER_9);
    expect(dealt.status).toBe(200);
    expect(dealt.body.wagers.find((w: { id: string }) => w.id === a.id)).toMatchObject({ status: 'WITHDRAWN', result: null, net: null });
    expect(dealt.body.wagers.find((w: { id: string }) => w.id === b.id)).toMatchObject({ status: 'SETTLED', result: b.betType === 'PLAYER' ? 'WIN' : 'LOSE' });
    const late = await ctx.as(terminal).post(`/v1/wagers/${b.id}/withdraw`);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('WAGER_NOT_WITHDRAWABLE');
    const original = tie.body.wagers[0].id;
    const notCarried = await ctx.as(terminal).post(`/v1/wagers/${original}/withdraw`);
    expect(notCarried.body.code).toBe('WAGER_NOT_WITHDRAWABLE');
  });

  it('returns carried bets when the shoe closes before another coup', async () => {
    const { terminal, shoe } = await givenPit(ctx, { tieBetsStay: true });
    await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: TIE, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] });
    const closed = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/close`);
    expect(closed.status).toBe(200);
    expect(closed.body.carriedBetsReturned).toBe(1);
    expect(await ctx.prisma.wager.count({ where: { shoeId: shoe.id, status: 'OPEN' } })).toBe(0);
  });
});

describe('stepwise recording', () => {
  it("reads a coup's outcome back as it was settled: the pairs and special wins follow from the stored cards", async () => {
    const { terminal, shoe } = await givenPit(ctx, { variant: 'EZ', sideBets: ['DRAGON_7', 'PANDA_8'] });
    // Player 2-2 draws a ten (4); Banker A-A draws a five: Banker wins with three cards totalling 7.
    const cards = { player: ['2S', '2D', 'KH'], banker: ['AH', 'AC', '5D'] };
    const dealt = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards, wagers: [{ seat: 1, betType: 'DRAGON_7', amount: 1000 }] });
    expect(dealt.status).toBe(201);
    expect(dealt.body.outcome).toMatchObject({
      winner: 'BANKER',
      playerTotal: 4,
      bankerTotal: 7,
      natural: false,
      playerPair: true,
      bankerPair: true,
      dragon7: true,
    });
    const read = await ctx.as(terminal).get(`/v1/coups/${dealt.body.id}`);
    expect(read.body.outcome).toEqual(dealt.body.outcome);
    expect(read.body.cards).toEqual(cards);
  });

  it('opens a coup, adds wagers while betting is open, then settles on the cards', async () => {
    const { terminal, shoe } = await givenPit(ctx);
    const open = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { wagers: [{ seat: 1, betType: 'PLAYER', amount: 1000 }] });
    expect(open.body).toMatchObject({ number: 1, status: 'BETTING', cards: null, outcome: null });
    const more = await ctx.as(terminal).post(`/v1/coups/${open.body.id}/wagers`, { wagers: [{ seat: 2, betType: 'BANKER', amount: 2000 }] });
    expect(more.status).toBe(201);
    expect(more.body.wagers).toHaveLength(2);
    const busy = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: PLAYER_9 });
    expect(busy.body.code).toBe('COUP_IN_PROGRESS');
    const dealt = await ctx.as(terminal).post(`/v1/coups/${open.body.id}/cards`, BANKER_7);
    expect(dealt.body.outcome).toMatchObject({ winner: 'BANKER', bankerTotal: 7, playerTotal: 5 });
    expect(dealt.body.wagers.map((w: { seat: number; net: number }) => [w.seat, w.net])).toEqual([
      [1, -1000],
      [2, 1900],
    ]);
    const again = await ctx.as(terminal).post(`/v1/coups/${open.body.id}/cards`, BANKER_7);
    expect(again.body.code).toBe('COUP_NOT_TAKING_BETS');
    const late = await ctx.as(terminal).post(`/v1/coups/${open.body.id}/wagers`, { wagers: [{ seat: 3, betType: 'TIE', amount: 100 }] });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('COUP_NOT_TAKING_BETS');
    const next = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: PLAYER_9 });
    expect(next.body.number).toBe(2);
  });
});

describe('commission box', () => {
  it('accrues every Banker commission against the seat and patron, collects part and whole, reports what is owed at close', async () => {
    const { terminal, supervisor, shoe } = await givenPit(ctx);
    const banker = (seat: number, amount: number, patronId?: string) => ({ seat, betType: 'BANKER', amount, ...(patronId ? { patronId } : {}) });
    await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [banker(1, 10000), banker(2, 2010, 'P-7'), banker(3, 1000)] });
    await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: { player: ['KS', '5D', 'KH'], banker: ['6H', 'AC'] }, wagers: [banker(1, 4000)] });
    const box = await ctx.as(terminal).get(`/v1/shoes/${shoe.id}/commissions`);
    expect(box.body.seats).toEqual([
      { seat: 1, patronId: null, accrued: 700, collected: 0, voided: 0, outstanding: 700 },
      { seat: 2, patronId: 'P-7', accrued: 100, collected: 0, voided: 0, outstanding: 100 },
      { seat: 3, patronId: null, accrued: 50, collected: 0, voided: 0, outstanding: 50 },
    ]);
    expect(box.body.totalOutstanding).toBe(850);

    const part = await ctx.as(supervisor).post(`/v1/shoes/${shoe.id}/commissions/collections`, { seat: 1, amount: 300 });
    expect(part.status).toBe(201);
    expect(part.body).toMatchObject({ seat: 1, amount: 300, outstanding: 400 });
    const rest = await ctx.as(supervisor).post(`/v1/shoes/${shoe.id}/commissions/collections`, { seat: 1 });
    expect(rest.body).toMatchObject({ amount: 400, outstanding: 0 });
    const tooMuch = await ctx.as(supervisor).post(`/v1/shoes/${shoe.id}/commissions/collections`, { seat: 3, amount: 51 });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.code).toBe('COLLECTION_EXCEEDS_OUTSTANDING');
    const wrongPatron = await ctx.as(supervisor).post(`/v1/shoes/${shoe.id}/commissions/collections`, { seat: 2 });
    expect(wrongPatron.body.code).toBe('COLLECTION_EXCEEDS_OUTSTANDING');
    const terminalCollects = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/commissions/collections`, { seat: 3 });
    expect(terminalCollects.status).toBe(403);

    const closed = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/close`);
    expect(closed.body.commissionOutstanding).toEqual([
      { seat: 2, patronId: 'P-7', accrued: 100, collected: 0, voided: 0, outstanding: 100 },
      { seat: 3, patronId: null, accrued: 50, collected: 0, voided: 0, outstanding: 50 },
    ]);
    // Commission is still collectable after the shoe closes (the customer pays when leaving).
    const later = await ctx.as(supervisor).post(`/v1/shoes/${shoe.id}/commissions/collections`, { seat: 2, patronId: 'P-7' });
    expect(later.body).toMatchObject({ amount: 100, outstanding: 0 });
  });
});

describe('two-person voids', () => {
  it('a supervisor asks, a different one approves: original readable, cards keyed at the wrong table back in the shoe, commission reversed; twice is an error', async () => {
    const { terminal, supervisor, shoe } = await givenPit(ctx, { decks: 1 });
    const second = await givenKey(ctx, 'SUPERVISOR');
    const coup = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7, wagers: [{ seat: 1, betType: 'BANKER', amount: 1000 }] });
    const before = (await ctx.as(terminal).get(`/v1/shoes/${shoe.id}`)).body;
    expect(before.remaining.KS).toBe(0);

    expect((await ctx.as(terminal).post(`/v1/coups/${coup.body.id}/void`, { reason: 'wrong table' })).status).toBe(403);
    const asked = await ctx.as(supervisor).post(`/v1/coups/${coup.body.id}/void`, { reason: 'Cards recorded for the wrong table', returnCards: true });
    expect(asked.status).toBe(202);
    expect(asked.body).toMatchObject({ target: 'COUP', status: 'PENDING', voidRequestId: expect.any(String) });
    // Nothing has happened yet.
    expect((await ctx.as(terminal).get(`/v1/coups/${coup.body.id}`)).body.void).toBeNull();
    expect((await ctx.as(supervisor).post(`/v1/coups/${coup.body.id}/void`, { reason: 'again' })).body.code).toBe('VOID_ALREADY_REQUESTED');
    const self = await ctx.as(supervisor).post(`/v1/void-requests/${asked.body.voidRequestId}/approve`, {});
    expect([self.status, self.body.code]).toEqual([403, 'SAME_PERSON']);

    const approved = await ctx.as(second).post(`/v1/void-requests/${asked.body.voidRequestId}/approve`, { note: 'Seen on camera' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'APPROVED', decisionNote: 'Seen on camera' });
    const voided = (await ctx.as(terminal).get(`/v1/coups/${coup.body.id}`)).body;
    expect(voided.void).toMatchObject({ reason: 'Cards recorded for the wrong table', voidedByRole: 'SUPERVISOR' });
    expect(voided.wagers[0]).toMatchObject({ status: 'SETTLED', result: 'WIN', net: 950 }); // the original stays as it was
    const after = (await ctx.as(terminal).get(`/v1/shoes/${shoe.id}`)).body;
    expect(after.remaining.KS).toBe(1);
    expect(after.cardsSeen).toEqual([]);
    expect(after.coups[0]).toMatchObject({ number: 1, voided: true });
    const box = (await ctx.as(terminal).get(`/v1/shoes/${shoe.id}/commissions`)).body;
    expect(box.seats[0]).toMatchObject({ accrued: 50, voided: 50, outstanding: 0 });

    expect((await ctx.as(second).post(`/v1/void-requests/${asked.body.voidRequestId}/approve`, {})).body.code).toBe('VOID_REQUEST_DECIDED');
    const twice = await ctx.as(supervisor).post(`/v1/coups/${coup.body.id}/void`, { reason: 'again' });
    expect([twice.status, twice.body.code]).toEqual([409, 'COUP_ALREADY_VOIDED']);
    // The returned cards can be dealt again, and numbering goes on.
    const redeal = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7 });
    expect([redeal.status, redeal.body.number]).toEqual([201, 2]);
  });

  it('a misdeal voided: its cards were dealt and stay out of the shoe, which counts what is physically left', async () => {
    const { terminal, supervisor, shoe } = await givenPit(ctx, { decks: 1 });
    const second = await givenKey(ctx, 'SUPERVISOR');
    const coup = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7 });
    const before = (await ctx.as(terminal).get(`/v1/shoes/${shoe.id}`)).body;
    expect([before.cardsLeft, before.remaining.KS]).toEqual([52 - 5, 0]);
    await givenVoid(ctx, 'coups', coup.body.id, 'Misdeal: the dealer turned a card too many', supervisor, second);
    const after = (await ctx.as(terminal).get(`/v1/shoes/${shoe.id}`)).body;
    expect([after.cardsLeft, after.cardsDealt, after.remaining.KS]).toEqual([before.cardsLeft, before.cardsDealt, 0]);
    expect(after.coups[0]).toMatchObject({ number: 1, voided: true });
    // The king of spades is in the discard rack: recording it again is refused.
    expect((await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: BANKER_7 })).body.code).toBe('CARD_NOT_IN_SHOE');
    const voided = (await ctx.as(terminal).get(`/v1/coups/${coup.body.id}`)).body;
    expect(voided.void).toMatchObject({ reason: 'Misdeal: the dealer turned a card too many' });
  });

  it('a rejected request changes nothing, and the coup can be asked again', async () => {
    const { terminal, supervisor, shoe } = await givenPit(ctx);
    const second = await givenKey(ctx, 'SUPERVISOR');
    const coup = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: PLAYER_9 });
    const asked = await ctx.as(supervisor).post(`/v1/coups/${coup.body.id}/void`, { reason: 'Maybe a misdeal' });
    expect((await ctx.as(second).post(`/v1/void-requests/${asked.body.voidRequestId}/reject`, {})).body.code).toBe('VALIDATION_FAILED');
    const rejected = await ctx.as(second).post(`/v1/void-requests/${asked.body.voidRequestId}/reject`, { note: 'The deal was correct' });
    expect(rejected.body.status).toBe('REJECTED');
    expect((await ctx.as(terminal).get(`/v1/coups/${coup.body.id}`)).body.void).toBeNull();
    expect((await ctx.as(supervisor).post(`/v1/coups/${coup.body.id}/void`, { reason: 'Asked again' })).status).toBe(202);
  });

  it('voiding a coup still taking bets cancels it: new bets go back, the shoe can deal again', async () => {
    const { terminal, supervisor, shoe } = await givenPit(ctx);
    const open = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { wagers: [{ seat: 1, betType: 'PLAYER', amount: 1000 }] });
    await givenVoid(ctx, 'coups', open.body.id, 'Dealer error before the deal', supervisor, await givenKey(ctx, 'SUPERVISOR'));
    expect((await ctx.as(terminal).get(`/v1/coups/${open.body.id}`)).body.wagers[0].status).toBe('WITHDRAWN');
    const next = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: PLAYER_9 });
    expect(next.status).toBe(201);
  });
});

import { startTestApp, TestContext } from '../../support/app';

let ctx: TestContext;
beforeAll(async () => (ctx = await startTestApp()));
afterAll(() => ctx.close());

describe('POST /v1/odds', () => {
  it('a full 8-deck shoe: docs/domain.md §4 integers as decimal strings, every bet priced', async () => {
    const res = await ctx.admin.post('/v1/odds', { shoe: { decks: 8 } });
    expect(res.status).toBe(200);
    expect(res.body.denominator).toBe('4998398275503360');
    expect(res.body.outcomes).toEqual({ banker: '2292252566437888', player: '2230518282592256', tie: '475627426473216' });
    expect(res.body.events).toMatchObject({
      bankerWin6: '269232304455680',
      bankerWin6TwoCards: '186173936904192',
      dragon7: '112633011329024',
      panda8: '172660763262976',
      fourCards: '1893735611458560',
    });
    const edge = Object.fromEntries(
      res.body.bets.map((b: { betType: string; houseEdgePercent: string }) => [b.betType, Number(b.houseEdgePercent).toFixed(4)]),
    );
    expect(edge).toMatchObject({
      BANKER: '1.0579',
      PLAYER: '1.2351',
      TIE: '14.3596',
      DRAGON_7: '7.6113',
      PANDA_8: '10.1876',
      PLAYER_PAIR: '10.3614',
      SMALL: '5.2829',
      BIG: '4.3457',
    });
    const banker = res.body.bets.find((b: { betType: string }) => b.betType === 'BANKER');
    expect(banker.pays).toBe('1 to 1');
    expect(banker.results.map((r: { result: string }) => r.result)).toEqual(['WIN', 'LOSE', 'PUSH']);
  });

  it('house rules: Super 6 with a 9 to 1 tie', async () => {
    const res = await ctx.admin.post('/v1/odds', { variant: 'SUPER_6', rules: { tiePays: '9 to 1' }, shoe: { decks: 8 } });
    const edge = Object.fromEntries(res.body.bets.map((b: { betType: string; houseEdgePercent: string }) => [b.betType, b.houseEdgePercent]));
    expect(Number(edge.BANKER).toFixed(4)).toBe('1.4581');
    expect(Number(edge.TIE).toFixed(4)).toBe('4.8440');
  });

  it('a depleted shoe given as cards seen, and as a count per card', async () => {
    const seen = await ctx.admin.post('/v1/odds', { shoe: { decks: 1, dealt: ['AS', 'KD', '9H'] } });
    expect(seen.body.cards).toBe(49);
    expect(seen.body.denominator).toBe(String(49 * 48 * 47 * 46 * 45 * 44));
    const tens = await ctx.admin.post('/v1/odds', { shoe: { cards: { TS: 2, JH: 2, QD: 1, KC: 1 } } });
    expect(tens.body.outcomes).toEqual({ banker: '0', player: '0', tie: '720' });
  });

  it.each([
    [{ shoe: { decks: 8, cards: { AS: 1 } } }, 400, 'VALIDATION_FAILED'],
    [{ shoe: {} }, 400, 'VALIDATION_FAILED'],
    [{ shoe: { decks: 9 } }, 400, 'VALIDATION_FAILED'],
    [{ shoe: { cards: { AS: 5 } } }, 422, 'INVALID_SHOE'],
    [{ shoe: { cards: { ZZ: 1 } } }, 400, 'VALIDATION_FAILED'],
    [{ shoe: { decks: 1, dealt: ['AS', 'AS'] } }, 422, 'CARD_NOT_IN_SHOE'],
    [{ variant: 'CHEMIN_DE_FER', shoe: { decks: 6 } }, 422, 'ODDS_NOT_AVAILABLE'],
    [{ rules: { tiePays: 'lots' }, shoe: { decks: 8 } }, 422, 'INVALID_RULES'],
  ])('%j → %i %s', async (req, status, code) => {
    const res = await ctx.admin.post('/v1/odds', req);
    expect([res.status, res.body.code]).toEqual([status, code]);
  });
});

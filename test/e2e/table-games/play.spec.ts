import {
  dealPuntoBanco,
  formatCard,
  fullShoe,
  removeCards,
  ruleSet,
  seededRandom,
  settleWager,
  evaluateCoup,
  shuffledShoe,
  SIDE_BETS,
} from '../../../src/domain';
import { startTestApp, TestContext } from '../../support/app';
import { givenPit } from '../../support/builders';

let ctx: TestContext;
beforeAll(async () => (ctx = await startTestApp()));
afterAll(() => ctx.close());

type W = [seat: number, betType: string, amount: number];

const wagers = (ws: W[]) => ws.map(([seat, betType, amount]) => ({ seat, betType, amount }));
const settled = (body: { wagers: { seat: number; betType: string; result: string; payout: number; commission: number; net: number }[] }) =>
  body.wagers.map((w) => [w.seat, w.betType, w.result, w.payout, w.commission, w.net]).sort((a, b) => (a[0] as number) - (b[0] as number));

describe.each([
  [
    'COMMISSION',
    {},
    [
      // Player natural 9 v 8
      [
        ['9S', 'KD'],
        ['8H', 'KC'],
        [
          [1, 'BANKER', 1000],
          [2, 'PLAYER', 1000],
          [3, 'TIE', 500],
          [4, 'PLAYER_PAIR', 200],
        ],
        [
          [1, 'BANKER', 'LOSE', 0, 0, -1000],
          [2, 'PLAYER', 'WIN', 1000, 0, 1000],
          [3, 'TIE', 'LOSE', 0, 0, -500],
          [4, 'PLAYER_PAIR', 'LOSE', 0, 0, -200],
        ],
      ],
      // Banker 7 v 5: 5% of 1010 = 50.5, floored to 50
      [
        ['KS', '5D', 'KH'],
        ['7H', 'KC'],
        [
          [1, 'BANKER', 1010],
          [2, 'PLAYER', 1000],
        ],
        [
          [1, 'BANKER', 'WIN', 1010, 50, 960],
          [2, 'PLAYER', 'LOSE', 0, 0, -1000],
        ],
      ],
      // 6–6 tie: main bets returned, Tie 8 to 1
      [
        ['KS', '6D'],
        ['3H', '2C', 'AS'],
        [
          [1, 'BANKER', 1000],
          [2, 'PLAYER', 1000],
          [3, 'TIE', 500],
        ],
        [
          [1, 'BANKER', 'PUSH', 0, 0, 0],
          [2, 'PLAYER', 'PUSH', 0, 0, 0],
          [3, 'TIE', 'WIN', 4000, 0, 4000],
        ],
      ],
      // Both pairs, Player natural 8
      [
        ['4S', '4D'],
        ['5H', '5C'],
        [
          [4, 'PLAYER_PAIR', 200],
          [5, 'BANKER_PAIR', 200],
          [6, 'BANKER', 300],
        ],
        [
          [4, 'PLAYER_PAIR', 'WIN', 2200, 0, 2200],
          [5, 'BANKER_PAIR', 'WIN', 2200, 0, 2200],
          [6, 'BANKER', 'LOSE', 0, 0, -300],
        ],
      ],
    ],
  ],
  [
    'SUPER_6',
    {},
    [
      // Banker two-card 6: half pay of 1001 floored to 500; Super 6 side bet 12 to 1
      [
        ['KS', '5D', '8H'],
        ['6H', 'KC'],
        [
          [1, 'BANKER', 1001],
          [2, 'SUPER_6', 100],
        ],
        [
          [1, 'BANKER', 'WIN', 500, 0, 500],
          [2, 'SUPER_6', 'WIN', 1200, 0, 1200],
        ],
      ],
      [
        ['KS', '5D', 'KH'],
        ['7H', 'KC'],
        [
          [1, 'BANKER', 1000],
          [2, 'SUPER_6', 100],
        ],
        [
          [1, 'BANKER', 'WIN', 1000, 0, 1000],
          [2, 'SUPER_6', 'LOSE', 0, 0, -100],
        ],
      ],
      // Banker three-card 6
      [
        ['KS', '5D', 'KH'],
        ['AH', 'KC', '5S'],
        [
          [1, 'BANKER', 1000],
          [3, 'PLAYER', 700],
        ],
        [
          [1, 'BANKER', 'WIN', 500, 0, 500],
          [3, 'PLAYER', 'LOSE', 0, 0, -700],
        ],
      ],
    ],
  ],
  [
    'EZ',
    {},
    [
      // Banker three-card 7: Banker pushes, Dragon 7 pays 40 to 1
      [
        ['KS', '5D', 'KH'],
        ['2H', 'KC', '5S'],
        [
          [1, 'BANKER', 1000],
          [2, 'DRAGON_7', 100],
          [3, 'PLAYER', 1000],
        ],
        [
          [1, 'BANKER', 'PUSH', 0, 0, 0],
          [2, 'DRAGON_7', 'WIN', 4000, 0, 4000],
          [3, 'PLAYER', 'LOSE', 0, 0, -1000],
        ],
      ],
      // Player three-card 8: Panda 8 pays 25 to 1
      [
        ['AS', '2D', '5H'],
        ['4H', '2C'],
        [
          [1, 'BANKER', 1000],
          [2, 'PANDA_8', 100],
          [3, 'PLAYER', 1000],
        ],
        [
          [1, 'BANKER', 'LOSE', 0, 0, -1000],
          [2, 'PANDA_8', 'WIN', 2500, 0, 2500],
          [3, 'PLAYER', 'WIN', 1000, 0, 1000],
        ],
      ],
      // Banker two-card 7: even money, no commission
      [
        ['KS', '5D', 'KH'],
        ['7H', 'KC'],
        [
          [1, 'BANKER', 1000],
          [2, 'DRAGON_7', 100],
        ],
        [
          [1, 'BANKER', 'WIN', 1000, 0, 1000],
          [2, 'DRAGON_7', 'LOSE', 0, 0, -100],
        ],
      ],
    ],
  ],
] as const)('%s table: known cards, exact settlements', (variant, tableRules, coups) => {
  it('settles every wager of every coup and keeps the shoe composition', async () => {
    const { terminal, shoe } = await givenPit(ctx, { variant, ...tableRules }, { burnCards: ['2D'] });
    const seen = ['2D'];
    for (const [i, [player, banker, ws, expected]] of coups.entries()) {
      const res = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, { cards: { player, banker }, wagers: wagers(ws as unknown as W[]) });
      expect(res.status).toBe(201);
      expect(res.body.number).toBe(i + 1);
      expect(res.body.status).toBe('SETTLED');
      expect(settled(res.body)).toEqual(expected);
      seen.push(...player, ...banker);
    }
    const read = await ctx.as(terminal).get(`/v1/shoes/${shoe.id}`);
    expect(read.body.coupCount).toBe(coups.length);
    expect(read.body.cardsDealt).toBe(1 + 2 + seen.length - 1); // burn 2D burns two more face down
    const expectedRemaining = removeCards(
      fullShoe(8),
      seen.map((c) => ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'].indexOf(c[0]) * 4 + 'SHDC'.indexOf(c[1])),
    );
    expect(Object.values(read.body.remaining)).toEqual(expectedRemaining);
    expect([...read.body.cardsSeen].sort()).toEqual([...seen].sort());
  });
});

describe('a whole shoe dealt from a real shuffle, to the cut card', () => {
  it.each(['COMMISSION', 'SUPER_6', 'EZ'] as const)('%s: every coup settles exactly; the shoe ends one coup after the cut card', async (variant) => {
    const { terminal, shoe } = await givenPit(ctx, { variant, sideBets: [...SIDE_BETS] }, { cutCardPosition: 16 });
    const rules = ruleSet({ variant, sideBets: [...SIDE_BETS] });
    const random = seededRandom(variant.length * 7919);
    const cards = shuffledShoe(8, random);
    const bets = ['PLAYER', 'BANKER', 'TIE', 'PLAYER_PAIR', 'BANKER_PAIR', 'BIG', 'SMALL', variant === 'EZ' ? 'DRAGON_7' : 'SUPER_6'] as const;
    let pos = 0;
    let number = 0;
    let customersNet = 0n;
    let expectedNet = 0n;
    for (;;) {
      const dealt = dealPuntoBanco(cards, pos)!;
      const ws = bets.map((betType, i) => ({ seat: i + 1, betType, amount: 100 + Math.floor(random() * 5000) }));
      const res = await ctx
        .as(terminal)
        .post(`/v1/shoes/${shoe.id}/coups`, { cards: { player: dealt.player.map(formatCard), banker: dealt.banker.map(formatCard) }, wagers: ws });
      if (res.status === 409) {
        expect(res.body.code).toBe('SHOE_EXHAUSTED');
        break;
      }
      expect(res.status).toBe(201);
      expect(res.body.number).toBe(++number);
      const outcome = evaluateCoup(variant, dealt);
      for (const w of res.body.wagers) {
        customersNet += BigInt(w.net);
        const s = settleWager(rules, outcome, { betType: w.betType, amount: BigInt(w.amount) });
        expect([w.result, w.payout, w.commission, w.net]).toEqual([s.result, Number(s.payout), Number(s.commission), Number(s.net)]);
        expectedNet += s.net;
      }
      pos += dealt.used;
    }
    expect(customersNet).toBe(expectedNet);
    // The cut card lay 16 cards from the end: it came out in the coup before the last one.
    const read = (await ctx.as(terminal).get(`/v1/shoes/${shoe.id}`)).body;
    expect(read.lastCoupNumber).toBe(number);
    expect(read.coupCount).toBe(number);
    expect(read.cardsDealt).toBe(pos);
    expect(416 - pos).toBeLessThanOrEqual(16);
    const dbNet = await ctx.prisma.wager.aggregate({ where: { shoeId: shoe.id }, _sum: { net: true } });
    expect(dbNet._sum.net).toBe(expectedNet);
  });
});

import fc from 'fast-check';
import { BET_TYPES, dealPuntoBanco, formatCard, gamingDayOf, seededRandom, shuffledShoe, SIDE_BETS } from '../../../src/domain';
import { databaseSnapshot, startTestApp, TestContext } from '../../support/app';
import { givenKey, givenPit } from '../../support/builders';

/** Property-based tests through the HTTP API, on a real PostgreSQL. */
jest.setTimeout(120_000);
let ctx: TestContext;
let finance: string;
beforeAll(async () => {
  ctx = await startTestApp();
  finance = await givenKey(ctx, 'FINANCE');
});
afterAll(() => ctx.close());

const variant = fc.constantFrom('COMMISSION', 'SUPER_6', 'EZ');

describe('random legal shoes played to the end', () => {
  it("the house result is exactly minus the customers' nets, wager by wager and in the reports", async () => {
    await fc.assert(
      fc.asyncProperty(variant, fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.boolean(), async (v, seed, tieBetsStay) => {
        const { terminal, shoe, table } = await givenPit(ctx, { variant: v, sideBets: [...SIDE_BETS], tieBetsStay, decks: 6 }, { cutCardPosition: 14 });
        const random = seededRandom(seed);
        const cards = shuffledShoe(6, random);
        let houseFromCash = 0n;
        let customers = 0n;
        for (let pos = 0; ;) {
          const d = dealPuntoBanco(cards, pos);
          if (!d) {
            // Fewer than six cards left: the cut card must already have ended the shoe.
            const read = (await ctx.as(terminal).get(`/v1/shoes/${shoe.id}`)).body;
            expect(read.lastCoupNumber).toBe(read.coupCount);
            break;
          }
          const wagers = Array.from({ length: 1 + Math.floor(random() * 6) }, (_, i) => ({
            seat: i + 1,
            betType: BET_TYPES[Math.floor(random() * BET_TYPES.length)],
            amount: 100 * (1 + Math.floor(random() * 100)),
          }));
          const r = await ctx
            .as(terminal)
            .post(`/v1/shoes/${shoe.id}/coups`, { cards: { player: d.player.map(formatCard), banker: d.banker.map(formatCard) }, wagers });
          if (r.status === 409 && r.body.code === 'SHOE_EXHAUSTED') break;
          expect(r.status).toBe(201);
          for (const w of r.body.wagers) {
            // The house's side from the cash alone: keeps a lost stake, pays the payout, takes the commission.
            houseFromCash += (w.result === 'LOSE' ? BigInt(w.amount) : 0n) - BigInt(w.payout) + BigInt(w.commission);
            customers += BigInt(w.net);
          }
          pos += d.used;
        }
        expect(houseFromCash).toBe(-customers);
        const day = gamingDayOf(new Date(), 'UTC', 6);
        const report = await ctx.as(finance).get(`/v1/reports/win-loss?from=${day}&to=${day}&groupBy=table`);
        const row = report.body.rows.find((x: { group: { tableId: string } }) => x.group.tableId === table.id);
        expect(BigInt(row.win)).toBe(houseFromCash);
      }),
      { numRuns: 6 },
    );
  });
});

describe('random illegal coups', () => {
  it('adding or removing a third card is always rejected as a MISDEAL, and nothing is written', async () => {
    const { terminal, shoe } = await givenPit(ctx, { sideBets: [...SIDE_BETS] });
    const card = fc.integer({ min: 0, max: 51 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(card, { minLength: 6, maxLength: 6 }),
        card,
        fc.constantFrom<'player' | 'banker'>('player', 'banker'),
        async (six, extra, side) => {
          const legal = dealPuntoBanco(six, 0)!;
          const hand = legal[side];
          const broken = { ...legal, [side]: hand.length === 3 ? hand.slice(0, 2) : [...hand, extra] };
          const before = await databaseSnapshot(ctx.prisma);
          const r = await ctx.as(terminal).post(`/v1/shoes/${shoe.id}/coups`, {
            cards: { player: broken.player.map(formatCard), banker: broken.banker.map(formatCard) },
            wagers: [{ seat: 1, betType: 'PLAYER', amount: 500 }],
          });
          expect([r.status, r.body.code]).toEqual([422, 'MISDEAL']);
          expect(await databaseSnapshot(ctx.prisma)).toEqual(before);
        },
      ),
      { numRuns: 60 },
    );
  });
});

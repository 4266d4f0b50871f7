import {
  betChances,
  betOdds,
  chancesWithFirstCard,
  compositionFromCounts,
  exactOdds,
  fractionToDecimal,
  fullShoe,
  odds,
  oddsByFirstCard,
  offeredBets,
  oddsWithFirstCard,
  OddsCounts,
  parseCards,
  removeCards,
  ruleSet,
  seededRandom,
  shuffledShoe,
  Variant,
} from '../../../src/domain';
import { valueEnumeration } from '../../support/value-enumeration';
import { referenceBankerDraws } from './reference-tableau';

const ALL_SIDE = ['PLAYER_PAIR', 'BANKER_PAIR', 'EITHER_PAIR', 'PERFECT_PAIR', 'BIG', 'SMALL', 'SUPER_6', 'DRAGON_7', 'PANDA_8'] as const;

describe('exact outcome counts (docs/domain.md §4)', () => {
  it.each([
    [8, 4_998_398_275_503_360n, 2_292_252_566_437_888n, 2_230_518_282_592_256n, 475_627_426_473_216n],
    [6, 878_869_206_895_680n, 403_095_751_234_560n, 392_220_492_728_832n, 83_552_962_932_288n],
    [1, 14_658_134_400n, 6_737_232_640n, 6_548_674_432n, 1_372_227_328n],
  ])('%i decks', (decks, total, banker, player, tie) => {
    const k = exactOdds(fullShoe(decks));
    expect({ total: k.total, banker: k.banker, player: k.player, tie: k.tie }).toEqual({ total, banker, player, tie });
    expect(k.banker + k.player + k.tie).toBe(k.total);
    expect(k.fourCards + k.fiveCards + k.sixCards).toBe(k.total);
  });

  it('8 decks: the events side bets depend on', () => {
    const k = exactOdds(fullShoe(8));
    expect(k.bankerWin6).toBe(269_232_304_455_680n);
    expect(k.bankerWin6TwoCards).toBe(186_173_936_904_192n);
    expect(k.dragon7).toBe(112_633_011_329_024n);
    expect(k.panda8).toBe(172_660_763_262_976n);
    expect(k.fourCards).toBe(1_893_735_611_458_560n);
  });
});

describe('house edges, 8 decks (docs/domain.md §4)', () => {
  const pct = (f: { numerator: bigint; denominator: bigint }) => fractionToDecimal({ numerator: f.numerator * 100n, denominator: f.denominator }, 4);
  const edges = (variant: Variant, extra = {}) =>
    Object.fromEntries(betOdds(ruleSet({ variant, sideBets: [...ALL_SIDE], ...extra }), exactOdds(fullShoe(8))).map((b) => [b.betType, pct(b.houseEdge)]));

  it('commission table and every side bet', () => {
    expect(edges('COMMISSION')).toMatchObject({
      BANKER: '1.0579',
      PLAYER: '1.2351',
      TIE: '14.3596',
      DRAGON_7: '7.6113',
      PANDA_8: '10.1876',
      PLAYER_PAIR: '10.3614',
      BANKER_PAIR: '10.3614',
      SMALL: '5.2829',
      BIG: '4.3457',
    });
  });
  it('tie 9 to 1', () => {
    expect(edges('COMMISSION', { pays: { TIE: odds(9) } }).TIE).toBe('4.8440');
  });
  it('Super 6 Banker', () => expect(edges('SUPER_6').BANKER).toBe('1.4581'));
  it('EZ Banker', () => expect(edges('EZ').BANKER).toBe('1.0183'));
  it('the probabilities of each bet add up to one', () => {
    for (const b of betOdds(ruleSet({ variant: 'EZ', sideBets: [...ALL_SIDE] }), exactOdds(fullShoe(8)))) {
      expect(b.tiers.reduce((s, t) => s + t.count, 0n)).toBe(4_998_398_275_503_360n);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Brute force: every ordered 6-card sequence of a small shoe, dealt by the tableau as written in
// docs/domain.md §2 (independently of the engine), counted event by event.

function bruteForce(composition: number[], firstValue?: number): Omit<OddsCounts, 'cards'> {
  const cards: number[] = [];
  composition.forEach((k, card) => {
    for (let i = 0; i < k; i++) cards.push(card);
  });
  const n = cards.length;
  const value = (c: number) => {
    const r = Math.floor(c / 4);
    return r >= 9 ? 0 : r + 1;
  };
  const bankerDraws = referenceBankerDraws;
  const z = () => 0n;
  const k = {
    total: z(),
    banker: z(),
    player: z(),
    tie: z(),
    natural: z(),
    fourCards: z(),
    fiveCards: z(),
    sixCards: z(),
    bankerWin6TwoCards: z(),
    bankerWin6ThreeCards: z(),
    bankerWin6: z(),
    dragon7: z(),
    panda8: z(),
    playerPair: z(),
    bankerPair: z(),
    eitherPair: z(),
    perfectPairEither: z(),
    perfectPairBoth: z(),
  };
  const used = new Array<boolean>(n).fill(false);
  const seq: number[] = [];
  const visit = () => {
    const [p1, b1, p2, b2] = seq.map((i) => cards[i]);
    if (firstValue !== undefined && value(p1) !== firstValue) return;
    const player = [p1, p2];
    const banker = [b1, b2];
    let next = 4;
    const pt2 = (value(p1) + value(p2)) % 10;
    const bt2 = (value(b1) + value(b2)) % 10;
    if (pt2 < 8 && bt2 < 8) {
      let third: number | null = null;
      if (pt2 <= 5) {
        third = cards[seq[next++]];
        player.push(third);
      }
      if (bankerDraws(bt2, third === null ? null : value(third))) banker.push(cards[seq[next++]]);
    }
    const total = (h: number[]) => h.reduce((s, c) => s + value(c), 0) % 10;
    const pt = total(player),
      bt = total(banker);
    k.total++;
    if (bt > pt) {
      k.banker++;
      if (bt === 6) {
        k.bankerWin6++;
        if (banker.length === 2) k.bankerWin6TwoCards++;
        else k.bankerWin6ThreeCards++;
      }
      if (bt === 7 && banker.length === 3) k.dragon7++;
    } else if (pt > bt) {
      k.player++;
      if (pt === 8 && player.length === 3) k.panda8++;
    } else k.tie++;
    if (pt2 >= 8 || bt2 >= 8) k.natural++;
    if (next === 4) k.fourCards++;
    else if (next === 5) k.fiveCards++;
    else k.sixCards++;
    const pp = Math.floor(p1 / 4) === Math.floor(p2 / 4),
      bp = Math.floor(b1 / 4) === Math.floor(b2 / 4);
    if (pp) k.playerPair++;
    if (bp) k.bankerPair++;
    if (pp || bp) k.eitherPair++;
    if (p1 === p2 || b1 === b2) k.perfectPairEither++;
    if (p1 === p2 && b1 === b2) k.perfectPairBoth++;
  };
  const rec = (depth: number) => {
    if (depth === 6) return visit();
    for (let i = 0; i < n; i++) {
      if (used[i]) continue;
      used[i] = true;
      seq.push(i);
      rec(depth + 1);
      seq.pop();
      used[i] = false;
    }
  };
  rec(0);
  return k;
}

/** A seeded generator, so a failing shoe can be reproduced. */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('depleted shoes against brute-force enumeration', () => {
  const randomShoe = (seed: number, size: number) => {
    const rnd = lcg(seed);
    // Few distinct cards, so that pairs and perfect pairs happen: ranks A 3 5 7 9 T K, suits S H.
    const pool = parseCards(['AS', 'AH', '3S', '5H', '7S', '7H', '9S', 'TH', 'KS', 'KH', '2D', '6C', '8D', '4C']);
    const comp = new Array<number>(52).fill(0);
    for (let placed = 0; placed < size;) {
      const card = pool[Math.floor(rnd() * pool.length)];
      if (comp[card] < 8) {
        comp[card]++;
        placed++;
      }
    }
    return comp;
  };
  const shoes: [string, number[]][] = [
    ['seed 1, 11 cards', randomShoe(1, 11)],
    ['seed 2, 11 cards', randomShoe(2, 11)],
    ['seed 3, 12 cards', randomShoe(3, 12)],
    ['the last 10 cards of a real shoe', compositionFromCounts({ AS: 1, '5H': 1, '5D': 1, '9C': 1, KS: 2, QH: 1, '3D': 1, '7C': 1, '6S': 1 })],
  ];
  it.each(shoes)('%s', (_name, comp) => {
    const { cards: _cards, ...engine } = exactOdds(comp);
    expect(engine).toEqual(bruteForce(comp));
  });

  it('outcomes become impossible near the end: six ten-value cards always tie 0–0', () => {
    const k = exactOdds(compositionFromCounts({ TS: 2, JH: 2, QD: 1, KC: 1 }));
    expect(k.total).toBe(720n);
    expect([k.tie, k.banker, k.player, k.sixCards, k.natural]).toEqual([720n, 0n, 0n, 720n, 0n]);
  });

  it('a shoe of aces and ten-values deals no naturals (two cards make at most 2)', () => {
    const k = exactOdds(compositionFromCounts({ AS: 8, AH: 8, KS: 8, QD: 8 }));
    expect(k.natural).toBe(0n);
    expect(k.fourCards).toBe(0n);
  });

  it('a full shoe minus the cards seen equals the composition with those counts lowered', () => {
    const seen = parseCards(['AS', 'AS', 'KD', '9H', '5C']);
    const k = exactOdds(removeCards(fullShoe(8), seen));
    expect(k.cards).toBe(411);
    expect(k.total).toBe(411n * 410n * 409n * 408n * 407n * 406n);
    expect(k.banker + k.player + k.tie).toBe(k.total);
  });

  it.each([
    [() => removeCards(fullShoe(1), parseCards(['AS', 'AS'])), 'CARD_NOT_IN_SHOE'],
    [() => exactOdds(compositionFromCounts({ AS: 5 })), 'INVALID_SHOE'],
    [() => compositionFromCounts({ AS: 9 }), 'INVALID_SHOE'],
    [() => compositionFromCounts({ XX: 1 }), 'INVALID_CARD'],
    [() => fullShoe(9), 'INVALID_SHOE'],
    [() => betOdds(ruleSet({ variant: 'CHEMIN_DE_FER' }), exactOdds(fullShoe(6))), 'ODDS_NOT_AVAILABLE'],
  ])('refuses impossible shoes (%#)', (fn, code) => {
    expect(fn).toThrow(expect.objectContaining({ code }));
  });
});

describe('the enumeration by unordered pairs and running sums against the plain one (every ordered value, every third card)', () => {
  // Shoes as a real deal leaves them: 1, 6 and 8 decks, cut anywhere from the first card to the last six.
  const random = seededRandom(20261123);
  const shoes: [string, number[]][] = [];
  for (const decks of [1, 6, 8]) {
    for (let i = 0; i < 40; i++) {
      const shoe = shuffledShoe(decks, random);
      const seen = i === 0 ? 0 : i === 1 ? shoe.length - 6 : Math.floor(random() * (shoe.length - 6));
      shoes.push([`${decks} decks, ${shoe.length - seen} cards left (${i})`, removeCards(fullShoe(decks), shoe.slice(0, seen))]);
    }
  }
  // And shoes no deal leaves, where the slots of the running sums are nearly empty.
  shoes.push(['only tens and fives', compositionFromCounts({ TS: 8, KH: 8, '5D': 3 })]);
  shoes.push(['one of each value', compositionFromCounts({ AS: 1, '2S': 1, '3S': 1, '4S': 1, '5S': 1, '6S': 1, '7S': 1, '8S': 1, '9S': 1, TS: 1 })]);
  it.each(shoes)('%s', (_name, comp) => {
    const k = exactOdds(comp);
    const plain = valueEnumeration(comp);
    expect(Object.fromEntries(Object.keys(plain).map((key) => [key, k[key as keyof typeof plain]]))).toEqual(plain);
    expect(k.banker + k.player + k.tie).toBe(k.total);
    expect(k.fourCards + k.fiveCards + k.sixCards).toBe(k.total);
  });
});

describe('odds given the first card out (what a player who saw it would know)', () => {
  const pairsOmitted = ({ playerPair: _a, bankerPair: _b, eitherPair: _c, perfectPairEither: _d, perfectPairBoth: _e, ...rest }: Omit<OddsCounts, 'cards'>) =>
    rest;
  it.each([
    ['a small shoe with every point value', compositionFromCounts({ AS: 1, '2H': 1, '3D': 1, '4C': 1, '5S': 2, '6H': 1, '7D': 1, '8C': 1, '9S': 1, KH: 1 })],
    ['the last 10 cards of a real shoe', compositionFromCounts({ AS: 1, '5H': 1, '5D': 1, '9C': 1, KS: 2, QH: 1, '3D': 1, '7C': 1, '6S': 1 })],
  ])('%s: each first card against brute force', (_name, comp) => {
    const byFirst = oddsByFirstCard(comp);
    for (let v = 0; v < 10; v++) {
      const brute = pairsOmitted(bruteForce(comp, v));
      if (brute.total === 0n) expect(byFirst[v]).toBeNull();
      else {
        const { cards: _cards, ...engine } = byFirst[v]!;
        expect(engine).toEqual(brute);
      }
    }
  });

  it('the ten first cards add up to the whole shoe’s odds', () => {
    const random = seededRandom(11);
    for (let i = 0; i < 20; i++) {
      const shoe = shuffledShoe(8, random);
      const comp = removeCards(fullShoe(8), shoe.slice(0, Math.floor(random() * 400)));
      const whole = exactOdds(comp);
      const sum = new Map<string, bigint>();
      for (const slice of oddsByFirstCard(comp)) {
        if (slice === null) continue;
        for (const [key, value] of Object.entries(slice)) if (typeof value === 'bigint') sum.set(key, (sum.get(key) ?? 0n) + value);
      }
      for (const [key, value] of sum) expect([key, value]).toEqual([key, whole[key as keyof OddsCounts]]);
    }
  });

  it('both in one enumeration (surveillance’s odds of every coup): equal to exactOdds and oddsByFirstCard, count for count', () => {
    const random = seededRandom(12);
    const comps = [
      fullShoe(8),
      fullShoe(1),
      compositionFromCounts({ AS: 1, '2H': 1, '3D': 1, '4C': 1, '5S': 2, '6H': 1, '7D': 1, '8C': 1, '9S': 1, KH: 1 }),
      compositionFromCounts({ '9S': 3, KH: 4 }),
    ];
    for (let i = 0; i < 30; i++)
      comps.push(removeCards(fullShoe(1 + (i % 8)), shuffledShoe(1 + (i % 8), random).slice(0, Math.floor(random() * 40 * (1 + (i % 8))))));
    for (const comp of comps) {
      const both = oddsWithFirstCard(comp);
      expect(both.whole).toEqual(exactOdds(comp));
      expect(both.byFirst).toEqual(oddsByFirstCard(comp));
    }
  });

  it('read straight into chances, in doubles (surveillance’s path): equal to betChances of the counts, and to the exact house edges', () => {
    const random = seededRandom(13);
    const tables = [
      ruleSet({ variant: 'EZ', sideBets: [...ALL_SIDE] }),
      ruleSet({ variant: 'COMMISSION', sideBets: [...ALL_SIDE], perfectPairBothPays: { numerator: 200, denominator: 1 } }),
      ruleSet({ variant: 'SUPER_6', sideBets: [...ALL_SIDE] }),
    ];
    const comps = [fullShoe(8), fullShoe(1), compositionFromCounts({ '9S': 3, KH: 4 })];
    for (let i = 0; i < 12; i++) comps.push(removeCards(fullShoe(8), shuffledShoe(8, random).slice(0, Math.floor(random() * 400))));
    for (const rules of tables) {
      for (const comp of comps) {
        const fast = chancesWithFirstCard(rules, comp, ['PLAYER', 'BANKER', 'TIE']);
        const counts = oddsWithFirstCard(comp);
        expect(fast.chances).toEqual(betChances(rules, counts.whole, offeredBets(rules)));
        counts.byFirst.forEach((slice, v) => {
          const none = { playerPair: 0n, bankerPair: 0n, eitherPair: 0n, perfectPairEither: 0n, perfectPairBoth: 0n };
          const given = slice && betChances(rules, { ...slice, ...none }, ['PLAYER', 'BANKER', 'TIE']);
          for (const bet of ['PLAYER', 'BANKER', 'TIE'] as const) expect(fast.meanGivenFirst[bet]![v]).toEqual(given ? given[bet]!.mean : NaN);
          expect(fast.firstCardChance[v]).toBe(slice ? Number(slice.total) / Number(counts.whole.total) : 0);
        });
        for (const b of betOdds(rules, counts.whole)) {
          const edge = Number(b.houseEdge.numerator) / Number(b.houseEdge.denominator);
          expect(fast.chances[b.betType]!.mean).toBeCloseTo(-edge, 12);
        }
      }
    }
  });

  it('a full 8-deck shoe: a first card of 8 or 9 favours Player, a 0 or 5 favours Banker', () => {
    const byFirst = oddsByFirstCard(fullShoe(8));
    const playerChance = (v: number) => Number(byFirst[v]!.player) / Number(byFirst[v]!.total);
    const whole = exactOdds(fullShoe(8));
    const overall = Number(whole.player) / Number(whole.total);
    expect(playerChance(8)).toBeGreaterThan(overall + 0.05);
    expect(playerChance(9)).toBeGreaterThan(overall + 0.05);
    expect(playerChance(0)).toBeLessThan(overall);
    expect(playerChance(5)).toBeLessThan(overall);
  });
});

import {
  ALARM,
  betOdds,
  Card,
  countBetting,
  CoupOdds,
  coupOdds,
  dealerPairing,
  dealPuntoBanco,
  DealtShoe,
  exactOdds,
  firstCardKnowledge,
  fullShoe,
  moneyBeyondOdds,
  packOdds,
  PACKED_ODDS_LENGTH,
  parseCards,
  PlayedCoup,
  PlayedWager,
  pointOf,
  removeCards,
  repeatedRunFinding,
  ruleSet,
  seededRandom,
  shuffledShoe,
  surveyRecord,
  unpackOdds,
  winsBeyondOdds,
  BETTING_FRACTIONS,
  FRACTION_WEIGHTS,
  chanceOfAnyMatch,
  evaluateCoup,
  exchangeableEValue,
  settleWager,
  shiryaevRoberts,
} from '../../../src/domain';

/**
 * The detectors on records built by hand, where each statistic can be worked out on paper, and on
 * real shuffled shoes, where a cheat's record must stand out and an honest one must not
 * (docs/domain.md §9).
 */

const even = { paid: 0.5, mean: 0, variance: 1 };
/** Odds where Player and Banker are even money with even chances, and the first card is 0 or 9, each half the time: 9 wins, 0 loses. */
const handOdds: CoupOdds = {
  depth: 0,
  chances: {
    PLAYER: even,
    BANKER: even,
    TIE: { paid: 0.1, mean: -0.1, variance: 8 },
    DRAGON_7: { paid: 0.02, mean: -0.08, variance: 30 },
  },
  firstCardChance: [0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0.5],
  meanGivenFirst: {
    PLAYER: [-1, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, 1],
    BANKER: [1, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN, -1],
    TIE: new Array<number>(10).fill(-0.1),
  },
};
const wager = (betType: PlayedWager['betType'], stake: number, net: number): PlayedWager => ({
  betType,
  stake: BigInt(stake),
  paid: net > 0,
  net: BigInt(net),
});
const coup = (i: number, wagers: PlayedWager[], firstValue = 0, dealerId: string | null = null, shoeId = 's1'): PlayedCoup => ({
  coupId: `c${i}`,
  shoeId,
  dealerId,
  odds: handOdds,
  firstValue,
  position: 10 + 5 * i,
  at: i,
  wagers,
  label: { table: 'BAC-1', shoe: 1, coup: i + 1, cards: 'P 9S 2H · B KD 5C', currency: 'MOP', digits: 2 },
});
/** The statistic of one shoe on which each bet grew by 1 + λz a coup, z the same on n coups: the mixture's mean over the fractions (both weightings alike). */
/** The mixture over the fractions, weighted as the detectors weigh them. */
const mixed = (each: (lambda: number) => number) =>
  BETTING_FRACTIONS.reduce((s, l, i) => s + FRACTION_WEIGHTS[i] * each(l), 0) / FRACTION_WEIGHTS.reduce((a, b) => a + b, 0);
const onePerFraction = (z: number, n: number) => mixed((l) => (1 + l * z) ** n);

describe('winning more than the odds allow', () => {
  it('three even-chance decisions all won: each bet on "paid more often" grows by 1 + λ a coup; the largest main stake is the decision', () => {
    const record = [0, 1, 2].map((i) => coup(i, [wager('PLAYER', 100, 100), wager('BANKER', 10, -10)]));
    const f = winsBeyondOdds(record);
    expect(f.eValue).toBeCloseTo(onePerFraction(1, 3), 12);
    expect(f.pValue).toBeCloseTo(1 / f.eValue, 15);
    expect(f.evidence).toMatchObject({ decisions: 3, wins: 3, expectedWins: 1.5 });
    expect(f.evidence.reason).toBe('Won 3 of 3 decisions where the cards left in the shoe gave 1.5 on average');
    expect([f.alert, f.threshold]).toEqual([false, 1 / ALARM]);
  });

  it('money: up a unit at even money on a fair bet is z = 1, less the minor unit rounding could have added; the result in money with its currency', () => {
    const f = moneyBeyondOdds([0, 1].map((i) => coup(i, [wager('BANKER', 10_000, 10_000)])));
    const slack = 1 / 10_000;
    expect(f.eValue).toBeCloseTo(onePerFraction((1 - slack) / (1 + slack), 2), 12);
    expect(f.evidence).toMatchObject({ actual: [{ currency: 'MOP', minor: 20_000 }], expected: [{ currency: 'MOP', minor: 0 }] });
    expect(f.evidence.reason).toBe('Won 200.00 MOP on 2 main-bet decisions where the exact odds expected 0.00 MOP');
    expect((f.evidence.coups as unknown[])[0]).toMatchObject({
      table: 'BAC-1',
      shoe: 1,
      coup: 1,
      bet: 'BANKER',
      stake: { minor: 10_000, currency: 'MOP' },
      playerEdge: '+0.00 %',
    });
  });

  it('the first card: Player on four 9s, each worth +1 against a worst case of −1', () => {
    const record = [0, 1, 2, 3].map((i) => coup(i, [wager('PLAYER', 100, 100)], 9));
    const f = firstCardKnowledge(record);
    expect(f.eValue).toBeCloseTo(onePerFraction(1, 4), 12);
    expect(f.evidence.worthOfTheFirstCard).toEqual([{ currency: 'MOP', minor: 400 }]);
    // Banker on the same 9s chose against the card: z = −1 each time.
    expect(firstCardKnowledge(record.map((c) => ({ ...c, wagers: [wager('BANKER', 100, -100)] }))).eValue).toBeCloseTo(onePerFraction(-1, 4), 12);
  });

  it('a record spanning shoes: a shoe a step, R = (1 + R₁) E₂', () => {
    const record = [coup(0, [wager('PLAYER', 100, 100)], 9, null, 's1'), coup(1, [wager('PLAYER', 100, 100)], 9, null, 's2')];
    expect(firstCardKnowledge(record).eValue).toBeCloseTo(
      mixed((l) => (1 + (1 + l) ** 1) * (1 + l)),
      12,
    );
  });

  it('an edge sorter on 80 coups of real odds: past the alarm, HIGH; the same player with the cards hidden: nowhere near', () => {
    const rules = ruleSet({ variant: 'EZ', sideBets: ['DRAGON_7', 'PANDA_8'] });
    const random = seededRandom(42);
    const cards = shuffledShoe(8, random);
    let pos = 0;
    let left = fullShoe(8);
    const sees: PlayedCoup[] = [];
    const blind: PlayedCoup[] = [];
    for (let i = 0; i < 80; i++) {
      const deal = dealPuntoBanco(cards, pos)!;
      const odds = coupOdds(rules, left);
      const first = pointOf(cards[pos]);
      const guess = random() < 0.5 ? 9 : 0;
      const base = { coupId: `c${i}`, shoeId: 's', dealerId: null, odds, firstValue: first, position: pos, at: i };
      sees.push({ ...base, wagers: [first >= 7 ? wager('PLAYER', 10_000, 0) : wager('BANKER', 2_000, 0)] });
      blind.push({ ...base, wagers: [guess >= 7 ? wager('PLAYER', 10_000, 0) : wager('BANKER', 2_000, 0)] });
      left = removeCards(left, [...deal.player, ...deal.banker]);
      pos += deal.used;
    }
    const f = firstCardKnowledge(sees);
    expect([f.alert, f.severity]).toEqual([true, 'HIGH']);
    expect(firstCardKnowledge(blind).eValue).toBeLessThan(100);
  });
});

/** A real shoe dealt to its cut card, with where each coup began. */
function dealtShoe(id: string, seed: number): DealtShoe & { coups: { position: number; first: number }[] } {
  const cards = shuffledShoe(8, seededRandom(seed));
  const coups: { position: number; first: number }[] = [];
  let pos = 1;
  while (cards.length - pos > 14) {
    coups.push({ position: pos, first: pointOf(cards[pos]) });
    pos += dealPuntoBanco(cards, pos)!.used;
  }
  return { id, cards: cards.slice(0, pos), coupStarts: coups.map((c) => c.position), rules: EZ, complete: true, coups };
}
const EZ = ruleSet({ variant: 'EZ', sideBets: ['DRAGON_7', 'PANDA_8'] });
/** The shoes of a record, every one closed (the dealer detector needs only that). */
const closedShoes = (record: readonly PlayedCoup[]) =>
  new Map<string, DealtShoe>(record.map((c) => [c.shoeId, { id: c.shoeId, cards: [], coupStarts: [], rules: EZ, complete: true }]));

/** The Dragon 7 true count a counter keeps (4–7 count −1, 8 and 9 +2): not the detector's own quantities. */
const trueCount = (dealt: readonly Card[]) => dealt.reduce((n, c) => n + (pointOf(c) >= 8 ? 2 : pointOf(c) >= 4 ? -1 : 0), 0) / ((416 - dealt.length) / 52);

describe('betting with the count, against shoes shuffled afresh', () => {
  /** Shoes until the count detector alarms on a counter's record (null if not in 40), 199 references a shoe. */
  const shoesUntilFlagged = (sitsOut: boolean) => {
    const shoes = new Map<string, DealtShoe>();
    const record: PlayedCoup[] = [];
    const memo = new Map();
    for (let s = 0; s < 40; s++) {
      const shoe = dealtShoe(`s${s}`, 1000 + s);
      shoes.set(shoe.id, shoe);
      shoe.coups.forEach((c, i) => {
        const go = trueCount(shoe.cards.slice(0, c.position)) >= 4;
        if (sitsOut && !go) return;
        const bets = [wager('BANKER', 1_000, 0), ...(go ? [wager('DRAGON_7', 5_000, 0)] : [])];
        record.push({ ...coup(record.length, bets), coupId: `${shoe.id}-${i}`, shoeId: shoe.id, position: c.position });
      });
      const f = countBetting('counter', record, shoes, memo, 199);
      if (f.alert) return { shoes: s + 1, finding: f };
    }
    return null;
  };

  it('a counter who bets Dragon 7 at a true count of 4 and more: flagged within ten shoes, the bets that were placed well shown', () => {
    const flagged = shoesUntilFlagged(false);
    expect(flagged).not.toBeNull();
    expect(flagged!.shoes).toBeLessThanOrEqual(10);
    expect(flagged!.finding.evidence).toMatchObject({ betTypes: ['DRAGON_7'], referenceShoes: 199 });
    expect(flagged!.finding.evidence.reason).toMatch(/DRAGON_7 bets fell where the cards left favoured the player/);
  });

  it('a shoe still being dealt is not tested: each shoe gives one e-value, once, when it closes (never the largest of several looks)', () => {
    const shoes = new Map<string, DealtShoe>();
    const record: PlayedCoup[] = [];
    for (let s = 0; s < 12; s++) {
      const shoe = dealtShoe(`o${s}`, 1000 + s);
      shoes.set(shoe.id, { ...shoe, complete: false });
      shoe.coups.forEach((c, i) => {
        const bets = [wager('BANKER', 1_000, 0), ...(trueCount(shoe.cards.slice(0, c.position)) >= 4 ? [wager('DRAGON_7', 5_000, 0)] : [])];
        record.push({ ...coup(record.length, bets), coupId: `${shoe.id}-${i}`, shoeId: shoe.id, position: c.position });
      });
    }
    const open = countBetting('counter', record, shoes, new Map(), 199);
    expect([open.evidence.shoesTested, open.eValue, open.alert]).toEqual([0, 0, false]);
    const closed = countBetting('counter', record, new Map([...shoes].map(([id, x]) => [id, { ...x, complete: true }])), new Map(), 199);
    expect(closed.evidence.shoesTested).toBe(new Set(record.filter((c) => c.wagers.length > 1).map((c) => c.shoeId)).size);
    expect(closed.alert).toBe(true);
  });

  it('a counter who sits out until the count is up: the coups sat out tell, flagged within ten shoes', () => {
    const flagged = shoesUntilFlagged(true);
    expect(flagged).not.toBeNull();
    expect(flagged!.shoes).toBeLessThanOrEqual(10);
  });

  /**
   * The null that broke before: honest Dragon bettors in streaks (and rising stakes within a streak),
   * late in the shoe, now and then. Their stakes never follow the cards, so each shoe's e-value
   * averages at most 1, whatever the pattern: measured on 120 real shoes per style.
   */
  it('honest streak, late, occasional and sit-out Dragon bettors: each shoe’s e-value averages at most 1, and few are large', () => {
    const styles: Record<string, (i: number, r: () => number, streak: { n: number }) => number> = {
      streaks: (_i, r, streak) => {
        streak.n = streak.n > 0 ? (r() < 0.85 ? streak.n + 1 : 0) : r() < 0.06 ? 1 : 0;
        return streak.n * 1_000;
      },
      late: (i, r) => (i > 55 && r() < 0.5 ? 2_000 : 0),
      now_and_then: (_i, r) => (r() < 0.05 ? 50_000 : 0),
      // Sits out for stretches and comes back, betting the Dragon every coup while seated.
      sits_out: (_i, r, streak) => {
        streak.n = streak.n > 0 ? (r() < 0.9 ? streak.n + 1 : 0) : r() < 0.1 ? 1 : 0;
        return streak.n > 0 ? 1_000 : -1;
      },
    };
    for (const [style, stakeAt] of Object.entries(styles)) {
      const random = seededRandom(7);
      const values: number[] = [];
      for (let s = 0; s < 120; s++) {
        const shoe = dealtShoe(`${style}-${s}`, 5000 + s);
        const streak = { n: 0 };
        const record = shoe.coups.flatMap((c, i) => {
          const stake = stakeAt(i, random, streak);
          if (stake < 0) return []; // not seated
          return {
            ...coup(i, [wager('BANKER', 1_000, 0), ...(stake > 0 ? [wager('DRAGON_7', stake, 0)] : [])]),
            coupId: `${shoe.id}-${i}`,
            shoeId: shoe.id,
            position: c.position,
          };
        });
        const f = countBetting(style, record, new Map([[shoe.id, shoe]]), new Map(), 99);
        if ((f.evidence.shoesTested as number) > 0) values.push(f.eValue);
      }
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
      expect(mean).toBeLessThan(1 + (3 * sd) / Math.sqrt(values.length));
      // Markov: at most 1 in 20 can reach 20.
      expect(values.filter((v) => v >= 20).length / values.length).toBeLessThan(0.05);
    }
  });
});

describe('a dealer and a patron together, dealers compared with each other', () => {
  const threeDealers = (sees: (dealer: string) => boolean) => {
    const record: PlayedCoup[] = [];
    for (let s = 0; s < 4; s++) {
      const shoe = dealtShoe(`d${s}`, 300 + s);
      shoe.coups.forEach((c, i) => {
        const dealer = `D-${Math.floor(i / 25) % 3}`;
        const high = sees(dealer) ? c.first >= 7 : (i * 7) % 13 < 3;
        const odds = coupOdds(EZ, removeCards(fullShoe(8), shoe.cards.slice(0, c.position)));
        record.push({
          ...coup(record.length, [high ? wager('PLAYER', 10_000, 0) : wager('BANKER', 2_000, 0)], c.first, dealer),
          coupId: `d${s}-${i}`,
          shoeId: shoe.id,
          position: c.position,
          odds,
        });
      });
    }
    return record;
  };

  it('a patron shown the first card by one dealer: that dealer named, the others not', () => {
    const record = threeDealers((d) => d === 'D-1');
    const findings = dealerPairing('friend', record, closedShoes(record));
    const named = findings.filter((f) => f.alert).map((f) => f.evidence.dealerId);
    expect(named).toEqual(['D-1']);
    expect(findings.find((f) => f.evidence.dealerId === 'D-0')!.eValue).toBeLessThan(ALARM / 100);
  });

  it('an edge sorter who sees the first card whoever deals: the patron is flagged, no dealer is named', () => {
    const record = threeDealers(() => true);
    expect(firstCardKnowledge(record).alert).toBe(true);
    expect(dealerPairing('sorter', record, closedShoes(record)).filter((f) => f.alert)).toEqual([]);
  });

  it('the shoe still being dealt is left out until it closes', () => {
    const record = threeDealers((d) => d === 'D-1');
    const shoes = closedShoes(record);
    const all = dealerPairing('friend', record, shoes).find((f) => f.evidence.dealerId === 'D-1')!;
    shoes.set('d3', { ...shoes.get('d3')!, complete: false });
    const withOpen = dealerPairing('friend', record, shoes).find((f) => f.evidence.dealerId === 'D-1')!;
    expect([all.evidence.shoesCompared, withOpen.evidence.shoesCompared]).toEqual([4, 3]);
  });

  it('a patron who played with one dealer only cannot be compared: no dealer finding', () => {
    const record = threeDealers(() => true).map((c) => ({ ...c, dealerId: 'D-9' }));
    expect(dealerPairing('one', record, closedShoes(record))).toEqual([]);
  });
});

describe('an outside examiner’s attacks, each closed', () => {
  it('a patron switching between two tables every coup: one count e-value a shoe, never one a stretch against the same references', () => {
    let alarms = 0;
    const pairs = 60;
    for (let k = 0; k < pairs; k++) {
      const a = dealtShoe(`a${k}`, 9000 + 2 * k);
      const b = dealtShoe(`b${k}`, 9001 + 2 * k);
      const record: PlayedCoup[] = [];
      for (let i = 0; i < Math.min(a.coups.length, b.coups.length); i++) {
        for (const shoe of [a, b]) {
          record.push({
            ...coup(record.length, [wager('BANKER', 1_000, 0), wager('DRAGON_7', 500, 0)]),
            coupId: `${shoe.id}-${i}`,
            shoeId: shoe.id,
            position: shoe.coups[i].position,
          });
        }
      }
      const f = countBetting(`switcher-${k}`, record, new Map([a, b].map((x) => [x.id, x])), new Map(), 99);
      expect(f.evidence.shoesTested).toBe(2);
      // Two steps: R = (1 + E₁) E₂, whose expectation is at most 2; at most 2/20 of records may reach 20.
      if (f.eValue >= 20) alarms++;
    }
    expect(alarms / pairs).toBeLessThanOrEqual(0.1);
  });

  it('an edge sorter blind in the first half of each shoe and sharp in the second, dealers rotating: no dealer named', () => {
    const record: PlayedCoup[] = [];
    const random = seededRandom(31);
    for (let s = 0; s < 6; s++) {
      const shoe = dealtShoe(`h${s}`, 700 + s);
      shoe.coups.forEach((c, i) => {
        const sharp = c.position > 208 && random() < 0.9;
        const high = sharp ? c.first >= 7 : random() < 3 / 13;
        const odds = coupOdds(EZ, removeCards(fullShoe(8), shoe.cards.slice(0, c.position)));
        const dealer = `D-${Math.floor((s * 80 + i) / 30) % 3}`;
        record.push({
          ...coup(record.length, [high ? wager('PLAYER', 10_000, 0) : wager('BANKER', 2_000, 0)], c.first, dealer),
          coupId: `h${s}-${i}`,
          shoeId: shoe.id,
          position: c.position,
          odds,
        });
      });
    }
    expect(firstCardKnowledge(record).alert).toBe(true);
    for (const f of dealerPairing('half-sorter', record, closedShoes(record)))
      expect([f.evidence.dealerId, f.eValue < 1_000]).toEqual([f.evidence.dealerId, true]);
  });

  it('a table that rounds commission down to a whole chip: Banker flat at 10.00 pays 1 to 1, which the money detector does not take for an edge', () => {
    const rules = ruleSet({ variant: 'COMMISSION', rounding: { mode: 'FLOOR', unit: 100 } });
    let sum = 0;
    const shoes = 300;
    for (let s = 0; s < shoes; s++) {
      const cards = shuffledShoe(8, seededRandom(1300 + s));
      let pos = 0;
      let left = fullShoe(8);
      const record: PlayedCoup[] = [];
      for (let i = 0; i < 12; i++) {
        const deal = dealPuntoBanco(cards, pos)!;
        const settled = settleWager(rules, evaluateCoup('COMMISSION', deal), { betType: 'BANKER', amount: 1_000n });
        record.push({
          ...coup(i, [{ betType: 'BANKER', stake: 1_000n, paid: settled.result === 'WIN', net: settled.net }]),
          odds: coupOdds(rules, left),
          roundingUnit: 100,
        });
        left = removeCards(left, [...deal.player, ...deal.banker]);
        pos += deal.used;
      }
      sum += moneyBeyondOdds(record).eValue;
    }
    // One step a record: its statistic is its e-value, whose mean is at most 1.
    expect(sum / shoes).toBeLessThan(1);
  });

  it('numbers that are no numbers are no evidence', () => {
    expect(exchangeableEValue(NaN, [1, 2, 3])).toBe(1);
    expect(exchangeableEValue(Infinity, [1, 2, 3])).toBe(1);
    expect(exchangeableEValue(5, [1, NaN, 3])).toBe(1);
    expect(chanceOfAnyMatch(500, 1, 1_000)).toBe(1);
    expect(chanceOfAnyMatch(8, 0, 1_000)).toBe(1);
    expect(shiryaevRoberts([[NaN], [Math.log(2)]])).toBeCloseTo(4, 12);
  });
});

describe('a record read again after an alert is closed', () => {
  it('a detector restarted at the close reads only the coups after it; the others read the whole record', () => {
    const record = [0, 1, 2, 3].map((i) => coup(i, [wager('PLAYER', 100, 100)], 9));
    const restarted = surveyRecord('p', record, new Map(), new Map([['FIRST_CARD_KNOWLEDGE', 1]]));
    expect(restarted.find((f) => f.kind === 'FIRST_CARD_KNOWLEDGE')!.eValue).toBeCloseTo(onePerFraction(1, 2), 12);
    expect(restarted.find((f) => f.kind === 'WINS_BEYOND_ODDS')!.eValue).toBeCloseTo(onePerFraction(1, 4), 12);
    expect(restarted.map((f) => f.kind)).toEqual(['COUNT_BETTING', 'WINS_BEYOND_ODDS', 'MONEY_BEYOND_ODDS', 'FIRST_CARD_KNOWLEDGE']);
  });
});

describe('the odds a coup was played at', () => {
  const rules = ruleSet({ variant: 'EZ', sideBets: ['DRAGON_7', 'PANDA_8'] });
  it('a full EZ shoe: the house edges of betOdds, and the first card’s odds averaging back to them', () => {
    const odds = coupOdds(rules, fullShoe(8));
    expect(odds.depth).toBe(0);
    const exact = betOdds(rules, exactOdds(fullShoe(8)));
    for (const b of exact) {
      const edge = Number(b.houseEdge.numerator) / Number(b.houseEdge.denominator);
      expect(odds.chances[b.betType]!.mean).toBeCloseTo(-edge, 14);
    }
    expect(odds.firstCardChance.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
    // Ten-value cards are 16 of 52; the other values 4 of 52 each.
    expect(odds.firstCardChance[0]).toBeCloseTo(16 / 52, 14);
    expect(odds.firstCardChance[5]).toBeCloseTo(4 / 52, 14);
    for (const bet of ['PLAYER', 'BANKER', 'TIE'] as const) {
      const averaged = odds.meanGivenFirst[bet].reduce((sum, m, v) => sum + odds.firstCardChance[v] * m, 0);
      expect(averaged).toBeCloseTo(odds.chances[bet]!.mean, 14);
    }
  });

  it('the depth of a shoe: a quarter of its cards out is the second stratum', () => {
    const seen = new Array<number>(104).fill(0).map((_, i) => i % 52);
    const comp = fullShoe(8).map((k, card) => k - seen.filter((c) => c === card).length);
    expect(coupOdds(rules, comp).depth).toBe(1);
  });
});

describe('a shoe seen before', () => {
  const cards = parseCards(['AS', 'KD', '2H', '3C', '4S', '5D', '6H', '7C', '8S', '9D', 'TH', 'JC', 'QS']);
  it('a 12-card run from one of the table’s last shoes: its chance for any 12 cards, over a whole shoe against those shoes’ places, doubled for the two looks', () => {
    const f = repeatedRunFinding(cards, { at: 0, earlierAt: 100, length: 12 }, { shoeId: 'earlier', recent: true }, 8, { recent: 3_000, indexed: 1e9 });
    let chance = 1;
    for (let i = 0; i < 12; i++) chance *= 8 / (416 - i);
    expect(f.pValue).toBeCloseTo(2 * 416 * 3_000 * chance, 30);
    expect([f.alert, f.severity]).toEqual([true, 'HIGH']);
    expect(f.evidence).toMatchObject({ earlierShoeId: 'earlier', at: 0, earlierAt: 100, length: 12, placesCompared: { recent: 3_000, indexed: 1e9 } });
    expect(f.evidence.reason).toMatch(/^12 cards came out in the same order as in an earlier shoe, one of the table’s last shoes/);
  });

  it('an 8-card run: a slug from the last shoes at any size of the index; luck when only the whole index holds it', () => {
    const run = { at: 0, earlierAt: 5, length: 8 };
    expect(repeatedRunFinding(cards, run, { shoeId: 'e', recent: true }, 8, { recent: 8 * 402, indexed: 1_000_000 * 402 }).alert).toBe(true);
    expect(repeatedRunFinding(cards, run, { shoeId: 'e', recent: false }, 8, { recent: 8 * 402, indexed: 1_000_000 * 402 }).alert).toBe(false);
    expect(repeatedRunFinding(cards, run, { shoeId: 'e', recent: false }, 8, { recent: 0, indexed: 100 * 402 }).alert).toBe(true);
  });
});

describe('odds as stored', () => {
  it('pack into 77 doubles and come back exactly, unoffered bets left out and impossible first cards as NaN', () => {
    // EZ with Dragon 7 and Panda 8, on a shoe with every 9 and every ten-value card gone: no first card is worth 0 or 9.
    const rules = ruleSet({ variant: 'EZ' });
    const gone = ['9', 'T', 'J', 'Q', 'K'].flatMap((r) => ['S', 'H', 'D', 'C'].flatMap((s) => new Array<string>(8).fill(r + s)));
    const odds = coupOdds(rules, removeCards(fullShoe(8), parseCards(gone)));
    expect(Number.isNaN(odds.meanGivenFirst.PLAYER[0]) && Number.isNaN(odds.meanGivenFirst.BANKER[9])).toBe(true);
    const packed = packOdds(odds);
    expect(packed).toHaveLength(PACKED_ODDS_LENGTH);
    expect(PACKED_ODDS_LENGTH).toBe(77);
    expect(unpackOdds(packed)).toEqual(odds);
    expect(Object.keys(unpackOdds(packed).chances).sort()).toEqual(Object.keys(odds.chances).sort());
    expect(() => unpackOdds(packed.slice(1))).toThrow('packed odds hold 77 numbers, not 76');
  });
});

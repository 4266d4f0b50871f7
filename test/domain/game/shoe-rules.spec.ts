import {
  admitWager,
  bankerTakes,
  bankOpening,
  dealFrom,
  DomainError,
  newShoe,
  nextCoupNumber,
  parseCards,
  PreviousBank,
  retireOffer,
  returnToShoe,
  ruleSet,
  ShoeState,
  stakeLimits,
  TableLimits,
} from '../../../src/domain';

/** The rules services used to hold: the shoe's burn, cut card and last coup; wager admission; a bank's life. */

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return { code: e.code, message: e.message, details: e.details };
    throw e;
  }
  throw new Error('not refused');
};

const shoe = (o: Partial<ShoeState> = {}): ShoeState => {
  const decks = o.decks ?? 8;
  return {
    decks,
    remaining: new Array<number>(52).fill(decks),
    cardsDealt: 0,
    cutCardPosition: null,
    coupCount: 0,
    openCoupId: null,
    lastCoupNumber: null,
    ...o,
  };
};

describe('a new shoe: the burn and the cut card', () => {
  it.each([
    // face-up card, cards recorded, cards out of the shoe
    ['7H', ['7H'], 8],
    ['AS', ['AS', '2C'], 2],
    ['KD', ['KD'], 11],
    ['TC', ['TC', 'AS', 'AS', 'AS', 'AS', '2D', '2D', '2D', '2D', '3H', '3H'], 11],
  ])('burn %s recorded as %j takes %i cards out', (_face, cards, out) => {
    const s = newShoe(8, parseCards(cards), null);
    expect(s.cardsDealt).toBe(out);
    expect(s.remaining.reduce((a, b) => a + b, 0)).toBe(416 - cards.length);
  });

  it('no burn recorded: all 416 cards are in the shoe', () => {
    expect(newShoe(8, [], null)).toEqual({ remaining: new Array<number>(52).fill(8), cardsDealt: 0 });
  });

  it('a burn recorded with some but not all of its burned cards is refused', () => {
    expect(refusal(() => newShoe(8, parseCards(['3S', '4H']), null))).toEqual({
      code: 'INVALID_SHOE',
      message: 'The face-up burn card 3S burns 3 more: record it alone or with all 3 burned cards',
      details: undefined,
    });
  });

  it('the cut card lies within the cards left after the burn', () => {
    expect(newShoe(8, parseCards(['5C']), 409).cardsDealt).toBe(6);
    expect(refusal(() => newShoe(8, parseCards(['5C']), 410)).message).toBe('The cut card must lie within the 410 cards left after the burn');
  });
});

describe('coups leaving the shoe', () => {
  it('numbers coups in turn; none while a coup takes bets; none after the last', () => {
    expect(nextCoupNumber(shoe({ coupCount: 41 }))).toBe(42);
    expect(refusal(() => nextCoupNumber(shoe({ coupCount: 3, openCoupId: 'c' }))).code).toBe('COUP_IN_PROGRESS');
    expect(nextCoupNumber(shoe({ coupCount: 69, lastCoupNumber: 70 }))).toBe(70);
    expect(refusal(() => nextCoupNumber(shoe({ coupCount: 70, lastCoupNumber: 70 })))).toEqual({
      code: 'SHOE_EXHAUSTED',
      message: 'The cut card has come out: coup 70 was the last of this shoe',
      details: undefined,
    });
  });

  it('the coup that reaches the cut card is followed by exactly one more', () => {
    // 8 decks, cut card 16 from the back: the cut card comes out with card 400.
    const before = shoe({ cutCardPosition: 16, cardsDealt: 396, coupCount: 70 });
    const reaching = dealFrom(before, 71, parseCards(['2C', '3D', '4H', '5S']));
    expect(reaching).toMatchObject({ cardsDealt: 400, lastCoupNumber: 72 });
    const short = dealFrom(before, 71, parseCards(['2C', '3D', '4H']));
    expect(short.lastCoupNumber).toBeNull();
    // Once set, the last coup does not move.
    expect(dealFrom({ ...before, cardsDealt: 400, lastCoupNumber: 72 }, 72, parseCards(['2C', '3D', '4H', '5S'])).lastCoupNumber).toBeNull();
  });

  it('a coup needs its cards to be in the shoe; a voided coup puts them back', () => {
    expect(refusal(() => dealFrom(shoe({ cardsDealt: 412 }), 80, parseCards(['2C', '3D', '4H', '5S', '6C']))).message).toBe(
      'Only 4 card(s) are left in the shoe; this coup records 5',
    );
    const s = shoe();
    const dealt = dealFrom(s, 1, parseCards(['9S', 'KD', '8H', 'KC']));
    expect(dealt.cardsDealt).toBe(4);
    expect(returnToShoe(dealt, parseCards(['9S', 'KD', '8H', 'KC']))).toEqual({ remaining: s.remaining, cardsDealt: 0 });
  });
});

describe('admitting a wager', () => {
  const rules = ruleSet({ variant: 'COMMISSION', decks: 8, commissionBps: 500, tieBetsStay: false, sideBets: ['PLAYER_PAIR'] });
  const limits: TableLimits = { table: { min: 2_500n, max: 500_000n }, perBet: { PLAYER_PAIR: { min: 500n, max: 25_000n } } };
  const table = { code: 'MB-1', variant: 'COMMISSION', currency: 'EUR' };

  it("a bet's own limits replace the table's", () => {
    expect(stakeLimits(limits, 'PLAYER_PAIR')).toEqual({ min: 500n, max: 25_000n });
    expect(stakeLimits(limits, 'BANKER')).toEqual({ min: 2_500n, max: 500_000n });
  });

  it.each([
    ['BANKER', 2_500n],
    ['BANKER', 500_000n],
    ['PLAYER_PAIR', 500n],
  ] as const)('%s %d is admitted', (betType, amount) => {
    expect(() => admitWager(rules, limits, table, { seat: 3, betType, amount })).not.toThrow();
  });

  it.each([
    ['BANKER', 2_499n, 'BET_LIMIT', 'Seat 3: a BANKER bet at table MB-1 must be between 2500 and 500000 (EUR minor units); 2499 is below the minimum'],
    [
      'PLAYER_PAIR',
      25_001n,
      'BET_LIMIT',
      'Seat 3: a PLAYER_PAIR bet at table MB-1 must be between 500 and 25000 (EUR minor units); 25001 is above the maximum',
    ],
    ['DRAGON_7', 5_000n, 'BET_NOT_OFFERED', 'DRAGON_7 is not offered at table MB-1 (COMMISSION)'],
  ] as const)('%s %d is refused: %s', (betType, amount, code, message) => {
    expect(refusal(() => admitWager(rules, limits, table, { seat: 3, betType, amount }))).toMatchObject({ code, message });
  });
});

describe("a bank's life", () => {
  const limits = { min: 1_000n, max: 100_000n };
  const previous = (o: Partial<PreviousBank>): PreviousBank => ({
    number: 1,
    bankerSeat: 1,
    status: 'PASSED',
    nextBanker: 2,
    offer: null,
    rotation: [1, 2, 3],
    stakesAccepted: false,
    ...o,
  });

  it('the first bank needs the rotation, a seated banker and an amount within the limits', () => {
    expect(refusal(() => bankOpening('CHEMIN_DE_FER', null, { bankerSeat: 1, amount: 5_000n, declined: [] }, limits)).code).toBe('INCOMPLETE');
    expect(refusal(() => bankOpening('CHEMIN_DE_FER', null, { bankerSeat: 4, amount: 5_000n, declined: [], rotation: [1, 2] }, limits)).code).toBe(
      'INVALID_STAKES',
    );
    expect(refusal(() => bankOpening('CHEMIN_DE_FER', null, { bankerSeat: 1, amount: 999n, declined: [], rotation: [1, 2] }, limits)).code).toBe('BET_LIMIT');
    expect(bankOpening('CHEMIN_DE_FER', null, { bankerSeat: 1, amount: 5_000n, declined: [], rotation: [1, 2] }, limits)).toEqual({
      how: 'NEW',
      rotation: [1, 2],
      outOfTurnFor: null,
      stakesAccepted: false,
    });
  });

  it('one bank at a time; the rotation carries over; chemin de fer follows the succession', () => {
    expect(
      refusal(() =>
        bankOpening('CHEMIN_DE_FER', previous({ status: 'ACTIVE', number: 4, bankerSeat: 3 }), { bankerSeat: 1, amount: 5_000n, declined: [] }, limits),
      ),
    ).toMatchObject({
      code: 'BANK_ALREADY_ACTIVE',
      message: 'Seat 3 holds bank 4 of this shoe: it must retire or pass first',
    });
    expect(bankOpening('CHEMIN_DE_FER', previous({}), { bankerSeat: 2, amount: 5_000n, declined: [] }, limits)).toMatchObject({
      how: 'PASSED',
      rotation: [1, 2, 3],
    });
    expect(refusal(() => bankOpening('CHEMIN_DE_FER', previous({}), { bankerSeat: 3, amount: 5_000n, declined: [] }, limits)).code).toBe('WRONG_BANKER');
    // A bank that ended with its shoe starts the next anew, wherever the seat.
    expect(bankOpening('CHEMIN_DE_FER', previous({ status: 'SHOE_CLOSED' }), { bankerSeat: 3, amount: 5_000n, declined: [] }, limits).how).toBe('NEW');
  });

  it('banque: a retired bank is CONTINUED by another seat at exactly its offer, with its accepted stakes', () => {
    const retired = previous({ status: 'RETIRED', offer: 40_000n, stakesAccepted: true });
    expect(bankOpening('BANQUE', retired, { bankerSeat: 2, amount: 40_000n, declined: [] }, limits)).toEqual({
      how: 'CONTINUED',
      rotation: [1, 2, 3],
      outOfTurnFor: null,
      stakesAccepted: true,
    });
    expect(bankOpening('BANQUE', retired, { bankerSeat: 2, amount: 30_000n, declined: [], how: 'AUCTION' }, limits)).toMatchObject({
      how: 'AUCTION',
      stakesAccepted: false,
    });
    expect(bankOpening('BANQUE', retired, { bankerSeat: 1, amount: 40_000n, declined: [] }, limits).how).toBe('FIRST_LISTED');
  });

  it('retiring: chemin de fer offers the next stake, banque an amount named after a coup', () => {
    expect(retireOffer({ game: 'CHEMIN_DE_FER', stake: 16_000n, standing: null, coups: 2 }, undefined)).toBe(16_000n);
    expect(refusal(() => retireOffer({ game: 'CHEMIN_DE_FER', stake: 16_000n, standing: [{ seat: 2 }], coups: 2 }, undefined)).code).toBe('BANK_NOT_RETIRABLE');
    expect(refusal(() => retireOffer({ game: 'CHEMIN_DE_FER', stake: 16_000n, standing: null, coups: 2 }, 5_000n)).code).toBe('INCOMPLETE');
    expect(retireOffer({ game: 'BANQUE', stake: 16_000n, standing: null, coups: 1 }, 12_000n)).toBe(12_000n);
    expect(refusal(() => retireOffer({ game: 'BANQUE', stake: 16_000n, standing: null, coups: 0 }, 12_000n)).code).toBe('BANK_NOT_RETIRABLE');
    expect(refusal(() => retireOffer({ game: 'BANQUE', stake: 16_000n, standing: null, coups: 1 }, undefined)).code).toBe('INCOMPLETE');
  });

  it.each([
    ['ACTIVE', null],
    ['RETIRED', 21_000n],
    ['SHOE_CLOSED', 21_000n],
    ['PASSED', 5_000n],
    ['BROKE', 5_000n],
  ] as const)('a bank %s: the banker takes %s (bank 16,000, set aside 5,000)', (status, takes) => {
    expect(bankerTakes({ status, stake: 16_000n, setAside: 5_000n })).toBe(takes);
  });
});

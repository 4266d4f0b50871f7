import { banqueCoup, ChemmyBankState, chemmyCoup, evaluateBanqueCoup, parseCards, placeAfter, playBanque, playChemmy } from '../../../src/domain';

const house = { commissionBps: 500, rounding: { mode: 'FLOOR' as const, unit: 1 } };
const rotation = [1, 2, 3, 4, 5, 6, 7, 8, 9]; // counter-clockwise

describe('chemin de fer: the bank', () => {
  const bank = { bankerSeat: 3, bank: 10_000n, bancoSuivi: null };

  it('banker wins: takes the covered stakes, the house takes 5 % of the winnings, the bank doubles less commission; the set-aside stays aside', () => {
    const r = chemmyCoup(
      house,
      bank,
      [
        { seat: 4, amount: 3_000n },
        { seat: 5, amount: 2_000n },
      ],
      'BANKER',
      rotation,
    );
    expect(r).toMatchObject({
      covered: 5_000n,
      setAside: 5_000n,
      bankerGross: 5_000n,
      commission: 250n,
      bankAfter: 9_750n,
      nextBanker: 3,
      bankPasses: false,
      stakesStand: false,
      handPlayer: 4,
    });
    expect(r.punters).toEqual([
      { seat: 4, stake: 3_000n, net: -3_000n },
      { seat: 5, stake: 2_000n, net: -2_000n },
    ]);
  });

  it('banker loses: pays each punter, keeps the set-aside, and the bank passes to the next seat', () => {
    const r = chemmyCoup(
      house,
      bank,
      [
        { seat: 4, amount: 3_000n },
        { seat: 5, amount: 2_000n },
      ],
      'PLAYER',
      rotation,
    );
    expect(r).toMatchObject({ bankerGross: -5_000n, commission: 0n, bankAfter: null, nextBanker: 4, bankPasses: true, setAside: 5_000n });
    expect(r.punters.map((p) => p.net)).toEqual([3_000n, 2_000n]);
  });

  it('a tie: every stake stands, the bank stays', () => {
    expect(chemmyCoup(house, bank, [{ seat: 4, amount: 3_000n }], 'TIE', rotation)).toMatchObject({
      stakesStand: true,
      bankAfter: 10_000n,
      nextBanker: 3,
      bankerGross: 0n,
    });
  });

  it('a banker winning several coups running: the whole bank is staked each time', () => {
    let b = { bankerSeat: 9, bank: 1_000n, bancoSuivi: null as number | null };
    const banks = [];
    for (let i = 0; i < 3; i++) {
      const r = chemmyCoup(house, b, [{ seat: 1, amount: b.bank, call: 'BANCO' }], 'BANKER', rotation);
      banks.push(r.bankAfter);
      b = { bankerSeat: 9, bank: r.bankAfter!, bancoSuivi: r.bancoSuivi };
    }
    expect(banks).toEqual([1_950n, 3_803n, 7_416n]); // 2·1000 − 50; 2·1950 − 97 (5 % of 1950 = 97.5, floored); 2·3803 − 190
    expect(b.bancoSuivi).toBe(1); // the losing banco may follow
    expect(chemmyCoup(house, b, [{ seat: 1, amount: b.bank, call: 'BANCO_SUIVI' }], 'PLAYER', rotation)).toMatchObject({ nextBanker: 1, bancoSuivi: null });
  });

  it('the hand is played by the largest stake, the first in rotation from the banker on equal stakes', () => {
    expect(
      chemmyCoup(
        house,
        bank,
        [
          { seat: 8, amount: 2_000n },
          { seat: 5, amount: 2_000n },
          { seat: 4, amount: 1_000n },
        ],
        'TIE',
        rotation,
      ).handPlayer,
    ).toBe(5);
    expect(
      chemmyCoup(
        house,
        { ...bank, bankerSeat: 7 },
        [
          { seat: 2, amount: 2_000n },
          { seat: 9, amount: 2_000n },
        ],
        'TIE',
        rotation,
      ).handPlayer,
    ).toBe(9);
    expect(placeAfter(rotation, 7, 9)).toBe(2);
    expect(placeAfter(rotation, 7, 2)).toBe(4);
  });

  it.each([
    [
      [
        { seat: 4, amount: 6_000n },
        { seat: 5, amount: 5_000n },
      ],
      'STAKES_EXCEED_BANK',
    ],
    [
      [
        { seat: 4, amount: 10_000n, call: 'BANCO' as const },
        { seat: 5, amount: 10_000n, call: 'BANCO' as const },
      ],
      'BANCO_CONFLICT',
    ],
    [
      [
        { seat: 4, amount: 10_000n, call: 'BANCO' as const },
        { seat: 5, amount: 100n },
      ],
      'BANCO_CONFLICT',
    ],
    [[{ seat: 4, amount: 9_000n, call: 'BANCO' as const }], 'INVALID_STAKES'],
    [[{ seat: 4, amount: 10_000n, call: 'BANCO_SUIVI' as const }], 'INVALID_STAKES'],
    [
      [
        { seat: 4, amount: 10_000n },
        { seat: 12, amount: 100n, bystander: true },
      ],
      'INVALID_STAKES',
    ],
    [[{ seat: 3, amount: 100n }], 'INVALID_STAKES'],
    [
      [
        { seat: 4, amount: 100n },
        { seat: 4, amount: 100n },
      ],
      'INVALID_STAKES',
    ],
    [[{ seat: 4, amount: 0n }], 'INVALID_STAKES'],
    [[{ seat: 13, amount: 100n }], 'INVALID_STAKES'], // a seat not at the game
    [[], 'INVALID_STAKES'],
  ])('rejects %p with %s', (stakes, code) => {
    expect(() => chemmyCoup(house, bank, stakes, 'BANKER', [...rotation, 12])).toThrow(expect.objectContaining({ code }));
  });

  it('a bystander from outside the rotation may cover the rest, and never plays the hand over an equal seated stake', () => {
    const r = chemmyCoup(
      house,
      bank,
      [
        { seat: 20, amount: 5_000n, bystander: true },
        { seat: 4, amount: 5_000n },
      ],
      'BANKER',
      rotation,
    );
    expect([r.covered, r.handPlayer]).toEqual([10_000n, 4]);
  });

  it('bystanders may cover what the seated punters leave', () => {
    expect(
      chemmyCoup(
        house,
        bank,
        [
          { seat: 4, amount: 6_000n },
          { seat: 12, amount: 4_000n, bystander: true },
        ],
        'BANKER',
        [...rotation, 12],
      ),
    ).toMatchObject({ covered: 10_000n, setAside: 0n });
  });
});

describe('baccarat banque: each side against the banker', () => {
  // Right 7 beats banker 5; left 4 loses to banker 5.
  const outcome = evaluateBanqueCoup({ right: parseCards(['KS', '7D']), left: parseCards(['2S', '2D', 'KH']), banker: parseCards(['KC', '5H']) });

  it('settles each side separately; an à cheval stake is half on each hand', () => {
    const r = banqueCoup(
      house,
      100_000n,
      [
        { seat: 1, side: 'RIGHT', amount: 1_000n },
        { seat: 2, side: 'LEFT', amount: 2_000n },
        { seat: 3, side: 'A_CHEVAL', amount: 1_001n },
      ],
      outcome,
      false,
    );
    // Seat 3: 501 on the right (wins), 500 on the left (loses): net +1.
    expect(r.stakes.map((s) => [s.seat, s.net, s.unpaid])).toEqual([
      [1, 1_000n, 0n],
      [2, -2_000n, 0n],
      [3, 1n, 0n],
    ]);
    expect(r).toMatchObject({ collected: 2_500n, paid: 1_501n, commission: 49n, bankAfter: 100_000n + 2_500n - 1_501n - 49n, bankBroken: false });
  });

  it('a bank that cannot pay everyone pays in rotation order while funds last; the rest have no claim', () => {
    const r = banqueCoup(
      house,
      1_500n,
      [
        { seat: 1, side: 'RIGHT', amount: 1_000n },
        { seat: 2, side: 'RIGHT', amount: 1_000n },
        { seat: 3, side: 'LEFT', amount: 200n },
        { seat: 4, side: 'RIGHT', amount: 500n },
      ],
      outcome,
      false,
    );
    // Funds: 1,500 + 200 collected = 1,700: seat 1 paid 1,000, seat 2 gets the remaining 700, seat 4 nothing.
    expect(r.stakes.map((s) => [s.seat, s.net, s.unpaid])).toEqual([
      [1, 1_000n, 0n],
      [2, 700n, 300n],
      [3, -200n, 0n],
      [4, 0n, 500n],
    ]);
    expect(r).toMatchObject({ bankBroken: true, bankAfter: 0n, commission: 0n });
  });

  it('stakes accepted by the banker: everyone is paid, the bank may go below zero', () => {
    const r = banqueCoup(
      house,
      1_500n,
      [
        { seat: 1, side: 'RIGHT', amount: 1_000n },
        { seat: 2, side: 'RIGHT', amount: 1_000n },
      ],
      outcome,
      true,
    );
    expect(r).toMatchObject({ paid: 2_000n, bankAfter: -500n, bankBroken: false });
  });
});

describe('a chemin de fer bank, coup after coup', () => {
  const start: ChemmyBankState = { bankerSeat: 1, rotation: [1, 2, 3, 4], stake: 10_000n, setAside: 0n, commission: 0n, bancoSuivi: null, standing: null };

  it('won: the bank grows by the winnings less commission, the uncovered part is set aside; a banco without an amount covers the whole bank', () => {
    const won = playChemmy(house, start, { calls: [{ seat: 2, amount: 4_000n }], bankerAdds: 0n, winner: 'BANKER' });
    expect(won.next).toMatchObject({ stake: 7_800n, setAside: 6_000n, commission: 200n, passed: false, standing: null });
    const banco = playChemmy(house, won.next, { calls: [{ seat: 3, call: 'BANCO' }], bankerAdds: 200n, winner: 'BANKER' });
    expect([banco.bankBefore, banco.stakes[0].amount, banco.next.stake, banco.next.bancoSuivi]).toEqual([8_000n, 8_000n, 15_600n, 3]);
  });

  it('tied: the same stakes stand, repeated or left out; nothing else may replace them, nor may the banker add', () => {
    const tied = playChemmy(house, start, { calls: [{ seat: 2, amount: 4_000n }], bankerAdds: 0n, winner: 'TIE' });
    expect(tied.next).toMatchObject({ stake: 10_000n, setAside: 0n, standing: [{ seat: 2, amount: 4_000n }] });
    expect(playChemmy(house, tied.next, { calls: null, bankerAdds: 0n, winner: 'BANKER' }).next).toMatchObject({
      stake: 7_800n,
      setAside: 6_000n,
      standing: null,
    });
    expect(playChemmy(house, tied.next, { calls: [{ seat: 2, amount: 4_000n }], bankerAdds: 0n, winner: 'PLAYER' }).next.passed).toBe(true);
    expect(() => playChemmy(house, tied.next, { calls: [{ seat: 3, amount: 4_000n }], bankerAdds: 0n, winner: 'BANKER' })).toThrow(
      expect.objectContaining({ code: 'STAKES_STAND' }),
    );
    expect(() => playChemmy(house, tied.next, { calls: null, bankerAdds: 100n, winner: 'BANKER' })).toThrow(expect.objectContaining({ code: 'STAKES_STAND' }));
  });

  it('lost: the bank passes to the next seat; the banker keeps only what was set aside', () => {
    const lost = playChemmy(house, { ...start, setAside: 500n }, { calls: [{ seat: 4, amount: 3_000n }], bankerAdds: 0n, winner: 'PLAYER' });
    expect(lost.next).toMatchObject({ passed: true, stake: 0n, setAside: 500n + 7_000n });
    expect(lost.result.nextBanker).toBe(2);
  });

  it('refuses a stake without an amount unless it is a banco, and a negative addition', () => {
    expect(() => playChemmy(house, start, { calls: [{ seat: 2 }], bankerAdds: 0n, winner: 'BANKER' })).toThrow(
      expect.objectContaining({ code: 'INVALID_STAKES' }),
    );
    expect(() => playChemmy(house, start, { calls: [{ seat: 2, amount: 100n }], bankerAdds: -1n, winner: 'BANKER' })).toThrow(
      expect.objectContaining({ code: 'INVALID_STAKES' }),
    );
  });
});

describe('a banque bank, coup after coup', () => {
  const rightWinsLeftLoses = evaluateBanqueCoup({ right: parseCards(['9S', 'KD']), left: parseCards(['2H', '3C']), banker: parseCards(['7H', 'KC']) });
  const state = { bankerSeat: 1, rotation: [1, 2, 3, 4], stake: 1_000n, commission: 0n, stakesAccepted: false };

  it('breaks when it cannot pay everyone; the bank goes to the next seat', () => {
    const r = playBanque(house, state, {
      calls: [
        { seat: 2, side: 'RIGHT', amount: 5_000n },
        { seat: 3, side: 'LEFT', amount: 100n },
      ],
      outcome: rightWinsLeftLoses,
      declareAccepted: false,
    });
    expect([r.next.broke, r.next.stake, r.nextBanker, r.result.stakes[0].unpaid]).toEqual([true, 0n, 2, 5_000n - 1_100n]);
  });

  it('with the stakes accepted it pays everyone, goes below zero, and stays accepted', () => {
    const r = playBanque(house, state, { calls: [{ seat: 2, side: 'RIGHT', amount: 5_000n }], outcome: rightWinsLeftLoses, declareAccepted: true });
    expect([r.next.broke, r.next.stake, r.next.stakesAccepted, r.nextBanker]).toEqual([false, -4_000n, true, 1]);
  });
});

import {
  DomainError,
  admitChips,
  deadChipsRolled,
  lossProbabilities,
  outcomeProbabilities,
  programmeDue,
  rollingAccount,
  ruleSet,
  versionOn,
  type Fraction,
} from '../../../src/domain';

const eq = (a: Fraction, b: Fraction) => a.numerator * b.denominator === b.numerator * a.denominator;
const minus = (a: Fraction, b: Fraction): Fraction => ({
  numerator: a.numerator * b.denominator - b.numerator * a.denominator,
  denominator: a.denominator * b.denominator,
});
const ONE: Fraction = { numerator: 1n, denominator: 1n };

describe('the probability a bet loses, from the moments’ outcome classes', () => {
  // Checked against the exact odds of §4 (odds.ts outcomeProbabilities: another enumeration, by
  // ranks and the recursive shoe), not against the classes that computed them.
  it.each([6, 8])('%i decks, commission: Banker loses when Player wins, Player when Banker wins, Tie unless a tie', (decks) => {
    const p = outcomeProbabilities(decks);
    const loss = lossProbabilities(ruleSet({ variant: 'COMMISSION', decks }));
    expect(eq(loss.get('BANKER')!, p.player)).toBe(true);
    expect(eq(loss.get('PLAYER')!, p.banker)).toBe(true);
    expect(eq(loss.get('TIE')!, minus(ONE, p.tie))).toBe(true);
  });

  it('Super 6 and EZ: the Banker bet still loses exactly when Player wins (a half-pay and a push are not losses)', () => {
    const p = outcomeProbabilities(8);
    for (const variant of ['SUPER_6', 'EZ'] as const) expect(eq(lossProbabilities(ruleSet({ variant })).get('BANKER')!, p.player)).toBe(true);
  });

  it('8 decks: Banker 0.446247, Player 0.458597 (to 6 places)', () => {
    const loss = lossProbabilities(ruleSet({ variant: 'COMMISSION' }));
    const six = (f: Fraction) => Number((f.numerator * 1_000_000n * 2n + f.denominator) / (2n * f.denominator)) / 1e6;
    expect(six(loss.get('BANKER')!)).toBe(0.446247);
    expect(six(loss.get('PLAYER')!)).toBe(0.458597);
  });
});

describe('dead chips', () => {
  it('are rolled only when lost', () => {
    expect([deadChipsRolled(500n, 'LOSE'), deadChipsRolled(500n, 'WIN'), deadChipsRolled(500n, 'PUSH')]).toEqual([500n, 0n, 0n]);
  });

  it('are someone’s: a dead-chip wager of nobody is refused, a cash one is not', () => {
    expect(() => admitChips(true, null, 4)).toThrow(DomainError);
    expect(() => admitChips(true, 'P-1', 4)).not.toThrow();
    expect(() => admitChips(false, null, 4)).not.toThrow();
  });
});

describe('the rolling account', () => {
  it('counts rolling both ways and says whether they agree', () => {
    const a = rollingAccount({
      purchased: 15_000_000n,
      returned: 2_000_000n,
      rolled: 13_000_000n,
      handle: 26_000_000n,
      customerNet: -3_200_000n,
      theoE12: 296_329n * 1_000_000_000_000n,
      expectedRolledE12: 11_750_620n * 1_000_000_000_000n,
    });
    expect(a).toMatchObject({ netPurchased: 13_000_000n, inHand: 0n, agrees: true, win: 3_200_000n, rollingWinPercent: '24.6154', theoreticalWin: 296_329n });
    expect(a.theoreticalRollingWinPercent).toBe('2.5218');
  });

  it('a patron who lost more dead chips than were bought shows it in hand as a shortfall', () => {
    const a = rollingAccount({ purchased: 100n, returned: 0n, rolled: 150n, handle: 150n, customerNet: -150n, theoE12: 0n, expectedRolledE12: 0n });
    expect([a.inHand, a.agrees, a.theoreticalRollingWinPercent]).toEqual([-50n, false, null]);
  });
});

describe('a programme over a trip', () => {
  const roll = { basis: 'ROLLING' as const, commissionBps: 120, allowanceBps: 20, effectiveFrom: '2026-12-01' };
  const lower = { basis: 'ROLLING' as const, commissionBps: 100, allowanceBps: 0, effectiveFrom: '2026-12-03' };

  it('takes each day at the version in force on it, none before the first', () => {
    expect(versionOn([roll, lower], '2026-11-30')).toBeNull();
    expect(versionOn([lower, roll], '2026-12-02')).toBe(roll);
    expect(versionOn([roll, lower], '2026-12-03')).toBe(lower);
    const due = programmeDue(
      [roll, lower],
      [
        { day: '2026-11-30', rolled: 1_000_000n, win: 50_000n },
        { day: '2026-12-02', rolled: 2_000_000n, win: -10_000n },
        { day: '2026-12-03', rolled: 3_000_000n, win: 70_000n },
      ],
      110_000n,
    );
    // 2,000,000 × 1.2 % + 3,000,000 × 1.0 % = 54,000; allowance 2,000,000 × 0.2 % = 4,000.
    expect(due).toEqual({ commission: 54_000n, allowance: 4_000n, netWin: 52_000n, daysOutside: ['2026-11-30'] });
  });

  it('a share of win/loss shares a loss too, and rounds once, half away from zero', () => {
    const share = { basis: 'WIN_LOSS' as const, commissionBps: 3_333, allowanceBps: 0, effectiveFrom: '2026-01-01' };
    // −15 × 33.33 % = −4.9995 → −5 (once); two days of −7 and −8 rounded apart would give −2 + −3 = −5 too, but
    // 1 and 1 (0.3333 each) give 0.6666 → 1 once, where rounding each day would give 0.
    expect(programmeDue([share], [{ day: '2026-02-01', rolled: 0n, win: -15n }], -15n)).toMatchObject({ commission: -5n, netWin: -10n });
    expect(
      programmeDue(
        [share],
        [
          { day: '2026-02-01', rolled: 0n, win: 1n },
          { day: '2026-02-02', rolled: 0n, win: 1n },
        ],
        2n,
      ).commission,
    ).toBe(1n);
  });
});

import { admitEntry, admitLock, balanceOf, junketDues, junketStatement, MembershipVersion, ProgrammeVersion, StatementInput } from '../../../src/domain';

/** Junkets' pure rules (docs/domain.md §16): who counts on which day, dues by programme version, the account. */
const play = (patronId: string, day: string, rolled: bigint, customerNet: bigint) => ({
  patronId,
  day,
  wagers: 1,
  handle: rolled,
  customerNet,
  rolled,
  theoE12: 0n,
  expectedRolledE12: 0n,
});
const member = (effectiveFrom: string, operatorId: string | null, programmeCode: string | null, agentCode: string | null = null): MembershipVersion => ({
  effectiveFrom,
  operatorId,
  programmeCode,
  agentCode,
});
const ROLL: ProgrammeVersion[] = [
  { basis: 'ROLLING', commissionBps: 100, allowanceBps: 0, effectiveFrom: '2026-03-01' },
  { basis: 'ROLLING', commissionBps: 125, allowanceBps: 0, effectiveFrom: '2026-03-16' },
];
const base: StatementInput = {
  operatorId: 'J1',
  from: '2026-03-01',
  to: '2026-03-31',
  memberships: new Map(),
  play: [],
  exchanges: [],
  programmes: new Map([['ROLL', ROLL]]),
  opening: 0n,
  entries: [],
  playerCredit: [],
};

describe('who counts, and under which programme version', () => {
  it("counts a patron's days under the junket only, and each day at the programme's version in force", () => {
    const s = junketStatement({
      ...base,
      // P plays for J1 from the 1st, moves to J2 on the 20th; Q joins J1 on the 10th.
      memberships: new Map([
        ['P', [member('2026-03-01', 'J1', 'ROLL', 'AG'), member('2026-03-20', 'J2', 'ROLL')]],
        ['Q', [member('2026-03-10', 'J1', 'ROLL')]],
      ]),
      play: [
        play('P', '2026-03-05', 1_000_000n, -1_000_000n), // J1 at 1.00 %: 10,000
        play('P', '2026-03-18', 2_000_000n, -2_000_000n), // J1 at 1.25 %: 25,000
        play('P', '2026-03-25', 4_000_000n, -4_000_000n), // J2's: not counted
        play('Q', '2026-03-05', 8_000_000n, -8_000_000n), // before Q joined: not counted
        play('Q', '2026-03-12', 333n, -333n), // J1 at 1.00 %: 3.33
      ],
    });
    expect(s.programmes).toEqual([
      {
        code: 'ROLL',
        members: 2,
        rolled: 3_000_333n,
        handle: 3_000_333n,
        win: 3_000_333n,
        commission: 35_003n,
        allowance: 0n,
        netWin: 2_965_330n,
        daysOutside: [],
      },
    ]);
    expect(s.members.map((m) => [m.patronId, m.rolled, m.agents])).toEqual([
      ['P', 3_000_000n, ['AG']],
      ['Q', 333n, []],
    ]);
  });

  it('rounds once per programme over the period, not per member or per day', () => {
    // Three members each roll 50 at 1 %: 0.5 each, 1.5 together, rounded once to 2 (not 1 + 1 + 1 = 3, nor 0).
    const memberships = new Map(['X', 'Y', 'Z'].map((p) => [p, [member('2026-03-01', 'J1', 'ROLL')]]));
    const s = junketStatement({ ...base, memberships, play: ['X', 'Y', 'Z'].map((p) => play(p, '2026-03-02', 50n, -50n)) });
    expect(s.totals.commission).toBe(2n);
  });

  it('runs the account from the opening balance to the net due, either way', () => {
    const memberships = new Map([['P', [member('2026-03-01', 'J1', 'ROLL')]]]);
    const s = junketStatement({
      ...base,
      memberships,
      play: [play('P', '2026-03-02', 1_000_000n, -1_000_000n)],
      opening: 500n,
      entries: [
        { kind: 'MARKER', amount: 2_000_000n, day: '2026-03-01' },
        { kind: 'REPAYMENT', amount: 2_400_000n, day: '2026-03-30' },
        { kind: 'PAYOUT', amount: 100n, day: '2026-03-31' },
      ],
    });
    // 500 + 2,000,000 − 2,400,000 + 100 − 10,000 commission = −409,400: the casino owes the junket.
    expect(s.account).toEqual({
      opening: 500n,
      markers: 2_000_000n,
      repayments: 2_400_000n,
      payouts: 100n,
      credited: 10_000n,
      closing: -409_400n,
      due: 'CASINO_OWES',
    });
  });

  it("keeps the junket's credit to its players as reported: in the period, and outstanding at its end", () => {
    const s = junketStatement({
      ...base,
      playerCredit: [
        { patronId: 'P', kind: 'ADVANCE', amount: 1_000n, day: '2026-02-20' },
        { patronId: 'P', kind: 'REPAYMENT', amount: 300n, day: '2026-03-10' },
        { patronId: 'P', kind: 'ADVANCE', amount: 50n, day: '2026-04-02' },
      ],
    });
    expect(s.playerCredit).toEqual([{ patronId: 'P', advanced: 0n, repaid: 300n, outstanding: 700n }]);
  });
});

describe('the account and the lock', () => {
  it('admits a marker within the credit limit, a repayment or payout within what is owed', () => {
    expect(() => admitEntry('MARKER', 100n, 900n, 1_000n)).not.toThrow();
    expect(() => admitEntry('MARKER', 101n, 900n, 1_000n)).toThrow(expect.objectContaining({ code: 'JUNKET_CREDIT_LIMIT' }));
    expect(() => admitEntry('REPAYMENT', 900n, 900n, 0n)).not.toThrow();
    expect(() => admitEntry('REPAYMENT', 1n, -5n, 0n)).toThrow(expect.objectContaining({ code: 'JUNKET_OVERPAID' }));
    expect(() => admitEntry('PAYOUT', 5n, -5n, 0n)).not.toThrow();
    expect(() => admitEntry('PAYOUT', 6n, -5n, 0n)).toThrow(expect.objectContaining({ code: 'JUNKET_OVERPAID' }));
    expect(
      balanceOf([
        { kind: 'MARKER', amount: 10n },
        { kind: 'REPAYMENT', amount: 3n },
        { kind: 'PAYOUT', amount: 1n },
        { kind: 'SETTLEMENT', amount: -2n },
      ]),
    ).toBe(10n);
  });

  it('agrees a period once ended, never overlapping or before one agreed', () => {
    const agreed = [{ from: '2026-02-01', to: '2026-02-28' }];
    expect(() => admitLock('2026-03-01', '2026-03-31', '2026-04-01', agreed)).not.toThrow();
    expect(() => admitLock('2026-03-01', '2026-03-31', '2026-03-31', agreed)).toThrow(expect.objectContaining({ code: 'JUNKET_PERIOD_OPEN' }));
    expect(() => admitLock('2026-02-28', '2026-03-31', '2026-04-01', agreed)).toThrow(expect.objectContaining({ code: 'JUNKET_PERIOD_LOCKED' }));
    expect(() => admitLock('2026-01-01', '2026-01-31', '2026-04-01', agreed)).toThrow(expect.objectContaining({ code: 'JUNKET_PERIOD_LOCKED' }));
    // The next period starts the day after the last agreed: a day skipped would never be credited or locked.
    expect(() => admitLock('2026-03-02', '2026-03-31', '2026-04-01', agreed)).toThrow(expect.objectContaining({ code: 'JUNKET_PERIOD_LOCKED' }));
    expect(() => admitLock('2025-06-01', '2025-06-30', '2026-04-01', [])).not.toThrow();
  });
});

describe("the junkets' dues in the finance reports", () => {
  it('works each junket and programme out as its statement does (rounded once each), then sums them per currency', () => {
    // Two junkets roll 50 each under a 1 % programme: 0.5 each, rounded once each to 1: 2 in all (not 1 from 100 × 1 %).
    const days = ['J1', 'J2'].map((junketId) => ({ junketId, currency: 'HKD', code: 'ROLL', day: '2026-03-02', rolled: 50n, win: 50n }));
    const dues = junketDues([...days, { junketId: 'J3', currency: 'MOP', code: 'ROLL', day: '2026-03-20', rolled: 1_000n, win: -10n }], () => ROLL);
    expect(dues).toEqual([
      { currency: 'HKD', junkets: 2, rolled: 100n, commission: 2n, allowance: 0n },
      // 1,000 at 1.25 % (the version from the 16th) = 12.5, rounded half away from zero: 13.
      { currency: 'MOP', junkets: 1, rolled: 1_000n, commission: 13n, allowance: 0n },
    ]);
  });
});

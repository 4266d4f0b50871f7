import {
  admitCredit,
  admitDraw,
  admitFrontMoneyDraw,
  ageBucket,
  creditDecisionProblem,
  creditRequestStatus,
  defaultCreditPolicy,
  limitApprovals,
  markerAgeDays,
  markerAgeing,
  markerOutstanding,
  overThreshold,
  parseRate,
  repaymentNeedsApproval,
} from '../../../src/domain';

/** The casino's credit controls (docs/domain/credit.md), worked by hand. Amounts in minor units. */
const MOP = defaultCreditPolicy('MOP');
const person = (keyId: string, ...persons: string[]) => ({ keyId, staffId: persons[0] ?? null, persons });

describe('a threshold in another currency is judged at the day’s rate, exactly, and with no rate counts as over', () => {
  it.each([
    // 1,000,000.00 MOP threshold; HKD at 1.03 MOP: 970,873.78 HKD is worth 999,999.9934 MOP (under), 970,873.79 worth 1,000,000.0037 (over).
    ['same currency, at the threshold', 100_000_000n, 'MOP', null, false],
    ['same currency, one cent over', 100_000_001n, 'MOP', null, true],
    ['HKD just under at 1.03', 97_087_378n, 'HKD', '1.03', false],
    ['HKD just over at 1.03', 97_087_379n, 'HKD', '1.03', true],
    ['HKD with no rate', 1n, 'HKD', null, true],
    // JPY has no minor unit: ¥14,285,714 at 0.07 MOP is 999,999.98 MOP (under); ¥14,285,715 is 1,000,000.05 (over).
    ['JPY just under at 0.07', 14_285_714n, 'JPY', '0.07', false],
    ['JPY just over at 0.07', 14_285_715n, 'JPY', '0.07', true],
  ])('%s', (_what, amount, currency, rate, over) => {
    expect(overThreshold(amount, currency, MOP.seniorLimitThreshold, 'MOP', rate === null ? null : parseRate(rate))).toBe(over);
  });

  it('a line over the threshold needs two approvals, the casino manager last; a repayment over its own threshold a second person', () => {
    expect(limitApprovals(100_000_000n, 'MOP', MOP)).toEqual({ approvals: 1, finalRole: null });
    expect(limitApprovals(100_000_001n, 'MOP', MOP)).toEqual({ approvals: 2, finalRole: 'CASINO_MANAGER' });
    expect(limitApprovals(1n, 'HKD', MOP)).toEqual({ approvals: 2, finalRole: 'CASINO_MANAGER' });
    expect(repaymentNeedsApproval(1_000_000n, 'MOP', MOP)).toBe(false);
    expect(repaymentNeedsApproval(1_000_001n, 'MOP', MOP)).toBe(true);
    expect(repaymentNeedsApproval(970_873n, 'HKD', MOP, parseRate('1.03'))).toBe(false);
    expect(repaymentNeedsApproval(970_874n, 'HKD', MOP, parseRate('1.03'))).toBe(true);
  });
});

describe('two persons are two persons at every step, the casino manager last over the threshold', () => {
  const requester = person('k-req', 'S-ALICE');
  const request = { requester, approvalsNeeded: 2, finalRole: 'CASINO_MANAGER' };
  it.each([
    ['the requesting key', person('k-req', 'S-ALICE'), 'FINANCE', [], 'SAME_PERSON', /asked for it/],
    ['the requester with another key', person('k-2', 'S-ALICE'), 'FINANCE', [], 'SAME_PERSON', /S-ALICE asked for it/],
    ['a key the requester could hold (minted, unclaimed)', person('k-3', 'S-CAROL', 'S-ALICE'), 'FINANCE', [], 'SAME_PERSON', /S-ALICE asked for it/],
    [
      'the first approver again',
      person('k-bob2', 'S-BOB'),
      'CASINO_MANAGER',
      [{ approve: true, keyId: 'k-bob', persons: ['S-BOB'] }],
      'SAME_PERSON',
      /approved it already/,
    ],
    [
      'a credit officer last, where the casino manager must be',
      person('k-dan', 'S-DAN'),
      'FINANCE',
      [{ approve: true, keyId: 'k-bob', persons: ['S-BOB'] }],
      'FORBIDDEN',
      /casino manager/,
    ],
  ] as const)('refuses %s', (_what, decider, role, before, code, problem) => {
    const refused = creditDecisionProblem(request, [...before], decider, role, true);
    expect(refused?.code).toBe(code);
    expect(refused?.message).toMatch(problem);
  });

  it('lets a second person approve first, the casino manager complete it, and anyone but the requester reject', () => {
    expect(creditDecisionProblem(request, [], person('k-bob', 'S-BOB'), 'FINANCE', true)).toBeNull();
    expect(
      creditDecisionProblem(request, [{ approve: true, keyId: 'k-bob', persons: ['S-BOB'] }], person('k-eve', 'S-EVE'), 'CASINO_MANAGER', true),
    ).toBeNull();
    // A rejection needs no casino manager: any other credit officer may stop it.
    expect(creditDecisionProblem(request, [{ approve: true, keyId: 'k-bob', persons: ['S-BOB'] }], person('k-dan', 'S-DAN'), 'FINANCE', false)).toBeNull();
    // The casino manager approving first would leave the last approval to a second casino manager: refused, saying who goes first.
    expect(creditDecisionProblem(request, [], person('k-eve', 'S-EVE'), 'CASINO_MANAGER', true)).toEqual({
      code: 'FORBIDDEN',
      message: expect.stringContaining('a credit officer approves it first'),
    });
    // ... though the casino manager may reject it at any step.
    expect(creditDecisionProblem(request, [], person('k-eve', 'S-EVE'), 'CASINO_MANAGER', false)).toBeNull();
  });

  it('reads a request’s state from its decisions', () => {
    expect(creditRequestStatus(2, [])).toBe('PENDING');
    expect(creditRequestStatus(2, [{ approve: true }])).toBe('PENDING');
    expect(creditRequestStatus(2, [{ approve: true }, { approve: true }])).toBe('APPROVED');
    expect(creditRequestStatus(2, [{ approve: true }, { approve: false }])).toBe('REJECTED');
    expect(creditRequestStatus(1, [{ approve: false }])).toBe('REJECTED');
  });
});

describe('credit within the line, chips against what stands behind them', () => {
  it('no line, or a line of 0, lends nothing; a line lends up to what is left of it', () => {
    expect(() => admitCredit(1n, 0n, null, 'Patron P')).toThrow(expect.objectContaining({ code: 'NO_CREDIT_LINE' }));
    expect(() => admitCredit(1n, 0n, 0n, 'Patron P')).toThrow(expect.objectContaining({ code: 'NO_CREDIT_LINE' }));
    expect(() => admitCredit(20_000n, 30_000n, 50_000n, 'Patron P')).not.toThrow();
    expect(() => admitCredit(20_001n, 30_000n, 50_000n, 'Patron P')).toThrow(
      expect.objectContaining({ code: 'CREDIT_LIMIT_EXCEEDED', details: { outstanding: 30_000n, creditLimit: 50_000n, available: 20_000n } }),
    );
  });

  it('front money and a junket’s markers are drawn to nothing, never below', () => {
    expect(() => admitFrontMoneyDraw(10_000n, 10_000n, 'P')).not.toThrow();
    expect(() => admitFrontMoneyDraw(10_001n, 10_000n, 'P')).toThrow(expect.objectContaining({ code: 'FRONT_MONEY_SHORT' }));
    expect(() => admitDraw(500_000n, 500_000n, 'J')).not.toThrow();
    expect(() => admitDraw(1n, 0n, 'J')).toThrow(expect.objectContaining({ code: 'JUNKET_MARKERS_DRAWN' }));
  });

  it('a marker written off owes nothing more than it owed', () => {
    expect(markerOutstanding(100_000n, [40_000n], false, 60_000n)).toBe(0n);
    expect(markerOutstanding(100_000n, [40_000n], false, 0n)).toBe(60_000n);
  });
});

describe('the markers’ ageing: up to 30 days current, then 31–60, 61–90, over 90, per currency', () => {
  it.each([
    [0, 'CURRENT'],
    [30, 'CURRENT'],
    [31, 'DAYS_31_60'],
    [60, 'DAYS_31_60'],
    [61, 'DAYS_61_90'],
    [90, 'DAYS_61_90'],
    [91, 'OVER_90'],
  ] as const)('%i days: %s', (days, bucket) => expect(ageBucket(days)).toBe(bucket));

  it('counts days across months and a leap day, and never adds two currencies', () => {
    expect(markerAgeDays('2028-02-28', '2028-03-01')).toBe(2);
    expect(markerAgeDays('2026-12-31', '2027-01-30')).toBe(30);
    const aged = markerAgeing(
      [
        { id: 'a', currency: 'HKD', issuedDay: '2026-08-01', outstanding: 100n },
        { id: 'b', currency: 'HKD', issuedDay: '2026-11-01', outstanding: 50n },
        { id: 'c', currency: 'MOP', issuedDay: '2026-10-01', outstanding: 7n },
        { id: 'd', currency: 'MOP', issuedDay: '2026-10-01', outstanding: 0n },
        { id: 'e', currency: 'MOP', issuedDay: '2026-12-01', outstanding: 9n },
      ],
      '2026-11-28',
    );
    expect(Object.fromEntries(aged)).toEqual({
      HKD: { CURRENT: 50n, DAYS_31_60: 0n, DAYS_61_90: 0n, OVER_90: 100n },
      MOP: { CURRENT: 0n, DAYS_31_60: 7n, DAYS_61_90: 0n, OVER_90: 0n },
    });
  });
});

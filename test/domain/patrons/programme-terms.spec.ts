import { admitAsApproved, admitChipsInHand, admitProgrammeTerms, DomainError, RequestOnFile } from '../../../src/domain';

/**
 * The engine's rules for programme terms and statements under two-person control (issue 49,
 * docs/domain/rolling-chips.md, docs/domain/junkets.md): a programme within the property's caps,
 * a record as its credit request approved it, no period agreed with fewer than no chips in hand.
 */
const codeOf = (f: () => void): string | null => {
  try {
    f();
    return null;
  } catch (e) {
    if (e instanceof DomainError) return e.code;
    throw e;
  }
};

describe('a programme within the caps', () => {
  const caps = { rollingCommissionCapBps: 150, winLossCommissionCapBps: 5000 };
  it.each([
    ['rolling commission at the cap', 'ROLLING', 150, 0, null],
    ['rolling commission over it', 'ROLLING', 151, 0, 'COMMISSION_OVER_CAP'],
    ['rolling commission and allowance at the cap together', 'ROLLING', 120, 30, null],
    ['rolling commission and allowance over it together', 'ROLLING', 120, 31, 'COMMISSION_OVER_CAP'],
    ['an allowance alone over the rolling cap', 'ROLLING', 0, 151, 'COMMISSION_OVER_CAP'],
    ['win/loss commission at its cap, allowance at the rolling cap', 'WIN_LOSS', 5000, 150, null],
    ['win/loss commission over its cap', 'WIN_LOSS', 5001, 0, 'COMMISSION_OVER_CAP'],
    ['win/loss commission under its cap, allowance over the rolling cap', 'WIN_LOSS', 4000, 151, 'COMMISSION_OVER_CAP'],
    ['100 % of the rolling', 'ROLLING', 10_000, 0, 'COMMISSION_OVER_CAP'],
    ['nothing', 'ROLLING', 0, 0, null],
  ] as const)('%s', (_what, basis, commissionBps, allowanceBps, code) => {
    expect(codeOf(() => admitProgrammeTerms({ basis, commissionBps, allowanceBps }, caps))).toBe(code);
  });

  it('a cap of 0 refuses any commission on that basis', () => {
    expect(codeOf(() => admitProgrammeTerms({ basis: 'WIN_LOSS', commissionBps: 1, allowanceBps: 0 }, { ...caps, winLossCommissionCapBps: 0 }))).toBe(
      'COMMISSION_OVER_CAP',
    );
  });
});

describe('a record as its request approved it', () => {
  const terms = { code: 'R', name: 'Rolling', basis: 'ROLLING', commissionBps: 120, allowanceBps: 0, effectiveFrom: '2026-12-01' };
  const request = (o: Partial<RequestOnFile> = {}): RequestOnFile => ({
    id: 'r1',
    act: 'PROGRAMME',
    propertyId: 'p1',
    terms,
    approvalsNeeded: 1,
    decisions: [{ approve: true }],
    ...o,
  });
  it.each([
    ['as approved', 'r1', request(), terms, null],
    ['no request', null, null, terms, 'PROGRAMME_NEEDS_APPROVAL'],
    ['a request waiting', 'r1', request({ decisions: [] }), terms, 'PROGRAMME_NEEDS_APPROVAL'],
    ['a request waiting for its second approval', 'r1', request({ approvalsNeeded: 2 }), terms, 'PROGRAMME_NEEDS_APPROVAL'],
    ['a rejected request', 'r1', request({ decisions: [{ approve: false }] }), terms, 'PROGRAMME_NEEDS_APPROVAL'],
    ['another act', 'r1', request({ act: 'LIMIT' }), terms, 'NOT_AS_APPROVED'],
    ['another property', 'r1', request({ propertyId: 'p2' }), terms, 'NOT_AS_APPROVED'],
    ['another commission', 'r1', request(), { ...terms, commissionBps: 10_000 }, 'NOT_AS_APPROVED'],
    ['a term left out', 'r1', request(), { ...terms, name: undefined as unknown as string }, 'NOT_AS_APPROVED'],
    ['a term added', 'r1', request(), { ...terms, extra: 'x' }, 'NOT_AS_APPROVED'],
    ['a number approved as text, recorded as a number', 'r1', request({ terms: { ...terms, commissionBps: '120' } }), terms, null],
  ] as const)('%s', (_what, id, r, recorded, code) => {
    expect(codeOf(() => admitAsApproved('PROGRAMME', id, r, 'p1', recorded as Record<string, string | number>))).toBe(code);
  });

  it('a statement without its request needs one too', () => {
    expect(codeOf(() => admitAsApproved('STATEMENT', null, null, 'p1', {}))).toBe('STATEMENT_NEEDS_APPROVAL');
  });
});

describe('chips in hand at the end of a period', () => {
  const period = (purchased: bigint, returned: bigint, rolled: bigint) => ({ purchased, returned, rolled, inHand: purchased - returned - rolled });
  it.each([
    ['a settled period', period(100n, 20n, 80n), 0n, null],
    ['chips left in hand', period(100n, 0n, 80n), 20n, null],
    ['more lost than bought, none carried in', period(0n, 0n, 100n), -100n, 'NEGATIVE_CHIPS_IN_HAND'],
    ['more lost than bought in the period, covered by chips carried in', period(0n, 0n, 100n), 0n, null],
    ['more lost than bought and carried in', period(50n, 0n, 100n), -10n, 'NEGATIVE_CHIPS_IN_HAND'],
    ['more returned than bought', period(0n, 10n, 0n), -10n, 'NEGATIVE_CHIPS_IN_HAND'],
  ] as const)('%s', (_what, p, atEnd, code) => {
    expect(codeOf(() => admitChipsInHand('J', p, atEnd))).toBe(code);
  });

  it('names what was bought, returned, lost and carried in', () => {
    expect(() => admitChipsInHand('JADE', period(0n, 0n, 100n), -40n)).toThrow(
      "Junket JADE's players lost 40 (minor units) more dead chips than the cage issued to them: in the period they bought 0, returned 0 and lost 100 at the tables, holding 60 before it",
    );
  });
});

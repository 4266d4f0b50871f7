import {
  administratorFloorProblem,
  administratorKeysProblem,
  breakGlassProblem,
  revocationApprovalProblem,
  revocationNeedsTwo,
  revocationRejectionProblem,
  MIN_ADMINISTRATORS,
  holderSince,
  KeyHolder,
  mintingProblem,
  MintLink,
  personsOf,
  secondPersonProblem,
  staffChangeProblem,
  staffProposalProblem,
  witnessProblem,
} from '../../../src/domain';

/** Two-person control compares persons: each key's own, and while it is unclaimed, whoever could hold the key that minted it. */
const key = (keyId: string, staffId: string | null, persons: string[] = staffId ? [staffId] : []): KeyHolder => ({ keyId, staffId, persons });
const link = (staffId: string | null, witnessed: boolean, mintedBy: string | null): MintLink => ({ staffId, witnessed, mintedBy });

describe('who could hold a key', () => {
  it.each([
    ['a key whose claim a second administrator witnessed: its holder alone', [link('E-1', true, 'k-admin')], ['E-1']],
    ['an unwitnessed key (claimed or not): its holder and its minter', [link('E-1', false, 'k-a'), link('E-A', true, 'k-x')], ['E-1', 'E-A']],
    [
      'a key the bootstrap key minted at setup: its holder alone (the bootstrap holder is the installation, retired after it)',
      [link('E-A', false, 'bootstrap-admin')],
      ['E-A'],
    ],
    [
      'up the chain, while nobody witnessed: a supervisor minted with an admin key minted by another admin',
      [link('E-1', false, 'k-b'), link('E-B', false, 'k-a'), link('E-A', true, 'k-x')],
      ['E-1', 'E-B', 'E-A'],
    ],
    ['a terminal key (no person) minted by a witnessed admin', [link(null, false, 'k-a'), link('E-A', true, 'k-x')], ['E-A']],
    ['a key made before keys named people, minted by nobody known', [link(null, false, null)], []],
  ])('%s', (_case, chain, persons) => {
    expect(personsOf(chain).sort()).toEqual([...persons].sort());
  });

  it('who could hold the key that began an act is kept as it stood then: a claim witnessed since does not drop the minter', () => {
    expect([...holderSince(key('k1', 'E-1'), ['E-1', 'E-A']).persons].sort()).toEqual(['E-1', 'E-A']);
    expect(secondPersonProblem(holderSince(key('k1', 'E-1'), ['E-1', 'E-A']), key('k2', 'E-A'))).toContain('E-A could hold both keys');
  });
});

describe('who may witness a claim', () => {
  it('a second administrator who could hold neither the key nor the one that minted it', () => {
    expect(witnessProblem(key('k1', 'E-1', ['E-1', 'E-A']), key('w', 'E-W'))).toBeNull();
    expect(witnessProblem(key('k1', 'E-1', ['E-1', 'E-A']), key('w', 'E-A'))).toContain('E-A could hold both');
    expect(witnessProblem(key('k1', 'E-1', ['E-1', 'E-A']), key('w', 'E-W', ['E-W', 'E-A']))).toContain('E-A could hold both');
    expect(witnessProblem(key('k1', 'E-1'), key('k1', 'E-1'))).toContain('their own key');
    expect(witnessProblem(key('k1', 'E-1'), key('w', 'E-1'))).toContain('E-1 could hold both');
  });
});

describe('who may approve a void', () => {
  it.each([
    ['two supervisors who claimed their keys', key('k1', 'E-1'), key('k2', 'E-2'), null],
    ['two unclaimed keys minted by two administrators', key('k1', 'E-1', ['E-1', 'E-A']), key('k2', 'E-2', ['E-2', 'E-B']), null],
    [
      'two unclaimed keys one administrator minted (who could hold both)',
      key('k1', 'E-1', ['E-1', 'E-A']),
      key('k2', 'E-2', ['E-2', 'E-A']),
      'E-A could hold both keys',
    ],
    [
      'an administrator who minted a second administrator, each minting a supervisor, nobody claiming',
      key('k1', 'E-1', ['E-1', 'E-A']),
      key('k2', 'E-2', ['E-2', 'E-B', 'E-A']),
      'E-A could hold both keys',
    ],
    ['the same key', key('k1', 'E-1'), key('k1', 'E-1'), 'cannot approve it'],
    ['one person with two keys', key('k1', 'E-1'), key('k2', 'E-1'), 'Staff member E-1 asked for this void with another key'],
    ['a key the requester minted and nobody claimed', key('k1', 'E-1'), key('k2', 'E-2', ['E-2', 'E-1']), 'E-1 could hold both keys'],
    ['the approver minted the requesting key', key('k1', 'E-1', ['E-1', 'E-2']), key('k2', 'E-2'), 'E-2 could hold both keys'],
    ['keys made before keys named people: only the key decides', key('k1', null), key('k2', null), null],
  ])('%s', (_case, requester, approver, problem) => {
    const found = secondPersonProblem(requester, approver);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});

describe('who may change the staff register', () => {
  it('a second person approves; nobody proposes or approves a change to their own record', () => {
    expect(staffChangeProblem(key('a', 'E-A'), key('b', 'E-B'), 'E-9')).toBeNull();
    expect(staffChangeProblem(key('a', 'E-A'), key('a', 'E-A'), 'E-9')).toContain('needs a second person');
    expect(staffChangeProblem(key('a', 'E-A'), key('b', 'E-B', ['E-B', 'E-A']), 'E-9')).toContain('E-A could hold both keys');
    expect(staffChangeProblem(key('a', 'E-A'), key('b', 'E-B'), 'E-B')).toContain('cannot approve a change to their own record');
    expect(staffProposalProblem(key('a', 'E-A'), 'E-A')).toContain('cannot propose a change to their own record');
    expect(staffProposalProblem(key('a', 'E-A', ['E-A', 'boot']), 'boot')).toContain('cannot propose');
    expect(staffProposalProblem(key('a', 'E-A'), 'E-9')).toBeNull();
  });
});

describe('who may mint a key', () => {
  it('nobody mints a key for themselves, nor for whoever could hold the minting key; anyone else, and terminals, may be', () => {
    expect(mintingProblem(key('a', 'E-admin'), 'E-admin')).toContain('cannot mint a key for themselves');
    expect(mintingProblem(key('a', 'E-admin', ['E-admin', 'E-boss']), 'E-boss')).toContain('cannot mint a key for themselves');
    expect(mintingProblem(key('a', 'E-admin'), 'E-2')).toBeNull();
    expect(mintingProblem(key('a', 'E-admin'), null)).toBeNull();
  });
});

describe('the register keeps two administrators', () => {
  it.each([
    // staffId, other administrators, administrator before, after, refused?
    ['E-B', 1, true, false, true],
    ['E-B', 0, true, false, true],
    ['E-B', 2, true, false, false],
    ['E-B', 1, true, true, false],
    ['E-B', 1, false, false, false],
    ['E-B', 0, false, true, false],
  ])('%s with %i others, administrator %s → %s: refused %s', (staffId, others, before, after, refused) => {
    const problem = administratorFloorProblem(staffId, others, before, after);
    expect(problem === null).toBe(!refused);
    if (refused) expect(problem).toContain(`at least ${MIN_ADMINISTRATORS}`);
  });
});

describe("revoking an administrator's key", () => {
  it.each([
    // the key's role and person, whether that person is an administrator, the caller's key: two needed?
    ['a terminal key', 'TERMINAL', null, false, key('a', 'E-A'), false],
    ["a supervisor's key", 'SUPERVISOR', 'E-S', false, key('a', 'E-A'), false],
    ["another administrator's key", 'ADMIN', 'E-B', true, key('a', 'E-A'), true],
    ["an administrator's supervisor key", 'SUPERVISOR', 'E-B', true, key('a', 'E-A'), true],
    ['an ADMIN key of a person no longer an administrator', 'ADMIN', 'E-B', false, key('a', 'E-A'), true],
    ['their own key, with a key held by them alone', 'ADMIN', 'E-A', true, key('a', 'E-A'), false],
    ['their own key, with a key another could hold (unwitnessed)', 'ADMIN', 'E-A', true, key('a', 'E-A', ['E-A', 'E-B']), true],
    ["E-B's key, with an unclaimed key of E-B's that E-A minted", 'ADMIN', 'E-B', true, key('b2', 'E-B', ['E-B', 'E-A']), true],
  ])('%s', (_what, role, staffId, holderIsAdministrator, caller, two) => {
    expect(revocationNeedsTwo({ role, staffId }, holderIsAdministrator, caller)).toBe(two);
  });

  it('is approved by a second person who is not the key’s own; rejected by its proposer, or by anyone but the key’s own person', () => {
    const target = { id: 'kb', staffId: 'E-B' };
    const a = key('a', 'E-A');
    expect(revocationApprovalProblem(a, key('c', 'E-C'), target)).toBeNull();
    expect(revocationApprovalProblem(a, key('a2', 'E-A'), target)).toContain('second person');
    expect(revocationApprovalProblem(a, key('b', 'E-B'), target)).toContain('E-B cannot approve the revocation of their own key');
    expect(revocationApprovalProblem(a, key('c', 'E-C', ['E-C', 'E-B']), target)).toContain('their own key');
    expect(revocationApprovalProblem(a, key('c', 'E-C', ['E-C', 'E-A']), target)).toContain('E-A could hold both keys');
    expect(revocationRejectionProblem(a, key('a2', 'E-A'), target)).toBeNull();
    expect(revocationRejectionProblem(a, key('c', 'E-C'), target)).toBeNull();
    expect(revocationRejectionProblem(a, key('b', 'E-B'), target)).toContain('their own key');
  });

  it.each([
    // administrators holding a key of their own before, and after the revocation: refused?
    [['E-A', 'E-B'], ['E-A'], true],
    [['E-A', 'E-B', 'E-C'], ['E-A', 'E-C'], false],
    [['E-A', 'E-B'], ['E-A', 'E-B'], false],
    [['E-A'], [], false],
  ])('%j → %j: refused %s', (before, after, refused) => {
    const problem = administratorKeysProblem('E-B', before, after);
    expect(problem === null).toBe(!refused);
    if (refused) expect(problem).toContain(`at least ${MIN_ADMINISTRATORS}`);
  });
});

describe('break-glass', () => {
  it('is for the day fewer than two administrators hold a key of their own, with two people present', () => {
    const two = ['Ann Lee, compliance', 'Bo Chan, IT (audit key)'];
    expect(breakGlassProblem([], two)).toBeNull();
    expect(breakGlassProblem(['E-A'], two)).toBeNull();
    expect(breakGlassProblem(['E-A', 'E-B'], two)).toContain('through the API');
    expect(breakGlassProblem([], ['Ann Lee'])).toContain('at least 2 people present');
    expect(breakGlassProblem([], ['Ann Lee', ' ann lee '])).toContain('each once');
  });
});

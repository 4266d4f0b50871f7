import { KeyHolder, mintingProblem, MintLink, personsOf, secondPersonProblem, staffChangeProblem, staffProposalProblem } from '../../src/domain';

/** Two-person control compares persons: each key's own, and while it is unclaimed, whoever could hold the key that minted it. */
const key = (keyId: string, staffId: string | null, persons: string[] = staffId ? [staffId] : []): KeyHolder => ({ keyId, staffId, persons });
const link = (staffId: string | null, claimed: boolean, mintedBy: string | null): MintLink => ({ staffId, claimed, mintedBy });

describe('who could hold a key', () => {
  it.each([
    ['a claimed key: its holder alone', [link('E-1', true, 'k-admin')], ['E-1']],
    ['an unclaimed key: its holder and its minter', [link('E-1', false, 'k-a'), link('E-A', true, 'boot')], ['E-1', 'E-A']],
    ['an unclaimed key minted by the bootstrap key', [link('E-A', false, 'boot')], ['E-A', 'boot']],
    [
      'up the chain, while nobody claimed: a supervisor minted with an admin key minted by another admin',
      [link('E-1', false, 'k-b'), link('E-B', false, 'k-a'), link('E-A', true, 'boot')],
      ['E-1', 'E-B', 'E-A'],
    ],
    ['a terminal key (no person) minted by a claimed admin', [link(null, false, 'k-a'), link('E-A', true, 'boot')], ['E-A']],
    ['a key made before keys named people, minted by nobody known', [link(null, false, null)], []],
  ])('%s', (_case, chain, persons) => {
    expect(personsOf(chain, 'boot').sort()).toEqual([...persons].sort());
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

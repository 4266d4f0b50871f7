import { KeyHolder, mintingProblem, secondPersonProblem } from '../../src/domain';

/** Two-person control compares people (the staff members keys belong to), and who minted whose key. */
const key = (keyId: string, staffId: string | null, mintedBy: [string, string | null] | null = [`admin-of-${keyId}`, `E-admin-of-${keyId}`]): KeyHolder => ({
  keyId,
  staffId,
  mintedByKeyId: mintedBy?.[0] ?? null,
  mintedByStaffId: mintedBy?.[1] ?? null,
});

describe('who may approve a void', () => {
  it.each([
    ['two supervisors, keys minted by two administrators', key('k1', 'E-1'), key('k2', 'E-2'), null],
    [
      'two supervisors, both keys minted by one administrator (who could hold both)',
      key('k1', 'E-1', ['a', 'E-A']),
      key('k2', 'E-2', ['a', 'E-A']),
      'must come from two different administrators',
    ],
    [
      'one administrator with two admin keys minting both',
      key('k1', 'E-1', ['a1', 'E-A']),
      key('k2', 'E-2', ['a2', 'E-A']),
      'must come from two different administrators',
    ],
    ['the same key', key('k1', 'E-1'), key('k1', 'E-1'), 'cannot approve it'],
    ['one person with two keys', key('k1', 'E-1'), key('k2', 'E-1'), 'Staff member E-1 asked for this void with another key'],
    ['a key the requester minted', key('k1', 'E-1'), key('k2', 'E-2', ['k1', 'E-1']), 'minted by E-1'],
    ['a key minted by the requester with another of their keys', key('k1', 'E-1'), key('k2', 'E-2', ['k9', 'E-1']), 'minted by E-1'],
    ['the approver minted the requesting key', key('k1', 'E-1', ['k2', 'E-2']), key('k2', 'E-2'), 'was minted by E-2'],
    ['keys made before keys named people: only the key decides', key('k1', null, null), key('k2', null, null), null],
  ])('%s', (_case, requester, approver, problem) => {
    const found = secondPersonProblem(requester, approver);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});

describe('who may mint a key', () => {
  it('nobody mints a key for themselves; anyone else, and terminals, may be', () => {
    expect(mintingProblem({ staffId: 'E-admin' }, 'E-admin')).toContain('cannot mint a key for themselves');
    expect(mintingProblem({ staffId: 'E-admin' }, 'E-2')).toBeNull();
    expect(mintingProblem({ staffId: 'E-admin' }, null)).toBeNull();
  });
});

/**
 * Two-person control (Nevada MICS, GLI-13): a void is asked for by one person and approved by
 * another. People are the staff members keys belong to; a key minted by someone is as good as
 * theirs for this rule, so nobody approves with a key they minted, nor has their own request
 * approved by a key minted for the purpose, nor mints a key for themselves; and since an
 * administrator could mint two keys for two invented names, the two keys of a void must have been
 * minted by two different administrators.
 */
export interface KeyHolder {
  readonly keyId: string;
  /** The staff member the key belongs to (null: a terminal, or a key made before keys named people). */
  readonly staffId: string | null;
  /** Who minted the key: the minting key, and the staff member it belonged to. */
  readonly mintedByKeyId: string | null;
  readonly mintedByStaffId: string | null;
}

/** The same key, or two keys of one staff member. */
export function samePerson(a: KeyHolder, b: KeyHolder): boolean {
  return a.keyId === b.keyId || (a.staffId !== null && a.staffId === b.staffId);
}

/** Why `approver` may not approve what `requester` asked for; null when they are two people. */
export function secondPersonProblem(requester: KeyHolder, approver: KeyHolder): string | null {
  if (requester.keyId === approver.keyId) return 'A void needs a second supervisor: the one who asked for it cannot approve it';
  if (requester.staffId !== null && requester.staffId === approver.staffId) {
    return `Staff member ${requester.staffId} asked for this void with another key: a second person must approve it`;
  }
  const minted = (key: KeyHolder, by: KeyHolder) => key.mintedByKeyId === by.keyId || (by.staffId !== null && key.mintedByStaffId === by.staffId);
  if (minted(approver, requester))
    return `The approving key was minted by ${requester.staffId ?? 'the key'} that asked for this void: a second person must approve it`;
  if (minted(requester, approver))
    return `The key that asked for this void was minted by ${approver.staffId ?? 'the approving key'}: a second person must approve it`;
  // One administrator could mint two keys for two names and hold both: the two halves of a void
  // must come from keys minted by two different administrators.
  const sameMinter =
    (requester.mintedByStaffId !== null && requester.mintedByStaffId === approver.mintedByStaffId) ||
    (requester.mintedByKeyId !== null && requester.mintedByKeyId === approver.mintedByKeyId);
  if (sameMinter)
    return `Both keys were minted by ${requester.mintedByStaffId ?? 'the same key'}: the asking and the approving key must come from two different administrators`;
  return null;
}

/** Why `minter` may not mint a key for `staffId`; null when it may. */
export function mintingProblem(minter: { staffId: string | null }, staffId: string | null): string | null {
  if (staffId !== null && minter.staffId === staffId) return `Staff member ${staffId} cannot mint a key for themselves: another administrator must`;
  return null;
}

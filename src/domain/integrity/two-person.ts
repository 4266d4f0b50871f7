/**
 * Two-person control (Nevada MICS, GLI-13): a void is asked for by one person and approved by
 * another; a person is put on the staff register, or changed, by one administrator and approved by
 * another. The rules compare persons, not keys.
 *
 * Who could hold a key: its own person (the staff member it was minted for), and, until that person
 * has claimed it (a new secret the minter never saw) in front of a witness (a second administrator
 * who could hold neither this key nor the one that minted it), whoever could hold the key that
 * minted it when it minted, up the chain of minting. A claim alone proves nothing: the minter knows
 * the secret and could claim it too. And a claim witnessed later changes nothing of what the key
 * minted before it: whoever held it then may hold what it minted, so the chain stops only at a
 * minter whose claim was witnessed before it minted. Two halves of a two-person act need keys no
 * one person could hold both of.
 * The staff register itself is changed only under this rule, so one administrator cannot invent a
 * second person to hold the other key.
 *
 * The bootstrap key (the installation's, from the environment) is the one trusted root: it registers
 * the first two administrators alone and mints their keys, then retires, for good, from everything
 * that touches persons (src/integrity/staff, src/integrity/api-keys). Keys it minted count their own
 * person only. Taking power away is two-person too: an administrator's key is revoked by one
 * administrator's proposal and another's approval, and the register never falls below two
 * administrators who can act through the API; the day it has anyway, break-glass.
 */
export interface KeyHolder {
  readonly keyId: string;
  /** The staff member the key belongs to (null: a terminal, or a key made before keys named people). */
  readonly staffId: string | null;
  /** Every person who could hold the key: its own, and while it is unclaimed, its minter's, up the chain. */
  readonly persons: readonly string[];
}

/** One key of a chain of minting, from a key up to the first key whose claim was witnessed (or the bootstrap key). */
export interface MintLink {
  readonly staffId: string | null;
  /**
   * Claimed by its holder in front of a witness: for the key itself, at all (its person's alone from
   * then on); for a minter, before it minted the key below it in the chain.
   */
  readonly witnessed: boolean;
  /** The key that minted this one: a key id, the bootstrap administrator's id, or null. */
  readonly mintedBy: string | null;
}

/**
 * The persons who could hold a key, from its chain of minting (the key first, then its minter and
 * so on, stopping after the first key whose claim was witnessed, or at the bootstrap key, whose
 * holder is trusted with the installation and retired after it).
 */
export function personsOf(chain: readonly MintLink[]): string[] {
  const persons = new Set<string>();
  for (const link of chain) {
    if (link.staffId !== null) persons.add(link.staffId);
    if (link.witnessed) break;
  }
  return [...persons];
}

/** The persons who could hold the key that began a two-person act: as it stood then, and as it stands now. */
export function holderSince(now: KeyHolder, then: readonly string[]): KeyHolder {
  return { ...now, persons: [...new Set([...then, ...now.persons])] };
}

/** The persons who could hold both keys, or none. */
export function sharedPersons(a: KeyHolder, b: KeyHolder): string[] {
  return a.persons.filter((p) => b.persons.includes(p));
}

/** The same key, or two keys one person could hold. */
export function samePerson(a: KeyHolder, b: KeyHolder): boolean {
  return a.keyId === b.keyId || sharedPersons(a, b).length > 0;
}

/** Why the second key may not complete what the first began; null when two persons hold them. */
function twoPersonProblem(first: KeyHolder, second: KeyHolder, act: string): string | null {
  if (first.keyId === second.keyId) return `${act} needs a second person: the key that began it cannot complete it`;
  if (first.staffId !== null && first.staffId === second.staffId)
    return `Staff member ${first.staffId} began this with another key: a second person must complete it`;
  const shared = sharedPersons(first, second);
  if (shared.length === 0) return null;
  const who = shared.join(' and ');
  return `${who} could hold both keys (a key counts as its minter's too until its holder claims it with POST /v1/api-keys/claim): a second person must complete it`;
}

/** Why `approver` may not approve what `requester` asked for; null when they are two people. */
export function secondPersonProblem(requester: KeyHolder, approver: KeyHolder): string | null {
  if (requester.keyId === approver.keyId) return 'A void needs a second supervisor: the one who asked for it cannot approve it';
  if (requester.staffId !== null && requester.staffId === approver.staffId) {
    return `Staff member ${requester.staffId} asked for this void with another key: a second person must approve it`;
  }
  return twoPersonProblem(requester, approver, 'A void');
}

/** Why `approver` may not approve a change to the staff register that `proposer` proposed; null when they are two people. */
export function staffChangeProblem(proposer: KeyHolder, approver: KeyHolder, staffId: string): string | null {
  if (approver.persons.includes(staffId)) return `Staff member ${staffId} cannot approve a change to their own record: another administrator must`;
  return twoPersonProblem(proposer, approver, 'A change to the staff register');
}

/**
 * Why `witness` may not witness the claim of a key held by `holder` (its person and, unwitnessed,
 * its minters); null when it may: a second administrator who could hold neither.
 */
export function witnessProblem(holder: KeyHolder, witness: KeyHolder): string | null {
  if (witness.keyId === holder.keyId) return 'Nobody witnesses the claim of their own key: a second administrator must';
  const shared = sharedPersons(holder, witness);
  if (shared.length > 0)
    return `${shared.join(' and ')} could hold both this key and the witness's: the claim must be witnessed by someone who neither minted it nor holds it`;
  return null;
}

/** Why `minter` may not mint a key for `staffId`; null when it may. */
export function mintingProblem(minter: KeyHolder, staffId: string | null): string | null {
  if (staffId !== null && minter.persons.includes(staffId)) return `Staff member ${staffId} cannot mint a key for themselves: another administrator must`;
  return null;
}

/** Why `proposer` may not propose a change to `staffId`'s record; null when they may. */
export function staffProposalProblem(proposer: KeyHolder, staffId: string): string | null {
  if (proposer.persons.includes(staffId)) return `Staff member ${staffId} cannot propose a change to their own record: another administrator must`;
  return null;
}

/**
 * The register keeps at least this many active administrators who hold a key of their own (a key
 * `personsOf` names its person alone for: its claim witnessed, or minted by no key on record, such
 * as the bootstrap key's and break-glass's): every change to it, and every revocation of an
 * administrator's key, needs a second one.
 */
export const MIN_ADMINISTRATORS = 2;

/**
 * Why a change to `staffId`'s record may not be made: it would leave the register fewer than
 * MIN_ADMINISTRATORS active administrators holding a key of their own (counting the others,
 * `otherAdministrators`, and whether the person is one before and after the change); null when it
 * may. A change that takes no administrator away is never refused here, so the first two are
 * registered as before.
 */
export function administratorFloorProblem(staffId: string, otherAdministrators: number, adminBefore: boolean, adminAfter: boolean): string | null {
  if (!adminBefore || adminAfter) return null;
  if (otherAdministrators >= MIN_ADMINISTRATORS) return null;
  return `Taking ${staffId} off the administrators would leave ${otherAdministrators} active administrator${otherAdministrators === 1 ? '' : 's'} holding a key of their own: the register keeps at least ${MIN_ADMINISTRATORS}, so that every change to it has a second person. Register another administrator and hand them their key first`;
}

/**
 * Why a key may not be revoked: of the active administrators holding a key of their own, `before`
 * the revocation and `after` it (staff numbers), at least MIN_ADMINISTRATORS stood and fewer would
 * remain; null when it may. Revoking a key that leaves everyone who counted still counted (a second
 * key of theirs, a key that never counted) is never refused here, nor one revoked while fewer than
 * MIN_ADMINISTRATORS stood (during setup, or the day break-glass is needed anyway).
 */
export function administratorKeysProblem(keyStaffId: string | null, before: readonly string[], after: readonly string[]): string | null {
  if (before.length < MIN_ADMINISTRATORS || after.length >= MIN_ADMINISTRATORS) return null;
  const left = after.length === 0 ? 'no administrator' : `${after.length} administrator${after.length === 1 ? '' : 's'} (${after.join(', ')})`;
  return `Revoking this key would leave ${left} holding a key of their own${keyStaffId ? `: it is ${keyStaffId}'s last` : ''}. The register keeps at least ${MIN_ADMINISTRATORS}, so that every change to it has a second person: hand another administrator their key first (minted, claimed and witnessed), then revoke this one`;
}

/**
 * Whether revoking a key needs two administrators: a key of the administrator's role, or any key
 * of a person who is an administrator, is revoked by one administrator's proposal and another's
 * approval, so that no administrator takes another's power away alone. Any other key (a table's, a
 * supervisor's, a cashier's) one administrator revokes at once: a lost key must be stopped now.
 * And a person revokes a key of their own at once, with a key that is theirs alone: that only
 * takes power away from themselves.
 */
export function revocationNeedsTwo(
  key: { readonly role: string; readonly staffId: string | null },
  holderIsAdministrator: boolean,
  caller: KeyHolder,
): boolean {
  if (key.role !== 'ADMIN' && !holderIsAdministrator) return false;
  const ownAlone = key.staffId !== null && caller.persons.length === 1 && caller.persons[0] === key.staffId;
  return !ownAlone;
}

/**
 * Why `approver` may not approve the revocation of a key (its own person `keyStaffId`) that
 * `proposer` proposed; null when they are two people and the approver is not the key's person.
 */
export function revocationApprovalProblem(
  proposer: KeyHolder,
  approver: KeyHolder,
  key: { readonly id: string; readonly staffId: string | null },
): string | null {
  if (key.staffId !== null && approver.persons.includes(key.staffId))
    return `Staff member ${key.staffId} cannot approve the revocation of their own key: another administrator must`;
  if (approver.keyId === key.id) return 'A key cannot approve its own revocation: another administrator must';
  return twoPersonProblem(proposer, approver, "The revocation of an administrator's key");
}

/**
 * Why `decider` may not reject the revocation of a key that `proposer` proposed; null when they may:
 * the proposer withdraws their own proposal, and any other administrator but the key's person decides.
 */
export function revocationRejectionProblem(
  proposer: KeyHolder,
  decider: KeyHolder,
  key: { readonly id: string; readonly staffId: string | null },
): string | null {
  if (samePerson(proposer, decider)) return null;
  if (decider.keyId === key.id || (key.staffId !== null && decider.persons.includes(key.staffId)))
    return `Staff member ${key.staffId ?? 'holding this key'} cannot decide the revocation of their own key: another administrator must`;
  return null;
}

/**
 * Break-glass (docs/operations.md): the day the register has fewer than MIN_ADMINISTRATORS
 * administrators holding a key of their own, nothing can change it through the API. Then, with
 * the database and the audit key, those present make one person an administrator and mint their
 * key, recorded by a keyed entry of this action, which the verification lists.
 */
export const BREAK_GLASS_ACTION = 'staff.breakGlass';
/** Who the break-glass entries and the keys it mints name as their author. */
export const BREAK_GLASS_KEY_ID = 'break-glass';

/**
 * Why break-glass may not be used: at least MIN_ADMINISTRATORS people must be present and named
 * (the two-person rule, kept outside the API that day), and fewer than MIN_ADMINISTRATORS
 * administrators may hold a usable key of their own, counting no key of the persons whose keys it
 * revokes as lost (`administratorsWithKeys` leaves them out); null when it may.
 */
export function breakGlassProblem(administratorsWithKeys: readonly string[], present: readonly string[]): string | null {
  const people = new Set(present.map((p) => p.trim().toLowerCase()).filter(Boolean));
  if (people.size < MIN_ADMINISTRATORS)
    return `Name at least ${MIN_ADMINISTRATORS} people present (--present, each once): break-glass is witnessed like any two-person act`;
  if (administratorsWithKeys.length < MIN_ADMINISTRATORS) return null;
  return `${administratorsWithKeys.join(' and ')} hold keys of their own: two administrators change the register through the API (POST /v1/staff). Break-glass is only for the day fewer than ${MIN_ADMINISTRATORS} can (name those whose keys are lost with --lost)`;
}

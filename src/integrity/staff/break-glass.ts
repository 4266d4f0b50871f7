import { randomBytes, randomUUID } from 'node:crypto';
import type { ClientBase } from 'pg';
import { BREAK_GLASS_ACTION, BREAK_GLASS_KEY_ID, breakGlassProblem } from '../../domain';
import { ACCESS_SQL } from '../../foundation/access/access-sql';
import { hash } from '../../foundation/access/access.service';
import { appendWithSeals, AuditRecord, auditParams } from '../../foundation/ledger/audit-log';
import { seal } from '../../foundation/ledger/seals';
import type { AuditContext } from '../../platform/common/context';
import { entryMac, type AuditKeyring } from '../../platform/config/keyring';
import { pgRunner } from '../../platform/database/sql';
import { STAFF_SQL } from './staff-sql';

/** What those present ask of break-glass (npm run break-glass, docs/operations.md). */
export interface BreakGlassRequest {
  /** The person made an administrator (registered, or their record given the ADMIN role and made active). */
  readonly staffId: string;
  /** Their name: required for a person the register does not hold; else it replaces the one on record. */
  readonly name: string | null;
  readonly reason: string;
  /** Everyone present, as they sign the record (at least two). */
  readonly present: readonly string[];
  /** The persons whose keys are lost or went with them: every key of theirs not yet revoked is revoked. */
  readonly lost: readonly string[];
}

export interface BreakGlassDone {
  readonly staffId: string;
  readonly keyId: string;
  /** The new administrator's key, shown once: its person claims it at once. */
  readonly key: string;
  /** The change to their record (null: they were an active administrator already). */
  readonly changeId: string | null;
  readonly revokedKeys: readonly string[];
  /** Where the break-glass entry is in the admin stream. */
  readonly seq: string;
}

/** Refused: nothing was written. */
export class BreakGlassRefused extends Error {}

const STREAM = 'admin';

/**
 * Break-glass: the day fewer than two administrators hold a usable key of their own, nothing can
 * change the register through the API. With the database and the audit key (the secret the service
 * keys its entries with), in one transaction: the keys of the persons named lost revoked, one person
 * made an active administrator, and a key minted for them, each recorded by its usual keyed entry
 * (so every check of the verification holds), after one `staff.breakGlass` entry that says why, who
 * was present, and who held keys: the verification lists every break-glass for the auditor. A change
 * made with the database without the audit key is still a finding. Refused (BreakGlassRefused, and
 * nothing written) while two administrators hold keys of their own, or with fewer than two present.
 */
export async function breakGlass(client: ClientBase, keyring: AuditKeyring, r: BreakGlassRequest): Promise<BreakGlassDone> {
  const runner = pgRunner(client);
  await client.query('BEGIN');
  try {
    // The register's administrators' lock, the one its changes and key revocations through the API take.
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended('staff:administrators', 0))");
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`staff:${r.staffId}`]);
    const withKeys = (await runner.query<{ staff_id: string }>(ACCESS_SQL.administratorsWithKeys.bind({ exceptKeyId: null }))).map((x) => x.staff_id);
    const problem = breakGlassProblem(
      withKeys.filter((p) => !r.lost.includes(p)),
      r.present,
    );
    if (problem) throw new BreakGlassRefused(problem);
    // The audit key given must be the service's: it must vouch for the entries the service keyed, or
    // someone holding only the database would take the register over (found later, but taken).
    const keyed = await runner.query<{ stream: string; payload: string; mac: string; macKey: string }>(STAFF_SQL.breakGlassKeyedEntries.bind({}));
    const vouched = keyed.filter((e) => keyring.keys.has(e.macKey));
    if (keyed.length > 0 && vouched.length === 0)
      throw new BreakGlassRefused(
        `The audit key given keyed none of the latest entries (they name ${[...new Set(keyed.map((e) => e.macKey))].join(', ')}): break-glass needs the service's audit key`,
      );
    const forged = vouched.find((e) => entryMac(keyring.keys.get(e.macKey)!, e.stream, e.payload) !== e.mac);
    if (forged)
      throw new BreakGlassRefused(
        `The audit key given as ${forged.macKey} is not the one that keyed the entries under that name: break-glass needs the service's audit key`,
      );
    const [person] = await runner.query<{ name: string; roles: string[]; active: boolean }>(STAFF_SQL.breakGlassPerson.bind({ staffId: r.staffId }));
    const name = r.name ?? person?.name;
    if (!name) throw new BreakGlassRefused(`${r.staffId} is not on the staff register: give their name as on their licence (--name)`);
    // Those present witness the new administrator: two people besides them.
    const self = new Set([r.staffId, name].map((x) => x.trim().toLowerCase()));
    const witnesses = new Set(r.present.map((p) => p.trim().toLowerCase()).filter((p) => p && !self.has(p)));
    if (witnesses.size < 2)
      throw new BreakGlassRefused(`Name at least 2 people present besides ${name} (${r.staffId}): break-glass is witnessed like any two-person act`);
    const roles = [...new Set([...(person?.roles ?? []), 'ADMIN'])].sort();
    const changed = !person || !person.active || !person.roles.includes('ADMIN') || name !== person.name;
    const changeId = changed ? randomUUID() : null;
    const keyId = randomUUID();
    const key = `sab_${randomBytes(32).toString('base64url')}`;
    const ctx: AuditContext = {
      actor: { keyId: BREAK_GLASS_KEY_ID, role: 'ADMIN', tableId: null },
      correlationId: `break-glass-${randomUUID()}`,
      route: 'npm run break-glass',
    };
    const append = async (record: AuditRecord) => {
      const params = auditParams(ctx, record, keyring);
      await appendWithSeals(runner, keyring, params, record);
    };

    // The event first: why, who was present, who held keys; then what it did, each as the API records it.
    // Where it goes in the admin stream: its head locked until this commits, so no other entry comes between.
    const [head] = await runner.query<{ next: string }>({
      text: 'SELECT (seq + 1)::text AS next FROM audit_heads WHERE stream = $1 FOR UPDATE',
      values: [STREAM],
    });
    const seq = head?.next ?? '1';
    await append({
      stream: STREAM,
      action: BREAK_GLASS_ACTION,
      entityType: 'staff',
      entityId: r.staffId,
      data: { name, roles, reason: r.reason, present: r.present, lost: r.lost, administratorsWithKeys: withKeys, changeId, keyId },
    });
    const revoked = await runner.query<{ id: string; staff_id: string; revoked_at: Date }>(STAFF_SQL.breakGlassLostKeys.bind({ staffIds: [...r.lost] }));
    for (const k of revoked)
      await append({
        stream: STREAM,
        action: 'apiKey.revoke',
        entityType: 'apiKey',
        entityId: k.id,
        data: { revokedAt: k.revoked_at, breakGlass: true, lost: k.staff_id },
        seals: [seal('api_keys', k.id)],
      });
    if (changeId) {
      const note = `break-glass, present: ${r.present.join('; ')}`;
      await runner.run(STAFF_SQL.breakGlassChange.bind({ id: changeId, staffId: r.staffId, name, roles, reason: r.reason, by: BREAK_GLASS_KEY_ID, note }));
      await runner.run(STAFF_SQL.breakGlassRegister.bind({ staffId: r.staffId, name, roles, changeId }));
      await append({
        stream: STREAM,
        action: 'staff.approve',
        entityType: 'staff',
        entityId: r.staffId,
        data: { changeId, name, roles, active: true, decidedBy: BREAK_GLASS_KEY_ID, note, breakGlass: true },
        seals: [seal('staff_changes', changeId), seal('staff', r.staffId)],
      });
    }
    const keyName = `${name} (break-glass)`;
    await runner.query(
      STAFF_SQL.breakGlassMint.bind({
        id: keyId,
        name: keyName,
        staffId: r.staffId,
        keyHash: hash(key).toString('hex'),
        keyPrefix: key.slice(0, 10),
        by: BREAK_GLASS_KEY_ID,
      }),
    );
    await append({
      stream: STREAM,
      action: 'apiKey.create',
      entityType: 'apiKey',
      entityId: keyId,
      data: { name: keyName, role: 'ADMIN', tableId: null, staffId: r.staffId, expiresAt: null, breakGlass: true },
      seals: [seal('api_keys', keyId)],
    });
    await client.query('COMMIT');
    return { staffId: r.staffId, keyId, key, changeId, revokedKeys: revoked.map((k) => k.id), seq };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}

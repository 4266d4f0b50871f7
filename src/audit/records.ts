import type { AuditKeyring } from '../config/keyring';
import { checkLedgers } from './ledger-checks';
import { checkSeals } from './seal-checks';
import { checkOpenShoes } from './shoe-checks';
import { Finding, guarded, isFinding, Queryable } from './verification';

/**
 * Every record against its proof (src/audit/proof.ts): the ledgers rebuilt from the chain, the
 * sealed rows against their seals, the open shoes' running state against their coups. Run in one
 * snapshot (a REPEATABLE READ transaction), so that a write committing meanwhile is seen whole or
 * not at all. The caller runs it inside a transaction (each check has a savepoint of its own).
 */
export async function checkRecords(db: Queryable, keyring: AuditKeyring | null): Promise<Finding[]> {
  const seals = await guarded(db, 'the seals', () => checkSeals(db, keyring));
  const shoes = await guarded(db, 'the open shoes', () => checkOpenShoes(db));
  return [...(await checkLedgers(db)), ...(isFinding(seals) ? [seals] : seals.findings), ...(isFinding(shoes) ? [shoes] : shoes)];
}

import type { Client } from 'pg';

/**
 * Statements as the database's owner with every trigger off, in one transaction: how a spec moves
 * records back in time (the service has no clock to set) or plays the superuser rewriting what the
 * service keeps append-only. Rolled back if `fn` throws.
 */
export async function asOwner(owner: Client, fn: () => Promise<unknown>): Promise<void> {
  await owner.query('BEGIN');
  try {
    await owner.query('SET LOCAL session_replication_role = replica');
    await fn();
    await owner.query('COMMIT');
  } catch (e) {
    await owner.query('ROLLBACK');
    throw e;
  }
}

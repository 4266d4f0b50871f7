import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Actor } from '../../platform/common/actor';
import { AppError } from '../../platform/common/errors';
import { KeyHolder, personsOf } from '../../domain';
import { PrismaService } from '../../platform/database/prisma.service';
import { pgRunner, SqlRunner } from '../../platform/database/sql';
import { ACCESS_SQL } from './access-sql';

export const ADMIN_KEY = Symbol('ADMIN_KEY');
export const BOOTSTRAP_ADMIN_ID = 'bootstrap-admin';

export const hash = (key: string) => createHash('sha256').update(key).digest();

/** The refusal of the bootstrap key once it has set the casino up, for an act that touches persons. */
export const retiredBootstrap = (act: string) =>
  new AppError('FORBIDDEN', `The bootstrap key set the casino up and is retired from persons: two administrators ${act} now`);

/** Keys recently looked up, for routes whose write confirms the key itself. */
const REMEMBER_MS = 5 * 60_000;
const REMEMBER_AT_MOST = 10_000;

/**
 * Who is calling: API keys are 32 random bytes; only their SHA-256 is stored (a key this random
 * needs no slow hash). The bootstrap admin key comes from the environment.
 */
@Injectable()
export class AccessService {
  private readonly adminHash: Buffer;
  private readonly recent = new LRUCache<string, { actor: Actor; expiresAt: number | null; until: number }>({ max: REMEMBER_AT_MOST });

  constructor(
    private readonly prisma: PrismaService,
    @Inject(ADMIN_KEY) adminKey: string,
  ) {
    this.adminHash = hash(adminKey);
  }

  /**
   * The caller behind a key, or null. With `fromMemory`, a key looked up in the last minutes is
   * recognised without asking the database, and marked `unconfirmed`: only routes whose write
   * checks the key itself (KeyConfirmedByWrite) ask for that.
   */
  async authenticate(key: string, fromMemory = false): Promise<Actor | null> {
    const h = hash(key);
    if (timingSafeEqual(h, this.adminHash)) return { keyId: BOOTSTRAP_ADMIN_ID, role: 'ADMIN', tableId: null };
    const hex = h.toString('hex');
    const now = Date.now();
    const known = fromMemory ? this.recent.get(hex) : undefined;
    if (known && known.until > now && (known.expiresAt === null || known.expiresAt > now)) return { ...known.actor, unconfirmed: true };
    // Every other request asks this: a prepared statement on the shared pool, no ORM in between.
    const { rows } = await this.prisma.pool.query<{ id: string; role: Actor['role']; table_id: string | null; expires_at: Date | null }>(
      ACCESS_SQL.authenticate.bind({ keyHash: hex }),
    );
    const row = rows[0];
    if (!row) {
      this.recent.delete(hex);
      return null;
    }
    const actor: Actor = { keyId: row.id, role: row.role, tableId: row.table_id, keyHash: hex };
    this.recent.set(hex, { actor, expiresAt: row.expires_at?.getTime() ?? null, until: now + REMEMBER_MS });
    return actor;
  }

  /**
   * Whether the key is still valid now, with the secret it was recognised by (for an unconfirmed
   * caller whose write did not happen: a key claimed since on another instance has another).
   */
  async isValid(keyId: string, keyHash: string | null = null): Promise<boolean> {
    if (keyId === BOOTSTRAP_ADMIN_ID) return true;
    const { rows } = await this.prisma.pool.query(ACCESS_SQL.isValid.bind({ keyId, keyHash }));
    return rows.length === 1;
  }

  /** Who could hold a key: its person and, until they claim it, its minters up the chain (src/domain/integrity/two-person.ts). */
  async holder(keyId: string): Promise<KeyHolder> {
    if (keyId === BOOTSTRAP_ADMIN_ID) return { keyId, staffId: BOOTSTRAP_ADMIN_ID, persons: [BOOTSTRAP_ADMIN_ID] };
    const { rows } = await this.prisma.pool.query<{ staff_id: string | null; witnessed: boolean; minted_by: string | null }>({
      name: 'sabot-key-chain',
      // The key's own claim counts once witnessed; a minter's only if it was witnessed before it
      // minted the key below it: who could hold a key is fixed when it is minted.
      text: `WITH RECURSIVE chain AS (
               SELECT k.staff_id, k.claim_witnessed_at IS NOT NULL AS witnessed, k.created_by_key_id AS minted_by, k.created_at, 0 AS depth
               FROM api_keys k WHERE k.id::text = $1
               UNION ALL
               SELECT m.staff_id, coalesce(m.claim_witnessed_at < c.created_at, false), m.created_by_key_id, m.created_at, c.depth + 1
               FROM chain c JOIN api_keys m ON m.id::text = c.minted_by WHERE NOT c.witnessed AND c.depth < 100)
             SELECT staff_id, witnessed, minted_by FROM chain ORDER BY depth`,
      values: [keyId],
    });
    const chain = rows.map((r) => ({ staffId: r.staff_id, witnessed: r.witnessed, mintedBy: r.minted_by }));
    return { keyId, staffId: rows[0]?.staff_id ?? null, persons: personsOf(chain) };
  }

  /**
   * Whether the bootstrap key has set the casino up: administrator keys were minted for two persons.
   * From then on, for good, it touches no person (src/domain/integrity/two-person.ts): no
   * revocation or departure gives it its power back. On `runner` inside a transaction, else the pool.
   */
  async bootstrapRetired(runner: SqlRunner = pgRunner(this.prisma.pool)): Promise<boolean> {
    const [row] = await runner.query<{ retired: boolean }>(ACCESS_SQL.bootstrapRetired.bind({}));
    return row.retired;
  }

  /**
   * The active administrators holding a usable administrator key of their own, leaving out the key
   * `exceptKeyId` (one about to be revoked), by staff number: who could still act on the register.
   */
  async administratorsWithKeys(runner: SqlRunner, exceptKeyId: string | null = null): Promise<string[]> {
    const rows = await runner.query<{ staff_id: string }>(ACCESS_SQL.administratorsWithKeys.bind({ exceptKeyId }));
    return rows.map((r) => r.staff_id);
  }

  /** Refuses the bootstrap key once it has set the casino up, for an act that touches persons. */
  async assertNotRetiredBootstrap(keyId: string, act: string): Promise<void> {
    if (keyId === BOOTSTRAP_ADMIN_ID && (await this.bootstrapRetired())) throw retiredBootstrap(act);
  }

  /** Forgets a revoked key at once (not needed for safety: writes confirm the key themselves; it spares a refused write). */
  forget(keyId: string): void {
    for (const [h, r] of this.recent) if (r.actor.keyId === keyId) this.recent.delete(h);
  }

  /** Forgets every key remembered (a person's roles changed: their keys are looked up again). */
  forgetAll(): void {
    this.recent.clear();
  }
}

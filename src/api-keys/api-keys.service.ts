import type { RequestContext } from '../access/context';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Actor } from '../access/actor';
import { KeyHolder, mintingProblem } from '../domain';
import { AppError, notFound } from '../common/errors';
import { PrismaService } from '../database/prisma.service';
import { ApiKey } from '../generated/prisma/client';
import { ApiKeyDto, CreateApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto';
import { AuditService } from '../audit/audit.service';

export const ADMIN_KEY = Symbol('ADMIN_KEY');
export const BOOTSTRAP_ADMIN_ID = 'bootstrap-admin';

const hash = (key: string) => createHash('sha256').update(key).digest();

/** The one definition of a usable key, over a row `k` of api_keys. */
export const KEY_VALID_SQL = 'k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())';

/** Keys recently looked up, for routes whose write confirms the key itself. */
const REMEMBER_MS = 5 * 60_000;
const REMEMBER_AT_MOST = 10_000;

/**
 * API keys are 32 random bytes; only their SHA-256 is stored (a key this random needs no slow
 * hash). The bootstrap admin key comes from the environment.
 */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  private readonly adminHash: Buffer;
  private readonly recent = new Map<string, { actor: Actor; expiresAt: number | null; until: number }>();

  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditService,
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
    const { rows } = await this.prisma.pool.query<{ id: string; role: Actor['role']; table_id: string | null; expires_at: Date | null }>({
      name: 'sabot-authenticate',
      text: `SELECT k.id, k.role, k.table_id, k.expires_at FROM api_keys k WHERE k.key_hash = $1 AND ${KEY_VALID_SQL}`,
      values: [hex],
    });
    const row = rows[0];
    if (!row) {
      this.recent.delete(hex);
      return null;
    }
    const actor: Actor = { keyId: row.id, role: row.role, tableId: row.table_id };
    if (this.recent.size >= REMEMBER_AT_MOST) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(hex, { actor, expiresAt: row.expires_at?.getTime() ?? null, until: now + REMEMBER_MS });
    return actor;
  }

  /** Whether the key is still valid now (for an unconfirmed caller whose write did not happen). */
  async isValid(keyId: string): Promise<boolean> {
    if (keyId === BOOTSTRAP_ADMIN_ID) return true;
    const { rows } = await this.prisma.pool.query({
      name: 'sabot-key-valid',
      text: `SELECT 1 FROM api_keys k WHERE k.id = $1::uuid AND ${KEY_VALID_SQL}`,
      values: [keyId],
    });
    return rows.length === 1;
  }

  /** Who holds a key and who minted it, for the two-person rules (src/domain/two-person.ts). */
  async holder(keyId: string): Promise<KeyHolder> {
    if (keyId === BOOTSTRAP_ADMIN_ID) return { keyId, staffId: BOOTSTRAP_ADMIN_ID, mintedByKeyId: null, mintedByStaffId: null };
    const { rows } = await this.prisma.pool.query<{ staff_id: string | null; created_by_key_id: string | null; minter_staff_id: string | null }>({
      name: 'sabot-key-holder',
      text: `SELECT k.staff_id, k.created_by_key_id,
                    CASE WHEN k.created_by_key_id = '${BOOTSTRAP_ADMIN_ID}' THEN '${BOOTSTRAP_ADMIN_ID}' ELSE m.staff_id END AS minter_staff_id
             FROM api_keys k LEFT JOIN api_keys m ON m.id::text = k.created_by_key_id WHERE k.id::text = $1`,
      values: [keyId],
    });
    const r = rows[0];
    return { keyId, staffId: r?.staff_id ?? null, mintedByKeyId: r?.created_by_key_id ?? null, mintedByStaffId: r?.minter_staff_id ?? null };
  }

  async create(dto: CreateApiKeyDto, ctx: RequestContext): Promise<CreatedApiKeyDto> {
    const { actor } = ctx;
    if (dto.role === 'TERMINAL' && !dto.tableId) throw new AppError('VALIDATION_FAILED', 'A TERMINAL key must name the table it serves (tableId)');
    if (dto.role === 'TERMINAL' && dto.staffId)
      throw new AppError('VALIDATION_FAILED', 'A TERMINAL key belongs to its table, not to a person: leave staffId out');
    if (dto.role !== 'TERMINAL' && !dto.staffId)
      throw new AppError('VALIDATION_FAILED', `A ${dto.role} key belongs to a person: give their staff number (staffId)`);
    const minting = mintingProblem(await this.holder(actor.keyId), dto.staffId ?? null);
    if (minting) throw new AppError('FORBIDDEN', minting);
    if (dto.role !== 'TERMINAL' && dto.tableId) throw new AppError('VALIDATION_FAILED', 'Only TERMINAL keys are bound to a table');
    const expiresAt = dto.expiresAt ? new Date(dto.expiresAt) : null;
    if (expiresAt && expiresAt <= new Date()) throw new AppError('VALIDATION_FAILED', 'expiresAt must be in the future');
    if (dto.tableId && !(await this.prisma.casinoTable.findUnique({ where: { id: dto.tableId }, select: { id: true } }))) {
      throw notFound('Table', dto.tableId);
    }
    const key = `sab_${randomBytes(32).toString('base64url')}`;
    const row = await this.prisma.transaction(ctx, async (tx) => {
      const created = await tx.apiKey.create({
        data: {
          name: dto.name,
          role: dto.role,
          tableId: dto.tableId ?? null,
          staffId: dto.staffId ?? null,
          keyHash: hash(key).toString('hex'),
          keyPrefix: key.slice(0, 10),
          createdByKeyId: actor.keyId,
          expiresAt,
        },
      });
      // The key itself is never logged; its hash is the only trace of it.
      await this.audit.append(tx, ctx, {
        stream: 'admin',
        action: 'apiKey.create',
        entityType: 'apiKey',
        entityId: created.id,
        data: { name: dto.name, role: dto.role, tableId: dto.tableId ?? null, staffId: dto.staffId ?? null, expiresAt },
      });
      return created;
    });
    this.logger.log(`API key ${row.id} (${row.role}) created by ${actor.keyId}`);
    return { id: row.id, key, apiKey: toDto(row) };
  }

  async list(): Promise<ApiKeyDto[]> {
    return (await this.prisma.apiKey.findMany({ orderBy: { createdAt: 'asc' } })).map(toDto);
  }

  async revoke(id: string, ctx: RequestContext): Promise<ApiKeyDto> {
    const row = await this.prisma.apiKey.findUnique({ where: { id } });
    if (!row) throw notFound('API key', id);
    if (row.revokedAt) return toDto(row);
    return this.prisma.transaction(ctx, async (tx) => {
      const revoked = await tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
      // Not needed for safety (writes confirm the key themselves), but spares a refused write.
      for (const [h, r] of this.recent) if (r.actor.keyId === id) this.recent.delete(h);
      await this.audit.append(tx, ctx, {
        stream: 'admin',
        action: 'apiKey.revoke',
        entityType: 'apiKey',
        entityId: id,
        data: { revokedAt: revoked.revokedAt },
      });
      return toDto(revoked);
    });
  }
}

function toDto(k: ApiKey): ApiKeyDto {
  return {
    id: k.id,
    name: k.name,
    role: k.role,
    tableId: k.tableId,
    keyPrefix: k.keyPrefix,
    staffId: k.staffId,
    createdByKeyId: k.createdByKeyId,
    createdAt: k.createdAt.toISOString(),
    expiresAt: k.expiresAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
  };
}

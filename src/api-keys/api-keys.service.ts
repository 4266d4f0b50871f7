import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Actor } from '../access/actor';
import { AppError, notFound } from '../common/errors';
import { PrismaService } from '../database/prisma.service';
import { ApiKey } from '../generated/prisma/client';
import { ApiKeyDto, CreateApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto';
import { AuditService } from '../audit/audit.service';

export const ADMIN_KEY = Symbol('ADMIN_KEY');
export const BOOTSTRAP_ADMIN_ID = 'bootstrap-admin';

const hash = (key: string) => createHash('sha256').update(key).digest();

/**
 * API keys are 32 random bytes; only their SHA-256 is stored (a key this random needs no slow
 * hash). The bootstrap admin key comes from the environment.
 */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  private readonly adminHash: Buffer;

  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditService,
    @Inject(ADMIN_KEY) adminKey: string,
  ) {
    this.adminHash = hash(adminKey);
  }

  async authenticate(key: string): Promise<Actor | null> {
    const h = hash(key);
    if (timingSafeEqual(h, this.adminHash)) return { keyId: BOOTSTRAP_ADMIN_ID, role: 'ADMIN', tableId: null };
    // Every request asks this: a prepared statement on the shared pool, no ORM in between.
    const { rows } = await this.prisma.pool.query<{ id: string; role: Actor['role']; table_id: string | null }>({
      name: 'sabot-authenticate',
      text: 'SELECT id, role, table_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())',
      values: [h.toString('hex')],
    });
    const row = rows[0];
    return row ? { keyId: row.id, role: row.role, tableId: row.table_id } : null;
  }

  async create(dto: CreateApiKeyDto, actor: Actor): Promise<CreatedApiKeyDto> {
    if (dto.role === 'TERMINAL' && !dto.tableId) throw new AppError('VALIDATION_FAILED', 'A TERMINAL key must name the table it serves (tableId)');
    if (dto.role !== 'TERMINAL' && dto.tableId) throw new AppError('VALIDATION_FAILED', 'Only TERMINAL keys are bound to a table');
    const expiresAt = dto.expiresAt ? new Date(dto.expiresAt) : null;
    if (expiresAt && expiresAt <= new Date()) throw new AppError('VALIDATION_FAILED', 'expiresAt must be in the future');
    if (dto.tableId && !(await this.prisma.casinoTable.findUnique({ where: { id: dto.tableId }, select: { id: true } }))) {
      throw notFound('Table', dto.tableId);
    }
    const key = `sab_${randomBytes(32).toString('base64url')}`;
    const row = await this.prisma.transaction(async (tx) => {
      const created = await tx.apiKey.create({
        data: { name: dto.name, role: dto.role, tableId: dto.tableId ?? null, keyHash: hash(key).toString('hex'), keyPrefix: key.slice(0, 10), createdByKeyId: actor.keyId, expiresAt },
      });
      // The key itself is never logged; its hash is the only trace of it.
      await this.audit.append(tx, { stream: 'admin', action: 'apiKey.create', entityType: 'apiKey', entityId: created.id, data: { name: dto.name, role: dto.role, tableId: dto.tableId ?? null, expiresAt } });
      return created;
    });
    this.logger.log(`API key ${row.id} (${row.role}) created by ${actor.keyId}`);
    return { id: row.id, key, apiKey: toDto(row) };
  }

  async list(): Promise<ApiKeyDto[]> {
    return (await this.prisma.apiKey.findMany({ orderBy: { createdAt: 'asc' } })).map(toDto);
  }

  async revoke(id: string): Promise<ApiKeyDto> {
    const row = await this.prisma.apiKey.findUnique({ where: { id } });
    if (!row) throw notFound('API key', id);
    if (row.revokedAt) return toDto(row);
    return this.prisma.transaction(async (tx) => {
      const revoked = await tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
      await this.audit.append(tx, { stream: 'admin', action: 'apiKey.revoke', entityType: 'apiKey', entityId: id, data: { revokedAt: revoked.revokedAt } });
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
    createdAt: k.createdAt.toISOString(),
    expiresAt: k.expiresAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
  };
}

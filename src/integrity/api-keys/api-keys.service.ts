import type { RequestContext } from '../../platform/common/context';
import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AccessService, BOOTSTRAP_ADMIN_ID, hash } from '../../foundation/access/access.service';
import { mintingProblem, witnessProblem } from '../../domain';
import { AppError, notFound } from '../../platform/common/errors';
import { TABLE_ROLES } from '../../platform/common/actor';
import { PrismaService } from '../../platform/database/prisma.service';
import { ApiKey } from '../../generated/prisma/client';
import { ApiKeyDto, CallerDto, CreateApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto';
import { seal } from '../../foundation/ledger/seals';
import { AuditLog } from '../../foundation/ledger/audit-log';

/** Keys as administrators manage them: minted for a person or a table, listed, revoked. */
@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);

  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
    private readonly access: AccessService,
  ) {}

  async create(dto: CreateApiKeyDto, ctx: RequestContext): Promise<CreatedApiKeyDto> {
    const { actor } = ctx;
    // A terminal's and a display's key belong to their table; every other key to a person.
    const tableKey = TABLE_ROLES.includes(dto.role);
    if (tableKey && !dto.tableId) throw new AppError('VALIDATION_FAILED', `A ${dto.role} key must name the table it serves (tableId)`);
    if (tableKey && dto.staffId) throw new AppError('VALIDATION_FAILED', `A ${dto.role} key belongs to its table, not to a person: leave staffId out`);
    if (!tableKey && !dto.staffId) throw new AppError('VALIDATION_FAILED', `A ${dto.role} key belongs to a person: give their staff number (staffId)`);
    const minting = mintingProblem(await this.access.holder(actor.keyId), dto.staffId ?? null);
    if (minting) throw new AppError('FORBIDDEN', minting);
    if (!tableKey && dto.tableId) throw new AppError('VALIDATION_FAILED', 'Only TERMINAL and DISPLAY keys are bound to a table');
    if (dto.staffId) await this.access.assertNotRetiredBootstrap(actor.keyId, 'mint keys for people');
    if (dto.staffId) {
      // A person's key names a person the register holds, active, in the key's role: nobody invents a holder.
      const person = await this.prisma.staff.findUnique({ where: { staffId: dto.staffId } });
      if (!person || !person.active || !person.roles.includes(dto.role))
        throw new AppError(
          'STAFF_NOT_REGISTERED',
          !person
            ? `Staff member ${dto.staffId} is not on the staff register: two administrators register them first (POST /v1/staff)`
            : `Staff member ${dto.staffId} does not hold the ${dto.role} role${person.active ? '' : ' (no longer active)'}: two administrators change their record first (POST /v1/staff)`,
        );
    }
    const expiresAt = dto.expiresAt ? new Date(dto.expiresAt) : null;
    if (expiresAt && expiresAt <= new Date()) throw new AppError('VALIDATION_FAILED', 'expiresAt must be in the future');
    if (dto.tableId && !(await this.prisma.casinoTable.findUnique({ where: { id: dto.tableId }, select: { id: true } }))) {
      throw notFound('Table', dto.tableId);
    }
    const key = `sab_${randomBytes(32).toString('base64url')}`;
    // The answer a retry with the Idempotency-Key replays is stored without the key: a key is shown once.
    const stored = await this.prisma.transaction(ctx, async (tx): Promise<CreatedApiKeyDto> => {
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
        seals: [seal('api_keys', created.id)],
      });
      return { id: created.id, key: null, apiKey: toDto(created) };
    });
    this.logger.log(`API key ${stored.id} (${stored.apiKey.role}) created by ${actor.keyId}`);
    return { ...stored, key };
  }

  /**
   * The holder claims their key: a new secret replaces the one the minter saw, so from now on the
   * key is theirs alone for the two-person rules. The old secret stops at once.
   */
  async claim(ctx: RequestContext): Promise<CreatedApiKeyDto> {
    const { actor } = ctx;
    if (actor.keyId === BOOTSTRAP_ADMIN_ID) throw new AppError('FORBIDDEN', 'The bootstrap key comes from the environment: rotate it there');
    const key = `sab_${randomBytes(32).toString('base64url')}`;
    const stored = await this.prisma.transaction(ctx, async (tx): Promise<CreatedApiKeyDto> => {
      const claimed = await tx.apiKey.updateManyAndReturn({
        where: { id: actor.keyId, claimedAt: null, revokedAt: null },
        data: { keyHash: hash(key).toString('hex'), keyPrefix: key.slice(0, 10), claimedAt: new Date() },
      });
      if (claimed.length === 0) throw new AppError('KEY_ALREADY_CLAIMED', "This key was claimed already: its secret is its holder's alone");
      await this.audit.append(tx, ctx, {
        stream: 'admin',
        action: 'apiKey.claim',
        entityType: 'apiKey',
        entityId: actor.keyId,
        data: { claimedAt: claimed[0].claimedAt, keyPrefix: claimed[0].keyPrefix },
        seals: [seal('api_keys', actor.keyId)],
      });
      return { id: claimed[0].id, key: null, apiKey: toDto(claimed[0]) };
    });
    this.access.forget(actor.keyId);
    return { ...stored, key };
  }

  /**
   * A second administrator witnesses a key's claim: they saw its person replace the secret, and they
   * could hold neither the key nor the one that minted it. From then on the key is its person's alone.
   */
  async witness(id: string, ctx: RequestContext): Promise<ApiKeyDto> {
    const { actor } = ctx;
    if (actor.keyId === BOOTSTRAP_ADMIN_ID) throw new AppError('FORBIDDEN', 'The bootstrap key witnesses nothing: a second administrator must');
    const key = await this.prisma.apiKey.findUnique({ where: { id } });
    if (!key) throw notFound('API key', id);
    if (key.revokedAt) throw new AppError('KEY_NOT_CLAIMED', 'The key is revoked: there is no claim to witness');
    if (!key.claimedAt)
      throw new AppError('KEY_NOT_CLAIMED', 'Its holder has not claimed the key yet (POST /v1/api-keys/claim, with the key, in front of you)');
    if (key.claimWitnessedAt) throw new AppError('KEY_ALREADY_CLAIMED', `The claim was witnessed already, by ${key.claimWitnessedBy}`);
    const problem = witnessProblem(await this.access.holder(id), await this.access.holder(actor.keyId));
    if (problem) throw new AppError('FORBIDDEN', problem);
    return this.prisma.transaction(ctx, async (tx) => {
      // The database's clock, the one a key's created_at is written by: who could hold a key compares
      // the two (a minter's claim counts only if witnessed before it minted).
      const [{ now }] = await tx.$queryRaw<{ now: Date }[]>`SELECT now() AS now`;
      const [witnessed] = await tx.apiKey.updateManyAndReturn({
        where: { id, claimWitnessedAt: null, revokedAt: null },
        data: { claimWitnessedBy: actor.keyId, claimWitnessedAt: now },
      });
      if (!witnessed) throw new AppError('KEY_ALREADY_CLAIMED', 'The claim was witnessed or the key revoked meanwhile');
      await this.audit.append(tx, ctx, {
        stream: 'admin',
        action: 'apiKey.witness',
        entityType: 'apiKey',
        entityId: id,
        data: { staffId: witnessed.staffId, witnessedAt: witnessed.claimWitnessedAt },
        seals: [seal('api_keys', id)],
      });
      return toDto(witnessed);
    });
  }

  /** The calling key: what a screen shows and which screens it offers. */
  async caller(ctx: RequestContext): Promise<CallerDto> {
    const { actor } = ctx;
    if (actor.keyId === BOOTSTRAP_ADMIN_ID)
      return { keyId: actor.keyId, name: 'The service administrator (ADMIN_API_KEY)', role: actor.role, tableId: null, staffId: null, expiresAt: null };
    const k = await this.prisma.apiKey.findUnique({ where: { id: actor.keyId } });
    if (!k) throw new AppError('UNAUTHENTICATED', 'A valid API key is required: Authorization: Bearer <key>');
    return { keyId: k.id, name: k.name, role: k.role, tableId: k.tableId, staffId: k.staffId, expiresAt: k.expiresAt?.toISOString() ?? null };
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
      this.access.forget(id);
      await this.audit.append(tx, ctx, {
        stream: 'admin',
        action: 'apiKey.revoke',
        entityType: 'apiKey',
        entityId: id,
        data: { revokedAt: revoked.revokedAt },
        seals: [seal('api_keys', id)],
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
    claimedAt: k.claimedAt?.toISOString() ?? null,
    claimWitnessedBy: k.claimWitnessedBy,
    claimWitnessedAt: k.claimWitnessedAt?.toISOString() ?? null,
  };
}

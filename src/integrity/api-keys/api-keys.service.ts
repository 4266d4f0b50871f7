import type { RequestContext } from '../../platform/common/context';
import { Injectable, Logger } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { AccessService, BOOTSTRAP_ADMIN_ID, hash, retiredBootstrap } from '../../foundation/access/access.service';
import {
  administratorKeysProblem,
  holderSince,
  mintingProblem,
  revocationApprovalProblem,
  revocationNeedsTwo,
  revocationRejectionProblem,
  witnessProblem,
} from '../../domain';
import { AppError, notFound } from '../../platform/common/errors';
import { TABLE_ROLES } from '../../platform/common/actor';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { prismaRunner } from '../../platform/database/sql';
import { ApiKey, KeyRevocation } from '../../generated/prisma/client';
import {
  ApiKeyDto,
  CallerDto,
  CreateApiKeyDto,
  CreatedApiKeyDto,
  DecideKeyRevocationDto,
  KEY_REVOCATION_STATUSES,
  KeyRevocationDto,
  ProposeKeyRevocationDto,
} from './dto/api-key.dto';
import { API_KEYS_SQL } from './api-keys-sql';
import { seal, SealRef } from '../../foundation/ledger/seals';
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
    if (minting) throw new AppError('SAME_PERSON', minting);
    if (!tableKey && dto.tableId) throw new AppError('VALIDATION_FAILED', 'Only TERMINAL, DISPLAY and DEVICE keys are bound to a table');
    if (dto.staffId) await this.access.assertNotRetiredBootstrap(actor.keyId, 'mint keys for people');
    const expiresAt = dto.expiresAt ? new Date(dto.expiresAt) : null;
    if (expiresAt && expiresAt <= new Date()) throw new AppError('VALIDATION_FAILED', 'expiresAt must be in the future');
    if (dto.tableId && !(await this.prisma.casinoTable.findUnique({ where: { id: dto.tableId }, select: { id: true } }))) {
      throw notFound('Table', dto.tableId);
    }
    const key = `sab_${randomBytes(32).toString('base64url')}`;
    // The answer a retry with the Idempotency-Key replays is stored without the key: a key is shown once.
    const stored = await this.prisma.transaction(ctx, async (tx): Promise<CreatedApiKeyDto> => {
      if (dto.staffId) {
        // The bootstrap key mints the first administrators' keys one at a time: the second of two at once sees the first.
        if (actor.keyId === BOOTSTRAP_ADMIN_ID) {
          await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended('staff:administrators', 0))`;
          if (await this.access.bootstrapRetired(prismaRunner(tx))) throw retiredBootstrap('mint keys for people');
        }
        // A person's key names a person the register holds, active, in the key's role: nobody invents a
        // holder. Read in the minting transaction, the row locked until it ends (a change waits for it).
        const [person] = await tx.$queryRaw<{ roles: string[]; active: boolean }[]>`
          SELECT roles::text[] AS roles, active FROM staff WHERE staff_id = ${dto.staffId} FOR SHARE`;
        if (!person || !person.active || !person.roles.includes(dto.role))
          throw new AppError(
            'STAFF_NOT_REGISTERED',
            !person
              ? `Staff member ${dto.staffId} is not on the staff register: two administrators register them first (POST /v1/staff)`
              : `Staff member ${dto.staffId} does not hold the ${dto.role} role${person.active ? '' : ' (no longer active)'}: two administrators change their record first (POST /v1/staff)`,
          );
      }
      // The minting key is confirmed by the insert itself (api-keys.sql mint): one revoked since the
      // request was let in mints nothing.
      const [minted] = await prismaRunner(tx).query<{ id: string }>(
        API_KEYS_SQL.mint.bind({
          id: randomUUID(),
          name: dto.name,
          role: dto.role,
          tableId: dto.tableId ?? null,
          staffId: dto.staffId ?? null,
          keyHash: hash(key).toString('hex'),
          keyPrefix: key.slice(0, 10),
          minter: actor.keyId,
          minterHash: actor.keyHash ?? null,
          expiresAt: expiresAt?.toISOString() ?? null,
        }),
      );
      if (!minted) throw new AppError('UNAUTHENTICATED', 'This API key is unknown, revoked or expired');
      const created = await tx.apiKey.findUniqueOrThrow({ where: { id: minted.id } });
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
    if (actor.tableId !== null || TABLE_ROLES.includes(actor.role))
      throw new AppError(
        'FORBIDDEN',
        "A table's key belongs to the table, not to a person: it is not claimed. If its secret may be known, an administrator revokes it and mints another",
      );
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
    if (problem) throw new AppError('SAME_PERSON', problem);
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
      return {
        keyId: actor.keyId,
        name: 'The service administrator (ADMIN_API_KEY)',
        role: actor.role,
        tableId: null,
        staffId: null,
        expiresAt: null,
        claimedAt: null,
        claimWitnessedAt: null,
      };
    const k = await this.prisma.apiKey.findUnique({ where: { id: actor.keyId } });
    if (!k) throw new AppError('UNAUTHENTICATED', 'A valid API key is required: Authorization: Bearer <key>');
    return {
      keyId: k.id,
      name: k.name,
      role: k.role,
      tableId: k.tableId,
      staffId: k.staffId,
      expiresAt: k.expiresAt?.toISOString() ?? null,
      claimedAt: k.claimedAt?.toISOString() ?? null,
      claimWitnessedAt: k.claimWitnessedAt?.toISOString() ?? null,
    };
  }

  async list(): Promise<ApiKeyDto[]> {
    return (await this.prisma.apiKey.findMany({ orderBy: { createdAt: 'asc' } })).map(toDto);
  }

  /**
   * Revokes a key at once: a table's key, or a person's who is not an administrator (a lost key is
   * stopped now), or a key of the caller's own, held by them alone. An administrator's key (a key of
   * the ADMIN role, or any key of a person who is an administrator) is revoked by two administrators
   * instead: proposeRevocation, then approveRevocation. Never below two administrators holding a key
   * of their own.
   */
  async revoke(id: string, ctx: RequestContext): Promise<ApiKeyDto> {
    const { actor } = ctx;
    const found = await this.prisma.apiKey.findUnique({ where: { id } });
    if (!found) throw notFound('API key', id);
    const caller = await this.access.holder(actor.keyId);
    // Anyone stops a key of their own, held by them alone; only an administrator stops another's.
    const own = found.staffId !== null && caller.persons.length === 1 && caller.persons[0] === found.staffId;
    if (actor.role !== 'ADMIN' && !own)
      throw new AppError(
        'FORBIDDEN',
        found.staffId !== null && caller.persons.includes(found.staffId)
          ? 'Your key is not yours alone until a second administrator has witnessed its claim: ask an administrator to revoke this key'
          : "Only an administrator revokes another person's or a table's key; you may revoke a key of your own",
      );
    if (found.revokedAt) return toDto(found);
    const setup = actor.keyId === BOOTSTRAP_ADMIN_ID && !(await this.access.bootstrapRetired());
    return this.prisma.transaction(ctx, async (tx) => {
      const key = await this.lockKey(tx, id);
      if (key.revokedAt) return toDto(key);
      // Once two administrators hold keys, the bootstrap key acts on no person's key (break-glass aside).
      if (actor.keyId === BOOTSTRAP_ADMIN_ID && !setup && key.staffId !== null) throw retiredBootstrap("revoke a person's key");
      if (!setup && revocationNeedsTwo(key, await this.isAdministrator(tx, key.staffId), caller)) {
        if (actor.keyId === BOOTSTRAP_ADMIN_ID) throw retiredBootstrap("revoke an administrator's key");
        throw new AppError(
          'SECOND_ADMINISTRATOR_NEEDED',
          `${key.staffId ? `${key.staffId}'s key` : 'This key'} (${key.role}) is an administrator's: one administrator proposes its revocation (POST /v1/api-keys/${id}/revocations) and another approves it`,
        );
      }
      if (key.role === 'ADMIN') await this.assertAdministratorKeys(tx, key);
      return toDto(await this.revokeIn(tx, ctx, key, {}));
    });
  }

  /** One administrator proposes revoking a key; another approves (approveRevocation). Nothing is revoked until then. */
  async proposeRevocation(id: string, dto: ProposeKeyRevocationDto, ctx: RequestContext): Promise<KeyRevocationDto> {
    const { actor } = ctx;
    await this.access.assertNotRetiredBootstrap(actor.keyId, "revoke an administrator's key");
    // Who could hold the proposing key now is kept with the proposal: a claim witnessed later does not make them another person.
    const proposer = await this.access.holder(actor.keyId);
    return this.prisma.transaction(ctx, async (tx) => {
      const key = await this.lockKey(tx, id);
      if (key.revokedAt) throw new AppError('KEY_REVOKED', `The key was revoked already, at ${key.revokedAt.toISOString()}`);
      const pending = await tx.keyRevocation.findFirst({ where: { keyId: id, status: 'PENDING' }, select: { id: true } });
      if (pending) throw new AppError('KEY_REVOCATION_PENDING', `A revocation of this key is already waiting for a second administrator (${pending.id})`);
      // Said at once rather than when a second administrator comes to approve (who is asked again then).
      if (key.role === 'ADMIN') await this.assertAdministratorKeys(tx, key);
      const proposed = await tx.keyRevocation.create({
        data: { keyId: id, reason: dto.reason, proposedByKeyId: actor.keyId, proposerPersons: [...proposer.persons] },
      });
      await this.audit.append(tx, ctx, {
        stream: 'admin',
        action: 'apiKey.revocationPropose',
        entityType: 'apiKey',
        entityId: id,
        data: { revocationId: proposed.id, reason: dto.reason, staffId: key.staffId, role: key.role },
        seals: [seal('key_revocations', proposed.id)],
      });
      return toRevocationDto(proposed, key);
    });
  }

  /**
   * A second administrator approves a proposed revocation: never who proposed it (counting who could
   * hold the proposing key then and now), nor the key's own person. The key is revoked at once.
   */
  async approveRevocation(revocationId: string, dto: DecideKeyRevocationDto, ctx: RequestContext): Promise<KeyRevocationDto> {
    const { actor } = ctx;
    await this.access.assertNotRetiredBootstrap(actor.keyId, "revoke an administrator's key");
    const [proposer, approver, key] = await this.deciders(revocationId, actor.keyId);
    const problem = revocationApprovalProblem(proposer, approver, key);
    if (problem) throw new AppError('SAME_PERSON', problem);
    return this.prisma.transaction(ctx, async (tx) => {
      const asked = await this.lockPendingRevocation(tx, revocationId);
      const locked = await this.lockKey(tx, asked.keyId);
      if (locked.revokedAt)
        throw new AppError('KEY_REVOKED', `The key was revoked already, at ${locked.revokedAt.toISOString()}: reject this proposal (note why)`);
      if (locked.role === 'ADMIN') await this.assertAdministratorKeys(tx, locked);
      const decided = await tx.keyRevocation.update({
        where: { id: revocationId },
        data: { status: 'APPROVED', decidedByKeyId: actor.keyId, decidedAt: new Date(), decisionNote: dto.note ?? null },
      });
      await this.revokeIn(tx, ctx, locked, { revocationId, note: dto.note ?? null, proposedBy: proposer, approvedBy: approver }, [
        seal('key_revocations', revocationId),
      ]);
      return toRevocationDto(decided, locked);
    });
  }

  /** Rejects a proposed revocation (its proposer withdraws it this way), with the reason; never by the key's own person. */
  async rejectRevocation(revocationId: string, dto: DecideKeyRevocationDto, ctx: RequestContext): Promise<KeyRevocationDto> {
    const { actor } = ctx;
    if (!dto.note) throw new AppError('VALIDATION_FAILED', 'Say why the revocation is rejected (note)');
    await this.access.assertNotRetiredBootstrap(actor.keyId, "revoke an administrator's key");
    const [proposer, decider, key] = await this.deciders(revocationId, actor.keyId);
    const problem = revocationRejectionProblem(proposer, decider, key);
    if (problem) throw new AppError('SAME_PERSON', problem);
    return this.prisma.transaction(ctx, async (tx) => {
      const asked = await this.lockPendingRevocation(tx, revocationId);
      const decided = await tx.keyRevocation.update({
        where: { id: revocationId },
        data: { status: 'REJECTED', decidedByKeyId: actor.keyId, decidedAt: new Date(), decisionNote: dto.note },
      });
      await this.audit.append(tx, ctx, {
        stream: 'admin',
        action: 'apiKey.revocationReject',
        entityType: 'apiKey',
        entityId: asked.keyId,
        data: { revocationId, note: dto.note },
        seals: [seal('key_revocations', revocationId)],
      });
      return toRevocationDto(decided, key);
    });
  }

  async revocations(status?: string): Promise<KeyRevocationDto[]> {
    if (status !== undefined && !(KEY_REVOCATION_STATUSES as readonly string[]).includes(status))
      throw new AppError('VALIDATION_FAILED', 'status must be PENDING, APPROVED or REJECTED');
    const rows = await this.prisma.keyRevocation.findMany({
      where: status ? { status: status as KeyRevocation['status'] } : {},
      include: { key: true },
      orderBy: { proposedAt: 'asc' },
      take: 500,
    });
    return rows.map((r) => toRevocationDto(r, r.key));
  }

  /**
   * Who could hold the proposing key (when it proposed, and now) and the deciding key, and the key
   * to revoke, read before the decision's transaction (never a second connection inside it).
   */
  private async deciders(revocationId: string, deciderKeyId: string) {
    const asked = await this.prisma.keyRevocation.findUnique({ where: { id: revocationId }, include: { key: true } });
    if (!asked) throw notFound('Key revocation', revocationId);
    const proposer = holderSince(await this.access.holder(asked.proposedByKeyId), asked.proposerPersons);
    return [proposer, await this.access.holder(deciderKeyId), asked.key] as const;
  }

  private async lockKey(tx: Tx, id: string): Promise<ApiKey> {
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM api_keys WHERE id = ${id}::uuid FOR UPDATE`;
    if (locked.length === 0) throw notFound('API key', id);
    return tx.apiKey.findUniqueOrThrow({ where: { id } });
  }

  private async lockPendingRevocation(tx: Tx, id: string): Promise<KeyRevocation> {
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id::text FROM key_revocations WHERE id = ${id}::uuid FOR UPDATE`;
    if (locked.length === 0) throw notFound('Key revocation', id);
    const r = await tx.keyRevocation.findUniqueOrThrow({ where: { id } });
    if (r.status !== 'PENDING') throw new AppError('KEY_REVOCATION_DECIDED', `Key revocation ${id} was ${r.status.toLowerCase()} already`);
    return r;
  }

  /** Whether the key's person is an administrator on the register now. */
  private async isAdministrator(tx: Tx, staffId: string | null): Promise<boolean> {
    if (staffId === null) return false;
    const person = await tx.staff.findUnique({ where: { staffId }, select: { active: true, roles: true } });
    return person !== null && person.active && person.roles.includes('ADMIN');
  }

  /**
   * Refuses revoking an administrator's key when that would leave fewer than two active
   * administrators holding a key of their own. Under the register's administrators' lock (the one a
   * staff change taking an administrator away takes), so two revocations at once cannot each count
   * the other's key as staying.
   */
  private async assertAdministratorKeys(tx: Tx, key: ApiKey): Promise<void> {
    await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtextextended('staff:administrators', 0))`;
    const runner = prismaRunner(tx);
    const problem = administratorKeysProblem(
      key.staffId,
      await this.access.administratorsWithKeys(runner),
      await this.access.administratorsWithKeys(runner, key.id),
    );
    if (problem) throw new AppError('TOO_FEW_ADMINISTRATORS', problem);
  }

  /** The key revoked, in the caller's transaction, with its audit entry. */
  private async revokeIn(tx: Tx, ctx: RequestContext, key: ApiKey, data: Record<string, unknown>, seals: SealRef[] = []): Promise<ApiKey> {
    const revoked = await tx.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    // Not needed for safety (writes confirm the key themselves), but spares a refused write.
    this.access.forget(key.id);
    await this.audit.append(tx, ctx, {
      stream: 'admin',
      action: 'apiKey.revoke',
      entityType: 'apiKey',
      entityId: key.id,
      data: { revokedAt: revoked.revokedAt, ...data },
      seals: [seal('api_keys', key.id), ...seals],
    });
    return revoked;
  }
}

function toRevocationDto(r: KeyRevocation, key: Pick<ApiKey, 'staffId' | 'role'>): KeyRevocationDto {
  return {
    id: r.id,
    keyId: r.keyId,
    keyStaffId: key.staffId,
    keyRole: key.role,
    reason: r.reason,
    proposedByKeyId: r.proposedByKeyId,
    proposedAt: r.proposedAt.toISOString(),
    status: r.status,
    decidedByKeyId: r.decidedByKeyId,
    decidedAt: r.decidedAt?.toISOString() ?? null,
    decisionNote: r.decisionNote,
  };
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

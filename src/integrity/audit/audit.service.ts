import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { createPublicKey } from 'node:crypto';
import type { PoolClient } from 'pg';
import { AppError } from '../../platform/common/errors';

import { PrismaService } from '../../platform/database/prisma.service';

import { Prisma } from '../../generated/prisma/client';
import { AuditEntryDto, AuditQueryDto, AuditVerificationDto } from './dto/audit.dto';
import { canonicalJson } from '../../platform/common/canonical';
import { bodyDigest, CHECKPOINT_FORMAT, CheckpointBody, checkSignature, fingerprintOf, SignedCheckpoint, signCheckpoint } from './checkpoint';
import { answerMac, AuditKeyring } from '../../platform/config/keyring';
import { AUDIT_SECRETS, AuditSecrets } from '../../foundation/ledger/audit-log';
import { checkRecords } from './records';
import { SYSTEM_CONTEXT } from '../../platform/common/context';
import { pgRunner } from '../../platform/database/sql';
import { appendWithSeals, auditParams } from '../../foundation/ledger/audit-log';
import { seal, SealedRelation } from '../../foundation/ledger/seals';
import { ADOPTED_SQL } from './seal-checks';
import { ANSWERS_ADOPTED_SQL } from './answer-checks';
import { ChainWalk, compareWithCheckpoint, Finding, ledgerCounts, walkChains } from './verification';
import { breakGlassEvents } from './break-glass';

/**
 * The audit trail as auditors read it: entries, verification, signed checkpoints. (Entries are
 * appended by the ledger's AuditLog, inside each change's own transaction.)
 */
@Injectable()
export class AuditService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AuditService.name);
  private readonly keyring: AuditKeyring;
  private timer: NodeJS.Timeout | null = null;
  private adopting: NodeJS.Timeout | null = null;
  /** The last checkpoint this process signed: the database's newest must not be older. */
  private lastSigned: { id: bigint; digest: string } | null = null;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(AUDIT_SECRETS) private readonly secrets: AuditSecrets,
  ) {
    this.keyring = secrets.keyring;
  }

  async onModuleInit(): Promise<void> {
    const adopt = async () => {
      await this.adoptBaseline();
      await this.adoptAnswers();
    };
    await adopt().catch((e: Error) => {
      // The service starts with its database down too (health answers 503): adopt once it answers.
      this.logger.warn(`The rows recorded before the seals, or the answers before their MACs, are not keyed yet (${e.message}); trying again in 30 s`);
      this.adopting = setInterval(() => {
        adopt()
          .then(() => this.stopAdopting())
          .catch(() => undefined);
      }, 30_000);
      this.adopting.unref();
    });
    if (this.secrets.checkpointMinutes <= 0) return;
    this.timer = setInterval(() => {
      this.checkpoint().catch((e: Error) => this.logger.error(`No checkpoint signed: ${e.message}`));
    }, this.secrets.checkpointMinutes * 60_000);
    this.timer.unref();
  }

  /**
   * The rows recorded before the seals existed (seal_baseline, listed by their migration) are sealed
   * once, at the first start after it, by `seals.adopt` entries of the admin stream, and never
   * again: a row slipped into the list later stays unsealed and is a finding.
   */
  private async adoptBaseline(): Promise<void> {
    const adopted = await this.prisma.rawTransaction(SYSTEM_CONTEXT, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('sabot:seals:adopt', 0))");
      if ((await client.query(ADOPTED_SQL)).rowCount) return null;
      const { rows } = await client.query<{ relation: SealedRelation; row_key: string }>(
        'SELECT relation, row_key FROM seal_baseline ORDER BY relation, row_key',
      );
      // Where each stream began to be keyed, recorded under the key (verification.ts pinnedUnkeyed).
      const unkeyed = Object.fromEntries(
        (await client.query<{ stream: string; last_seq: string }>('SELECT stream, last_seq::text FROM audit_unkeyed ORDER BY stream')).rows.map((u) => [
          u.stream,
          u.last_seq,
        ]),
      );
      const runner = pgRunner(client);
      for (let i = 0; i === 0 || i < rows.length; i += 1000) {
        const chunk = rows.slice(i, i + 1000);
        const entry = {
          stream: 'admin',
          action: 'seals.adopt',
          entityType: 'seals',
          entityId: 'baseline',
          data: { rows: chunk.length, first: i, of: rows.length, ...(i === 0 ? { unkeyed } : {}) },
          seals: chunk.map((r) => seal(r.relation, r.row_key)),
        };
        await appendWithSeals(runner, this.keyring, auditParams(SYSTEM_CONTEXT, entry, this.keyring), entry);
      }
      return rows.length;
    });
    if (adopted !== null) this.logger.log(`Sealed the ${adopted} rows recorded before the seals (seals.adopt)`);
  }

  /**
   * The answers stored before their MACs (migration 20261214153710_answers_keyed) are keyed once, at
   * the first start after it, by an `answers.adopt` entry of the admin stream, and an earlier
   * release's claims without an answer (dead since its instances were replaced) dropped: from then
   * on an answer without its MAC is never replayed, and is a finding.
   */
  private async adoptAnswers(): Promise<void> {
    const adopted = await this.prisma.rawTransaction(SYSTEM_CONTEXT, async (client) => {
      await client.query("SELECT pg_advisory_xact_lock(hashtextextended('sabot:answers:adopt', 0))");
      if ((await client.query(ANSWERS_ADOPTED_SQL)).rowCount) return null;
      const dropped = (await client.query('DELETE FROM idempotency_records WHERE mac IS NULL AND completed_at IS NULL')).rowCount ?? 0;
      const secret = this.keyring.keys.get(this.keyring.currentId)!;
      let keyed = 0;
      for (;;) {
        const { rows } = await client.query<{
          id: string;
          scope: string;
          key: string;
          request_hash: string;
          status_code: number | null;
          response_body: string | null;
        }>('SELECT id::text, scope, key, request_hash, status_code, response_body FROM idempotency_records WHERE mac IS NULL LIMIT 5000');
        if (rows.length === 0) break;
        const macs = rows.map((r) =>
          answerMac(secret, { id: r.id, scope: r.scope, key: r.key, requestHash: r.request_hash, status: r.status_code ?? -1, body: r.response_body ?? '' }),
        );
        await client.query('UPDATE idempotency_records r SET mac = u.mac, mac_key = $1 FROM unnest($2::uuid[], $3::text[]) AS u(id, mac) WHERE r.id = u.id', [
          this.keyring.currentId,
          rows.map((r) => r.id),
          macs,
        ]);
        keyed += rows.length;
      }
      const entry = { stream: 'admin', action: 'answers.adopt', entityType: 'answers', entityId: 'adopt', data: { keyed, claimsDropped: dropped } };
      await appendWithSeals(pgRunner(client), this.keyring, auditParams(SYSTEM_CONTEXT, entry, this.keyring), entry);
      return keyed;
    });
    if (adopted) this.logger.log(`Keyed the ${adopted} answers stored before their MACs (answers.adopt)`);
  }

  private stopAdopting(): void {
    if (this.adopting) clearInterval(this.adopting);
    this.adopting = null;
  }

  onModuleDestroy(): void {
    this.stopAdopting();
    if (this.timer) clearInterval(this.timer);
  }

  async list(q: AuditQueryDto): Promise<AuditEntryDto[]> {
    const limit = q.limit ? Number(q.limit) : 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new AppError('VALIDATION_FAILED', 'limit must be 1 to 1000');
    const where: Prisma.AuditEntryWhereInput = {
      ...(q.stream ? { stream: q.stream } : {}),
      ...(q.keyId ? { keyId: q.keyId } : {}),
      ...(q.action ? { action: q.action } : {}),
      ...(q.entityType ? { entityType: q.entityType } : {}),
      ...(q.entityId ? { entityId: q.entityId } : {}),
      ...(q.correlationId ? { correlationId: q.correlationId } : {}),
      ...(q.from || q.to ? { at: { ...(q.from ? { gte: new Date(q.from) } : {}), ...(q.to ? { lt: new Date(q.to) } : {}) } } : {}),
      ...(q.afterId ? { id: { gt: BigInt(q.afterId) } } : {}),
    };
    const rows = await this.prisma.auditEntry.findMany({ where, orderBy: { id: 'asc' }, take: limit });
    return rows.map((e) => ({
      id: e.id.toString(),
      stream: e.stream,
      seq: Number(e.seq),
      hash: e.hash,
      at: e.at.toISOString(),
      keyId: e.keyId,
      role: e.role,
      action: e.action,
      entityType: e.entityType,
      entityId: e.entityId,
      correlationId: e.correlationId,
      entry: JSON.parse(e.payload) as Record<string, unknown>,
      mac: e.mac,
      macKey: e.macKey,
    }));
  }

  /**
   * Walks every chain from its first entry (order, chain hashes, MACs, columns against payloads,
   * heads) and compares the database with the newest signed checkpoint: streams gone, chains cut
   * or no longer passing through the signed heads, ledgers holding fewer rows.
   */
  async verify(): Promise<AuditVerificationDto> {
    return (await this.inspect()).report;
  }

  /**
   * `fn` in one snapshot of the database (a REPEATABLE READ transaction): the chains, the records
   * and the ledgers' counts are read as of one moment, so a write committing meanwhile (a coup, the
   * surveyor's pass) is seen whole or not at all, never as a head that no longer matches its chain.
   */
  private async inSnapshot<T>(fn: (db: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.prisma.pool.connect();
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      return await fn(client);
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
  }

  private async inspect(): Promise<{ report: AuditVerificationDto; walk: ChainWalk; rotated: boolean; ledgers: Record<string, number> }> {
    const newest = await this.newestCheckpoint();
    const { walk, records, ledgers } = await this.inSnapshot(async (db) => {
      const walk = await walkChains(db, this.keyring, newest?.body.streams ?? []);
      const ledgers = await ledgerCounts(db);
      return { walk, ledgers, records: await checkRecords(db, this.keyring) };
    });
    const findings: Finding[] = [...walk.findings, ...records];
    let rotated = false;
    if (newest) {
      const problem = checkSignature(newest, null);
      if (problem) findings.push({ stream: null, seq: null, id: null, reason: `the newest stored checkpoint: ${problem}` });
      else findings.push(...compareWithCheckpoint(walk, newest.body, ledgers));
      if (!problem && newest.keyFingerprint !== fingerprintOf(this.publicKey())) {
        rotated = true;
        findings.push({
          stream: null,
          seq: null,
          id: null,
          reason: `the newest stored checkpoint was signed by key ${newest.keyFingerprint.slice(0, 16)}…, not this service's: forged, or the signing key was rotated (then sign a checkpoint now)`,
        });
      }
    }
    if (this.lastSigned && (!newest || BigInt(newest.id) < this.lastSigned.id)) {
      findings.push({
        stream: null,
        seq: null,
        id: null,
        reason: 'checkpoints this service signed are missing from the database: its checkpoints were rolled back',
      });
    }
    const report: AuditVerificationDto = {
      ok: findings.length === 0,
      entriesChecked: walk.entries,
      streams: walk.streams,
      firstBroken: findings[0] ?? null,
      problems: findings,
      checkedAgainst: newest ? { at: newest.body.at, keyFingerprint: newest.keyFingerprint } : null,
      breakGlass: await breakGlassEvents(this.prisma.pool),
    };
    return { report, walk, rotated, ledgers };
  }

  /**
   * Signs a checkpoint of every stream's head and every ledger's row count, chained to the one
   * before, after verifying the database (a broken database is never signed; a newest checkpoint
   * signed by a previous key is the one thing tolerated: a rotation). Stored, and returned for the
   * auditor to keep outside the casino.
   */
  async checkpoint(): Promise<SignedCheckpoint & { id: string }> {
    const previous = await this.newestCheckpoint();
    const own = previous && previous.keyFingerprint === fingerprintOf(this.publicKey()) && checkSignature(previous, null) === null;
    // After a checkpoint of its own, only what came since is walked (the periodic cost stays with the
    // new entries); the ledgers' counts must not have gone down. Otherwise everything is verified.
    let walk: ChainWalk;
    let ledgers: Record<string, number>;
    if (own) {
      ({ walk, ledgers } = await this.inSnapshot(async (db) => ({
        walk: await walkChains(db, this.keyring, [], new Map(previous.body.streams.map((h) => [h.stream, h]))),
        ledgers: await ledgerCounts(db),
      })));
      const problems = [...walk.findings, ...compareWithCheckpoint(walk, previous.body, ledgers)];
      if (this.lastSigned && BigInt(previous.id) < this.lastSigned.id)
        problems.push({ stream: null, seq: null, id: null, reason: 'checkpoints this service signed are missing from the database' });
      if (problems.length) throw new AppError('AUDIT_BROKEN', `The audit log does not verify (${problems[0].reason}): no checkpoint is signed over it`);
    } else {
      const inspected = await this.inspect();
      if (inspected.report.problems.length > (inspected.rotated ? 1 : 0))
        throw new AppError('AUDIT_BROKEN', `The audit log does not verify (${inspected.report.firstBroken!.reason}): no checkpoint is signed over it`);
      walk = inspected.walk;
      ledgers = inspected.ledgers;
    }
    const body: CheckpointBody = {
      format: CHECKPOINT_FORMAT,
      at: new Date().toISOString(),
      previous: previous ? bodyDigest(previous.body) : null,
      streams: [...walk.heads.values()].filter((h) => h.seq > 0),
      ledgers,
    };
    const signed = signCheckpoint(body, this.secrets.signingKey);
    const row = await this.prisma.auditCheckpoint.create({
      data: {
        at: new Date(body.at),
        body: canonicalJson(body),
        digest: bodyDigest(body),
        signature: signed.signature,
        publicKey: signed.publicKey,
        keyFingerprint: signed.keyFingerprint,
      },
    });
    this.lastSigned = { id: row.id, digest: row.digest };
    this.logger.log(`Checkpoint ${row.id} signed: ${body.streams.length} streams, ${body.ledgers.audit_log} audit entries`);
    return { id: row.id.toString(), ...signed };
  }

  /** The newest stored checkpoint, as a file an auditor keeps. */
  async newestCheckpoint(): Promise<(SignedCheckpoint & { id: string }) | null> {
    const row = await this.prisma.auditCheckpoint.findFirst({ orderBy: { id: 'desc' } });
    if (!row) return null;
    return {
      id: row.id.toString(),
      body: JSON.parse(row.body) as CheckpointBody,
      signature: row.signature,
      publicKey: row.publicKey,
      keyFingerprint: row.keyFingerprint,
    };
  }

  /** The key that signs checkpoints: an auditor pins its fingerprint. */
  publicKey() {
    return createPublicKey(this.secrets.signingKey);
  }
}

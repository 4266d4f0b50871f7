import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { DomainError, formatCard, NO_READING, readDeviceEvent } from '../../domain';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { seal } from '../../foundation/ledger/seals';
import { rulesOf } from '../../foundation/pit/table-rules';
import type { Actor } from '../../platform/common/actor';
import { canonicalJson } from '../../platform/common/canonical';
import type { IdempotencyClaim, RequestContext } from '../../platform/common/context';
import { AppError, notFound } from '../../platform/common/errors';
import { MAX_SEAT } from '../../platform/common/validation';
import { AUDIT_KEYRING, AuditKeyring } from '../../platform/config/keyring';
import { findAnswer } from '../../platform/database/idempotent-answers';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { pgRunner, prismaRunner, SqlRunner } from '../../platform/database/sql';
import { CoupsService } from './coups.service';
import { checkReport, loadReading, storeReading } from './device-protocol';
import { DEVICES_SQL as SQL } from './devices-sql';
import { DeviceHoldDto, RefusedReportDto } from './dto/device.dto';

/** The audit stream of the device gateway's own records (holds and their clearing). */
export const DEVICES_STREAM = 'devices';

/** What the gateway answers a device for one report. */
export type DeviceAnswer =
  | { readonly type: 'ACK'; readonly seq: number; readonly again?: true }
  | { readonly type: 'REFUSED'; readonly seq: number | null; readonly code: 'DEVICE_REPORT_INVALID' | 'DEVICE_SEQUENCE_GAP'; readonly message: string };

/** A coup the judge passed, kept with the table's memory until it is settled (a crash between the two settles it on the next report). */
interface Pending {
  key: string;
  player: string[];
  banker: string[];
  wagers: { seat: number; betType: string; amount: string }[];
}

interface Kept {
  reading: Parameters<typeof loadReading>[0];
  pending: Pending | null;
}

const EMPTY: Kept = { reading: storeReading(NO_READING), pending: null };

/**
 * The reports of a table's devices (issue 51), each judged by the domain (readDeviceEvent) and kept
 * with what the judge made of it in one transaction before the device hears ACK: a report is never
 * lost once acknowledged, and one sent again after a reconnect is recognised by its number and kept
 * once. A coup the judge passes is settled by the keyed coup's own path (CoupsService) under an
 * idempotency key of the report that completed it, so that it is settled once whatever fails in
 * between; a coup it holds is kept for the supervisor with its reason, and settles nothing.
 */
@Injectable()
export class DeviceReportsService {
  private readonly logger = new Logger(DeviceReportsService.name);
  private readonly answerKey: { readonly id: string; readonly secret: Buffer };

  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
    private readonly coups: CoupsService,
    @Inject(AUDIT_KEYRING) keyring: AuditKeyring,
  ) {
    this.answerKey = { id: keyring.currentId, secret: keyring.keys.get(keyring.currentId)! };
  }

  /** The last report kept from a device: it goes on from the next number. */
  async lastSeq(keyId: string): Promise<number> {
    const [row] = await pgRunner(this.prisma.pool).query<{ seq: string }>(SQL.lastSeq.bind({ keyId }));
    return Number(row.seq);
  }

  /** One report of a DEVICE key's device: judged, kept, answered; a coup it completes settled before the answer. */
  async take(actor: Actor, raw: unknown, correlationId: string): Promise<DeviceAnswer> {
    const tableId = actor.tableId!;
    const ctx: RequestContext = { actor, correlationId, route: 'DEVICE report', idempotency: null };
    await this.settlePending(tableId, ctx);
    const answer = await this.prisma.transaction(ctx, async (tx): Promise<DeviceAnswer> => {
      const db = prismaRunner(tx);
      await db.run(SQL.ensureReading.bind({ tableId, state: JSON.stringify(EMPTY) }));
      const [locked] = await db.query<{ state: Kept }>(SQL.lockReading.bind({ tableId }));
      const kept = locked.state;
      const checked = checkReport(raw);
      const refuse = async (seq: number | null, code: 'DEVICE_REPORT_INVALID' | 'DEVICE_SEQUENCE_GAP', message: string): Promise<DeviceAnswer> => {
        const report = typeof raw === 'object' && raw !== null ? raw : { unreadable: String(raw).slice(0, 2000) };
        await db.run(
          SQL.keepReport.bind({ id: randomUUID(), keyId: actor.keyId, tableId, seq, report: canonicalJson(report), refused: `${code}: ${message}` }),
        );
        return { type: 'REFUSED', seq, code, message };
      };
      if ('problem' in checked) return refuse(checked.seq, 'DEVICE_REPORT_INVALID', checked.problem);
      const r = checked.report;
      if ((await db.query(SQL.keptReport.bind({ keyId: actor.keyId, seq: r.seq }))).length > 0) return { type: 'ACK', seq: r.seq, again: true };
      const [last] = await db.query<{ seq: string }>(SQL.lastSeq.bind({ keyId: actor.keyId }));
      const next = Number(last.seq) + 1;
      if (r.seq !== next)
        return refuse(r.seq, 'DEVICE_SEQUENCE_GAP', `Report ${r.seq} came where ${next} was due: send the reports from ${next} on, in their order`);
      const table = await tx.casinoTable.findUnique({ where: { id: tableId } });
      if (!table) throw notFound('Table', tableId);
      const judged = readDeviceEvent(loadReading(kept.reading), r, rulesOf(table), MAX_SEAT);
      const reportId = randomUUID();
      await db.run(SQL.keepReport.bind({ id: reportId, keyId: actor.keyId, tableId, seq: r.seq, report: canonicalJson(raw), refused: null }));
      let pending = kept.pending;
      if (judged.out?.kind === 'HOLD') await this.hold(tx, db, ctx, tableId, reportId, judged.out.reason, judged.out.detail);
      if (judged.out?.kind === 'COUP')
        pending = {
          key: `device-coup:${reportId}`,
          player: judged.out.player.map(formatCard),
          banker: judged.out.banker.map(formatCard),
          wagers: judged.out.wagers.map((w) => ({ seat: w.seat, betType: w.betType, amount: w.amount.toString() })),
        };
      await db.run(SQL.saveReading.bind({ tableId, state: JSON.stringify({ reading: storeReading(judged.state), pending } satisfies Kept) }));
      return { type: 'ACK', seq: r.seq };
    });
    if (answer.type === 'ACK' && !answer.again) await this.settlePending(tableId, ctx);
    return answer;
  }

  /**
   * The coup the judge passed and nothing has settled yet, settled by the keyed coup's path on the
   * table's open shoe, once: under the idempotency key of the report that completed it, the coup and
   * that key's answer commit together, so a second try finds the answer and settles nothing. One the
   * keyed path refuses (no open shoe, a bet over its limit, a card the shoe's record does not hold) is
   * held with its refusal. Either way the table's memory lets it go.
   */
  private async settlePending(tableId: string, ctx: RequestContext): Promise<void> {
    const runner = pgRunner(this.prisma.pool);
    const [row] = await runner.query<{ state: Kept }>(SQL.readReading.bind({ tableId }));
    const pending = row?.state.pending;
    if (!pending) return;
    const scope = `device:${tableId}`;
    const claim: IdempotencyClaim = {
      recordId: randomUUID(),
      scope,
      key: pending.key,
      requestHash: createHash('sha256').update(canonicalJson(pending)).digest('hex'),
      statusCode: 201,
      answerKey: this.answerKey,
      stored: false,
    };
    let refusal: { code: string; message: string } | null = null;
    if (!(await findAnswer(runner, scope, pending.key))) {
      const [shoe] = await runner.query<{ id: string }>(SQL.openShoe.bind({ tableId }));
      if (!shoe) refusal = { code: 'NO_OPEN_SHOE', message: 'The table has no open shoe: open one at the pit terminal, then clear this hold' };
      else
        try {
          await this.coups.record(
            shoe.id,
            {
              cards: { player: pending.player, banker: pending.banker },
              wagers: pending.wagers.map((w) => ({ seat: w.seat, betType: w.betType, amount: Number(w.amount) })),
            },
            { ...ctx, idempotency: claim },
          );
        } catch (e) {
          // Settled meanwhile by another try of the same coup: its answer is there now.
          if (await findAnswer(runner, scope, pending.key)) refusal = null;
          else if (e instanceof AppError || e instanceof DomainError) refusal = { code: e.code, message: e.message };
          else throw e;
        }
    }
    await this.prisma.transaction(ctx, async (tx) => {
      const db = prismaRunner(tx);
      const [locked] = await db.query<{ state: Kept }>(SQL.lockReading.bind({ tableId }));
      if (locked.state.pending?.key !== pending.key) return;
      if (refusal) {
        const reportId = pending.key.slice('device-coup:'.length);
        await this.hold(tx, db, ctx, tableId, reportId, 'SETTLEMENT_REFUSED', `${refusal.code}: ${refusal.message}`);
      }
      await db.run(SQL.saveReading.bind({ tableId, state: JSON.stringify({ reading: locked.state.reading, pending: null } satisfies Kept) }));
    });
    if (refusal) this.logger.warn(`Table ${tableId}: a coup the devices reported was not settled: ${refusal.code}`);
  }

  /** A table's held coups, those still held first. */
  async holds(tableId: string): Promise<DeviceHoldDto[]> {
    await this.assertTable(tableId);
    const rows = await pgRunner(this.prisma.pool).query<HoldRow>(SQL.holdsOf.bind({ tableId }));
    return rows.map(holdDto);
  }

  /** A table's refused reports, the latest first. */
  async refused(tableId: string): Promise<RefusedReportDto[]> {
    await this.assertTable(tableId);
    const rows = await pgRunner(this.prisma.pool).query<{
      id: string;
      keyId: string;
      seq: string | null;
      receivedAt: Date;
      report: Record<string, unknown>;
      refused: string;
    }>(SQL.refusedOf.bind({ tableId }));
    return rows.map((r) => ({ ...r, receivedAt: r.receivedAt.toISOString() }));
  }

  /**
   * A supervisor clears a hold: the coup it held is let go (its cards stay out of the shoe, its bets
   * go back to the players), and the next coup is read afresh. Once.
   */
  async clear(id: string, note: string, ctx: RequestContext): Promise<DeviceHoldDto> {
    const found = await this.prisma.deviceHold.findUnique({ where: { id } });
    if (!found) throw notFound('Device hold', id);
    await this.prisma.transaction(ctx, async (tx) => {
      const db = prismaRunner(tx);
      const [locked] = await db.query<{ state: Kept }>(SQL.lockReading.bind({ tableId: found.tableId }));
      const [cleared] = await db.query<{ id: string }>(SQL.clearHold.bind({ id, keyId: ctx.actor.keyId }));
      if (!cleared) throw new AppError('CONFLICT', `This hold was cleared already, at ${found.clearedAt?.toISOString() ?? 'the same moment'}`);
      // The judge's hold is the coup in progress: cleared, it is let go as a cancelled coup is.
      if (locked && found.reason !== 'SETTLEMENT_REFUSED' && locked.state.reading.held) {
        const reading = { ...locked.state.reading, cards: {}, bets: {}, held: null };
        await db.run(SQL.saveReading.bind({ tableId: found.tableId, state: JSON.stringify({ reading, pending: locked.state.pending } satisfies Kept) }));
      }
      await this.audit.append(tx, ctx, {
        stream: DEVICES_STREAM,
        action: 'device.holdClear',
        entityType: 'deviceHold',
        entityId: id,
        data: { tableId: found.tableId, reason: found.reason, note },
        seals: [seal('device_holds', id)],
      });
    });
    const [row] = (await pgRunner(this.prisma.pool).query<HoldRow>(SQL.holdsOf.bind({ tableId: found.tableId }))).filter((h) => h.id === id);
    return holdDto(row);
  }

  private async assertTable(tableId: string): Promise<void> {
    if (!(await this.prisma.casinoTable.findUnique({ where: { id: tableId }, select: { id: true } }))) throw notFound('Table', tableId);
  }

  private async hold(tx: Tx, db: SqlRunner, ctx: RequestContext, tableId: string, reportId: string, reason: string, detail: string) {
    const id = randomUUID();
    await db.run(SQL.hold.bind({ id, tableId, reason, detail, reportId }));
    await this.audit.append(tx, ctx, {
      stream: DEVICES_STREAM,
      action: 'device.hold',
      entityType: 'deviceHold',
      entityId: id,
      data: { tableId, reason, detail, reportId },
      seals: [seal('device_holds', id)],
    });
  }
}

interface HoldRow {
  id: string;
  tableId: string;
  reason: string;
  detail: string;
  reportId: string;
  heldAt: Date;
  clearedAt: Date | null;
  clearedByKeyId: string | null;
  keyId: string;
  seq: string | null;
}

const holdDto = (h: HoldRow): DeviceHoldDto => ({ ...h, heldAt: h.heldAt.toISOString(), clearedAt: h.clearedAt?.toISOString() ?? null });

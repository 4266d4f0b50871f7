import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../../platform/common/context';
import { AppError, notFound } from '../../platform/common/errors';
import { PrismaService } from '../../platform/database/prisma.service';
import { prismaRunner, SqlRunner } from '../../platform/database/sql';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { AlertDto, AlertQueryDto, OpenAlertsDto } from './dto/alert.dto';
import { SURVEILLANCE_SQL as SQL } from './surveillance-sql';
import { seal } from '../../foundation/ledger/seals';
import { SURVEILLANCE_STREAM } from './surveyor';

interface AlertRow {
  id: string;
  kind: string;
  severity: string;
  status: string;
  p_value: number;
  threshold: number;
  table_id: string;
  shoe_id: string;
  patron_id: string | null;
  dealer_id: string | null;
  seat: number | null;
  gaming_day: string;
  evidence: Record<string, unknown>;
  created_at: Date;
  steps: { step: string; note: string | null; keyId: string; at: string }[];
  updates: { at: string; data: { eValue: string; pValue: string; evidence: Record<string, unknown> } }[];
}

const toDto = (r: AlertRow): AlertDto => ({
  id: r.id,
  kind: r.kind,
  severity: r.severity,
  status: r.status,
  pValue: r.p_value,
  threshold: r.threshold,
  tableId: r.table_id,
  shoeId: r.shoe_id,
  patronId: r.patron_id,
  dealerId: r.dealer_id,
  seat: r.seat,
  gamingDay: r.gaming_day,
  evidence: r.evidence,
  createdAt: r.created_at.toISOString(),
  steps: r.steps.map((s) => ({ ...s, at: new Date(s.at).toISOString() })),
  updates: r.updates.map((u) => ({
    at: new Date(u.at).toISOString(),
    eValue: Number(u.data.eValue),
    pValue: Number(u.data.pValue),
    evidence: u.data.evidence,
  })),
});

/** One alert with its status and steps, or null. */
async function oneAlert(db: SqlRunner, id: string): Promise<AlertDto | null> {
  const [row] = await db.query<AlertRow>(SQL.listAlerts.bind({ id, status: null, kind: null, tableId: null, shoeId: null, patronId: null, dealerId: null }));
  return row ? toDto(row) : null;
}

/** Integrity alerts as people read and handle them: never edited; acknowledging and closing are steps, each audited. */
@Injectable()
export class SurveillanceService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
  ) {}

  async list(q: AlertQueryDto): Promise<AlertDto[]> {
    const rows = await prismaRunner(this.prisma).query<AlertRow>(
      SQL.listAlerts.bind({
        id: null,
        status: q.status ?? null,
        kind: q.kind ?? null,
        tableId: q.tableId ?? null,
        shoeId: q.shoeId ?? null,
        patronId: q.patronId ?? null,
        dealerId: q.dealerId ?? null,
      }),
    );
    return rows.map(toDto);
  }

  /** Alerts not yet closed, gathered by patron, dealer, table or shoe: the surveillance room's views. */
  async openBy(by: string): Promise<OpenAlertsDto[]> {
    const rows = await prismaRunner(this.prisma).query<{
      subject: string;
      table_code: string | null;
      shoe_number: number | null;
      open: number;
      acknowledged: number;
      high: number;
      smallest_p_value: number;
      kinds: string[];
      oldest_at: Date;
      newest_at: Date;
    }>(SQL.openAlertsBy.bind({ by }));
    return rows.map((r) => ({
      subject: r.subject,
      tableCode: r.table_code,
      shoeNumber: r.shoe_number,
      open: r.open,
      acknowledged: r.acknowledged,
      high: r.high,
      smallestPValue: r.smallest_p_value,
      kinds: r.kinds,
      oldestAt: r.oldest_at.toISOString(),
      newestAt: r.newest_at.toISOString(),
    }));
  }

  async get(id: string): Promise<AlertDto> {
    const alert = await oneAlert(prismaRunner(this.prisma), id);
    if (!alert) throw notFound('Alert', id);
    return alert;
  }

  /** Acknowledges (someone is looking) or closes (with what was found) an alert. */
  async step(id: string, step: 'ACKNOWLEDGE' | 'CLOSE', note: string | null, ctx: RequestContext): Promise<AlertDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const db = prismaRunner(tx);
      // A lock on the alert's id puts two people's steps on one alert one after the other (the
      // service may not lock the row itself: alerts are insert-only for it).
      await tx.$queryRaw`SELECT pg_advisory_xact_lock(hashtextextended(${id}, 0))::text AS locked`;
      const [alert] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM surveillance_alerts WHERE id = ${id}::uuid`;
      if (!alert) throw notFound('Alert', id);
      const taken = await tx.surveillanceAlertStep.findMany({ where: { alertId: id }, select: { step: true } });
      if (taken.some((s) => s.step === 'CLOSE')) throw new AppError('ALERT_CLOSED', 'The alert is closed already: nothing more can be recorded on it');
      if (step === 'ACKNOWLEDGE' && taken.some((s) => s.step === 'ACKNOWLEDGE')) {
        throw new AppError('ALERT_ALREADY_ACKNOWLEDGED', 'Someone has acknowledged this alert already: close it with a note when done');
      }
      const [added] = await db.query<{ id: string }>(SQL.addStep.bind({ alertId: id, step, note, keyId: ctx.actor.keyId }));
      if (!added)
        throw new AppError(step === 'CLOSE' ? 'ALERT_CLOSED' : 'ALERT_ALREADY_ACKNOWLEDGED', 'Another step was recorded on this alert at the same moment');
      await this.audit.append(tx, ctx, {
        stream: SURVEILLANCE_STREAM,
        action: step === 'CLOSE' ? 'alert.close' : 'alert.acknowledge',
        entityType: 'alert',
        entityId: id,
        data: { note },
        seals: [seal('surveillance_alert_steps', added.id)],
      });
      return (await oneAlert(db, id))!;
    });
  }
}

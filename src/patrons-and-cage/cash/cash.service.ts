import { Injectable } from '@nestjs/common';
import { Actor, assertTableAccess } from '../../platform/common/actor';
import type { RequestContext } from '../../platform/common/context';
import { minorUnits } from '../../platform/common/exact-json';
import { AppError, notFound } from '../../platform/common/errors';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { prismaRunner } from '../../platform/database/sql';
import { attributeWager, CashThresholds, formatRate, gamingDayOf, markerOutstanding, needsIdentification } from '../../domain';
import { Property } from '../../generated/prisma/client';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { LEDGER_SQL } from '../../foundation/ledger/ledger-sql';
import { PitService } from '../../foundation/pit/pit.service';
import { CASH_SQL as SQL } from './cash-sql';
import { CreditLedger } from '../../foundation/ledger/credit-ledger';
import { seal, SealRef } from '../../foundation/ledger/seals';
import { BuyInDto, BuyInInputDto, CageTransactionInputDto, CashTransactionDto, MarkerDto, MarkerPaymentInputDto } from './dto/cash.dto';

/** The audit stream of the cage: marker payments and cash transactions made away from a table. */
export const CAGE_STREAM = 'cage';

/** A property's cash-reporting settings as the engine's terms. */
export function thresholdsOf(p: Pick<Property, 'cashCurrency' | 'mtlThreshold' | 'ctrThreshold' | 'structuringFloorBps'>): CashThresholds {
  return { currency: p.cashCurrency, mtl: p.mtlThreshold, ctr: p.ctrThreshold, structuringFloorBps: p.structuringFloorBps };
}

/**
 * Refuses a cash transaction naming no patron that needs one (docs/domain.md §11): more than the
 * report threshold, or, in another currency than the property's cash currency, worth more than it at
 * the gaming day's rate into that currency (the latest entry of the latest day on or before it, as
 * the group's reports translate, §12); with no such rate, at any amount.
 */
async function assertIdentifiable(tx: Tx, t: { amount: bigint; currency: string }, property: Property, gamingDay: string, what: string): Promise<void> {
  const thresholds = thresholdsOf(property);
  const rate =
    t.currency === thresholds.currency
      ? null
      : await tx.exchangeRate.findFirst({
          where: { currency: t.currency, intoCurrency: thresholds.currency, rateDay: { lte: new Date(`${gamingDay}T00:00:00Z`) } },
          orderBy: [{ rateDay: 'desc' }, { enteredAt: 'desc' }, { id: 'desc' }],
          select: { rateE9: true, rateDay: true },
        });
  if (!needsIdentification(t, thresholds, rate?.rateE9 ?? null)) return;
  const ctr = thresholds.ctr;
  if (t.currency === thresholds.currency) {
    throw new AppError(
      'IDENTIFICATION_REQUIRED',
      `${what} of more than ${ctr} (minor units of ${t.currency}) needs the patron identified: name the registered patron first`,
    );
  }
  throw new AppError(
    'IDENTIFICATION_REQUIRED',
    rate
      ? `${what} of ${t.amount} (minor units of ${t.currency}) is worth more than ${ctr} (minor units of ${thresholds.currency}) at the rate of ${formatRate(rate.rateE9)} (${rate.rateDay.toISOString().slice(0, 10)}): name the registered patron first`
      : `${what} in ${t.currency} cannot be judged against the report threshold in ${thresholds.currency}: no rate from ${t.currency} into ${thresholds.currency} on or before ${gamingDay}. Name the registered patron, or have finance enter the rate`,
  );
}

interface MarkerRow {
  id: string;
  patron_id: string;
  table_id: string | null;
  amount: string;
  currency: string;
  gaming_day: string;
  issued_at: Date;
  voided: boolean;
  written_off: string;
  payments: { id: string; amount: string; method: string; gamingDay: string; paidAt: string; reference: string | null }[];
}

/**
 * Money crossing the table and the cage (docs/domain.md §11): buy-ins (cash and markers feed the
 * drop), markers and their payments, and the cash-transaction log the compliance reports read.
 * Every row is written once; a cash buy-in writes the table's record and the patron's cash
 * transaction in one transaction.
 */
@Injectable()
export class CashService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pit: PitService,
    private readonly audit: AuditLog,
    private readonly credit: CreditLedger,
  ) {}

  async buyIn(tableId: string, dto: BuyInInputDto, ctx: RequestContext): Promise<BuyInDto> {
    assertTableAccess(ctx.actor, tableId);
    return this.prisma.transaction(ctx, async (tx) => {
      const db = prismaRunner(tx);
      // The table's row lock orders buy-ins with closing the table.
      const table = await this.pit.lockOpenTable(db, tableId, 'a buy-in');
      const seated = await this.pit.seatedAt(db, tableId);
      const who = dto.seat === undefined ? { patronId: dto.patronId ?? null, seatingId: null } : attributeWager(seated, dto.seat, dto.patronId ?? null);
      if (who.patronId !== null) await this.pit.assertRegistered(db, [who.patronId]);
      const { table: t, timeZone, gamingDayStartHour } = await this.pit.withProperty(tableId, tx);
      const property = await tx.property.findUniqueOrThrow({ where: { id: t.propertyId } });
      const amount = BigInt(dto.amount);
      if (dto.kind === 'MARKER' && who.patronId === null) {
        throw new AppError('IDENTIFICATION_REQUIRED', 'A marker is credit to a registered patron: name the patron (or the seat whose card is in)');
      }
      const now = new Date();
      const day = gamingDayOf(now, timeZone, gamingDayStartHour);
      const gamingDay = new Date(`${day}T00:00:00Z`);
      if (dto.kind === 'CASH' && who.patronId === null) await assertIdentifiable(tx, { amount, currency: table.currency }, property, day, 'A cash buy-in');
      const marker =
        dto.kind === 'MARKER'
          ? await this.credit.issueMarker(
              tx,
              { propertyId: property.id, tableId, patronId: who.patronId!, amount, currency: table.currency, gamingDay, at: now },
              ctx.actor.keyId,
            )
          : null;
      const b = await tx.buyIn.create({
        data: {
          tableId,
          patronId: who.patronId,
          seatingId: who.seatingId,
          kind: dto.kind,
          amount,
          currency: table.currency,
          gamingDay,
          markerId: marker?.id ?? null,
          recordedAt: now,
          recordedByKeyId: ctx.actor.keyId,
        },
      });
      const sealed: SealRef[] = [seal('buy_ins', b.id), ...(marker ? [seal('markers', marker.id)] : [])];
      if (dto.kind === 'CASH') {
        const cash = await tx.cashTransaction.create({
          data: {
            propertyId: property.id,
            patronId: who.patronId,
            direction: 'IN',
            kind: 'BUY_IN',
            amount,
            currency: table.currency,
            gamingDay,
            tableId,
            buyInId: b.id,
            at: now,
            recordedByKeyId: ctx.actor.keyId,
          },
        });
        sealed.push(seal('cash_transactions', cash.id));
      }
      const out: Omit<BuyInDto, 'voided'> = {
        id: b.id,
        tableId,
        kind: b.kind,
        amount: minorUnits(amount),
        currency: b.currency,
        patronId: b.patronId,
        seatingId: b.seatingId,
        markerId: b.markerId,
        gamingDay: day,
        recordedAt: now.toISOString(),
      };
      await this.audit.append(tx, ctx, {
        stream: tableId,
        action: 'buyIn.record',
        entityType: 'buyIn',
        entityId: b.id,
        data: { ...out, amount },
        seals: sealed,
      });
      return { ...out, voided: false };
    });
  }

  async buyIns(tableId: string, gamingDay: string, actor: Actor): Promise<BuyInDto[]> {
    assertTableAccess(actor, tableId);
    if (!(await this.prisma.casinoTable.findUnique({ where: { id: tableId }, select: { id: true } }))) throw notFound('Table', tableId);
    const rows = await this.prisma.buyIn.findMany({
      where: { tableId, gamingDay: new Date(`${gamingDay}T00:00:00Z`) },
      orderBy: [{ recordedAt: 'asc' }, { id: 'asc' }],
      include: { void: { select: { id: true } } },
    });
    return rows.map((b) => ({
      id: b.id,
      tableId,
      kind: b.kind,
      amount: minorUnits(b.amount),
      currency: b.currency,
      patronId: b.patronId,
      seatingId: b.seatingId,
      markerId: b.markerId,
      gamingDay,
      recordedAt: b.recordedAt.toISOString(),
      voided: b.void !== null,
    }));
  }

  /** A patron's markers; the read is audited (stream `patrons`), as every read of a patron's record. */
  async markers(patronId: string, ctx: RequestContext): Promise<MarkerDto[]> {
    return this.prisma.transaction(ctx, async (tx) => {
      const db = prismaRunner(tx);
      await this.pit.assertRegistered(db, [patronId]);
      const rows = await db.query<MarkerRow>(SQL.markersOf.bind({ patronId, markerId: null }));
      await this.audit.patronRead(tx, ctx, { type: 'patron', id: patronId }, { read: 'markers' });
      return rows.map(toMarkerDto);
    });
  }

  /**
   * A payment on a marker at the cage: never more than it still owes; a cheque or wire names its
   * reference; over the property's repayment threshold, only as a second person approved it (the
   * credit request quoted, whose terms it must match); a cash payment is cash in.
   */
  async pay(markerId: string, dto: MarkerPaymentInputDto, ctx: RequestContext): Promise<MarkerDto> {
    if ((dto.method === 'CHECK' || dto.method === 'WIRE') && dto.reference === undefined)
      throw new AppError(
        'VALIDATION_FAILED',
        `A ${dto.method === 'CHECK' ? 'cheque' : 'wire'} payment names what pays it: reference (the cheque's number, the wire's reference)`,
      );
    return this.prisma.transaction(ctx, async (tx) => {
      const db = prismaRunner(tx);
      await db.run(LEDGER_SQL.lockMarker.bind({ markerId }));
      const [m] = await db.query<MarkerRow>(SQL.markersOf.bind({ patronId: null, markerId }));
      if (!m) throw notFound('Marker', markerId);
      if (m.voided) throw new AppError('MARKER_VOIDED', 'The buy-in that issued this marker was voided: the marker is owed no more and takes no payment');
      if (BigInt(m.written_off) > 0n) throw new AppError('MARKER_WRITTEN_OFF', 'This marker was written off: it is owed no more and takes no payment');
      const owed = markerOutstanding(
        BigInt(m.amount),
        m.payments.map((p) => BigInt(p.amount)),
      );
      const amount = BigInt(dto.amount);
      const property = await tx.marker.findUniqueOrThrow({ where: { id: markerId }, select: { property: true } }).then((r) => r.property);
      const requestId = dto.requestId ?? null;
      const approval = () =>
        this.credit.admitRepayment(
          db,
          property,
          { amount, currency: m.currency, method: dto.method, reference: dto.reference ?? null, requestId },
          { markerId },
        );
      // A payment quoting a request is judged by it first (paid already, or not this one, is said as such);
      // one without is judged by what is owed first (no approval is asked for what cannot be paid).
      if (requestId !== null) await approval();
      if (amount > owed)
        throw new AppError('MARKER_OVERPAID', `The marker owes ${owed}; a payment of ${amount} is more than that`, { outstanding: minorUnits(owed) });
      if (requestId === null) await approval();
      const now = new Date();
      const gamingDay = new Date(`${gamingDayOf(now, property.timeZone, property.gamingDayStartHour)}T00:00:00Z`);
      const p = await tx.markerPayment.create({
        data: {
          markerId,
          amount,
          method: dto.method,
          gamingDay,
          paidAt: now,
          recordedByKeyId: ctx.actor.keyId,
          reference: dto.reference ?? null,
          requestId: dto.requestId ?? null,
        },
      });
      const sealed: SealRef[] = [seal('marker_payments', p.id)];
      if (dto.method === 'CASH') {
        const cash = await tx.cashTransaction.create({
          data: {
            propertyId: property.id,
            patronId: m.patron_id,
            direction: 'IN',
            kind: 'MARKER_PAYMENT',
            amount,
            currency: m.currency,
            gamingDay,
            markerPaymentId: p.id,
            at: now,
            recordedByKeyId: ctx.actor.keyId,
          },
        });
        sealed.push(seal('cash_transactions', cash.id));
      }
      await this.audit.append(tx, ctx, {
        stream: CAGE_STREAM,
        action: 'marker.payment',
        entityType: 'marker',
        entityId: markerId,
        data: {
          paymentId: p.id,
          patronId: m.patron_id,
          amount,
          method: dto.method,
          outstandingAfter: owed - amount,
          ...(dto.reference !== undefined ? { reference: dto.reference } : {}),
          ...(dto.requestId !== undefined ? { requestId: dto.requestId } : {}),
        },
        seals: sealed,
      });
      const [after] = await db.query<MarkerRow>(SQL.markersOf.bind({ patronId: null, markerId }));
      return toMarkerDto(after);
    });
  }

  /** Cash in or out at the cage: chips cashed, front money deposited or withdrawn. */
  async cage(propertyId: string, dto: CageTransactionInputDto, ctx: RequestContext): Promise<CashTransactionDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const property = await tx.property.findUnique({ where: { id: propertyId } });
      if (!property) throw notFound('Property', propertyId);
      const amount = BigInt(dto.amount);
      const currency = dto.currency ?? property.cashCurrency;
      const patronId = dto.patronId ?? null;
      const now = new Date();
      const day = gamingDayOf(now, property.timeZone, property.gamingDayStartHour);
      if (patronId !== null) await this.pit.assertRegistered(prismaRunner(tx), [patronId]);
      else await assertIdentifiable(tx, { amount, currency }, property, day, 'A cash transaction');
      // Front money is the patron's at the cage: nothing is withdrawn beyond what they hold.
      if (dto.kind === 'WITHDRAWAL' && patronId !== null) await this.credit.assertFrontMoney(tx, propertyId, patronId, currency, amount);
      const c = await tx.cashTransaction.create({
        data: {
          propertyId,
          patronId,
          direction: dto.kind === 'DEPOSIT' ? 'IN' : 'OUT',
          kind: dto.kind,
          amount,
          currency,
          gamingDay: new Date(`${day}T00:00:00Z`),
          at: now,
          recordedByKeyId: ctx.actor.keyId,
        },
      });
      const out: CashTransactionDto = {
        id: c.id,
        patronId,
        direction: c.direction,
        kind: c.kind,
        amount: minorUnits(amount),
        currency,
        gamingDay: day,
        tableId: null,
        at: now.toISOString(),
      };
      await this.audit.append(tx, ctx, {
        stream: CAGE_STREAM,
        action: 'cash.record',
        entityType: 'cashTransaction',
        entityId: c.id,
        data: { ...out, amount },
        seals: [seal('cash_transactions', c.id)],
      });
      return out;
    });
  }
}

function toMarkerDto(m: MarkerRow): MarkerDto {
  const payments = m.payments.map((p) => ({
    id: p.id,
    amount: minorUnits(BigInt(p.amount)),
    method: p.method,
    gamingDay: p.gamingDay,
    paidAt: new Date(p.paidAt).toISOString(),
    reference: p.reference ?? null,
  }));
  return {
    id: m.id,
    patronId: m.patron_id,
    tableId: m.table_id,
    amount: minorUnits(BigInt(m.amount)),
    currency: m.currency,
    gamingDay: m.gaming_day,
    issuedAt: m.issued_at.toISOString(),
    voided: m.voided,
    writtenOff: minorUnits(BigInt(m.written_off)),
    outstanding: minorUnits(
      markerOutstanding(
        BigInt(m.amount),
        m.payments.map((p) => BigInt(p.amount)),
        m.voided,
        BigInt(m.written_off),
      ),
    ),
    payments,
  };
}

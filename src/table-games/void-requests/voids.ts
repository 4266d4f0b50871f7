import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Actor, assertTableAccess } from '../../platform/common/actor';
import type { AuditContext } from '../../platform/common/context';
import { AppError, notFound } from '../../platform/common/errors';
import { Tx } from '../../platform/database/prisma.service';
import { parseCards } from '../../domain';
import { BankCoup, Prisma } from '../../generated/prisma/client';
import { prismaRunner } from '../../platform/database/sql';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { LEDGER_SQL } from '../../foundation/ledger/ledger-sql';
import { reverseAccruals } from '../../foundation/ledger/commission-ledger';
import { applyBankCoupToRollups, applyCoupToRollups, recordVoidedCoup } from '../../foundation/ledger/rollups';
import { BankState } from '../../foundation/pit/bank-state';
import { PitService } from '../../foundation/pit/pit.service';
import { PitChanges } from '../../foundation/pit/pit-changes';
import { seal } from '../../foundation/ledger/seals';
import { assertNotInLockedPeriod } from '../../foundation/ledger/locked-periods';
import { theoryOf } from '../../foundation/pit/table-rules';

/** Who asked for a void and who approved it, and the request that records both. */
export interface VoidDecision {
  reason: string;
  requestedBy: Actor;
  approvedBy: Actor;
  voidRequestId: string;
  /** A coup's cards go back into its shoe (they never came out of it); otherwise they stay dealt. */
  returnCards: boolean;
}

/** What every void record keeps: why, who asked, who approved, and the request. */
function voidRecord(v: VoidDecision) {
  return {
    reason: v.reason,
    voidedByKeyId: v.requestedBy.keyId,
    voidedByRole: v.requestedBy.role,
    approvedByKeyId: v.approvedBy.keyId,
    voidRequestId: v.voidRequestId,
  };
}

/**
 * How each kind of record is voided, once two supervisors have agreed: by new records only (the
 * void, reversing ledger entries, reduced rollups), never by editing what was recorded. Runs in the
 * approval's transaction, under the shoe's lock where a shoe is involved.
 */
@Injectable()
export class Voids {
  constructor(
    private readonly pit: PitService,
    private readonly changes: PitChanges,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Voids a coup by a new record, inside the approval's transaction: the coup and its wagers stay
   * as they were, its commission accruals are reversed by new entries, its rollups are reduced, its
   * cards return to the shoe, and tie bets it carried forward (not yet played) are withdrawn. A coup
   * still taking bets is cancelled the same way.
   */
  async voidCoup(tx: Tx, ctx: AuditContext, coupId: string, v: VoidDecision): Promise<void> {
    const found = await tx.coup.findUnique({ where: { id: coupId }, select: { shoeId: true } });
    if (!found) throw notFound('Coup', coupId);
    const locked = await this.pit.lock(tx, found.shoeId, v.approvedBy, { mustBeOpen: false });
    const { shoe, table } = locked;
    const db = prismaRunner(tx);
    const coup = await tx.coup.findUniqueOrThrow({
      where: { id: coupId },
      include: { void: true, wagers: { select: { id: true, carriedFromId: true, status: true } } },
    });
    if (coup.void) throw new AppError('COUP_ALREADY_VOIDED', `Coup ${coup.number} was already voided`);
    if (coup.gamingDay) await assertNotInLockedPeriod(db, { id: coupId, propertyId: coup.propertyId, gamingDay: coup.gamingDay.toISOString().slice(0, 10) });
    const coupVoid = await tx.coupVoid.create({
      data: {
        coupId,
        propertyId: coup.propertyId,
        cardsReturned: coup.status === 'SETTLED' ? v.returnCards : null,
        ...voidRecord(v),
      },
    });
    const withdrawn: string[] = [];
    let reversals: string[] = [];
    if (coup.status === 'SETTLED') {
      reversals = await reverseAccruals(tx, shoe.id, shoe.tableId, coupId, v.approvedBy.keyId);
      const settled = await tx.wager.findMany({ where: { coupId, status: 'SETTLED' } });
      await applyCoupToRollups(
        tx,
        {
          tableId: shoe.tableId,
          propertyId: shoe.propertyId,
          gamingDay: coup.gamingDay!.toISOString().slice(0, 10),
          winner: coup.winner!,
          natural: coup.natural!,
          limitsId: coup.limitsId,
        },
        settled.map((w) => ({
          betType: w.betType,
          amount: w.amount,
          payout: w.payout!,
          commission: w.commission!,
          net: w.net!,
          result: w.result!,
          seat: w.seat,
          patronId: w.patronId,
          seatingId: w.seatingId,
          dead: w.deadChips === true,
        })),
        theoryOf(table),
        -1n,
      );
      await recordVoidedCoup(tx, shoe, coup.gamingDay!.toISOString().slice(0, 10), settled);
      // The cards were dealt and stay out of the shoe, unless they never came out of it (keyed at the wrong table).
      const returned = v.returnCards ? parseCards([...coup.playerCards, ...coup.bankerCards]) : null;
      withdrawn.push(
        ...(await this.changes.undoSettledCoup(
          db,
          locked,
          coup.wagers.map((w) => w.id),
          returned,
        )),
      );
    } else {
      // Cancelled before the cards: new bets go back; carried tie bets wait for the next coup again.
      withdrawn.push(...(await this.changes.cancelOpenCoup(db, shoe.id, coupId)));
    }
    await this.audit.append(tx, ctx, {
      stream: shoe.tableId,
      action: 'coup.void',
      entityType: 'coup',
      entityId: coupId,
      data: { number: coup.number, shoeId: shoe.id, reason: v.reason, requestedBy: v.requestedBy.keyId, voidRequestId: v.voidRequestId },
      seals: [
        seal('coup_voids', coupVoid.id),
        seal('shoes', shoe.id),
        ...withdrawn.map((w) => seal('wagers', w)),
        ...reversals.map((id) => seal('commission_entries', id)),
      ],
    });
  }

  /** What a void request needs to know about a coup: its table, and whether it is already voided. */
  async coupTarget(tx: Tx, coupId: string, actor: Actor): Promise<{ tableId: string; label: string }> {
    const coup = await tx.coup.findUnique({
      where: { id: coupId },
      select: { tableId: true, propertyId: true, number: true, gamingDay: true, void: { select: { id: true } } },
    });
    if (!coup) throw notFound('Coup', coupId);
    assertTableAccess(actor, coup.tableId);
    if (coup.void) throw new AppError('COUP_ALREADY_VOIDED', `Coup ${coup.number} was already voided`);
    if (coup.gamingDay)
      await assertNotInLockedPeriod(prismaRunner(tx), { id: coupId, propertyId: coup.propertyId, gamingDay: coup.gamingDay.toISOString().slice(0, 10) });
    return { tableId: coup.tableId, label: `coup ${coup.number}` };
  }

  /** Checks that a bank coup may be voided, for a void request: it exists, is the caller's, and nothing was played on it since. */
  async bankCoupTarget(tx: Tx, bankCoupId: string, actor: Actor): Promise<{ tableId: string; label: string }> {
    const coup = await tx.bankCoup.findUnique({ where: { id: bankCoupId }, include: { void: true } });
    if (!coup) throw notFound('Bank coup', bankCoupId);
    assertTableAccess(actor, coup.tableId);
    await assertVoidable(tx, coup);
    return { tableId: coup.tableId, label: `coup ${coup.number} of the bank` };
  }

  /**
   * Voids a bank coup (approved by a second supervisor): the void is a new record, the bank goes
   * back to its state before the coup (reopened if that coup had closed it), and the house's
   * commission and the coup leave the table-day rollup. The cards stay dealt.
   */
  async voidBankCoup(tx: Tx, ctx: AuditContext, bankCoupId: string, v: VoidDecision): Promise<void> {
    const found = await tx.bankCoup.findUnique({ where: { id: bankCoupId }, select: { shoeId: true } });
    if (!found) throw notFound('Bank coup', bankCoupId);
    await this.pit.lock(tx, found.shoeId, v.approvedBy, { mustBeOpen: false });
    const coup = (await tx.bankCoup.findUnique({ where: { id: bankCoupId }, include: { void: true } }))!;
    await assertVoidable(tx, coup);
    const bankCoupVoid = await tx.bankCoupVoid.create({
      data: {
        id: randomUUID(),
        bankCoupId,
        propertyId: coup.propertyId,
        ...voidRecord(v),
      },
    });
    const before = coup.bankStateBefore as unknown as BankState;
    await tx.bank.update({
      where: { id: coup.bankId },
      data: {
        stake: BigInt(before.stake),
        setAside: BigInt(before.setAside),
        commission: BigInt(before.commission),
        bancoSuivi: before.bancoSuivi,
        standing: before.standing === null ? Prisma.DbNull : (before.standing as never),
        stakesAccepted: before.stakesAccepted,
        coups: before.coups,
        status: 'ACTIVE',
        nextBanker: null,
        closedAt: null,
      },
    });
    await applyBankCoupToRollups(tx, coup, coup.gamingDay.toISOString().slice(0, 10), coup.commission, -1n);
    await this.audit.append(tx, ctx, {
      stream: coup.tableId,
      action: 'bank.coup.void',
      entityType: 'bank',
      entityId: coup.bankId,
      data: { bankCoupId, number: coup.number, reason: v.reason, commissionReversed: coup.commission.toString(), bankRestored: before },
      seals: [seal('bank_coup_voids', bankCoupVoid.id), seal('banks', coup.bankId)],
    });
  }

  /** Voids a slip by a new record, inside the approval's transaction. */
  async voidSlip(tx: Tx, ctx: AuditContext, slipId: string, v: VoidDecision): Promise<void> {
    const slip = await tx.tableSlip.findUnique({ where: { id: slipId }, include: { void: true } });
    if (!slip) throw notFound('Slip', slipId);
    if (slip.void) throw new AppError('SLIP_ALREADY_VOIDED', `${slip.kind} slip ${slip.number}/${slip.year} was already voided`);
    const slipVoid = await tx.slipVoid.create({
      data: {
        slipId,
        ...voidRecord(v),
      },
    });
    await this.audit.append(tx, ctx, {
      stream: slip.tableId,
      action: 'slip.void',
      entityType: 'slip',
      entityId: slipId,
      data: { kind: slip.kind, number: slip.number, year: slip.year, reason: v.reason, requestedBy: v.requestedBy.keyId, voidRequestId: v.voidRequestId },
      seals: [seal('slip_voids', slipVoid.id)],
    });
  }

  async slipTarget(tx: Tx, slipId: string, actor: Actor): Promise<{ tableId: string; label: string }> {
    const slip = await tx.tableSlip.findUnique({ where: { id: slipId }, include: { void: true } });
    if (!slip) throw notFound('Slip', slipId);
    assertTableAccess(actor, slip.tableId);
    if (slip.void) throw new AppError('SLIP_ALREADY_VOIDED', `${slip.kind} slip ${slip.number}/${slip.year} was already voided`);
    return { tableId: slip.tableId, label: `${slip.kind.toLowerCase()} slip ${slip.number}/${slip.year}` };
  }

  /** Checks that a buy-in may be voided, for a void request: it exists, is the caller's table's, and is not voided nor its marker paid on. */
  async buyInTarget(tx: Tx, buyInId: string, actor: Actor): Promise<{ tableId: string; label: string }> {
    const b = await voidableBuyIn(tx, buyInId);
    assertTableAccess(actor, b.tableId);
    return { tableId: b.tableId, label: `the ${b.kind.toLowerCase()} buy-in of ${b.amount}` };
  }

  /**
   * Voids a buy-in (approved by a second supervisor) by a new record: it leaves the drop its table's
   * count is reconciled against, its cash transaction leaves the cash reports, and its marker is owed
   * no more. The buy-in, its marker and its cash transaction stay as they were written. Under the
   * marker's lock, so that no payment on the marker slips in between.
   */
  async voidBuyIn(tx: Tx, ctx: AuditContext, buyInId: string, v: VoidDecision): Promise<void> {
    const b = await voidableBuyIn(tx, buyInId);
    const buyInVoid = await tx.buyInVoid.create({
      data: {
        buyInId,
        ...voidRecord(v),
      },
    });
    await this.audit.append(tx, ctx, {
      stream: b.tableId,
      action: 'buyIn.void',
      entityType: 'buyIn',
      entityId: buyInId,
      data: {
        kind: b.kind,
        amount: b.amount,
        patronId: b.patronId,
        markerId: b.markerId,
        gamingDay: b.gamingDay.toISOString().slice(0, 10),
        reason: v.reason,
        requestedBy: v.requestedBy.keyId,
        voidRequestId: v.voidRequestId,
      },
      seals: [seal('buy_in_voids', buyInVoid.id)],
    });
  }
}

/**
 * A buy-in that can still be voided: not voided already, and, for a marker, never paid on (a paid
 * marker is settled money at the cage; its payments stand). Takes the marker's lock first.
 */
async function voidableBuyIn(tx: Tx, buyInId: string) {
  const found = await tx.buyIn.findUnique({ where: { id: buyInId }, select: { markerId: true } });
  if (!found) throw notFound('Buy-in', buyInId);
  if (found.markerId !== null) await prismaRunner(tx).run(LEDGER_SQL.lockMarker.bind({ markerId: found.markerId }));
  const b = (await tx.buyIn.findUnique({ where: { id: buyInId }, include: { void: { select: { id: true } } } }))!;
  if (b.void) throw new AppError('BUY_IN_ALREADY_VOIDED', `The ${b.kind.toLowerCase()} buy-in of ${b.amount} was already voided`);
  if (b.markerId !== null) {
    const paid = await tx.markerPayment.count({ where: { markerId: b.markerId } });
    if (paid > 0) {
      throw new AppError(
        'MARKER_PAID_ON',
        `The marker of this buy-in has ${paid} payment${paid === 1 ? '' : 's'} at the cage: a marker paid on cannot be voided`,
      );
    }
  }
  return b;
}

/**
 * A bank's state is the chain of its coups, so only the shoe's last coup still standing (every
 * later one voided) can be voided, and only while its bank was neither retired nor followed by
 * another bank.
 */
async function assertVoidable(tx: Tx, coup: BankCoup & { void: unknown }): Promise<void> {
  if (coup.void) throw new AppError('COUP_ALREADY_VOIDED', `Coup ${coup.number} of the bank was already voided`);
  const [after] = await tx.$queryRaw<{ number: number }[]>`
    SELECT min(n) AS number FROM (
      SELECT b.number AS n FROM bank_coups b WHERE b.shoe_id = ${coup.shoeId}::uuid AND b.number > ${coup.number} AND NOT EXISTS (SELECT 1 FROM bank_coup_voids v WHERE v.bank_coup_id = b.id)
      UNION ALL
      SELECT c.number FROM coups c WHERE c.shoe_id = ${coup.shoeId}::uuid AND c.number > ${coup.number} AND NOT EXISTS (SELECT 1 FROM coup_voids v WHERE v.coup_id = c.id)
    ) later`;
  if (after.number !== null) {
    throw new AppError('VOID_NOT_LAST', `Coup ${coup.number} is not the shoe's last (coup ${after.number} came after it): the bank was played on since`);
  }
  const bank = await tx.bank.findUniqueOrThrow({ where: { id: coup.bankId } });
  const later = await tx.bank.count({ where: { shoeId: coup.shoeId, number: { gt: bank.number } } });
  if (later > 0 || bank.status === 'RETIRED' || bank.status === 'SHOE_CLOSED') {
    throw new AppError(
      'VOID_NOT_LAST',
      `Bank ${bank.number} has ${later > 0 ? 'been followed by another bank' : bank.status === 'RETIRED' ? 'retired' : 'closed with its shoe'} since coup ${coup.number}: that coup can no longer be voided`,
    );
  }
}

import { PitService } from '../../foundation/pit/pit.service';
import type { RequestContext } from '../../platform/common/context';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Actor } from '../../platform/common/actor';
import { AppError, notFound } from '../../platform/common/errors';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { assertTableAccess } from '../../platform/common/actor';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { CollectCommissionDto, CollectionDto, ShoeCommissionsDto } from './dto/commission.dto';
import { minorUnits } from '../../platform/common/exact-json';
import { SeatCommission, seatCommissions, toSeatCommissionDto } from '../../foundation/ledger/commission-ledger';
import { addCollectedCommission, TableKey } from '../../foundation/ledger/rollups';
import { seal } from '../../foundation/ledger/seals';
import { gamingDayOf } from '../../domain';

/**
 * The commission box: a ledger per shoe and seat (and patron). Accruals are receivables, not
 * revenue, until collected (docs/domain.md §3).
 */
@Injectable()
export class CommissionsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pit: PitService,
    private readonly audit: AuditLog,
  ) {}

  outstanding(db: Tx | PrismaService, shoeId: string): Promise<SeatCommission[]> {
    return seatCommissions(db, shoeId);
  }

  async forShoe(shoeId: string, actor: Actor): Promise<ShoeCommissionsDto> {
    const shoe = await this.prisma.shoe.findUnique({ where: { id: shoeId }, select: { tableId: true, table: { select: { currency: true } } } });
    if (!shoe) throw notFound('Shoe', shoeId);
    assertTableAccess(actor, shoe.tableId);
    const seats = await this.outstanding(this.prisma, shoeId);
    return {
      shoeId,
      currency: shoe.table.currency,
      seats: seats.map(toSeatCommissionDto),
      totalOutstanding: minorUnits(seats.reduce((t, s) => t + s.outstanding, 0n)),
    };
  }

  /** Records a collection (partial or whole), with the shoe locked so two collections cannot both take the same debt. */
  collect(shoeId: string, dto: CollectCommissionDto, ctx: RequestContext): Promise<CollectionDto> {
    const { actor } = ctx;
    return this.prisma.transaction(ctx, async (tx) => {
      const locked = await this.pit.lock(tx, shoeId, actor, { mustBeOpen: false });
      const gamingDay = gamingDayOf(new Date(), locked.timeZone, locked.gamingDayStartHour);
      return this.collectLocked(tx, ctx, locked.shoe, gamingDay, dto);
    });
  }

  private async collectLocked(
    tx: Tx,
    ctx: RequestContext,
    shoe: TableKey & { id: string },
    gamingDay: string,
    dto: CollectCommissionDto,
  ): Promise<CollectionDto> {
    const { id: shoeId, tableId, propertyId } = shoe;
    const patronId = dto.patronId ?? null;
    const seat = (await this.outstanding(tx, shoeId)).find((s) => s.seat === dto.seat && s.patronId === patronId);
    const owed = seat?.outstanding ?? 0n;
    const who = `Seat ${dto.seat}${patronId ? ` (patron ${patronId})` : ''}`;
    if (owed <= 0n) throw new AppError('COLLECTION_EXCEEDS_OUTSTANDING', `${who} owes no commission in this shoe`);
    const amount = dto.amount === undefined ? owed : BigInt(dto.amount);
    if (amount > owed) throw new AppError('COLLECTION_EXCEEDS_OUTSTANDING', `${who} owes ${owed}; ${amount} cannot be collected`);
    const id = randomUUID();
    await tx.commissionEntry.create({
      data: {
        id,
        shoeId,
        tableId,
        propertyId,
        seat: dto.seat,
        patronId,
        kind: 'COLLECTION',
        amount: -amount,
        createdByKeyId: ctx.actor.keyId,
        gamingDay: new Date(`${gamingDay}T00:00:00Z`),
      },
    });
    await addCollectedCommission(tx, { tableId, propertyId }, gamingDay, amount);
    await this.audit.append(tx, ctx, {
      stream: tableId,
      action: 'commission.collect',
      entityType: 'shoe',
      entityId: shoeId,
      data: { entryId: id, seat: dto.seat, patronId, amount: minorUnits(amount), outstandingAfter: minorUnits(owed - amount) },
      seals: [seal('commission_entries', id)],
    });
    return { id, seat: dto.seat, patronId, amount: minorUnits(amount), outstanding: minorUnits(owed - amount) };
  }
}

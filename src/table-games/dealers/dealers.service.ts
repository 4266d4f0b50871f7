import { Injectable } from '@nestjs/common';
import { assertTableAccess } from '../../platform/common/actor';
import type { RequestContext } from '../../platform/common/context';
import { AppError, notFound } from '../../platform/common/errors';
import { Actor } from '../../platform/common/actor';
import { PrismaService } from '../../platform/database/prisma.service';
import { prismaRunner } from '../../platform/database/sql';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { PitService } from '../../foundation/pit/pit.service';
import { DEALERS_SQL } from './dealers-sql';
import { seal } from '../../foundation/ledger/seals';
import { DealerShiftDto, StartShiftDto } from './dto/dealer-shift.dto';

interface ShiftRow {
  id: string;
  table_id: string;
  dealer_id: string;
  started_at: Date;
  ended_at: Date | null;
  recorded_by_key_id: string;
}

/**
 * Dealer rotations: who dealt each table when (integrity surveillance pairs each coup with its
 * dealer). A change is a new row; nothing is edited.
 */
@Injectable()
export class DealersService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pit: PitService,
    private readonly audit: AuditLog,
  ) {}

  async start(tableId: string, dto: StartShiftDto, ctx: RequestContext): Promise<DealerShiftDto> {
    assertTableAccess(ctx.actor, tableId);
    return this.prisma.transaction(ctx, async (tx) => {
      // The table's row lock orders its rotations (and a close or reopen) one after another.
      await this.pit.lockOpenTable(prismaRunner(tx), tableId, 'a dealer takes it');
      const [now] = await prismaRunner(tx).query<{ dealer_id: string }>(DEALERS_SQL.dealingNow.bind({ tableId }));
      if (now?.dealer_id === dto.dealerId) throw new AppError('DEALER_ALREADY_DEALING', `Dealer ${dto.dealerId} is already dealing this table`);
      const shift = await tx.dealerShift.create({ data: { tableId, dealerId: dto.dealerId, recordedByKeyId: ctx.actor.keyId } });
      await this.audit.append(tx, ctx, {
        stream: tableId,
        action: 'dealer.change',
        entityType: 'dealerShift',
        entityId: shift.id,
        data: { dealerId: dto.dealerId, previousDealerId: now?.dealer_id ?? null, startedAt: shift.startedAt.toISOString() },
        seals: [seal('dealer_shifts', shift.id)],
      });
      return {
        id: shift.id,
        tableId,
        dealerId: shift.dealerId,
        startedAt: shift.startedAt.toISOString(),
        endedAt: null,
        recordedByKeyId: shift.recordedByKeyId,
      };
    });
  }

  async list(tableId: string, actor: Actor): Promise<DealerShiftDto[]> {
    assertTableAccess(actor, tableId);
    const table = await this.prisma.casinoTable.findUnique({ where: { id: tableId }, select: { id: true } });
    if (!table) throw notFound('Table', tableId);
    const rows = await prismaRunner(this.prisma).query<ShiftRow>(DEALERS_SQL.shiftsOfTable.bind({ tableId }));
    return rows.map((r) => ({
      id: r.id,
      tableId: r.table_id,
      dealerId: r.dealer_id,
      startedAt: r.started_at.toISOString(),
      endedAt: r.ended_at?.toISOString() ?? null,
      recordedByKeyId: r.recorded_by_key_id,
    }));
  }
}

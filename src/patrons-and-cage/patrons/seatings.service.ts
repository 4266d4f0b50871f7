import { Injectable } from '@nestjs/common';
import { Actor, assertTableAccess } from '../../platform/common/actor';
import type { RequestContext } from '../../platform/common/context';
import { AppError, notFound } from '../../platform/common/errors';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { prismaRunner } from '../../platform/database/sql';
import { gamingDayOf } from '../../domain';
import { AuditLog } from '../../foundation/ledger/audit-log';
import { PitService } from '../../foundation/pit/pit.service';
import { PitChanges } from '../../foundation/pit/pit-changes';
import { SeatingDto, StartSeatingDto, TableSeatingDto } from './dto/seating.dto';
import { PATRONS_SQL as SQL } from './patrons-sql';
import { seal } from '../../foundation/ledger/seals';
import { SeatedPlayRow, SeatingRow, toSeatingDto, toTableSeatingDto } from './seating-row';

/**
 * Card in, card out: which patron sits where, when (docs/domain.md §10). While a card is in, the
 * wagers on its seat are the patron's without the terminal naming them. A seating is written once
 * and ended once; nothing else about it changes.
 */
@Injectable()
export class SeatingsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly pit: PitService,
    private readonly changes: PitChanges,
    private readonly audit: AuditLog,
  ) {}

  async start(tableId: string, dto: StartSeatingDto, ctx: RequestContext): Promise<SeatingDto> {
    assertTableAccess(ctx.actor, tableId);
    return this.prisma.transaction(ctx, async (tx) => {
      const db = prismaRunner(tx);
      await this.pit.lockOpenTable(db, tableId, 'you seat a patron');
      await this.pit.assertRegistered(db, [dto.patronId]);
      await db.run(SQL.lockPatron.bind({ card: dto.patronId }));
      const open = await db.query<SeatingRow>(SQL.openSeatingsOf.bind({ card: dto.patronId }));
      if (open.some((s) => s.table_id === tableId && s.seat === dto.seat)) {
        throw new AppError('ALREADY_SEATED', `Patron ${dto.patronId}'s card is in at seat ${dto.seat} of this table already`);
      }
      const elsewhere = open.find((s) => s.table_id !== tableId);
      if (elsewhere) {
        const [t] = await tx.$queryRaw<{ code: string }[]>`SELECT code FROM casino_tables WHERE id = ${elsewhere.table_id}::uuid`;
        throw new AppError(
          'PATRON_SEATED_ELSEWHERE',
          `Patron ${dto.patronId}'s card is in at table ${t.code}, seat ${elsewhere.seat}: take it out there first`,
          { seatingId: elsewhere.id, tableId: elsewhere.table_id },
        );
      }
      const { timeZone, gamingDayStartHour } = await this.pit.withProperty(tableId, tx);
      const now = new Date();
      const seatingId = await this.changes.seat(db, {
        patronId: dto.patronId,
        tableId,
        seat: dto.seat,
        gamingDay: gamingDayOf(now, timeZone, gamingDayStartHour),
        startedAt: now,
        keyId: ctx.actor.keyId,
      });
      const out = await this.read(tx, seatingId);
      await this.audit.append(tx, ctx, {
        stream: tableId,
        action: 'seating.start',
        entityType: 'seating',
        entityId: seatingId,
        data: { patronId: dto.patronId, seat: dto.seat, gamingDay: out.gamingDay, startedAt: out.startedAt },
        seals: [seal('seatings', seatingId)],
      });
      return out;
    });
  }

  async end(seatingId: string, ctx: RequestContext): Promise<SeatingDto> {
    return this.prisma.transaction(ctx, async (tx) => {
      const db = prismaRunner(tx);
      const [found] = await db.query<SeatingRow>(SQL.seatingById.bind({ id: seatingId }));
      if (!found) throw notFound('Seating', seatingId);
      assertTableAccess(ctx.actor, found.table_id);
      // The table's row lock orders card-outs with card-ins and closing the table.
      await this.pit.lockTable(db, found.table_id);
      if (!(await this.changes.unseat(db, seatingId, ctx.actor.keyId, new Date())))
        throw new AppError('SEATING_ENDED', `Patron ${found.patron_id}'s card came out of seat ${found.seat} already`);
      const out = await this.read(tx, seatingId);
      await this.audit.append(tx, ctx, {
        stream: found.table_id,
        action: 'seating.end',
        entityType: 'seating',
        entityId: seatingId,
        data: { patronId: found.patron_id, seat: found.seat, endedAt: out.endedAt },
        seals: [seal('seatings', seatingId)],
      });
      return out;
    });
  }

  /** The table's seatings open now, or (with a gaming day) every one begun that day. */
  async list(tableId: string, gamingDay: string | undefined, actor: Actor): Promise<TableSeatingDto[]> {
    assertTableAccess(actor, tableId);
    const table = await this.prisma.casinoTable.findUnique({ where: { id: tableId }, select: { id: true } });
    if (!table) throw notFound('Table', tableId);
    const rows = await prismaRunner(this.prisma).query<SeatedPlayRow>(SQL.seatingsOfTable.bind({ tableId, gamingDay: gamingDay ?? null }));
    return rows.map(toTableSeatingDto);
  }

  private async read(tx: Tx, id: string): Promise<SeatingDto> {
    const [row] = await prismaRunner(tx).query<SeatingRow>(SQL.seatingById.bind({ id }));
    return toSeatingDto(row);
  }
}

import type { RequestContext } from '../access/context';
import { Injectable } from '@nestjs/common';
import { Actor, assertTableAccess } from '../access/actor';
import { AppError, notFound } from '../common/errors';
import { PrismaService, Tx } from '../database/prisma.service';
import { BetType, CARDS_PER_DECK, formatCard, newShoe, parseCards } from '../domain';
import { CasinoTable, Shoe } from '../generated/prisma/client';
import { seatCommissions, toSeatCommissionDto } from '../commissions/seat-commissions';
import { TableWithClock, TablesService } from '../tables/tables.service';
import type { PoolClient } from 'pg';
import { AuditService } from '../audit/audit.service';
import { ClosedShoeDto, OpenShoeDto, ShoeDto } from './dto/shoe.dto';

/** A tie bet carried to the shoe's next coup, waiting for it. */
export interface CarriedWager {
  id: string;
  seat: number;
  betType: BetType;
  amount: string;
  patronId: string | null;
  carriedFromId: string;
}

/** The shoe row as locked for a write, with its table (immutable rules), property clock and waiting tie bets. */
export interface LockedShoe {
  readonly shoe: LockedRow;
  readonly table: CasinoTable;
  readonly timeZone: string;
  readonly gamingDayStartHour: number;
  readonly carried: CarriedWager[];
}

/** The shoe as the write paths read it (its version is read only by the optimistic path). */
type LockedRow = Omit<Shoe, 'version'>;

/** The shoe's columns as the write paths read them. */
const SHOE_COLUMNS = `
  s.id, s.table_id AS "tableId", s.number, s.decks, s.status, s.burn_cards AS "burnCards", s.cut_card_position AS "cutCardPosition",
  s.shuffle_ref AS "shuffleRef", s.remaining, s.cards_dealt AS "cardsDealt", s.coup_count AS "coupCount",
  s.open_coup_id AS "openCoupId", s.last_coup_number AS "lastCoupNumber", s.opened_at AS "openedAt", s.closed_at AS "closedAt"`;

export const LOCK_SHOE_SQL = `SELECT ${SHOE_COLUMNS} FROM shoes s WHERE s.id = $1::uuid FOR UPDATE`;

/** The shoe, its version and its waiting tie bets, all as of one snapshot (one statement). */
export const SNAPSHOT_SQL = `
  SELECT ${SHOE_COLUMNS}, s.version::text AS version,
         (SELECT coalesce(json_agg(json_build_object('id', w.id, 'seat', w.seat, 'betType', w.bet_type, 'amount', w.amount::text,
                                                     'patronId', w.patron_id, 'carriedFromId', w.carried_from_id) ORDER BY w.placed_at, w.id), '[]'::json)
          FROM wagers w WHERE w.shoe_id = s.id AND w.coup_id IS NULL AND w.status = 'OPEN') AS carried
  FROM shoes s WHERE s.id = $1::uuid`;

/**
 * The tie bets waiting for the shoe's next coup. Read in its own statement once the lock is held:
 * a statement's snapshot is taken before it waits for a lock, so reading them in the locking
 * statement could miss a withdrawal committed during the wait.
 */
export const CARRIED_SQL = `
  SELECT id, seat, bet_type AS "betType", amount::text AS amount, patron_id AS "patronId", carried_from_id AS "carriedFromId"
  FROM wagers WHERE shoe_id = $1::uuid AND coup_id IS NULL AND status = 'OPEN' ORDER BY placed_at, id`;

@Injectable()
export class ShoesService {
  private readonly shoeTables = new Map<string, string>();

  constructor(
    private readonly prisma: PrismaService,
    private readonly tables: TablesService,
    private readonly audit: AuditService,
  ) {}

  /**
   * Locks the shoe row (SELECT … FOR UPDATE) for the rest of the transaction. Every write to a
   * shoe (coups, voids, withdrawals, collections, closing) goes through here, so they serialise
   * per shoe: coup numbers are never given twice and the composition never goes stale. With
   * `withCarried` it also reads the tie bets waiting for the shoe's next coup, once the lock is held.
   */
  async lock(tx: Tx, shoeId: string, actor: Actor, opts: { mustBeOpen: boolean; withCarried?: boolean }): Promise<LockedShoe> {
    const [row] = await tx.$queryRawUnsafe<LockedRow[]>(LOCK_SHOE_SQL, shoeId);
    const carried = row && opts.withCarried ? await tx.$queryRawUnsafe<CarriedWager[]>(CARRIED_SQL, shoeId) : [];
    return this.locked(row, carried, shoeId, actor, opts, await this.tablesFor(row, tx));
  }

  /** The same lock on a plain pg connection (the coup hot path); the table must be known beforehand. */
  async lockRaw(client: PoolClient, shoeId: string, actor: Actor, table: TableWithClock): Promise<LockedShoe> {
    const { rows } = await client.query<LockedRow>({ name: 'sabot-lock-shoe', text: LOCK_SHOE_SQL, values: [shoeId] });
    const carried = rows[0] ? (await client.query<CarriedWager>({ name: 'sabot-carried-wagers', text: CARRIED_SQL, values: [shoeId] })).rows : [];
    return this.locked(rows[0], carried, shoeId, actor, { mustBeOpen: true }, table);
  }

  /**
   * The shoe and its waiting tie bets as of one snapshot, without a lock: for a write that applies
   * only if the shoe's version has not moved since (see CoupsService.record).
   */
  async snapshot(shoeId: string, actor: Actor, table: TableWithClock): Promise<LockedShoe & { version: string }> {
    const { rows } = await this.prisma.pool.query<LockedRow & { version: string; carried: CarriedWager[] }>({
      name: 'sabot-shoe-snapshot',
      text: SNAPSHOT_SQL,
      values: [shoeId],
    });
    const row = rows[0];
    if (!row) throw notFound('Shoe', shoeId);
    const { version, carried, ...shoe } = row;
    return { ...this.locked(shoe, carried, shoeId, actor, { mustBeOpen: true }, table), version };
  }

  /** Which table a shoe belongs to (never changes, so cached), read without any lock held. */
  async tableOf(shoeId: string): Promise<TableWithClock> {
    let tableId = this.shoeTables.get(shoeId);
    if (!tableId) {
      const shoe = await this.prisma.shoe.findUnique({ where: { id: shoeId }, select: { tableId: true } });
      if (!shoe) throw notFound('Shoe', shoeId);
      tableId = shoe.tableId;
      this.shoeTables.set(shoeId, tableId);
    }
    return this.tables.withProperty(tableId);
  }

  private async tablesFor(row: LockedRow | undefined, tx: Tx): Promise<TableWithClock | null> {
    return row ? this.tables.withProperty(row.tableId, tx) : null;
  }

  private locked(
    shoe: LockedRow | undefined,
    carried: CarriedWager[],
    shoeId: string,
    actor: Actor,
    opts: { mustBeOpen: boolean },
    t: TableWithClock | null,
  ): LockedShoe {
    if (!shoe || !t) throw notFound('Shoe', shoeId);
    assertTableAccess(actor, shoe.tableId);
    if (opts.mustBeOpen && shoe.status !== 'OPEN') throw new AppError('SHOE_CLOSED', `Shoe ${shoe.number} is closed`);
    return { shoe, table: t.table, timeZone: t.timeZone, gamingDayStartHour: t.gamingDayStartHour, carried };
  }

  async open(tableId: string, dto: OpenShoeDto, ctx: RequestContext): Promise<ShoeDto> {
    const { actor } = ctx;
    assertTableAccess(actor, tableId);
    const burn = parseCards(dto.burnCards ?? []);
    return this.prisma.transaction(ctx, async (tx) => {
      const [table] = await tx.$queryRaw<{ status: string; decks: number }[]>`SELECT status, decks FROM casino_tables WHERE id = ${tableId}::uuid FOR UPDATE`;
      if (!table) throw notFound('Table', tableId);
      if (table.status !== 'OPEN') throw new AppError('TABLE_CLOSED', 'The table is closed: reopen it before opening a shoe');
      const open = await tx.shoe.findFirst({ where: { tableId, status: 'OPEN' }, select: { number: true } });
      if (open) throw new AppError('SHOE_ALREADY_OPEN', `Shoe ${open.number} is still open at this table: close it first`);
      const decks = dto.decks ?? table.decks;
      const { remaining, cardsDealt } = newShoe(decks, burn, dto.cutCardPosition ?? null);
      const last = await tx.shoe.findFirst({ where: { tableId }, orderBy: { number: 'desc' }, select: { number: true } });
      const shoe = await tx.shoe.create({
        data: {
          tableId,
          number: (last?.number ?? 0) + 1,
          decks,
          burnCards: burn.map(formatCard),
          cutCardPosition: dto.cutCardPosition ?? null,
          shuffleRef: dto.shuffleRef ?? null,
          remaining,
          cardsDealt,
        },
      });
      await this.audit.append(tx, ctx, {
        stream: tableId,
        action: 'shoe.open',
        entityType: 'shoe',
        entityId: shoe.id,
        data: { number: shoe.number, decks, burnCards: shoe.burnCards, cutCardPosition: shoe.cutCardPosition, shuffleRef: shoe.shuffleRef },
      });
      return toShoeDto(shoe, [], []);
    });
  }

  async get(id: string, actor: Actor): Promise<ShoeDto> {
    const shoe = await this.prisma.shoe.findUnique({ where: { id } });
    if (!shoe) throw notFound('Shoe', id);
    assertTableAccess(actor, shoe.tableId);
    return this.describe(this.prisma, shoe);
  }

  async listForTable(tableId: string, actor: Actor): Promise<ShoeDto[]> {
    assertTableAccess(actor, tableId);
    await this.tables.find(tableId);
    const shoes = await this.prisma.shoe.findMany({ where: { tableId }, orderBy: { number: 'asc' } });
    return Promise.all(shoes.map((s) => this.describe(this.prisma, s)));
  }

  async close(id: string, ctx: RequestContext): Promise<ClosedShoeDto> {
    const { actor } = ctx;
    return this.prisma.transaction(ctx, async (tx) => {
      const { shoe } = await this.lock(tx, id, actor, { mustBeOpen: true });
      if (shoe.openCoupId) throw new AppError('COUP_IN_PROGRESS', 'A coup is still taking bets: record its cards or void it before closing the shoe');
      // Tie bets waiting for a next coup that will not come go back to their owners.
      const returned = await tx.wager.updateMany({ where: { shoeId: id, coupId: null, status: 'OPEN' }, data: { status: 'WITHDRAWN' } });
      const closed = await tx.shoe.update({ where: { id }, data: { status: 'CLOSED', closedAt: new Date() } });
      // A player's bank ends with its shoe: the banker takes it and what was set aside.
      await tx.bank.updateMany({ where: { shoeId: id, status: 'ACTIVE' }, data: { status: 'SHOE_CLOSED', closedAt: closed.closedAt } });
      const owed = (await seatCommissions(tx, id)).filter((o) => o.outstanding > 0n).map(toSeatCommissionDto);
      await this.audit.append(tx, ctx, {
        stream: shoe.tableId,
        action: 'shoe.close',
        entityType: 'shoe',
        entityId: id,
        data: { carriedBetsReturned: returned.count, commissionOutstanding: owed },
      });
      return { ...(await this.describe(tx, closed)), commissionOutstanding: owed, carriedBetsReturned: returned.count };
    });
  }

  private async describe(db: Tx | PrismaService, shoe: Shoe): Promise<ShoeDto> {
    const coups = await db.coup.findMany({
      where: { shoeId: shoe.id },
      orderBy: { number: 'asc' },
      select: {
        id: true,
        number: true,
        status: true,
        winner: true,
        playerTotal: true,
        bankerTotal: true,
        playerCards: true,
        bankerCards: true,
        void: { select: { id: true } },
      },
    });
    return toShoeDto(
      shoe,
      coups,
      coups.filter((c) => !c.void).flatMap((c) => interleave(c.playerCards, c.bankerCards)),
    );
  }
}

/** Cards of a coup in dealing order: P B P B, then Player's third, then Banker's. */
function interleave(player: string[], banker: string[]): string[] {
  return [player[0], banker[0], player[1], banker[1], ...player.slice(2), ...banker.slice(2)].filter((c) => c !== undefined);
}

type CoupRow = {
  id: string;
  number: number;
  status: string;
  winner: string | null;
  playerTotal: number | null;
  bankerTotal: number | null;
  void: { id: string } | null;
};

function toShoeDto(shoe: Shoe, coups: CoupRow[], coupCards: string[]): ShoeDto {
  const remaining: Record<string, number> = {};
  shoe.remaining.forEach((n, card) => (remaining[formatCard(card)] = n));
  return {
    id: shoe.id,
    tableId: shoe.tableId,
    number: shoe.number,
    decks: shoe.decks,
    status: shoe.status,
    burnCards: shoe.burnCards,
    cutCardPosition: shoe.cutCardPosition,
    shuffleRef: shoe.shuffleRef,
    cardsDealt: shoe.cardsDealt,
    cardsLeft: shoe.decks * CARDS_PER_DECK - shoe.cardsDealt,
    coupCount: shoe.coupCount,
    lastCoupNumber: shoe.lastCoupNumber,
    openCoupId: shoe.openCoupId,
    cardsSeen: [...shoe.burnCards, ...coupCards],
    remaining,
    coups: coups.map((c) => ({
      id: c.id,
      number: c.number,
      status: c.status,
      voided: c.void !== null,
      winner: c.winner,
      playerTotal: c.playerTotal,
      bankerTotal: c.bankerTotal,
    })),
    openedAt: shoe.openedAt.toISOString(),
    closedAt: shoe.closedAt?.toISOString() ?? null,
  };
}

import { Injectable } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { Actor, assertTableAccess } from '../common/actor';
import { AppError, notFound } from '../common/errors';
import { PrismaService, Tx } from '../database/prisma.service';
import { BetType, OpenSeating } from '../domain';
import { CasinoTable, Shoe } from '../generated/prisma/client';
import { TableWithClock } from './table-rules';
import { SqlRunner } from '../database/sql';

/** A tie bet carried to the shoe's next coup, waiting for it. */
export interface CarriedWager {
  id: string;
  seat: number;
  betType: BetType;
  amount: string;
  patronId: string | null;
  seatingId: string | null;
  carriedFromId: string;
}

/** The shoe row as locked for a write, with its table (immutable rules), property clock and waiting tie bets. */
export interface LockedShoe {
  readonly shoe: LockedRow;
  readonly table: CasinoTable;
  readonly timeZone: string;
  readonly gamingDayStartHour: number;
  readonly carried: CarriedWager[];
  /** The patrons whose cards are in at the table now (read only where wagers are placed). */
  readonly seated: OpenSeating[];
}

/** The shoe as the write paths read it (its version is read only by the optimistic path). */
type LockedRow = Omit<Shoe, 'version'>;

/** The shoe's columns as the write paths read them. */
const SHOE_COLUMNS = `
  s.id, s.table_id AS "tableId", s.property_id AS "propertyId", s.number, s.decks, s.status, s.burn_cards AS "burnCards", s.cut_card_position AS "cutCardPosition",
  s.shuffle_ref AS "shuffleRef", s.remaining, s.cards_dealt AS "cardsDealt", s.coup_count AS "coupCount",
  s.open_coup_id AS "openCoupId", s.last_coup_number AS "lastCoupNumber", s.opened_at AS "openedAt", s.closed_at AS "closedAt"`;

export const LOCK_SHOE_SQL = `SELECT ${SHOE_COLUMNS} FROM shoes s WHERE s.id = $1::uuid FOR UPDATE`;

/** The shoe, its version, its waiting tie bets and the patrons seated at its table, all as of one snapshot (one statement). */
export const SNAPSHOT_SQL = `
  SELECT ${SHOE_COLUMNS}, s.version::text AS version,
         (SELECT coalesce(json_agg(json_build_object('id', w.id, 'seat', w.seat, 'betType', w.bet_type, 'amount', w.amount::text,
                                                     'patronId', w.patron_id, 'seatingId', w.seating_id, 'carriedFromId', w.carried_from_id)
                                   ORDER BY w.placed_at, w.id), '[]'::json)
          FROM wagers w WHERE w.shoe_id = s.id AND w.gaming_day IS NULL AND w.coup_id IS NULL AND w.status = 'OPEN') AS carried,
         (SELECT coalesce(json_agg(json_build_object('id', st.id, 'patronId', st.patron_id, 'seat', st.seat) ORDER BY st.started_at, st.id), '[]'::json)
          FROM seatings st WHERE st.table_id = s.table_id AND st.ended_at IS NULL) AS seated
  FROM shoes s WHERE s.id = $1::uuid`;

/**
 * The tie bets waiting for the shoe's next coup. Read in its own statement once the lock is held:
 * a statement's snapshot is taken before it waits for a lock, so reading them in the locking
 * statement could miss a withdrawal committed during the wait. Open wagers have no gaming day yet:
 * saying so reads the ledger's open partition alone (prisma/migrations/20261130090000_ledger_partitions).
 */
export const CARRIED_SQL = `
  SELECT id, seat, bet_type AS "betType", amount::text AS amount, patron_id AS "patronId", seating_id AS "seatingId", carried_from_id AS "carriedFromId"
  FROM wagers WHERE shoe_id = $1::uuid AND gaming_day IS NULL AND coup_id IS NULL AND status = 'OPEN' ORDER BY placed_at, id`;

/**
 * The patrons seated at a table now, in the order their cards went in. A card in or out moves the
 * version of the table's open shoe (SeatingsService), so a coup computed before it does not apply.
 */
export const SEATED_SQL = `
  SELECT id, patron_id AS "patronId", seat FROM seatings WHERE table_id = $1::uuid AND ended_at IS NULL ORDER BY started_at, id`;

/** Which of these player cards are registered. */
export const REGISTERED_SQL = `SELECT card FROM patrons WHERE card = ANY($1::text[])`;

/**
 * The pit's state as a write reads it: a table with its property's clock, and a shoe locked (or
 * read at a version) with its table and waiting tie bets. Every feature that writes to a shoe reads
 * it through here, so that writes to one shoe serialise the same way whichever room makes them.
 */

/** Shoes whose table the pit remembers: every shoe in play at a large floor, many times over. */
const SHOES_REMEMBERED = 10_000;
@Injectable()
export class PitService {
  /** Tables with their property's clock. Only fields that never change (rules, currency, limits, clock) are read from it. */
  private readonly withClock = new Map<string, TableWithClock>();
  /** Which table each recently used shoe belongs to (bounded: SHOES_REMEMBERED). */
  private readonly shoeTables = new Map<string, string>();

  constructor(private readonly prisma: PrismaService) {}

  /**
   * Inside a transaction pass its `tx`: a second connection taken while holding a row lock can
   * deadlock against a pool full of transactions waiting for that lock.
   */
  async withProperty(tableId: string, db: Tx | PrismaService = this.prisma): Promise<TableWithClock> {
    let hit = this.withClock.get(tableId);
    if (!hit) {
      const t = await db.casinoTable.findUnique({ where: { id: tableId }, include: { property: true } });
      if (!t) throw notFound('Table', tableId);
      const { property, ...table } = t;
      hit = { table, timeZone: property.timeZone, gamingDayStartHour: property.gamingDayStartHour };
      this.withClock.set(tableId, hit);
    }
    return hit;
  }

  /**
   * Locks the shoe row (SELECT … FOR UPDATE) for the rest of the transaction. Every write to a
   * shoe (coups, voids, withdrawals, collections, closing) goes through here, so they serialise
   * per shoe: coup numbers are never given twice and the composition never goes stale. With
   * `withCarried` it also reads the tie bets waiting for the shoe's next coup, and with `withSeated`
   * the patrons seated at its table, once the lock is held.
   */
  async lock(tx: Tx, shoeId: string, actor: Actor, opts: { mustBeOpen: boolean; withCarried?: boolean; withSeated?: boolean }): Promise<LockedShoe> {
    const [row] = await tx.$queryRawUnsafe<LockedRow[]>(LOCK_SHOE_SQL, shoeId);
    const carried = row && opts.withCarried ? await tx.$queryRawUnsafe<CarriedWager[]>(CARRIED_SQL, shoeId) : [];
    const seated = row && opts.withSeated ? await tx.$queryRawUnsafe<OpenSeating[]>(SEATED_SQL, row.tableId) : [];
    return this.locked(row, carried, seated, shoeId, actor, opts, await this.tablesFor(row, tx));
  }

  /** The same lock on a plain pg connection (the coup hot path); the table must be known beforehand. */
  async lockRaw(client: PoolClient, shoeId: string, actor: Actor, table: TableWithClock): Promise<LockedShoe> {
    const { rows } = await client.query<LockedRow>({ name: 'sabot-lock-shoe', text: LOCK_SHOE_SQL, values: [shoeId] });
    const carried = rows[0] ? (await client.query<CarriedWager>({ name: 'sabot-carried-wagers', text: CARRIED_SQL, values: [shoeId] })).rows : [];
    const seated = rows[0] ? (await client.query<OpenSeating>({ name: 'sabot-seated', text: SEATED_SQL, values: [rows[0].tableId] })).rows : [];
    return this.locked(rows[0], carried, seated, shoeId, actor, { mustBeOpen: true }, table);
  }

  /**
   * The shoe and its waiting tie bets as of one snapshot, without a lock: for a write that applies
   * only if the shoe's version has not moved since (see CoupsService.record).
   */
  async snapshot(shoeId: string, actor: Actor, table: TableWithClock): Promise<LockedShoe & { version: string }> {
    const { rows } = await this.prisma.pool.query<LockedRow & { version: string; carried: CarriedWager[]; seated: OpenSeating[] }>({
      name: 'sabot-shoe-snapshot',
      text: SNAPSHOT_SQL,
      values: [shoeId],
    });
    const row = rows[0];
    if (!row) throw notFound('Shoe', shoeId);
    const { version, carried, seated, ...shoe } = row;
    return { ...this.locked(shoe, carried, seated, shoeId, actor, { mustBeOpen: true }, table), version };
  }

  /**
   * Refuses patrons not in the register (UNKNOWN_PATRON), before anything is written. Patrons are
   * never deleted, so a card found here is still there when the write runs (a foreign key holds it too).
   */
  async assertRegistered(db: SqlRunner, cards: readonly string[]): Promise<void> {
    if (cards.length === 0) return;
    const wanted = [...new Set(cards)];
    const found = new Set((await db.query<{ card: string }>({ name: 'sabot-registered', text: REGISTERED_SQL, values: [wanted] })).map((r) => r.card));
    const unknown = wanted.filter((c) => !found.has(c));
    if (unknown.length) {
      throw new AppError('UNKNOWN_PATRON', `No patron is registered with card ${unknown.join(', ')}: register the card first`, { cards: unknown });
    }
  }

  /**
   * Locks the table's row for the rest of the transaction (its dealer changes, seatings, buy-ins and
   * its closing or reopening then come one after another) and refuses a closed table
   * (TABLE_CLOSED: "reopen it before <what>"). Answers the table's currency.
   */
  async lockOpenTable(tx: Tx, tableId: string, what: string): Promise<{ currency: string }> {
    const [table] = await tx.$queryRaw<
      { status: string; currency: string }[]
    >`SELECT status, currency FROM casino_tables WHERE id = ${tableId}::uuid FOR UPDATE`;
    if (!table) throw notFound('Table', tableId);
    if (table.status !== 'OPEN') throw new AppError('TABLE_CLOSED', `The table is closed: reopen it before ${what}`);
    return { currency: table.currency };
  }

  /** Which table a shoe belongs to (never changes, so cached), read without any lock held. */
  async tableOf(shoeId: string): Promise<TableWithClock> {
    let tableId = this.shoeTables.get(shoeId);
    if (!tableId) {
      const shoe = await this.prisma.shoe.findUnique({ where: { id: shoeId }, select: { tableId: true } });
      if (!shoe) throw notFound('Shoe', shoeId);
      tableId = shoe.tableId;
      // A shoe a table every hour or so, for years: keep the latest SHOES_REMEMBERED, the oldest dropped first.
      if (this.shoeTables.size >= SHOES_REMEMBERED) this.shoeTables.delete(this.shoeTables.keys().next().value!);
      this.shoeTables.set(shoeId, tableId);
    }
    return this.withProperty(tableId);
  }

  private async tablesFor(row: LockedRow | undefined, tx: Tx): Promise<TableWithClock | null> {
    return row ? this.withProperty(row.tableId, tx) : null;
  }

  private locked(
    shoe: LockedRow | undefined,
    carried: CarriedWager[],
    seated: OpenSeating[],
    shoeId: string,
    actor: Actor,
    opts: { mustBeOpen: boolean },
    t: TableWithClock | null,
  ): LockedShoe {
    if (!shoe || !t) throw notFound('Shoe', shoeId);
    assertTableAccess(actor, shoe.tableId);
    if (opts.mustBeOpen && shoe.status !== 'OPEN') throw new AppError('SHOE_CLOSED', `Shoe ${shoe.number} is closed`);
    return { shoe, table: t.table, timeZone: t.timeZone, gamingDayStartHour: t.gamingDayStartHour, carried, seated };
  }
}

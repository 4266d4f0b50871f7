import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { PoolClient } from 'pg';
import { Actor, assertTableAccess } from '../../platform/common/actor';
import { AppError, notFound } from '../../platform/common/errors';
import { PrismaService, Tx } from '../../platform/database/prisma.service';
import { BetType, OpenSeating } from '../../domain';
import { CasinoTable, Shoe } from '../../generated/prisma/client';
import { TableLimits } from '../../domain';
import { LimitsChange, limitsInForce, TableWithClock } from './table-rules';
import { pgRunner, prismaRunner, SqlRunner } from '../../platform/database/sql';
import { PIT_SQL } from './pit-sql';

/** A tie bet carried to the shoe's next coup, waiting for it. */
export interface CarriedWager {
  id: string;
  seat: number;
  betType: BetType;
  amount: string;
  patronId: string | null;
  seatingId: string | null;
  carriedFromId: string;
  /** Placed in dead chips (null: cash chips). */
  dead: true | null;
}

/** The shoe as a write reads it (pit.sql readShoe), with its table (immutable rules), property clock, waiting tie bets and who is seated. */
export interface ReadShoe {
  readonly shoe: LockedRow;
  /** The shoe's version when read: a write computed from this read applies only at it. */
  readonly version: string;
  readonly table: CasinoTable;
  /** The limits in force at the table (the shoe's change of limits, else the table's opening limits): every wager is checked against them. */
  readonly limits: TableLimits;
  /** The change of limits in force as stored (null: the opening limits). */
  readonly limitsChange: LimitsChange | null;
  readonly timeZone: string;
  readonly gamingDayStartHour: number;
  readonly carried: CarriedWager[];
  /** The patrons whose cards are in at the table now. */
  readonly seated: OpenSeating[];
}

/** A shoe as a whole coup's settlement statement left it. */
export interface SettledShoe {
  remaining: number[];
  cardsDealt: number;
  coupCount: number;
  lastCoupNumber: number | null;
  version: string;
  carried: CarriedWager[];
}

/** A table's row as locked for a write (pit.sql lockTable). */
export interface LockedTable {
  id: string;
  status: string;
  currency: string;
  decks: number;
  propertyId: string;
}

/** The shoe row as the write paths read it (its version apart: ReadShoe.version). */
type LockedRow = Omit<Shoe, 'version'>;

/** The shoe as readShoe answers it: its row, version, waiting tie bets and the patrons seated. */
type ReadRow = LockedRow & { version: string; limitsInForce: LimitsChange | null; carried: CarriedWager[]; seated: OpenSeating[] };

/** Which of these player cards are registered. */
export const REGISTERED_SQL = `SELECT card FROM patrons WHERE card = ANY($1::text[])`;

/**
 * The pit's state as a write reads it: a table with its property's clock, and a shoe locked (or
 * read at a version) with its table and waiting tie bets. Every feature that writes to a shoe reads
 * it through here, so that writes to one shoe serialise the same way whichever room makes them.
 */

/**
 * How much the pit remembers (lru-cache: the least recently used goes first): every shoe in play at
 * a large floor, many times over, and more tables than a property deals.
 */
const SHOES_REMEMBERED = 10_000;
const TABLES_REMEMBERED = 5_000;
@Injectable()
export class PitService {
  /** Tables with their property's clock. Only fields that never change (rules, currency, opening limits, clock) are read from it. */
  private readonly withClock = new LRUCache<string, TableWithClock>({ max: TABLES_REMEMBERED });
  /** Which table each recently used shoe belongs to. */
  private readonly shoeTables = new LRUCache<string, string>({ max: SHOES_REMEMBERED });
  /**
   * Each shoe as this instance's last whole coup left it, at the version that coup's statement
   * answered. The next coup of the shoe computes from it without reading the shoe: the settlement
   * statement applies only at that version, so anything another write changed meanwhile (on this
   * instance or another) makes it not apply, and the coup is computed again from a read.
   */
  private readonly settled = new LRUCache<string, ReadRow>({ max: SHOES_REMEMBERED });

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
   * Locks the shoe row (SELECT … FOR UPDATE) for the rest of the transaction, then reads it. Every
   * write to a shoe (coups, voids, withdrawals, collections, closing, banks) goes through here, so
   * they serialise per shoe: coup numbers are never given twice and the composition never goes stale.
   */
  async lock(tx: Tx, shoeId: string, actor: Actor, opts: { mustBeOpen: boolean }): Promise<ReadShoe> {
    const row = await this.read(prismaRunner(tx), shoeId, true);
    return this.locked(row, shoeId, actor, opts, row ? await this.withProperty(row.tableId, tx) : null);
  }

  /** The same lock on a plain pg connection (the coup hot path); the table must be known beforehand. */
  async lockRaw(client: PoolClient, shoeId: string, actor: Actor, table: TableWithClock): Promise<ReadShoe> {
    return this.locked(await this.read(pgRunner(client), shoeId, true), shoeId, actor, { mustBeOpen: true }, table);
  }

  /**
   * The shoe as of one snapshot, without a lock: for a write that applies only if the shoe's
   * version has not moved since (src/table-games/coups/coups.sql settleCoup).
   */
  async snapshot(shoeId: string, actor: Actor, table: TableWithClock): Promise<ReadShoe> {
    return this.locked(await this.read(pgRunner(this.prisma.pool), shoeId, false), shoeId, actor, { mustBeOpen: true }, table);
  }

  /** The shoe as this instance's last whole coup of it left it (see `settled`), if remembered. */
  remembered(shoeId: string, actor: Actor, table: TableWithClock): ReadShoe | null {
    const row = this.settled.get(shoeId);
    return row ? this.locked(row, shoeId, actor, { mustBeOpen: true }, table) : null;
  }

  /**
   * Remembers the shoe as a whole coup computed from `read` left it: its cards as the engine dealt
   * them, no coup taking bets, the tie bets the coup carried forward waiting, the same patrons
   * seated, at the version the settlement statement answered.
   */
  rememberSettled(read: ReadShoe, after: SettledShoe): void {
    const { shoe } = read;
    this.settled.set(shoe.id, {
      ...shoe,
      remaining: after.remaining,
      cardsDealt: after.cardsDealt,
      coupCount: after.coupCount,
      openCoupId: null,
      lastCoupNumber: after.lastCoupNumber ?? shoe.lastCoupNumber,
      version: after.version,
      limitsInForce: read.limitsChange,
      // As readShoe orders them: by when placed (all at once here), then by id.
      carried: [...after.carried].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
      seated: read.seated,
    });
  }

  /** Forgets what `rememberSettled` kept of a shoe: the next coup reads it. */
  forget(shoeId: string): void {
    this.settled.delete(shoeId);
  }

  /** The one read of a shoe (pit.sql readShoe), after its lock when `lock`. */
  private async read(db: SqlRunner, shoeId: string, lock: boolean): Promise<ReadRow | undefined> {
    if (lock) await db.run(PIT_SQL.lockShoe.bind({ shoeId }));
    const [row] = await db.query<ReadRow>(PIT_SQL.readShoe.bind({ shoeId }));
    return row;
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
  async lockOpenTable(db: SqlRunner, tableId: string, what: string): Promise<LockedTable> {
    const table = await this.lockTable(db, tableId);
    if (table.status !== 'OPEN') throw new AppError('TABLE_CLOSED', `The table is closed: reopen it before ${what}`);
    return table;
  }

  /** The patrons seated at a table now, in the order their cards went in. */
  async seatedAt(db: SqlRunner, tableId: string): Promise<OpenSeating[]> {
    return db.query<OpenSeating>(PIT_SQL.seatedAt.bind({ tableId }));
  }

  /** Locks the table's row for the rest of the transaction, open or closed. */
  async lockTable(db: SqlRunner, tableId: string): Promise<LockedTable> {
    const [table] = await db.query<LockedTable>(PIT_SQL.lockTable.bind({ tableId }));
    if (!table) throw notFound('Table', tableId);
    return table;
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
    return this.withProperty(tableId);
  }

  private locked(row: ReadRow | undefined, shoeId: string, actor: Actor, opts: { mustBeOpen: boolean }, t: TableWithClock | null): ReadShoe {
    if (!row || !t) throw notFound('Shoe', shoeId);
    const { version, limitsInForce: change, carried, seated, ...shoe } = row;
    assertTableAccess(actor, shoe.tableId);
    if (opts.mustBeOpen && shoe.status !== 'OPEN') throw new AppError('SHOE_CLOSED', `Shoe ${shoe.number} is closed`);
    const limits = limitsInForce(t.table, change);
    return { shoe, version, table: t.table, limits, limitsChange: change, timeZone: t.timeZone, gamingDayStartHour: t.gamingDayStartHour, carried, seated };
  }
}

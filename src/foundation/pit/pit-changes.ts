import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../platform/common/errors';
import { SqlRunner } from '../../platform/database/sql';
import { BetType, Card, dealFrom, formatCard, newShoe, returnToShoe } from '../../domain';
import { PIT_SQL, OpenWagerParams, TableRowParams } from './pit-sql';
import { PitService, ReadShoe } from './pit.service';

/** A bet placed on a coup taking bets, as the engine admitted it. */
export interface OpenWager {
  id: string;
  seat: number;
  betType: BetType;
  amount: bigint;
  patronId: string | null;
  seatingId: string | null;
  /** Placed in dead (non-negotiable) chips. */
  dead: boolean;
}

/** A card that came out of a seat when its table closed. */
export interface CardOut {
  id: string;
  patron_id: string;
  seat: number;
  started_at: Date;
  ended_at: Date;
}

/** A change of a table's limits as written (pit.sql changeLimits): its number at the table, when, and the open shoe it moved. */
export interface LimitsChanged {
  id: string;
  seq: number;
  effectiveAt: Date;
  shoeId: string | null;
}

/** The shoe's identity as the changes need it. */
type ShoeRef = Pick<ReadShoe['shoe'], 'id' | 'propertyId'>;

/**
 * The pit's state changes: the only code that writes tables, shoes, open wagers and seatings, each
 * change one named statement of pit.sql. Features ask for a change; the pit checks what only it
 * knows (an open shoe, a coup taking bets), asks the engine for the new state of the shoe, and
 * writes it, moving the shoe's version in the same statement. The caller holds the transaction and
 * the lock (PitService.lock, lockTable). A change to a shoe also forgets what this instance
 * remembered of it (PitService.rememberSettled), which the version would refuse anyway: the next
 * coup reads the shoe at once instead of trying first.
 */
@Injectable()
export class PitChanges {
  constructor(private readonly pit: PitService) {}

  async openTable(db: SqlRunner, row: TableRowParams): Promise<void> {
    await db.run(PIT_SQL.openTable.bind(row));
  }

  /** Closes a table with no shoe open at it; every card still in comes out (oldest first). */
  async closeTable(db: SqlRunner, tableId: string, keyId: string): Promise<CardOut[]> {
    const table = await this.pit.lockTable(db, tableId);
    if (table.status !== 'OPEN') throw new AppError('TABLE_CLOSED', 'The table is closed already');
    const [open] = await db.query<{ number: number }>(PIT_SQL.openShoeOf.bind({ tableId }));
    if (open) throw new AppError('TABLE_HAS_OPEN_SHOE', `Close shoe ${open.number} before closing the table`);
    const out = await db.query<CardOut>(PIT_SQL.closeTable.bind({ tableId, keyId }));
    return out.sort((a, b) => a.started_at.getTime() - b.started_at.getTime() || a.id.localeCompare(b.id));
  }

  async reopenTable(db: SqlRunner, tableId: string): Promise<void> {
    const table = await this.pit.lockTable(db, tableId);
    if (table.status === 'OPEN') throw new AppError('TABLE_OPEN', 'The table is open already');
    await db.run(PIT_SQL.reopenTable.bind({ tableId }));
  }

  /**
   * A change of a table's limits (checked by the engine: src/domain/game/limits.ts checkLimits), open or
   * closed: the table locked, then its open shoe, which must not be taking bets nor holding tie bets
   * carried to its next coup (those were admitted under the limits before; the new limits start with
   * a coup whose every bet is placed under them). The open shoe moves
   * onto the change, which moves its version: a coup computed before the change is never written
   * after it. Answers the change as written.
   */
  async changeLimits(
    db: SqlRunner,
    tableId: string,
    change: { minBet: bigint; maxBet: bigint; betLimits: string; reason: string; keyId: string },
  ): Promise<LimitsChanged> {
    await this.pit.lockTable(db, tableId);
    const [open] = await db.query<{ id: string; number: number }>(PIT_SQL.openShoeOf.bind({ tableId }));
    if (open) {
      await db.run(PIT_SQL.lockShoe.bind({ shoeId: open.id }));
      const [shoe] = await db.query<{ openCoupId: string | null; carried: unknown[] }>(PIT_SQL.readShoe.bind({ shoeId: open.id }));
      if (shoe?.openCoupId)
        throw new AppError(
          'COUP_IN_PROGRESS',
          `A coup of shoe ${open.number} is taking bets under the limits in force: record its cards or void it, then change the limits`,
        );
      // Tie bets carried to the next coup were placed under the limits in force: they stay on the
      // layout for that coup, which is then dealt under one level.
      if (shoe?.carried.length)
        throw new AppError(
          'COUP_IN_PROGRESS',
          `Tie bets on shoe ${open.number} wait on the layout for the next coup, placed under the limits in force: deal that coup (or withdraw them), then change the limits`,
        );
      this.pit.forget(open.id);
    }
    const [written] = await db.query<LimitsChanged>(
      PIT_SQL.changeLimits.bind({ id: randomUUID(), tableId, ...change, minBet: change.minBet.toString(), maxBet: change.maxBet.toString() }),
    );
    return written;
  }

  /**
   * Brings a new shoe to an open table with no shoe open: the engine counts its cards after the
   * burn. Answers the new shoe's id.
   */
  async openShoe(
    db: SqlRunner,
    tableId: string,
    o: { decks?: number; burn: Card[]; cutCardPosition: number | null; shuffleRef: string | null },
  ): Promise<string> {
    const table = await this.pit.lockOpenTable(db, tableId, 'opening a shoe');
    const [open] = await db.query<{ number: number }>(PIT_SQL.openShoeOf.bind({ tableId }));
    if (open) throw new AppError('SHOE_ALREADY_OPEN', `Shoe ${open.number} is still open at this table: close it first`);
    const decks = o.decks ?? table.decks;
    const { remaining, cardsDealt } = newShoe(decks, o.burn, o.cutCardPosition);
    const id = randomUUID();
    await db.run(
      PIT_SQL.openShoe.bind({
        id,
        tableId,
        propertyId: table.propertyId,
        decks,
        burnCards: o.burn.map(formatCard),
        cutCardPosition: o.cutCardPosition,
        shuffleRef: o.shuffleRef,
        remaining,
        cardsDealt,
      }),
    );
    return id;
  }

  /** Closes a locked shoe with no coup taking bets; the tie bets waiting go back. Answers them. */
  async closeShoe(db: SqlRunner, locked: ReadShoe, closedAt: Date): Promise<string[]> {
    if (locked.shoe.openCoupId) throw new AppError('COUP_IN_PROGRESS', 'A coup is still taking bets: record its cards or void it before closing the shoe');
    this.pit.forget(locked.shoe.id);
    const rows = await db.query<{ id: string }>(PIT_SQL.closeShoe.bind({ shoeId: locked.shoe.id, closedAt: closedAt.toISOString() }));
    return rows.map((r) => r.id);
  }

  /** The cards of a coup written outside settleCoup (a player-banked coup) leave the locked shoe. */
  async deal(db: SqlRunner, locked: ReadShoe, number: number, cards: readonly Card[]): Promise<void> {
    const { shoe } = locked;
    const dealt = dealFrom(shoe, number, cards);
    this.pit.forget(shoe.id);
    await db.run(
      PIT_SQL.dealShoe.bind({
        shoeId: shoe.id,
        remaining: dealt.remaining,
        cardsDealt: dealt.cardsDealt,
        coupCount: number,
        lastCoupNumber: dealt.lastCoupNumber,
      }),
    );
  }

  /** A coup (its row written) opens for betting on the locked shoe: the waiting tie bets join it, and the new bets are placed. */
  async openCoup(db: SqlRunner, shoe: ShoeRef, coup: { id: string; number: number }, carriedIds: string[], wagers: OpenWager[], placedAt: Date): Promise<void> {
    this.pit.forget(shoe.id);
    await db.run(
      PIT_SQL.openCoup.bind({
        shoeId: shoe.id,
        propertyId: shoe.propertyId,
        coupId: coup.id,
        coupNumber: coup.number,
        carriedIds,
        placedAt: placedAt.toISOString(),
        ...openWagerParams(wagers),
      }),
    );
  }

  /** New bets on the locked shoe's coup taking bets. */
  async placeWagers(db: SqlRunner, shoe: ShoeRef, coupId: string, wagers: OpenWager[], placedAt: Date): Promise<void> {
    if (wagers.length === 0) return;
    this.pit.forget(shoe.id);
    await db.run(
      PIT_SQL.placeWagers.bind({ shoeId: shoe.id, propertyId: shoe.propertyId, coupId, placedAt: placedAt.toISOString(), ...openWagerParams(wagers) }),
    );
  }

  /** A carried tie bet (checked OPEN and carried, under the shoe's lock) taken back. */
  async withdraw(db: SqlRunner, shoeId: string, wagerId: string): Promise<void> {
    this.pit.forget(shoeId);
    await db.run(PIT_SQL.withdrawWager.bind({ shoeId, wagerId }));
  }

  /** A coup voided while taking bets: its new bets go back, its carried ones wait again. Answers the bets returned. */
  async cancelOpenCoup(db: SqlRunner, shoeId: string, coupId: string): Promise<string[]> {
    this.pit.forget(shoeId);
    return (await db.query<{ id: string }>(PIT_SQL.cancelOpenCoup.bind({ shoeId, coupId }))).map((r) => r.id);
  }

  /**
   * A settled coup voided: the tie bets it carried forward go back, and its cards return to the
   * shoe when `returned` (they never came out of it). Answers the bets returned.
   */
  async undoSettledCoup(db: SqlRunner, locked: ReadShoe, wagerIds: string[], returned: readonly Card[] | null): Promise<string[]> {
    const back = returned ? returnToShoe(locked.shoe, returned) : null;
    this.pit.forget(locked.shoe.id);
    const rows = await db.query<{ id: string }>(
      PIT_SQL.undoSettledCoup.bind({ shoeId: locked.shoe.id, wagerIds, remaining: back?.remaining ?? null, cardsDealt: back?.cardsDealt ?? null }),
    );
    return rows.map((r) => r.id);
  }

  /** A patron's card in at a seat of a locked, open table (the patron checked). Answers the seating's id. */
  async seat(db: SqlRunner, s: { patronId: string; tableId: string; seat: number; gamingDay: string; startedAt: Date; keyId: string }): Promise<string> {
    const id = randomUUID();
    await db.run(PIT_SQL.seat.bind({ id, ...s, startedAt: s.startedAt.toISOString() }));
    return id;
  }

  /** A patron's card out (its table locked). False when it had come out already. */
  async unseat(db: SqlRunner, seatingId: string, keyId: string, endedAt: Date): Promise<boolean> {
    return (await db.query(PIT_SQL.unseat.bind({ seatingId, keyId, endedAt: endedAt.toISOString() }))).length === 1;
  }
}

function openWagerParams(wagers: readonly OpenWager[]): OpenWagerParams {
  return {
    ids: wagers.map((w) => w.id),
    seats: wagers.map((w) => w.seat),
    betTypes: wagers.map((w) => w.betType),
    amounts: wagers.map((w) => w.amount.toString()),
    patrons: wagers.map((w) => w.patronId),
    seatings: wagers.map((w) => w.seatingId),
    dead: wagers.map((w) => (w.dead ? true : null)),
  };
}

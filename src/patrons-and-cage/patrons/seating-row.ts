import { averageBetOf } from '../../domain';
import { minorUnits, minorUnitsOrNull } from '../../platform/common/exact-json';
import { SeatingDto, TableSeatingDto } from './dto/seating.dto';

/** A seating as the named queries (patrons.sql) read it. */
export interface SeatingRow {
  id: string;
  patron_id: string;
  table_id: string;
  seat: number;
  gaming_day: string;
  started_at: Date;
  ended_at: Date | null;
  started_by_key_id: string;
  ended_by_key_id: string | null;
}

/** A seating of a table's listing, with its play: coups played in it (settled wagers on coups not voided) and their handle in minor units. */
export interface SeatedPlayRow extends SeatingRow {
  coups: number;
  handle: string;
}

export function toSeatingDto(r: SeatingRow): SeatingDto {
  return {
    id: r.id,
    patronId: r.patron_id,
    tableId: r.table_id,
    seat: r.seat,
    gamingDay: r.gaming_day,
    startedAt: r.started_at.toISOString(),
    endedAt: r.ended_at?.toISOString() ?? null,
    startedByKeyId: r.started_by_key_id,
    endedByKeyId: r.ended_by_key_id,
  };
}

export function toTableSeatingDto(r: SeatedPlayRow): TableSeatingDto {
  return {
    ...toSeatingDto(r),
    coups: r.coups,
    handle: minorUnits(BigInt(r.handle)),
    averageBet: minorUnitsOrNull(averageBetOf(BigInt(r.handle), r.coups)),
  };
}

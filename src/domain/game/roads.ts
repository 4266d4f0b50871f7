import type { Winner } from './tableau';

/**
 * The scoreboard's five roads (docs/domain.md §8), from a shoe's coups in order, voided coups left
 * out by the caller. Every road is a grid six rows high, filled column by column; the caller draws
 * the cells where they say, without recomputing anything.
 *
 * - Bead plate: every coup, ties included, one cell each, down a column then the next.
 * - Big road: Banker and Player only. A new column starts when the winner changes; a column runs
 *   down and, when it meets the bottom or a filled cell, turns right along that row (the "dragon
 *   tail"). A tie is marked on the cell of the coup before it (its count grows with each tie); ties
 *   before the shoe's first Banker or Player coup are marked on the first cell, which the first
 *   Banker or Player coup then fills.
 * - Big eye boy, small road, cockroach pig (k = 1, 2, 3): one red or blue mark for each big road
 *   entry from the second cell of big road column k + 1 (or, if that column has one cell, the first
 *   of column k + 2). An entry that starts a column is red when the two columns before it (the one
 *   just before, and the one k further back) have the same length; an entry further down its column
 *   is red when the column k back has a cell in the same row, blue when that column ended exactly
 *   one row above, and red when it ended earlier. The marks are drawn like a big road (a new column
 *   when the colour changes), with their own dragon tails.
 * - Next: the mark each derived road would add if the next coup were Banker, or Player.
 */

export const ROAD_ROWS = 6;

/** One coup as the roads read it. */
export interface RoadCoup {
  readonly number: number;
  readonly winner: Winner;
  readonly natural: boolean;
  readonly playerPair: boolean;
  readonly bankerPair: boolean;
}

export interface BeadCell {
  readonly column: number;
  readonly row: number;
  readonly coup: number;
  readonly winner: Winner;
  readonly natural: boolean;
  readonly playerPair: boolean;
  readonly bankerPair: boolean;
}

export interface BigRoadCell {
  readonly column: number;
  readonly row: number;
  /** The coup in the cell; null only for a first cell holding ties alone, before any Banker or Player coup. */
  readonly coup: number | null;
  readonly winner: 'BANKER' | 'PLAYER' | null;
  /** Ties marked on this cell: the ties after its coup (and, on the first cell, those before the first winner). */
  readonly ties: number;
  readonly playerPair: boolean;
  readonly bankerPair: boolean;
}

export type RoadColour = 'RED' | 'BLUE';

export interface DerivedCell {
  readonly column: number;
  readonly row: number;
  readonly colour: RoadColour;
}

export interface Grid<C> {
  readonly rows: number;
  /** Columns in use (the highest column of a cell, plus one). */
  readonly columns: number;
  readonly cells: readonly C[];
}

export interface DerivedNext {
  readonly bigEyeBoy: RoadColour | null;
  readonly smallRoad: RoadColour | null;
  readonly cockroachPig: RoadColour | null;
}

export interface Roads {
  readonly counts: { readonly banker: number; readonly player: number; readonly tie: number; readonly playerPairs: number; readonly bankerPairs: number };
  readonly beadPlate: Grid<BeadCell>;
  readonly bigRoad: Grid<BigRoadCell>;
  readonly bigEyeBoy: Grid<DerivedCell>;
  readonly smallRoad: Grid<DerivedCell>;
  readonly cockroachPig: Grid<DerivedCell>;
  /** What each derived road would add if the next coup were Banker, or Player. */
  readonly next: { readonly BANKER: DerivedNext; readonly PLAYER: DerivedNext };
}

const grid = <C extends { column: number }>(cells: C[]): Grid<C> => ({
  rows: ROAD_ROWS,
  columns: cells.reduce((m, c) => Math.max(m, c.column + 1), 0),
  cells,
});

/**
 * Places streaks on a six-row grid: each streak starts a column to the right of where the last one
 * started, runs down, and turns right for good at the bottom or at a filled cell.
 */
export function placeStreaks(streakLengths: readonly number[]): { column: number; row: number }[][] {
  const filled = new Set<string>();
  const at = (x: number, y: number) => filled.has(`${x},${y}`);
  const out: { column: number; row: number }[][] = [];
  let start = -1;
  for (const length of streakLengths) {
    start += 1;
    while (at(start, 0)) start += 1; // only behind a tail that ran along the top row
    let x = start;
    let y = 0;
    let turned = false;
    const cells: { column: number; row: number }[] = [];
    for (let i = 0; i < length; i++) {
      if (i > 0) {
        if (!turned && y + 1 < ROAD_ROWS && !at(x, y + 1)) y += 1;
        else {
          turned = true;
          x += 1;
          while (at(x, y)) x += 1;
        }
      }
      filled.add(`${x},${y}`);
      cells.push({ column: x, row: y });
    }
    out.push(cells);
  }
  return out;
}

/** The big road's logical columns: the lengths of the Banker and Player streaks, in order. */
export function streaksOf(winners: readonly ('BANKER' | 'PLAYER')[]): number[] {
  const lengths: number[] = [];
  winners.forEach((w, i) => {
    if (i > 0 && w === winners[i - 1]) lengths[lengths.length - 1] += 1;
    else lengths.push(1);
  });
  return lengths;
}

/**
 * The colour a derived road (k = 1 big eye boy, 2 small road, 3 cockroach pig) gives the big road
 * entry in streak `column`, row `row` (both from 0), given the lengths of the streaks before it;
 * null while the road has not started.
 */
export function derivedColour(lengths: readonly number[], column: number, row: number, k: 1 | 2 | 3): RoadColour | null {
  if (row === 0) {
    if (column < k + 1) return null;
    return lengths[column - 1] === lengths[column - 1 - k] ? 'RED' : 'BLUE';
  }
  if (column < k) return null;
  const back = lengths[column - k];
  if (row < back) return 'RED';
  return row === back ? 'BLUE' : 'RED';
}

/** A derived road's marks for every big road entry, from the streak lengths alone. */
export function derivedMarks(lengths: readonly number[], k: 1 | 2 | 3): RoadColour[] {
  const marks: RoadColour[] = [];
  lengths.forEach((length, column) => {
    for (let row = 0; row < length; row++) {
      const colour = derivedColour(lengths, column, row, k);
      if (colour) marks.push(colour);
    }
  });
  return marks;
}

function derivedGrid(marks: readonly RoadColour[]): Grid<DerivedCell> {
  const runs: RoadColour[] = [];
  const lengths = streaksOf(marks.map((m) => (m === 'RED' ? 'BANKER' : 'PLAYER')));
  let i = 0;
  for (const n of lengths) {
    runs.push(marks[i]);
    i += n;
  }
  const placed = placeStreaks(lengths);
  return grid(placed.flatMap((cells, s) => cells.map((c) => ({ ...c, colour: runs[s] }))));
}

/** What each derived road would add if the next coup went to `winner` (a tie adds nothing). */
function nextMarks(winners: readonly ('BANKER' | 'PLAYER')[], winner: 'BANKER' | 'PLAYER'): DerivedNext {
  const lengths = streaksOf([...winners, winner]);
  const column = lengths.length - 1;
  const row = lengths[column] - 1;
  return {
    bigEyeBoy: derivedColour(lengths, column, row, 1),
    smallRoad: derivedColour(lengths, column, row, 2),
    cockroachPig: derivedColour(lengths, column, row, 3),
  };
}

export function roadsOf(coups: readonly RoadCoup[]): Roads {
  const beadPlate = grid(
    coups.map((c, i) => ({
      column: Math.floor(i / ROAD_ROWS),
      row: i % ROAD_ROWS,
      coup: c.number,
      winner: c.winner,
      natural: c.natural,
      playerPair: c.playerPair,
      bankerPair: c.bankerPair,
    })),
  );

  // The big road's entries: Banker and Player coups, each with the ties that followed it.
  const entries: { coup: RoadCoup; ties: number }[] = [];
  let leadingTies = 0;
  for (const c of coups) {
    if (c.winner === 'TIE') {
      if (entries.length === 0) leadingTies += 1;
      else entries[entries.length - 1].ties += 1;
    } else entries.push({ coup: c, ties: 0 });
  }
  const winners = entries.map((e) => e.coup.winner as 'BANKER' | 'PLAYER');
  const lengths = streaksOf(winners);
  const placed = placeStreaks(lengths).flat();
  const bigRoadCells: BigRoadCell[] = entries.map((e, i) => ({
    ...placed[i],
    coup: e.coup.number,
    winner: winners[i],
    ties: e.ties + (i === 0 ? leadingTies : 0),
    playerPair: e.coup.playerPair,
    bankerPair: e.coup.bankerPair,
  }));
  if (entries.length === 0 && leadingTies > 0) {
    bigRoadCells.push({ column: 0, row: 0, coup: null, winner: null, ties: leadingTies, playerPair: false, bankerPair: false });
  }

  const count = (f: (c: RoadCoup) => boolean) => coups.filter(f).length;
  return {
    counts: {
      banker: count((c) => c.winner === 'BANKER'),
      player: count((c) => c.winner === 'PLAYER'),
      tie: count((c) => c.winner === 'TIE'),
      playerPairs: count((c) => c.playerPair),
      bankerPairs: count((c) => c.bankerPair),
    },
    beadPlate,
    bigRoad: grid(bigRoadCells),
    bigEyeBoy: derivedGrid(derivedMarks(lengths, 1)),
    smallRoad: derivedGrid(derivedMarks(lengths, 2)),
    cockroachPig: derivedGrid(derivedMarks(lengths, 3)),
    next: { BANKER: nextMarks(winners, 'BANKER'), PLAYER: nextMarks(winners, 'PLAYER') },
  };
}

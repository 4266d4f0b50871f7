import { derivedMarks, Grid, placeStreaks, RoadCoup, roadsOf, seededRandom, streaksOf, Winner } from '../../../src/domain';

/**
 * The scoreboard's roads (docs/domain.md §8): the edge cases that road engines have got wrong first
 * (ties at the start, ties in a row, dragon tails running into each other, where the derived roads
 * start), against grids drawn by hand; then properties over random shoes.
 */

/** Coups from a string: B, P, T; a lower-case letter carries a Banker pair (b, p, t). */
function coups(s: string): RoadCoup[] {
  return [...s.replace(/\s/g, '')].map((ch, i) => ({
    number: i + 1,
    winner: ({ B: 'BANKER', P: 'PLAYER', T: 'TIE' } as Record<string, Winner>)[ch.toUpperCase()],
    natural: false,
    playerPair: false,
    bankerPair: ch !== ch.toUpperCase(),
  }));
}

/** A grid drawn as text, six rows, "." for an empty cell. */
function draw<C extends { column: number; row: number }>(g: Grid<C>, mark: (c: C) => string): string {
  const rows = Array.from({ length: g.rows }, () => Array.from({ length: g.columns }, () => '.'));
  for (const c of g.cells) {
    if (rows[c.row][c.column] !== '.') throw new Error(`two cells at column ${c.column}, row ${c.row}`);
    rows[c.row][c.column] = mark(c);
  }
  return rows
    .map((r) => r.join('').replace(/\.+$/, ''))
    .join('\n')
    .replace(/\n+$/, '');
}

const big = (s: string) => draw(roadsOf(coups(s)).bigRoad, (c) => (c.winner === 'BANKER' ? 'B' : c.winner === 'PLAYER' ? 'P' : '-'));
const colour = (c: { colour: string }) => (c.colour === 'RED' ? 'R' : 'U');

describe('bead plate', () => {
  it('every coup, ties included, down six rows then the next column, with its pairs', () => {
    const r = roadsOf(coups('BPTbPP BT'));
    expect(draw(r.beadPlate, (c) => c.winner[0])).toBe(['BB', 'PT', 'T', 'B', 'P', 'P'].join('\n'));
    expect(r.beadPlate.cells[3]).toMatchObject({ column: 0, row: 3, coup: 4, bankerPair: true });
    expect(r.counts).toEqual({ banker: 3, player: 3, tie: 2, playerPairs: 0, bankerPairs: 1 });
  });
});

describe('big road: ties', () => {
  it('a shoe that opens with a tie shows it on the first cell, empty until a winner fills it', () => {
    expect(roadsOf(coups('T')).bigRoad.cells).toEqual([{ column: 0, row: 0, coup: null, winner: null, ties: 1, playerPair: false, bankerPair: false }]);
    expect(roadsOf(coups('TT')).bigRoad.cells).toEqual([{ column: 0, row: 0, coup: null, winner: null, ties: 2, playerPair: false, bankerPair: false }]);
    expect(roadsOf(coups('TTB')).bigRoad.cells).toEqual([{ column: 0, row: 0, coup: 3, winner: 'BANKER', ties: 2, playerPair: false, bankerPair: false }]);
  });

  it('a tie marks the cell of the coup before it; ties in a row add up on that cell; the next winner takes its own cell', () => {
    const cells = roadsOf(coups('BTTP')).bigRoad.cells;
    expect(cells.map((c) => [c.column, c.row, c.winner, c.ties])).toEqual([
      [0, 0, 'BANKER', 2],
      [1, 0, 'PLAYER', 0],
    ]);
    // A tie between two Banker wins does not break the Banker column.
    expect(big('BTB')).toBe('B\nB');
    // Leading ties and a later tie on the same first cell add up.
    expect(roadsOf(coups('TBT')).bigRoad.cells.map((c) => c.ties)).toEqual([2]);
    // A tie after a later cell marks that cell, not the first.
    expect(roadsOf(coups('TBBT')).bigRoad.cells.map((c) => c.ties)).toEqual([1, 1]);
  });

  it('ties never reach the derived roads', () => {
    const plain = roadsOf(coups('BPPBBBPBPPPP'));
    const tied = roadsOf(coups('TBTPTPBTBBTPBPTPPPT'));
    for (const road of ['bigEyeBoy', 'smallRoad', 'cockroachPig'] as const) expect(tied[road]).toEqual(plain[road]);
    expect(tied.next).toEqual(plain.next);
  });
});

describe('big road: columns and dragon tails', () => {
  it('a new column when the winner changes', () => {
    expect(big('BBPBBBPP')).toBe(['BPBP', 'B.BP', '..B'].join('\n'));
  });

  it('a streak past six rows turns right along the bottom', () => {
    expect(big('BBBBBBBB')).toBe(['B', 'B', 'B', 'B', 'B', 'BBB'].join('\n'));
  });

  it('a streak that meets the tail of the one before turns right above it', () => {
    // Seven Banker (the last along the bottom), then seven Player: the Player column stops above the
    // Banker tail at row 5 and turns right along row 4.
    expect(big('BBBBBBB PPPPPPP')).toBe(['BP', 'BP', 'BP', 'BP', 'BPPP', 'BB'].join('\n'));
  });

  it('a short column after a tail starts at the top, one column right of where the last column started', () => {
    expect(big('BBBBBBBB P B')).toBe(['BPB', 'B', 'B', 'B', 'B', 'BBB'].join('\n'));
  });

  it('tails nest: each streak turns at the first filled cell below it', () => {
    expect(placeStreaks([7, 6, 5])).toEqual([
      [0, 1, 2, 3, 4, 5].map((row) => ({ column: 0, row })).concat([{ column: 1, row: 5 }]),
      [0, 1, 2, 3, 4].map((row) => ({ column: 1, row })).concat([{ column: 2, row: 4 }]),
      [0, 1, 2, 3].map((row) => ({ column: 2, row })).concat([{ column: 3, row: 3 }]),
    ]);
  });
});

describe('derived roads', () => {
  // Big road streaks 1, 2, 1, 3 (B | PP | B | PPP), worked by hand:
  //   big eye boy (k = 1): (1,1) column 0 ended one row above → blue; (2,0) lengths 2 vs 1 → blue;
  //     (3,0) 1 vs 2 → blue; (3,1) column 2 ended one row above → blue; (3,2) ended earlier → red.
  //   small road (k = 2): starts at (3,0): lengths 1 vs 1 → red; (3,1) column 1 has row 1 → red;
  //     (3,2) column 1 ended one row above → blue.
  //   cockroach pig (k = 3): starts at (3,1): column 0 ended one row above → blue; (3,2) → red.
  it('marks a worked shoe as drawn by hand', () => {
    expect(derivedMarks([1, 2, 1, 3], 1)).toEqual(['BLUE', 'BLUE', 'BLUE', 'BLUE', 'RED']);
    expect(derivedMarks([1, 2, 1, 3], 2)).toEqual(['RED', 'RED', 'BLUE']);
    expect(derivedMarks([1, 2, 1, 3], 3)).toEqual(['BLUE', 'RED']);
    const r = roadsOf(coups('B PP B PPP'));
    expect(draw(r.bigEyeBoy, colour)).toBe(['UR', 'U', 'U', 'U'].join('\n'));
    expect(draw(r.smallRoad, colour)).toBe(['RU', 'R'].join('\n'));
    expect(draw(r.cockroachPig, colour)).toBe('UR');
  });

  it('each starts at the second cell of big road column k + 1, or the first of column k + 2 when that column has one cell', () => {
    // Column 2 (k = 1) has two cells: the big eye boy starts at its second.
    expect(derivedMarks(streaksOf(['BANKER', 'PLAYER', 'PLAYER']), 1)).toHaveLength(1);
    // Column 2 has one cell: nothing until the first cell of column 3.
    expect(derivedMarks(streaksOf(['BANKER', 'PLAYER']), 1)).toHaveLength(0);
    expect(derivedMarks(streaksOf(['BANKER', 'PLAYER', 'BANKER']), 1)).toEqual(['RED']);
    expect(derivedMarks([1, 1], 2)).toEqual([]);
    expect(derivedMarks([1, 1, 1], 2)).toEqual([]);
    expect(derivedMarks([1, 1, 1, 1], 2)).toEqual(['RED']);
    expect(derivedMarks([1, 1, 1, 1], 3)).toEqual([]);
    expect(derivedMarks([1, 1, 1, 1, 1], 3)).toEqual(['RED']);
    expect(derivedMarks([1, 1, 1, 2], 3)).toEqual(['BLUE']);
  });

  it('a choppy shoe (one cell a column) is all red; a streaky one (long columns) is red down each column', () => {
    expect(new Set(derivedMarks([1, 1, 1, 1, 1, 1, 1, 1], 1))).toEqual(new Set(['RED']));
    expect(derivedMarks([5, 5, 5], 1)).toEqual(['RED', 'RED', 'RED', 'RED', 'RED', 'RED', 'RED', 'RED', 'RED']);
  });

  it('look-ahead: what each road would add if the next coup were Banker, or Player', () => {
    const r = roadsOf(coups('B PP B PPP'));
    // Banker next starts column 4: each road compares column 3 (length 3) with column 2, 1 or 0
    // (lengths 1, 2, 1): all blue. Player next is row 3 of column 3: columns 2, 1 and 0 all ended
    // earlier (lengths 1, 2, 1): all red.
    expect(r.next).toEqual({
      BANKER: { bigEyeBoy: 'BLUE', smallRoad: 'BLUE', cockroachPig: 'BLUE' },
      PLAYER: { bigEyeBoy: 'RED', smallRoad: 'RED', cockroachPig: 'RED' },
    });
    // Before a road starts, it would add nothing.
    expect(roadsOf(coups('B')).next).toEqual({
      BANKER: { bigEyeBoy: null, smallRoad: null, cockroachPig: null },
      PLAYER: { bigEyeBoy: null, smallRoad: null, cockroachPig: null },
    });
    expect(roadsOf([]).next.PLAYER).toEqual({ bigEyeBoy: null, smallRoad: null, cockroachPig: null });
  });
});

describe('properties over random shoes', () => {
  const random = seededRandom(17);
  const shoes = Array.from({ length: 300 }, () => {
    const n = Math.floor(random() * 90);
    return Array.from({ length: n }, () => {
      const x = random();
      return x < 0.46 ? 'B' : x < 0.9 ? 'P' : 'T';
    }).join('');
  });

  it('no two cells share a place, every cell lies within six rows, and each streak moves one step down or right', () => {
    const problems: string[] = [];
    for (const s of shoes) {
      const r = roadsOf(coups(s));
      for (const road of [r.beadPlate, r.bigRoad, r.bigEyeBoy, r.smallRoad, r.cockroachPig] as Grid<{ column: number; row: number }>[]) {
        const places = road.cells.map((c) => `${c.column},${c.row}`);
        if (new Set(places).size !== places.length) problems.push(`${s}: two cells in one place`);
        if (road.cells.some((c) => c.row < 0 || c.row >= 6 || c.column < 0 || c.column >= road.columns)) problems.push(`${s}: a cell off the grid`);
      }
      const cells = r.bigRoad.cells;
      for (let i = 1; i < cells.length; i++) {
        if (cells[i].winner !== cells[i - 1].winner) continue;
        const step = `${cells[i].column - cells[i - 1].column},${cells[i].row - cells[i - 1].row}`;
        if (step !== '0,1' && step !== '1,0') problems.push(`${s}: a streak jumps ${step}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('a derived road is determined by the big road alone: the same streaks give the same marks, whatever the ties and pairs', () => {
    for (const s of shoes) {
      const r = roadsOf(coups(s));
      const bare = s.replace(/T/g, '');
      const again = roadsOf(coups(bare.toLowerCase().replace(/p/g, 'P')));
      expect(again.bigEyeBoy).toEqual(r.bigEyeBoy);
      expect(again.smallRoad).toEqual(r.smallRoad);
      expect(again.cockroachPig).toEqual(r.cockroachPig);
    }
  });

  it('the look-ahead is exactly the mark the next coup adds', () => {
    for (const s of shoes) {
      const r = roadsOf(coups(s));
      for (const [winner, letter] of [
        ['BANKER', 'B'],
        ['PLAYER', 'P'],
      ] as const) {
        const after = roadsOf(coups(s + letter));
        for (const road of ['bigEyeBoy', 'smallRoad', 'cockroachPig'] as const) {
          const predicted = r.next[winner][road];
          expect(after[road].cells.length).toBe(r[road].cells.length + (predicted ? 1 : 0));
          if (predicted) expect(after[road].cells[after[road].cells.length - 1].colour).toBe(predicted);
        }
      }
    }
  });

  it('a derived road has one mark for every big road entry from where it starts', () => {
    for (const s of shoes) {
      const lengths = streaksOf([...s.replace(/T/g, '')].map((c) => (c === 'B' ? 'BANKER' : 'PLAYER')));
      const entries = lengths.reduce((a, b) => a + b, 0);
      for (const k of [1, 2, 3] as const) {
        // Entries before the start: the first k columns whole, plus the first cell of column k when it has more.
        const before = lengths.slice(0, k).reduce((a, b) => a + b, 0) + (lengths.length > k ? 1 : 0);
        expect(derivedMarks(lengths, k)).toHaveLength(Math.max(0, entries - before));
      }
    }
  });
});

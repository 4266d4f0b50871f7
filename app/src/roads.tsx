import type { Schemas } from './api';
import { useFormat } from './format';
import { useT } from './i18n';
import { WORDS } from './words';

type Roads = Schemas['RoadsDto'];
const RED = 'var(--banker)';
const BLUE = 'var(--player)';
const GREEN = 'var(--tie)';
const colourOf = (w: string | null) => (w === 'BANKER' ? RED : w === 'PLAYER' ? BLUE : GREEN);

/** A road's grid: six rows, as many columns as it has (at least `min`), drawn at `size` pixels a cell. */
function Grid(props: { title: string; label: string; columns: number; size: number; min: number; children: preact.ComponentChildren; testid: string }) {
  const cols = Math.max(props.columns, props.min);
  const w = cols * props.size;
  const h = 6 * props.size;
  const lines = [];
  for (let c = 0; c <= cols; c++) lines.push(<line key={`c${c}`} x1={c * props.size} y1={0} x2={c * props.size} y2={h} />);
  for (let r = 0; r <= 6; r++) lines.push(<line key={`r${r}`} x1={0} y1={r * props.size} x2={w} y2={r * props.size} />);
  return (
    <figure class="road">
      <figcaption>{props.title}</figcaption>
      <div class="road-scroll">
        <svg width={w} height={h} viewBox={`0 0 ${w} ${h}`} role="img" aria-label={`${props.title}: ${props.label}`} data-testid={props.testid}>
          <g class="grid">{lines}</g>
          {props.children}
        </svg>
      </div>
    </figure>
  );
}

/** Each road's cells are drawn at `scale` times the pit's size (the table-side display draws them larger). */
interface RoadProps {
  scale?: number;
  /** The fewest columns drawn (an empty road still shows its grid). */
  min?: number;
}

export function BeadPlate({ road, scale = 1, min = 12 }: { road: Roads['beadPlate'] } & RoadProps) {
  const w = useT(WORDS);
  const f = useFormat();
  const s = 30 * scale;
  const banker = road.cells.filter((c) => c.winner === 'BANKER').length;
  const player = road.cells.filter((c) => c.winner === 'PLAYER').length;
  return (
    <Grid
      title={w.roads.beadPlate}
      label={w.beadSummary(f.integer(road.cells.length), f.integer(banker), f.integer(player), f.integer(road.cells.length - banker - player))}
      columns={road.columns}
      size={s}
      min={min}
      testid="bead-plate"
    >
      {road.cells.map((c) => (
        <g key={c.coup} transform={`translate(${c.column * s + s / 2} ${c.row * s + s / 2})`} data-coup={c.coup} data-winner={c.winner}>
          <circle r={s / 2 - 3 * scale} fill={colourOf(c.winner)} />
          <text class="bead-letter" dy="0.35em" style={{ fontSize: `${0.55 * s}px` }}>
            {w.bead[c.winner]}
          </text>
          {c.bankerPair && <circle class="pair" cx={-s / 2 + 6 * scale} cy={-s / 2 + 6 * scale} r={3.5 * scale} fill={RED} />}
          {c.playerPair && <circle class="pair" cx={s / 2 - 6 * scale} cy={s / 2 - 6 * scale} r={3.5 * scale} fill={BLUE} />}
        </g>
      ))}
    </Grid>
  );
}

export function BigRoad({ road, scale = 1, min = 24 }: { road: Roads['bigRoad'] } & RoadProps) {
  const w = useT(WORDS);
  const f = useFormat();
  const s = 24 * scale;
  const k = scale;
  return (
    <Grid title={w.roads.bigRoad} label={w.bigRoadSummary(f.integer(road.columns))} columns={road.columns} size={s} min={min} testid="big-road">
      {road.cells.map((c) => (
        <g
          key={`${c.column}-${c.row}`}
          transform={`translate(${c.column * s + s / 2} ${c.row * s + s / 2})`}
          data-coup={c.coup ?? ''}
          data-winner={c.winner ?? ''}
        >
          {c.winner && <circle r={s / 2 - 4 * k} fill="none" stroke={colourOf(c.winner)} stroke-width={3 * k} />}
          {c.ties > 0 && <line x1={-s / 2 + 4 * k} y1={s / 2 - 4 * k} x2={s / 2 - 4 * k} y2={-s / 2 + 4 * k} stroke={GREEN} stroke-width={2.5 * k} />}
          {c.ties > 1 && (
            <text class="tie-count" dy="0.35em" style={{ fontSize: `${0.5 * s}px` }}>
              {c.ties}
            </text>
          )}
          {c.bankerPair && <circle cx={-s / 2 + 5 * k} cy={-s / 2 + 5 * k} r={2.5 * k} fill={RED} />}
          {c.playerPair && <circle cx={s / 2 - 5 * k} cy={s / 2 - 5 * k} r={2.5 * k} fill={BLUE} />}
        </g>
      ))}
    </Grid>
  );
}

type Mark = 'ring' | 'dot' | 'slash';
type Derived = 'bigEyeBoy' | 'smallRoad' | 'cockroachPig';
const MARKS: Record<Derived, Mark> = { bigEyeBoy: 'ring', smallRoad: 'dot', cockroachPig: 'slash' };
const TEST_IDS: Record<Derived, string> = { bigEyeBoy: 'big-eye-boy', smallRoad: 'small-road', cockroachPig: 'cockroach-pig' };

/** A derived road (big eye boy: rings, small road: dots, cockroach pig: slashes). */
export function DerivedRoad({ road, kind, scale = 1, min = 24 }: { road: Roads['bigEyeBoy']; kind: Derived } & RoadProps) {
  const w = useT(WORDS);
  const f = useFormat();
  const s = 14 * scale;
  const mark = MARKS[kind];
  const red = road.cells.filter((c) => c.colour === 'RED').length;
  return (
    <Grid
      title={w.roads[kind]}
      label={w.derivedSummary(f.integer(road.cells.length), f.integer(red), f.integer(road.cells.length - red))}
      columns={road.columns}
      size={s}
      min={min}
      testid={TEST_IDS[kind]}
    >
      {road.cells.map((c) => (
        <g key={`${c.column}-${c.row}`} transform={`translate(${c.column * s + s / 2} ${c.row * s + s / 2})`} data-colour={c.colour}>
          <DerivedMark mark={mark} colour={c.colour} size={s} />
        </g>
      ))}
    </Grid>
  );
}

function DerivedMark({ mark, colour, size }: { mark: Mark; colour: string | null; size: number }) {
  const c = colour === 'RED' ? RED : BLUE;
  const k = size / 14;
  if (mark === 'ring') return <circle r={size / 2 - 3 * k} fill="none" stroke={c} stroke-width={2 * k} />;
  if (mark === 'dot') return <circle r={size / 2 - 3 * k} fill={c} />;
  return <line x1={-size / 2 + 3 * k} y1={size / 2 - 3 * k} x2={size / 2 - 3 * k} y2={-size / 2 + 3 * k} stroke={c} stroke-width={2.5 * k} />;
}

/** What each derived road would add if the next coup were a Banker, or a Player, win. */
export function LookAhead({ next }: { next: Roads['next'] }) {
  const w = useT(WORDS);
  const word = (c: string | null) => (c === null ? w.noneYet : c === 'RED' ? w.red : w.blue);
  const row = (side: 'BANKER' | 'PLAYER') => {
    const n = next[side];
    return (
      <tr data-next={side}>
        <th scope="row" class={side === 'BANKER' ? 'banker' : 'player'}>
          {side === 'BANKER' ? w.bankerNext : w.playerNext}
        </th>
        {(['bigEyeBoy', 'smallRoad', 'cockroachPig'] as const).map((k) => (
          <td key={k} data-road={k} data-colour={n[k] ?? ''}>
            <svg width="18" height="18" viewBox="-9 -9 18 18" aria-hidden="true">
              {n[k] && <DerivedMark mark={MARKS[k]} colour={n[k]} size={18} />}
            </svg>{' '}
            {word(n[k])}
          </td>
        ))}
      </tr>
    );
  };
  return (
    <table class="figures look-ahead">
      <caption>{w.lookAhead}</caption>
      <thead>
        <tr>
          <th scope="col">{w.ifNext}</th>
          <th scope="col">{w.roads.bigEyeBoy}</th>
          <th scope="col">{w.roads.smallRoad}</th>
          <th scope="col">{w.roads.cockroachPig}</th>
        </tr>
      </thead>
      <tbody>
        {row('BANKER')}
        {row('PLAYER')}
      </tbody>
    </table>
  );
}

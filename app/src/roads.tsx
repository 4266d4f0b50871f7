import type { Schemas } from './api';

type Roads = Schemas['RoadsDto'];
const RED = 'var(--banker)';
const BLUE = 'var(--player)';
const GREEN = 'var(--tie)';
const colourOf = (w: string | null) => (w === 'BANKER' ? RED : w === 'PLAYER' ? BLUE : GREEN);
const letter = (w: string) => (w === 'BANKER' ? 'B' : w === 'PLAYER' ? 'P' : 'T');

/** A road's grid: six rows, as many columns as it has (at least `min`), drawn at `size` pixels a cell. */
function Grid(props: { label: string; columns: number; size: number; min: number; children: preact.ComponentChildren; testid: string }) {
  const cols = Math.max(props.columns, props.min);
  const w = cols * props.size;
  const h = 6 * props.size;
  const lines = [];
  for (let c = 0; c <= cols; c++) lines.push(<line key={`c${c}`} x1={c * props.size} y1={0} x2={c * props.size} y2={h} />);
  for (let r = 0; r <= 6; r++) lines.push(<line key={`r${r}`} x1={0} y1={r * props.size} x2={w} y2={r * props.size} />);
  return (
    <figure class="road">
      <figcaption>{props.label}</figcaption>
      <div class="road-scroll">
        <svg width={w} height={h} viewBox={`0 0 ${w} ${h}`} role="img" aria-label={props.label} data-testid={props.testid}>
          <g class="grid">{lines}</g>
          {props.children}
        </svg>
      </div>
    </figure>
  );
}

export function BeadPlate({ road }: { road: Roads['beadPlate'] }) {
  const s = 30;
  const banker = road.cells.filter((c) => c.winner === 'BANKER').length;
  const player = road.cells.filter((c) => c.winner === 'PLAYER').length;
  return (
    <Grid
      label={`Bead plate: ${road.cells.length} coups, ${banker} Banker, ${player} Player, ${road.cells.length - banker - player} Tie`}
      columns={road.columns}
      size={s}
      min={12}
      testid="bead-plate"
    >
      {road.cells.map((c) => (
        <g key={c.coup} transform={`translate(${c.column * s + s / 2} ${c.row * s + s / 2})`} data-coup={c.coup} data-winner={c.winner}>
          <circle r={s / 2 - 3} fill={colourOf(c.winner)} />
          <text class="bead-letter" dy="0.35em">
            {letter(c.winner)}
          </text>
          {c.bankerPair && <circle class="pair" cx={-s / 2 + 6} cy={-s / 2 + 6} r={3.5} fill={RED} />}
          {c.playerPair && <circle class="pair" cx={s / 2 - 6} cy={s / 2 - 6} r={3.5} fill={BLUE} />}
        </g>
      ))}
    </Grid>
  );
}

export function BigRoad({ road }: { road: Roads['bigRoad'] }) {
  const s = 24;
  return (
    <Grid label={`Big road: ${road.columns} columns`} columns={road.columns} size={s} min={24} testid="big-road">
      {road.cells.map((c) => (
        <g
          key={`${c.column}-${c.row}`}
          transform={`translate(${c.column * s + s / 2} ${c.row * s + s / 2})`}
          data-coup={c.coup ?? ''}
          data-winner={c.winner ?? ''}
        >
          {c.winner && <circle r={s / 2 - 4} fill="none" stroke={colourOf(c.winner)} stroke-width={3} />}
          {c.ties > 0 && <line x1={-s / 2 + 4} y1={s / 2 - 4} x2={s / 2 - 4} y2={-s / 2 + 4} stroke={GREEN} stroke-width={2.5} />}
          {c.ties > 1 && (
            <text class="tie-count" dy="0.35em">
              {c.ties}
            </text>
          )}
          {c.bankerPair && <circle cx={-s / 2 + 5} cy={-s / 2 + 5} r={2.5} fill={RED} />}
          {c.playerPair && <circle cx={s / 2 - 5} cy={s / 2 - 5} r={2.5} fill={BLUE} />}
        </g>
      ))}
    </Grid>
  );
}

type Mark = 'ring' | 'dot' | 'slash';

export function DerivedRoad({ road, name, mark }: { road: Roads['bigEyeBoy']; name: string; mark: Mark }) {
  const s = 14;
  const red = road.cells.filter((c) => c.colour === 'RED').length;
  return (
    <Grid
      label={`${name}: ${road.cells.length} marks, ${red} red, ${road.cells.length - red} blue`}
      columns={road.columns}
      size={s}
      min={24}
      testid={name.toLowerCase().replace(/ /g, '-')}
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
  if (mark === 'ring') return <circle r={size / 2 - 3} fill="none" stroke={c} stroke-width={2} />;
  if (mark === 'dot') return <circle r={size / 2 - 3} fill={c} />;
  return <line x1={-size / 2 + 3} y1={size / 2 - 3} x2={size / 2 - 3} y2={-size / 2 + 3} stroke={c} stroke-width={2.5} />;
}

/** What each derived road would add if the next coup were a Banker, or a Player, win. */
export function LookAhead({ next }: { next: Roads['next'] }) {
  const word = (c: string | null) => (c === null ? 'none yet' : c.toLowerCase());
  const row = (side: 'BANKER' | 'PLAYER') => {
    const n = next[side];
    return (
      <tr data-next={side}>
        <th scope="row" class={side === 'BANKER' ? 'banker' : 'player'}>
          {side === 'BANKER' ? 'Banker next' : 'Player next'}
        </th>
        {(['bigEyeBoy', 'smallRoad', 'cockroachPig'] as const).map((k, i) => (
          <td key={k}>
            <svg width="18" height="18" viewBox="-9 -9 18 18" aria-hidden="true">
              {n[k] && <DerivedMark mark={(['ring', 'dot', 'slash'] as const)[i]} colour={n[k]} size={18} />}
            </svg>{' '}
            {word(n[k])}
          </td>
        ))}
      </tr>
    );
  };
  return (
    <table class="figures look-ahead">
      <caption>Look-ahead</caption>
      <thead>
        <tr>
          <th scope="col">If</th>
          <th scope="col">Big eye boy</th>
          <th scope="col">Small road</th>
          <th scope="col">Cockroach pig</th>
        </tr>
      </thead>
      <tbody>
        {row('BANKER')}
        {row('PLAYER')}
      </tbody>
    </table>
  );
}

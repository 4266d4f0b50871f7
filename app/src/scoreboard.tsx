import { ErrorNote } from './error-note';
import { get, post, Schemas } from './api';
import { useLive, useLoad } from './hooks';
import { probability } from './format';
import { BeadPlate, BigRoad, DerivedRoad, LookAhead } from './roads';
import { LiveBadge } from './pit';

type Table = Schemas['TableDto'];
type Shoe = Schemas['ShoeDto'];
type Coup = Schemas['CoupDto'];
type Odds = Schemas['OddsResponseDto'];

interface Board {
  table: Table;
  shoe: Shoe | null;
  roads: Schemas['RoadsDto'] | null;
  coups: Coup[];
  odds: Odds | null;
}

async function loadBoard(tableId: string): Promise<Board> {
  const [table, shoes] = await Promise.all([get<Table>(`/v1/tables/${tableId}`), get<Shoe[]>(`/v1/tables/${tableId}/shoes`)]);
  const open = shoes.find((s) => s.status === 'OPEN') ?? shoes[0] ?? null;
  if (!open) return { table, shoe: null, roads: null, coups: [], odds: null };
  const [shoe, roads, coups] = await Promise.all([
    get<Shoe>(`/v1/shoes/${open.id}`),
    get<Schemas['RoadsDto']>(`/v1/shoes/${open.id}/roads`),
    get<Coup[]>(`/v1/shoes/${open.id}/coups`),
  ]);
  // The exact odds of the next coup, from the cards still in the shoe (casino-banked games only).
  const banked = ['CHEMIN_DE_FER', 'BANQUE'].includes(table.variant);
  const odds =
    shoe.status === 'OPEN' && !banked && shoe.cardsLeft >= 6
      ? await post<Odds>('/v1/odds', {
          variant: table.variant,
          rules: { commissionBps: table.commissionBps, tiePays: table.tiePays, sideBets: table.sideBets },
          shoe: { cards: shoe.remaining },
        }).catch(() => null)
      : null;
  return { table, shoe, roads, coups, odds };
}

const CARD = /^(10|T|[2-9AJQK])([SHDC])$/;
const SUITS: Record<string, string> = { S: '♠', H: '♥', D: '♦', C: '♣' };
const RANK_NAMES: Record<string, string> = { A: 'ace', T: '10', J: 'jack', Q: 'queen', K: 'king' };
const SUIT_NAMES: Record<string, string> = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };

function Cards({ cards }: { cards: readonly string[] }) {
  return (
    <span class="cards">
      {cards.map((c, i) => {
        const m = CARD.exec(c);
        if (!m) return <span key={i}>{c}</span>;
        return (
          <span
            key={i}
            class={`card ${m[2] === 'H' || m[2] === 'D' ? 'red' : ''}`}
            data-card={c}
            aria-label={`${RANK_NAMES[m[1]] ?? m[1]} of ${SUIT_NAMES[m[2]]}`}
          >
            {m[1] === 'T' ? '10' : m[1]}
            {SUITS[m[2]]}
          </span>
        );
      })}
    </span>
  );
}

/** "Banker 7 to 5", "Tie 6 to 6": the winner's total first. */
function result(o: Schemas['OutcomeDto']): string {
  const [w, l] = o.winner === 'PLAYER' ? [o.playerTotal, o.bankerTotal] : [o.bankerTotal, o.playerTotal];
  return `${o.winner.charAt(0)}${o.winner.slice(1).toLowerCase()} ${w} to ${l}`;
}

export function Scoreboard({ tableId }: { tableId: string }) {
  const { data, error, reload } = useLoad(() => loadBoard(tableId), [tableId]);
  const live = useLive(`/v1/tables/${tableId}/events`, reload);
  const last = data
    ? [...data.coups]
        .filter((c) => c.status === 'SETTLED' || c.void)
        .slice(-10)
        .reverse()
    : [];
  const main = data?.odds?.bets.filter((b) => ['BANKER', 'PLAYER', 'TIE'].includes(b.betType)) ?? [];
  const outcomes = data?.odds?.outcomes as Record<string, number> | undefined;
  return (
    <main class="scoreboard">
      <div class="title">
        <h1>{data ? `Table ${data.table.code}` : 'Table'}</h1>
        <LiveBadge live={live} />
      </div>
      <ErrorNote message={error} />
      {data && !data.shoe && <p>No shoe has been opened at this table.</p>}
      {data?.shoe && data.roads && (
        <>
          <dl class="facts" aria-label="The shoe">
            <div>
              <dt>Shoe</dt>
              <dd>
                #{data.shoe.number} {data.shoe.status === 'OPEN' ? '' : '(closed)'}
              </dd>
            </div>
            <div>
              <dt>Coups</dt>
              <dd data-testid="coups">{data.roads.coups}</dd>
            </div>
            <div>
              <dt>Cards left</dt>
              <dd data-testid="cards-left">{data.shoe.cardsLeft}</dd>
            </div>
            <div>
              <dt class="banker">Banker</dt>
              <dd data-testid="banker-wins">{data.roads.counts.banker}</dd>
            </div>
            <div>
              <dt class="player">Player</dt>
              <dd data-testid="player-wins">{data.roads.counts.player}</dd>
            </div>
            <div>
              <dt class="tie">Tie</dt>
              <dd data-testid="ties">{data.roads.counts.tie}</dd>
            </div>
          </dl>
          <div class="roads">
            <BeadPlate road={data.roads.beadPlate} />
            <BigRoad road={data.roads.bigRoad} />
            <DerivedRoad road={data.roads.bigEyeBoy} name="Big eye boy" mark="ring" />
            <DerivedRoad road={data.roads.smallRoad} name="Small road" mark="dot" />
            <DerivedRoad road={data.roads.cockroachPig} name="Cockroach pig" mark="slash" />
          </div>
          <div class="columns">
            <LookAhead next={data.roads.next} />
            {data.odds && outcomes && (
              <table class="figures" data-testid="odds">
                <caption>Next coup, exact odds of this shoe</caption>
                <thead>
                  <tr>
                    <th scope="col">Bet</th>
                    <th scope="col">Wins</th>
                    <th scope="col">House edge</th>
                  </tr>
                </thead>
                <tbody>
                  {main.map((b) => (
                    <tr key={b.betType}>
                      <th scope="row">{b.betType.toLowerCase()}</th>
                      <td class="num">{probability(b.results.filter((r) => r.result === 'WIN').reduce((p, r) => p + r.probability, 0))}</td>
                      <td class="num">{b.houseEdgePercent} %</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
          <table class="figures" data-testid="last-coups">
            <caption>Last coups</caption>
            <thead>
              <tr>
                <th scope="col">Coup</th>
                <th scope="col">Result</th>
                <th scope="col">Player</th>
                <th scope="col">Banker</th>
              </tr>
            </thead>
            <tbody>
              {last.map((c) => (
                <tr key={c.id} data-coup={c.number} class={c.void ? 'voided' : ''}>
                  <th scope="row">{c.number}</th>
                  <td class={c.outcome ? c.outcome.winner.toLowerCase() : ''}>{c.void ? 'voided' : c.outcome ? result(c.outcome) : ''}</td>
                  <td>{c.cards && <Cards cards={c.cards.player} />}</td>
                  <td>{c.cards && <Cards cards={c.cards.banker} />}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </main>
  );
}

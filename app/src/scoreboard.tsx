import { ErrorNote } from './error-note';
import { get, post, Schemas } from './api';
import { useLive, useLoad } from './hooks';
import { mayCall, useCaller } from './caller';
import { Format, useFormat } from './format';
import { BeadPlate, BigRoad, DerivedRoad, LookAhead } from './roads';
import { Cards } from './cards';
import { LiveBadge } from './cells';
import { useT, Words } from './i18n';
import { payTermsIn, WORDS } from './words';
import type { ScreenProps } from './screen';

const en = {
  table: (code: string) => `Table ${code}`,
  noShoe: 'No shoe has been opened at this table.',
  theShoe: 'The shoe',
  shoe: 'Shoe',
  closed: '(closed)',
  coups: 'Coups',
  cardsLeft: 'Cards left',
  limitsCaption: (since: string) => `Limits in force, since ${since}`,
  bet: 'Bet',
  min: 'Minimum',
  max: 'Maximum',
  pays: 'Pays',
  odds: 'Next coup, exact odds of this shoe',
  wins: 'Wins',
  edge: 'House edge',
  last: 'Last coups',
  coup: 'Coup',
  result: 'Result',
  voided: 'voided',
  to: (w: string, a: string, b: string) => `${w} ${a} to ${b}`,
  desk: 'Record at this table',
};
const BOARD: Words<typeof en> = {
  en,
  'zh-Hant': {
    table: (code) => `賭枱 ${code}`,
    noShoe: '此賭枱尚未開靴。',
    theShoe: '牌靴',
    shoe: '牌靴',
    closed: '（已收靴）',
    coups: '局數',
    cardsLeft: '剩餘牌數',
    limitsCaption: (since) => `現行限額，自 ${since} 起`,
    bet: '投注',
    min: '最低',
    max: '最高',
    pays: '賠率',
    odds: '下一局：此牌靴的精確機率',
    wins: '勝出機率',
    edge: '賭場優勢',
    last: '最近各局',
    coup: '局',
    result: '結果',
    voided: '已作廢',
    to: (w, a, b) => `${w} ${a} 比 ${b}`,
    desk: '在此賭枱記錄',
  },
  'zh-Hans': {
    table: (code) => `赌台 ${code}`,
    noShoe: '此赌台尚未开靴。',
    theShoe: '牌靴',
    shoe: '牌靴',
    closed: '（已收靴）',
    coups: '局数',
    cardsLeft: '剩余牌数',
    limitsCaption: (since) => `现行限额，自 ${since} 起`,
    bet: '投注',
    min: '最低',
    max: '最高',
    pays: '赔率',
    odds: '下一局：此牌靴的精确概率',
    wins: '胜出概率',
    edge: '赌场优势',
    last: '最近各局',
    coup: '局',
    result: '结果',
    voided: '已作废',
    to: (w, a, b) => `${w} ${a} 比 ${b}`,
    desk: '在此赌台记录',
  },
};

type Table = Schemas['TableDto'];
type Shoe = Schemas['ShoeDto'];
type Coup = Schemas['CoupDto'];
type Odds = Schemas['OddsResponseDto'];

interface Board {
  table: Table;
  /** The table's property's time zone: the board's moments are the floor's wall clock, whatever the browser's. */
  timeZone: string | undefined;
  shoe: Shoe | null;
  roads: Schemas['RoadsDto'] | null;
  coups: Coup[];
  odds: Odds | null;
}

/** Each property's time zone, read once a page (the board is read again on every coup); one not read is asked again next time. */
const ZONES = new Map<string, Promise<string | undefined>>();
function zoneOf(propertyId: string): Promise<string | undefined> {
  let zone = ZONES.get(propertyId);
  if (!zone) {
    zone = get<Schemas['PropertyDto']>(`/v1/properties/${propertyId}`).then(
      (p) => p.timeZone,
      () => {
        ZONES.delete(propertyId);
        return undefined;
      },
    );
    ZONES.set(propertyId, zone);
  }
  return zone;
}

async function loadBoard(tableId: string): Promise<Board> {
  const [table, shoes] = await Promise.all([get<Table>(`/v1/tables/${tableId}`), get<Shoe[]>(`/v1/tables/${tableId}/shoes`)]);
  const zone = zoneOf(table.propertyId);
  const open = shoes.find((s) => s.status === 'OPEN') ?? shoes[0] ?? null;
  if (!open) return { table, timeZone: await zone, shoe: null, roads: null, coups: [], odds: null };
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
          // The table's own rules, its pays as they are (a house's Tie or side-bet pays move the edges).
          rules: {
            commissionBps: table.commissionBps,
            tiePays: table.tiePays,
            sideBets: table.sideBets,
            pays: table.bets.map((b) => ({ betType: b.betType, pays: b.pays })),
            ...(table.perfectPairBothPays ? { perfectPairBothPays: table.perfectPairBothPays } : {}),
          },
          shoe: { cards: shoe.remaining },
        }).catch(() => null)
      : null;
  return { table, timeZone: await zone, shoe, roads, coups, odds };
}

/** "Banker 7 to 5", "Tie 6 to 6": the winner's total first. */
function result(o: Schemas['OutcomeDto'], t: (typeof BOARD)['en'], winner: Record<string, string>, f: Format): string {
  const [w, l] = o.winner === 'PLAYER' ? [o.playerTotal, o.bankerTotal] : [o.bankerTotal, o.playerTotal];
  return t.to(winner[o.winner], f.integer(w), f.integer(l));
}

/** The limits in force: the table's and each bet's, and what each pays. */
export function Limits({ table, timeZone }: { table: Table; timeZone: string | undefined }) {
  const t = useT(BOARD);
  const w = useT(WORDS);
  const f = useFormat();
  return (
    <table class="figures limits" data-testid="limits">
      <caption>{t.limitsCaption(f.dateTime(table.limitsSince, timeZone))}</caption>
      <thead>
        <tr>
          <th scope="col">{t.bet}</th>
          <th scope="col">{t.min}</th>
          <th scope="col">{t.max}</th>
          <th scope="col">{t.pays}</th>
        </tr>
      </thead>
      <tbody>
        {table.bets.map((b) => (
          <tr key={b.betType} data-bet={b.betType}>
            <th scope="row">{w.bets[b.betType] ?? b.betType}</th>
            <td class="num" data-field="min" data-minor={String(b.min)}>
              {f.currency(b.min, table.currency)}
            </td>
            <td class="num" data-field="max" data-minor={String(b.max)}>
              {f.currency(b.max, table.currency)}
            </td>
            <td class="num">{payTermsIn(b, w, f, table.currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Scoreboard({ args: [tableId] }: ScreenProps) {
  const t = useT(BOARD);
  const w = useT(WORDS);
  const f = useFormat();
  const caller = useCaller();
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
        <h1>{data ? t.table(data.table.code) : ''}</h1>
        {data && (mayCall(caller, 'recordCoup') || mayCall(caller, 'approveVoid')) && <a href={`#/desk/${data.table.id}`}>{t.desk}</a>}
        <LiveBadge live={live} />
      </div>
      <ErrorNote problem={error} />
      {!data && !error && <p role="status">{w.loading}</p>}
      {data && !data.shoe && <p>{t.noShoe}</p>}
      {data && !data.shoe && <Limits table={data.table} timeZone={data.timeZone} />}
      {data?.shoe && data.roads && (
        <div class="board">
          <div class="board-roads">
            <dl class="facts" aria-label={t.theShoe}>
              <div>
                <dt>{t.shoe}</dt>
                <dd>
                  #{data.shoe.number} {data.shoe.status === 'OPEN' ? '' : t.closed}
                </dd>
              </div>
              <div>
                <dt>{t.coups}</dt>
                <dd data-testid="coups">{f.integer(data.roads.coups)}</dd>
              </div>
              <div>
                <dt>{t.cardsLeft}</dt>
                <dd data-testid="cards-left">{f.integer(data.shoe.cardsLeft)}</dd>
              </div>
              <div>
                <dt class="banker">{w.winner.BANKER}</dt>
                <dd data-testid="banker-wins">{f.integer(data.roads.counts.banker)}</dd>
              </div>
              <div>
                <dt class="player">{w.winner.PLAYER}</dt>
                <dd data-testid="player-wins">{f.integer(data.roads.counts.player)}</dd>
              </div>
              <div>
                <dt class="tie">{w.winner.TIE}</dt>
                <dd data-testid="ties">{f.integer(data.roads.counts.tie)}</dd>
              </div>
            </dl>
            <div class="roads">
              <BeadPlate road={data.roads.beadPlate} />
              <BigRoad road={data.roads.bigRoad} />
              <DerivedRoad road={data.roads.bigEyeBoy} kind="bigEyeBoy" />
              <DerivedRoad road={data.roads.smallRoad} kind="smallRoad" />
              <DerivedRoad road={data.roads.cockroachPig} kind="cockroachPig" />
            </div>
            <div class="board-next">
              <LookAhead next={data.roads.next} />
              {data.odds && outcomes && (
                <table class="figures" data-testid="odds">
                  <caption>{t.odds}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t.bet}</th>
                      <th scope="col">{t.wins}</th>
                      <th scope="col">{t.edge}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {main.map((b) => (
                      <tr key={b.betType}>
                        <th scope="row">{w.bets[b.betType]}</th>
                        <td class="num">{f.probability(b.results.filter((r) => r.result === 'WIN').reduce((p, r) => p + r.probability, 0))}</td>
                        <td class="num">{f.percent(b.houseEdgePercent)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </div>
          </div>
          <div class="board-side">
            <Limits table={data.table} timeZone={data.timeZone} />
            <table class="figures" data-testid="last-coups">
              <caption>{t.last}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.coup}</th>
                  <th scope="col">{t.result}</th>
                  <th scope="col">{w.winner.PLAYER}</th>
                  <th scope="col">{w.winner.BANKER}</th>
                </tr>
              </thead>
              <tbody>
                {last.map((c) => (
                  <tr key={c.id} data-coup={c.number} class={c.void ? 'voided' : ''}>
                    <th scope="row">{c.number}</th>
                    <td class={c.outcome ? c.outcome.winner.toLowerCase() : ''}>{c.void ? t.voided : c.outcome ? result(c.outcome, t, w.winner, f) : ''}</td>
                    <td>{c.cards && <Cards cards={c.cards.player} />}</td>
                    <td>{c.cards && <Cards cards={c.cards.banker} />}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </main>
  );
}

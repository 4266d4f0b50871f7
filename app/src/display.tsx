import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { Amount, get, Schemas } from './api';
import { Cards } from './cards';
import { ErrorNote } from './error-note';
import { exponentOf, Format, useFormat } from './format';
import { useLive, useLoad } from './hooks';
import { useT, Words } from './i18n';
import { LangSwitch } from './lang-switch';
import type { ScreenProps } from './screen';
import { BeadPlate, BigRoad, DerivedRoad, LookAhead } from './roads';
import { payIn, payNotesIn, PayTermsView, WORDS } from './words';
import './display.css';

const en = {
  table: (code: string) => `Table ${code}`,
  shoe: (n: string) => `Shoe ${n}`,
  cardsLeft: (n: string) => `${n} cards left`,
  closed: 'Table closed',
  noShoe: 'Waiting for the first shoe',
  limits: (currency: string) => `Limits (${currency})`,
  bet: 'Bet',
  min: 'Min',
  max: 'Max',
  pays: 'Pays',
  table_: 'Table',
  paysAs: (a: string, b: string) => `${a}:${b}`,
  /** Pay notes of the bets named: "Banker, Big, Small: rounded to…". */
  notesOf: (bets: string[], notes: string[]) => `${bets.join(', ')}: ${notes.join(', ')}`,
  last: 'Last results',
  lastCoup: (n: string) => `Coup ${n}`,
  coup: (n: string) => `Coup ${n}`,
  voided: 'void',
  right: 'R',
  left: 'L',
  reconnecting: 'Reconnecting…',
  roads: 'Roads',
};
const DISPLAY: Words<typeof en> = {
  en,
  'zh-Hant': {
    table: (code) => `賭枱 ${code}`,
    shoe: (n) => `第 ${n} 靴`,
    cardsLeft: (n) => `剩 ${n} 張牌`,
    closed: '賭枱已關閉',
    noShoe: '等待開靴',
    limits: (currency) => `限額（${currency}）`,
    bet: '投注',
    min: '最低',
    max: '最高',
    pays: '賠率',
    table_: '賭枱',
    paysAs: (a, b) => `${b} 賠 ${a}`,
    notesOf: (bets, notes) => `${bets.join('、')}：${notes.join('，')}`,
    last: '最近結果',
    lastCoup: (n) => `第 ${n} 局`,
    coup: (n) => `第 ${n} 局`,
    voided: '作廢',
    right: '右',
    left: '左',
    reconnecting: '重新連線中…',
    roads: '路紙',
  },
  'zh-Hans': {
    table: (code) => `赌台 ${code}`,
    shoe: (n) => `第 ${n} 靴`,
    cardsLeft: (n) => `剩 ${n} 张牌`,
    closed: '赌台已关闭',
    noShoe: '等待开靴',
    limits: (currency) => `限额（${currency}）`,
    bet: '投注',
    min: '最低',
    max: '最高',
    pays: '赔率',
    table_: '赌台',
    paysAs: (a, b) => `${b} 赔 ${a}`,
    notesOf: (bets, notes) => `${bets.join('、')}：${notes.join('，')}`,
    last: '最近结果',
    lastCoup: (n) => `第 ${n} 局`,
    coup: (n) => `第 ${n} 局`,
    voided: '作废',
    right: '右',
    left: '左',
    reconnecting: '重新连接中…',
    roads: '路纸',
  },
};

type Board = Schemas['DisplayDto'];
type Result = Schemas['DisplayResultDto'];

/** The window's size, kept as it changes (the roads are drawn to fit it). */
function useViewport(): { w: number; h: number } {
  const read = () => ({ w: innerWidth, h: innerHeight });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const on = () => setSize(read());
    addEventListener('resize', on);
    return () => removeEventListener('resize', on);
  }, []);
  return size;
}

/**
 * A road drawn `width` pixels wide at most: cells of `target` pixels (the road's own cells are
 * `base` at scale 1), smaller once the shoe's columns would not fit, and as many empty columns as fill the width.
 */
function fit(columns: number, width: number, target: number, base: number): { scale: number; min: number } {
  const cell = Math.min(target, width / Math.max(columns, 1));
  return { scale: cell / base, min: Math.floor(width / cell) };
}

/** The main bets: their limits are read at the board's full size whatever else the table offers. */
const MAIN_BETS = ['PLAYER', 'BANKER', 'TIE'];

/**
 * The side bets' type in the limits, as a share of the board's (1em): full size while everything fits
 * the side column, else smaller, down to 0.6em (29 px on a 1080-line screen, legible from 3 m).
 */
const SIDE_SIZES = [1, 0.75, 0.6];

/**
 * The step of SIDE_SIZES at which `column` holds the limits (`limits`), the pay notes and the
 * results: after each render (before the browser paints) the column is measured, and the next step
 * tried while it is taller than the screen or the limits wider than the column (by more than a
 * pixel's rounding: what the side bets' size can mend); anything it depends on changing (`inputs`)
 * starts again from full size.
 */
function useSideSize(column: { current: HTMLElement | null }, limits: { current: HTMLElement | null }, inputs: unknown[]): number {
  const [step, setStep] = useState(0);
  useLayoutEffect(() => setStep(0), inputs);
  useLayoutEffect(() => {
    const [el, table] = [column.current, limits.current];
    if (el && table && step < SIDE_SIZES.length - 1 && (el.scrollHeight > el.clientHeight + 1 || table.offsetWidth > el.clientWidth + 1)) setStep(step + 1);
  });
  return step;
}

/** The table-side display (#/display/<tableId>): the board the players see, alone on a big screen, kept live. */
export function Display({ args: [tableId] }: ScreenProps) {
  const t = useT(DISPLAY);
  const w = useT(WORDS);
  const f = useFormat();
  const { data, error, reload } = useLoad(() => get<Board>(`/v1/tables/${tableId}/display`), [tableId]);
  const live = useLive(`/v1/tables/${tableId}/display/events`, reload);
  const { w: vw, h: vh } = useViewport();
  const u = vh / 100;
  // The roads take the left 56 % of the screen, less its padding (display.css).
  const left = vw * 0.56 - 4 * u;
  const roads = data?.roads;
  const newest = data?.results.find((r) => !r.voided);
  const side = useRef<HTMLElement>(null);
  const limits = useRef<HTMLTableElement>(null);
  const step = useSideSize(side, limits, [data, w, vw, vh]);
  return (
    <main class="display" data-table={tableId} data-live={live} style={{ fontSize: `${4.45 * u}px` }}>
      <header class="d-head">
        <h1>{data ? t.table(data.code) : ''}</h1>
        {data && <span class="d-muted">{w.variants[data.variant] ?? data.variant}</span>}
        {data?.shoe && (
          <span class="d-muted" data-testid="shoe" data-shoe={data.shoe.number}>
            {t.shoe(f.integer(data.shoe.number))} · {t.cardsLeft(f.integer(data.shoe.cardsLeft))}
          </span>
        )}
        {data?.status === 'CLOSED' && <span class="d-closed">{t.closed}</span>}
        {roads && (
          <span class="d-counts" data-testid="counts">
            <span class="banker">
              {w.winner.BANKER} {f.integer(roads.counts.banker)}
            </span>
            <span class="player">
              {w.winner.PLAYER} {f.integer(roads.counts.player)}
            </span>
            <span class="tie">
              {w.winner.TIE} {f.integer(roads.counts.tie)}
            </span>
          </span>
        )}
        <span class="d-end">
          {!live && (
            <span class="d-reconnect" role="status" data-testid="reconnecting">
              {t.reconnecting}
            </span>
          )}
          <LangSwitch />
        </span>
      </header>
      <ErrorNote problem={error} />
      {data && (
        <div class="d-body">
          <section class="d-roads" aria-label={t.roads}>
            {roads ? (
              <>
                <div class="d-row">
                  <BeadPlate road={roads.beadPlate} {...fit(roads.beadPlate.columns, left * 0.55, 4.7 * u, 30)} />
                  <div class="d-next">
                    <LookAhead next={roads.next} />
                    {newest && <LastCoup r={newest} />}
                  </div>
                </div>
                <BigRoad road={roads.bigRoad} {...fit(roads.bigRoad.columns, left, 3.4 * u, 24)} />
                <DerivedRoad road={roads.bigEyeBoy} kind="bigEyeBoy" {...fit(roads.bigEyeBoy.columns, left, 2.15 * u, 14)} />
                <div class="d-row">
                  <DerivedRoad road={roads.smallRoad} kind="smallRoad" {...fit(roads.smallRoad.columns, left / 2 - u, 2.15 * u, 14)} />
                  <DerivedRoad road={roads.cockroachPig} kind="cockroachPig" {...fit(roads.cockroachPig.columns, left / 2 - u, 2.15 * u, 14)} />
                </div>
              </>
            ) : (
              <p class="d-muted">{data.shoe ? '' : t.noShoe}</p>
            )}
          </section>
          <section class="d-side" ref={side}>
            <table ref={limits} class="d-limits" data-testid="limits" data-side-size={SIDE_SIZES[step]} style={{ '--side': SIDE_SIZES[step] }}>
              <caption>{t.limits(data.currency)}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.bet}</th>
                  <th scope="col">{t.min}</th>
                  <th scope="col">{t.max}</th>
                  <th scope="col">{t.pays}</th>
                </tr>
              </thead>
              <tbody>
                {(data.limits.bets.length ? data.limits.bets : [{ betType: '', min: data.limits.minBet, max: data.limits.maxBet, pays: '' }]).map((b) => (
                  <tr key={b.betType} data-bet={b.betType} class={b.betType && !MAIN_BETS.includes(b.betType) ? 'd-side-bet' : undefined}>
                    <th scope="row">{b.betType ? (w.bets[b.betType] ?? b.betType) : t.table_}</th>
                    <td data-field="min" data-minor={String(b.min)}>
                      {limit(f, b.min, data.currency)}
                    </td>
                    <td data-field="max" data-minor={String(b.max)}>
                      {limit(f, b.max, data.currency)}
                    </td>
                    <td data-field="pays">{b.betType ? payIn(b.pays, t.paysAs, f.decimal) : ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <PayNotes bets={data.limits.bets} currency={data.currency} />
            <h2 class="d-caption">{t.last}</h2>
            <ol class="d-results" data-testid="results">
              {data.results.map((r) => (
                <li
                  key={r.coup}
                  class={`d-result ${r.voided ? 'voided' : (r.winner ?? '').toLowerCase()}`}
                  data-coup={r.coup}
                  data-winner={r.winner ?? ''}
                  data-voided={r.voided}
                >
                  <span class="d-no">{f.integer(r.coup)}</span>
                  {r.sides ? (
                    r.sides.map((s) => (
                      <span key={s.side}>
                        {s.side === 'RIGHT' ? t.right : t.left}
                        {w.bead[s.winner === 'PUNTER' ? 'PLAYER' : s.winner]}
                      </span>
                    ))
                  ) : (
                    <span class="d-win">
                      {w.bead[r.winner!]} {f.integer(r.winner === 'PLAYER' ? r.playerTotal : r.bankerTotal)}:
                      {f.integer(r.winner === 'PLAYER' ? r.bankerTotal : r.playerTotal)}
                    </span>
                  )}
                  {r.voided && <span class="d-void">{t.voided}</span>}
                </li>
              ))}
            </ol>
          </section>
        </div>
      )}
    </main>
  );
}

/** A limit in the table's currency (named in the caption): whole units without the cents, as a table sign reads. */
function limit(f: Format, v: Amount, currency: string): string {
  const unit = 10n ** BigInt(exponentOf(currency));
  return BigInt(v) % unit === 0n ? f.integer(BigInt(v) / unit) : f.money(v, currency);
}

/** The newest coup standing, with its cards (faces are public once dealt). */
function LastCoup({ r }: { r: Result }) {
  const t = useT(DISPLAY);
  const w = useT(WORDS);
  const f = useFormat();
  const hands: [string, string, readonly string[] | null | undefined, number | null | undefined][] = r.sides
    ? [
        ['right', t.right, r.cards.right, r.sides[0].total],
        ['left', t.left, r.cards.left, r.sides[1].total],
        ['banker', w.winner.BANKER, r.cards.banker, r.bankerTotal],
      ]
    : [
        ['player', w.winner.PLAYER, r.cards.player, r.playerTotal],
        ['banker', w.winner.BANKER, r.cards.banker, r.bankerTotal],
      ];
  return (
    <section class="d-last" aria-label={t.lastCoup(f.integer(r.coup))} data-testid="last-coup" data-coup={r.coup}>
      {hands.map(([cls, name, cards, total]) => (
        <div key={cls} class={`d-hand ${cls}`}>
          <span class={cls}>{name}</span> {cards && <Cards cards={cards} />} <strong>{f.integer(total)}</strong>
        </div>
      ))}
    </section>
  );
}

/**
 * Each note said once: a note several bets share (the rounding of their pays) names them together,
 * and the notes of the same bets go together, in the order of the bets and of their notes.
 */
function notesOnce(notes: { bet: string; notes: string[] }[]): { bets: string[]; notes: string[] }[] {
  const betsOf = new Map<string, string[]>();
  for (const n of notes) for (const note of n.notes) betsOf.set(note, [...(betsOf.get(note) ?? []), n.bet]);
  const groups = new Map<string, { bets: string[]; notes: string[] }>();
  for (const [note, bets] of betsOf) {
    const group = groups.get(bets.join(' ')) ?? { bets, notes: [] };
    group.notes.push(note);
    groups.set(bets.join(' '), group);
  }
  return [...groups.values()];
}

/**
 * What a pay in the limits does not say (a Banker win's commission, Super 6's half pay, EZ's push,
 * how a pay is rounded), in smaller type under them: "Banker: less 5% commission".
 */
function PayNotes({ bets, currency }: { bets: ({ betType: string } & PayTermsView)[]; currency: string }) {
  const t = useT(DISPLAY);
  const w = useT(WORDS);
  const f = useFormat();
  // Their pays as the limits write them (250:1, 1 賠 250).
  const words = { ...w, paysAs: t.paysAs };
  const notes = notesOnce(bets.map((b) => ({ bet: b.betType, notes: payNotesIn(b, words, f, currency) })));
  if (!notes.length) return null;
  return (
    <p class="d-notes" data-testid="pay-notes">
      {notes.map((n, i) => (
        <span key={n.bets.join(' ')} data-bet={n.bets.join(' ')}>
          {i > 0 && ' · '}
          {t.notesOf(
            n.bets.map((b) => w.bets[b] ?? b),
            n.notes,
          )}
        </span>
      ))}
    </p>
  );
}

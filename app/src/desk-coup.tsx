import { useEffect, useRef, useState } from 'preact/hooks';
import { Amount, ApiError, get, post, Schemas, serviceNow } from './api';
import { mayCall, useCaller } from './caller';
import { problemOf, useLoad } from './hooks';
import { CoupRequest, discard, flush, keep, nextSeq, PendingCoup, pendingOf } from './outbox';
import { ActProblem, Done, newIdempotencyKey, useAct } from './act';
import { minorOf, wireAmount } from './amounts';
import { Head, Money } from './cells';
import { ErrorNote, Problem } from './error-note';
import { denominationsOf } from './desk-session';
import { DESK } from './desk-words';
import { decimalOf, exponentOf, Format, useFormat } from './format';
import { useT } from './i18n';
import { Scroll } from './scroll';
import { WORDS } from './words';

type Table = Schemas['TableDto'];
type Shoe = Schemas['ShoeDto'];
type Coup = Schemas['CoupDto'];
type Wager = Schemas['WagerDto'];

const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'] as const;
const SUITS = [
  ['S', '♠'],
  ['H', '♥'],
  ['D', '♦'],
  ['C', '♣'],
] as const;

/** A hand as typed ("9h kd", "10S,2c") as the API's card codes (["9H", "KD"]); what is not a card is returned apart. */
export function cardsOf(text: string): { cards: string[]; bad: string[] } {
  const cards: string[] = [];
  const bad: string[] = [];
  for (const raw of text.split(/[\s,]+/).filter(Boolean)) {
    const t = raw.toUpperCase().replace(/^10/, 'T');
    if (/^[A2-9TJQK][SHDC]$/.test(t)) cards.push(t);
    else bad.push(raw);
  }
  return { cards, bad };
}

/**
 * A bet as a dealer types it: B Banker, P Player, T Tie, BP and PP the pairs, EP either pair, PF the
 * perfect pair, BIG, SM small, S6 Super 6, D7 Dragon 7, P8 Panda 8 (or the bet's own name).
 */
const CODE_OF: Record<string, string> = {
  BANKER: 'B',
  PLAYER: 'P',
  TIE: 'T',
  BANKER_PAIR: 'BP',
  PLAYER_PAIR: 'PP',
  EITHER_PAIR: 'EP',
  PERFECT_PAIR: 'PF',
  BIG: 'BIG',
  SMALL: 'SM',
  SUPER_6: 'S6',
  DRAGON_7: 'D7',
  PANDA_8: 'P8',
};
const BET_OF = new Map(
  Object.entries(CODE_OF).flatMap(([bet, code]) => [
    [code, bet],
    [bet, bet],
  ]),
);
/** The bet a typed code names, if any. */
export const betCodeOf = (typed: string): string | undefined => BET_OF.get(typed.trim().toUpperCase().replace(/\s+/g, '_'));

interface Line {
  seat: string;
  betType: string;
  amount: string;
  chipKind: 'CASH' | 'DEAD';
  patronId: string;
}
const blank = (seat: string): Line => ({ seat, betType: 'B', amount: '', chipKind: 'CASH', patronId: '' });

/**
 * Records a coup at the table's open shoe: the cards as dealt (typed, or from the card pad) and the
 * wagers by seat (typed, or built from chips). Both hands empty opens the coup for betting
 * (stepwise); while a coup is taking bets, its wagers are added and then its cards recorded. The
 * service settles it (the one settlement path); the answer is shown as it settled: the outcome and
 * each wager's result, pay and commission.
 */
/** How soon the desk tries again to send the coups recorded here while the service does not answer. */
const RETRY_MS = 1000;

export function CoupForm({ table, shoe, timeZone, onDone }: { table: Table; shoe: Shoe; timeZone: string; onDone: () => void }) {
  const t = useT(DESK);
  const w = useT(WORDS);
  const f = useFormat();
  const act = useAct();
  const [player, setPlayer] = useState('');
  const [banker, setBanker] = useState('');
  const [padTo, setPadTo] = useState<'player' | 'banker'>('player');
  const [rank, setRank] = useState<string | null>(null);
  const [lines, setLines] = useState<Line[]>([blank('1')]);
  const touched = useRef(0);
  const [local, setLocal] = useState<string | null>(null);
  const [last, setLast] = useState<Coup | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const caller = useCaller();
  const [coupProblem, setCoupProblem] = useState<Problem | null>(null);
  const [sending, setSending] = useState(false);
  const [pending, setPending] = useState<PendingCoup[]>([]);
  const [correcting, setCorrecting] = useState<PendingCoup | null>(null);
  const retry = useRef<ReturnType<typeof setTimeout> | null>(null);
  const shown = useRef(true);
  const bets = table.bets.map((b) => b.betType);
  const betOf = (typed: string) => {
    const b = betCodeOf(typed);
    return b && bets.includes(b as (typeof bets)[number]) ? b : undefined;
  };
  const taking = shoe.openCoupId;
  // The next coup: after the shoe's last confirmed and every one recorded here and still waiting.
  // (A coup taking bets has its number already: the shoe counts it.)
  // The coup just answered counts before the desk has read the shoe again: a dealer may key the next at once.
  const next = correcting
    ? correcting.request.number
    : taking
      ? shoe.coupCount
      : Math.max(shoe.coupCount, last?.number ?? 0, ...pending.map((p) => p.request.number)) + 1;
  const nextNumber = String(next);

  /** The waiting coups sent in order; again in a moment while any waits and none is refused. */
  const kick = async () => {
    if (retry.current) clearTimeout(retry.current);
    retry.current = null;
    const waiting = await flush(shoe.id, caller.keyId, (c, answer) => {
      if (!shown.current) return;
      setLast(answer);
      setDone(t.confirmed(f.integer(c.request.number)));
      onDone();
    });
    const now = await pendingOf(shoe.id);
    if (!shown.current) return;
    setPending(now);
    if (waiting && !now.some((c) => c.refused || c.keyId !== caller.keyId)) retry.current = setTimeout(() => void kick(), RETRY_MS);
  };
  useEffect(() => {
    shown.current = true;
    void kick();
    const online = () => void kick();
    addEventListener('online', online);
    return () => {
      shown.current = false;
      removeEventListener('online', online);
      if (retry.current) clearTimeout(retry.current);
    };
  }, [shoe.id]);

  /**
   * A whole coup: sent at once when nothing waits before it; when the service cannot be reached (or
   * another coup recorded here still waits), kept here with its key and sent in order.
   */
  const recordWhole = async (request: CoupRequest): Promise<boolean> => {
    // Kept, and counted at once: the next coup keyed is numbered after it even before the outbox is read again.
    const queued = async (key: string, seq: number) => {
      await keep({ key, keyId: caller.keyId, tableId: table.id, shoeId: shoe.id, seq, request, refused: null });
      setPending(await pendingOf(shoe.id));
    };
    if (correcting || pending.length > 0) {
      if (correcting) await discard(correcting.key);
      await queued(newIdempotencyKey(), correcting?.seq ?? nextSeq());
      setCorrecting(null);
      setDone(t.recordedHere(f.integer(request.number)));
      void kick();
      return true;
    }
    const key = newIdempotencyKey();
    setSending(true);
    setCoupProblem(null);
    try {
      const answer = await post<Coup>(`/v1/shoes/${shoe.id}/coups`, request, key);
      setLast(answer);
      setDone(t.recorded(f.integer(answer.number), w.winner[answer.outcome!.winner]));
      onDone();
      return true;
    } catch (e) {
      // Refused: nothing was written; the coup stays in the form to be corrected.
      if (e instanceof ApiError && e.status < 500 && e.status !== 429) {
        setCoupProblem(problemOf(e));
        return false;
      }
      // No answer (or the service out of order): kept here, sent when it answers.
      await queued(key, nextSeq());
      setDone(t.recordedHere(f.integer(request.number)));
      void kick();
      return true;
    } finally {
      setSending(false);
    }
  };

  /** A refused coup put back in the form, to record again in its place. */
  const correct = (c: PendingCoup) => {
    setCorrecting(c);
    setPlayer(c.request.cards?.player.join(' ') ?? '');
    setBanker(c.request.cards?.banker.join(' ') ?? '');
    const ls = (c.request.wagers ?? []).map((x) => ({
      seat: String(x.seat),
      betType: CODE_OF[x.betType] ?? x.betType,
      amount: decimalOf(x.amount, exponentOf(table.currency)),
      chipKind: x.chipKind ?? 'CASH',
      patronId: x.patronId ?? '',
    }));
    setLines([...ls, blank(String(Math.min((ls.at(-1) ? Number(ls.at(-1)!.seat) : 0) + 1, 20)))]);
  };
  const drop = async (c: PendingCoup) => {
    await discard(c.key);
    if (correcting?.key === c.key) setCorrecting(null);
    await kick();
  };

  const setLine = (i: number, patch: Partial<Line>) =>
    setLines((ls) => {
      const next = ls.map((l, j) => (j === i ? { ...l, ...patch } : l));
      // Filling the last line opens the next, at the next seat.
      if (i === next.length - 1 && next[i].amount.trim() !== '') next.push(blank(String(Math.min(Number(next[i].seat) + 1 || 1, 20))));
      return next;
    });
  const addChip = (minor: bigint) => {
    const i = Math.min(touched.current, lines.length - 1);
    const now = minorOf(lines[i].amount || '0', table.currency) ?? 0n;
    const exp = minorOf('1', table.currency)!;
    const sum = now + minor;
    const whole = sum / exp;
    const part = sum % exp;
    const digits = exp.toString().length - 1;
    setLine(i, { amount: part === 0n ? whole.toString() : `${whole}.${part.toString().padStart(digits, '0')}` });
  };
  const tap = (suit: string) => {
    if (!rank) return;
    const card = `${rank}${suit}`;
    if (padTo === 'player') setPlayer((p) => `${p} ${card}`.trim());
    else setBanker((b) => `${b} ${card}`.trim());
    setRank(null);
  };
  const undo = () => (padTo === 'player' ? setPlayer : setBanker)((h) => h.split(/\s+/).slice(0, -1).join(' '));

  /** The wagers typed, as the API takes them; a message when one is not right. */
  const wagers = (): { wagers: Schemas['WagerInputDto'][]; problem: string | null } => {
    const out: Schemas['WagerInputDto'][] = [];
    for (const [i, l] of lines.entries()) {
      if (l.amount.trim() === '') continue;
      const minor = minorOf(l.amount, table.currency);
      if (minor === null || minor === 0n) return { wagers: [], problem: t.notAnAmount(i + 1) };
      const bet = betOf(l.betType);
      if (!bet) return { wagers: [], problem: t.notABet(i + 1, l.betType) };
      out.push({
        seat: Number(l.seat),
        betType: bet as Schemas['BetType'],
        amount: wireAmount(minor),
        ...(l.chipKind === 'DEAD' ? { chipKind: 'DEAD' as const } : {}),
        ...(l.patronId.trim() ? { patronId: l.patronId.trim() } : {}),
      });
    }
    return { wagers: out, problem: null };
  };
  const hands = (): { hands: { player: string[]; banker: string[] } | null; problem: string | null } => {
    const p = cardsOf(player);
    const b = cardsOf(banker);
    const bad = [...p.bad, ...b.bad];
    if (bad.length) return { hands: null, problem: t.badCard(bad.join(' ')) };
    if (p.cards.length === 0 && b.cards.length === 0) return { hands: null, problem: null };
    return { hands: { player: p.cards, banker: b.cards }, problem: null };
  };
  const reset = () => {
    setPlayer('');
    setBanker('');
    setLines([blank('1')]);
    touched.current = 0;
  };
  const submit = async (mode: 'record' | 'wagers') => {
    setDone(null);
    setLocal(null);
    setCoupProblem(null);
    const ws = wagers();
    const hs = hands();
    if (ws.problem || hs.problem) return setLocal(ws.problem ?? hs.problem);
    let answer: Coup | null;
    if (!taking && hs.hands) {
      const request: CoupRequest = {
        number: next,
        recordedAt: serviceNow().toISOString(),
        cards: hs.hands,
        ...(ws.wagers.length ? { wagers: ws.wagers } : {}),
      };
      if (await recordWhole(request)) reset();
      return;
    }
    if (!taking) {
      answer = await act.send<Coup>(`/v1/shoes/${shoe.id}/coups`, { number: next, ...(ws.wagers.length ? { wagers: ws.wagers } : {}) });
      if (answer) setDone(t.opened(f.integer(answer.number)));
    } else if (mode === 'wagers' || !hs.hands) {
      answer = await act.send<Coup>(`/v1/coups/${taking}/wagers`, { wagers: ws.wagers });
      if (answer) setDone(t.wagersAdded(f.integer(answer.number)));
    } else {
      if (ws.wagers.length) {
        const added = await act.send<Coup>(`/v1/coups/${taking}/wagers`, { wagers: ws.wagers });
        if (!added) return;
      }
      answer = await act.send<Coup>(`/v1/coups/${taking}/cards`, hs.hands);
      if (answer?.outcome) setDone(t.recorded(f.integer(answer.number), w.winner[answer.outcome.winner]));
    }
    if (answer) {
      setLast(answer);
      reset();
      onDone();
    }
  };

  const typed = wagers();
  const sum = typed.wagers.reduce((s, x) => s + BigInt(x.amount), 0n);
  return (
    <section aria-labelledby="coup-form" data-testid="desk-coup">
      <h2 id="coup-form">{taking ? t.taking(nextNumber) : `${t.coup}: ${t.coupNumber(nextNumber)}`}</h2>
      <form
        class="act coup"
        aria-labelledby="coup-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit('record');
        }}
      >
        <fieldset class="hands">
          <legend>{t.cards}</legend>
          <p class="hint">{t.cardsHint}</p>
          <label class="player">
            {t.playerHand}
            <input name="player" autoComplete="off" autoCapitalize="characters" value={player} onInput={(e) => setPlayer(e.currentTarget.value)} />
          </label>
          <label class="banker">
            {t.bankerHand}
            <input name="banker" autoComplete="off" autoCapitalize="characters" value={banker} onInput={(e) => setBanker(e.currentTarget.value)} />
          </label>
          <div class="pad" role="group" aria-label={t.pad}>
            <div role="radiogroup" aria-label={t.padTo} class="pad-to">
              {(['player', 'banker'] as const).map((h) => (
                <button key={h} type="button" tabIndex={-1} role="radio" aria-checked={padTo === h} class={h} onClick={() => setPadTo(h)}>
                  {h === 'player' ? w.winner.PLAYER : w.winner.BANKER}
                </button>
              ))}
            </div>
            <div class="ranks">
              {RANKS.map((r) => (
                <button key={r} type="button" tabIndex={-1} aria-pressed={rank === r} aria-label={t.rank(r === 'T' ? '10' : r)} onClick={() => setRank(r)}>
                  {r === 'T' ? '10' : r}
                </button>
              ))}
            </div>
            <div class="suits">
              {SUITS.map(([s, glyph]) => (
                <button
                  key={s}
                  type="button"
                  tabIndex={-1}
                  class={s === 'H' || s === 'D' ? 'red' : ''}
                  aria-label={t.suit[s]}
                  disabled={!rank}
                  onClick={() => tap(s)}
                >
                  {glyph}
                </button>
              ))}
              <button type="button" tabIndex={-1} aria-label={t.undo} onClick={undo}>
                ⌫
              </button>
            </div>
          </div>
        </fieldset>
        <fieldset class="wagers">
          <legend>{t.wagers}</legend>
          <p class="hint">{t.wagersHint}</p>
          <table class="figures wager-lines">
            <Head columns={t.wagerColumns} />
            <tbody>
              {lines.map((l, i) => (
                <tr key={i} data-line={i + 1}>
                  <td>
                    <input
                      class="seat"
                      type="number"
                      min={1}
                      max={20}
                      aria-label={t.seat(i + 1)}
                      value={l.seat}
                      onFocus={() => (touched.current = i)}
                      onInput={(e) => setLine(i, { seat: e.currentTarget.value })}
                    />
                  </td>
                  <td>
                    <input
                      class="bet"
                      list="bet-codes"
                      autoComplete="off"
                      autoCapitalize="characters"
                      aria-label={t.betOf(i + 1)}
                      aria-describedby={`bet-name-${i}`}
                      value={l.betType}
                      onFocus={() => (touched.current = i)}
                      onInput={(e) => setLine(i, { betType: e.currentTarget.value })}
                    />
                    <span id={`bet-name-${i}`} class="bet-name" data-bet={betOf(l.betType) ?? ''}>
                      {betOf(l.betType) ? (w.bets[betOf(l.betType)!] ?? betOf(l.betType)) : '?'}
                    </span>
                  </td>
                  <td>
                    <input
                      class="amount"
                      inputMode="decimal"
                      autoComplete="off"
                      aria-label={`${t.amountOf(i + 1)} (${table.currency})`}
                      value={l.amount}
                      onFocus={() => (touched.current = i)}
                      onInput={(e) => setLine(i, { amount: e.currentTarget.value })}
                    />
                  </td>
                  <td>
                    <select
                      aria-label={t.chipsOf(i + 1)}
                      value={l.chipKind}
                      onFocus={() => (touched.current = i)}
                      onChange={(e) => setLine(i, { chipKind: e.currentTarget.value as Line['chipKind'] })}
                    >
                      <option value="CASH">{t.chipKinds.CASH}</option>
                      <option value="DEAD">{t.chipKinds.DEAD}</option>
                    </select>
                  </td>
                  <td>
                    <input
                      class="patron"
                      autoComplete="off"
                      aria-label={t.patronOf(i + 1)}
                      value={l.patronId}
                      onFocus={() => (touched.current = i)}
                      onInput={(e) => setLine(i, { patronId: e.currentTarget.value })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <datalist id="bet-codes">
            {bets.map((b) => (
              <option key={b} value={CODE_OF[b]}>
                {w.bets[b] ?? b}
              </option>
            ))}
          </datalist>
          <div class="chips" role="group" aria-label={t.chipsPad}>
            {denominationsOf(table).map((c) => (
              <button key={String(c)} type="button" tabIndex={-1} aria-label={t.chip(f.currency(c, table.currency))} onClick={() => addChip(c)}>
                {f.currency(c, table.currency)}
              </button>
            ))}
          </div>
          <p data-testid="wager-total">{t.total(f.integer(typed.wagers.length), f.currency(sum, table.currency))}</p>
        </fieldset>
        <div class="buttons">
          <button type="submit" disabled={act.busy || sending}>
            {taking ? t.recordCards : t.record}
          </button>
          {taking && (
            <button type="button" disabled={act.busy} onClick={() => void submit('wagers')}>
              {t.addWagers}
            </button>
          )}
        </div>
        {local && (
          <p role="alert" class="error">
            {local}
          </p>
        )}
        <ActProblem problem={act.problem ?? coupProblem} />
        {done && <Done testId="coup-done">{done}</Done>}
      </form>
      {taking && <Bets key={`${taking}-${done ?? ''}`} coupId={taking} table={table} />}
      {pending.length > 0 && (
        <Waiting pending={pending} keyId={caller.keyId} timeZone={timeZone} correcting={correcting} onCorrect={correct} onDiscard={drop} />
      )}
      {last && <Settled coup={last} table={table} f={f} />}
    </section>
  );
}

/** The coup as the service settled it: the outcome, each wager's result, pay and commission, and the ties carried. */
function Settled({ coup, table, f }: { coup: Coup; table: Table; f: Format }) {
  const t = useT(DESK);
  const w = useT(WORDS);
  const o = coup.outcome;
  const row = (x: Wager) => (
    <tr key={x.id} data-wager={x.id} data-seat={x.seat}>
      <td class="num">{f.integer(x.seat)}</td>
      <td>{w.bets[x.betType] ?? x.betType}</td>
      <td>{t.chipKinds[x.chipKind ?? 'CASH']}</td>
      <Money field="amount" v={x.amount} currency={table.currency} />
      <td data-field="result" data-value={x.result ?? ''}>
        {x.result ? t.results[x.result] : '—'}
      </td>
      <Money field="payout" v={x.payout} currency={table.currency} />
      <Money field="commission" v={x.commission} currency={table.currency} />
      <Money field="net" v={x.net} currency={table.currency} />
    </tr>
  );
  return (
    <section aria-labelledby="last-coup" data-testid="desk-settled" data-coup={coup.id} data-number={coup.number}>
      <h3 id="last-coup">
        {t.lastCoup}: {t.coupNumber(f.integer(coup.number))}
      </h3>
      {o && (
        <p data-testid="outcome" data-winner={o.winner} class={o.winner.toLowerCase()}>
          {t.outcome(w.winner[o.winner], f.integer(o.playerTotal), f.integer(o.bankerTotal))}
          {o.natural ? ` (${t.natural})` : ''}
        </p>
      )}
      {coup.wagers.length > 0 && (
        <Scroll label={t.lastCoup}>
          <table class="figures">
            <caption class="sr-only">
              {t.lastCoup} ({table.currency})
            </caption>
            <Head columns={t.settledColumns.map((c, i) => (i >= 3 ? `${c} (${table.currency})` : c))} />
            <tbody>{coup.wagers.map(row)}</tbody>
          </table>
        </Scroll>
      )}
      {coup.carriedForward.length > 0 && (
        <>
          <h4>{t.carried}</h4>
          <table class="figures" data-testid="carried">
            <Head columns={t.settledColumns.slice(0, 4).map((c, i) => (i === 3 ? `${c} (${table.currency})` : c))} />
            <tbody>
              {coup.carriedForward.map((x) => (
                <tr key={x.id} data-wager={x.id}>
                  <td class="num">{f.integer(x.seat)}</td>
                  <td>{w.bets[x.betType] ?? x.betType}</td>
                  <td>{t.chipKinds[x.chipKind ?? 'CASH']}</td>
                  <Money field="amount" v={x.amount as Amount} currency={table.currency} />
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

/** The coups recorded here and not yet confirmed by the service, in order: waiting, or refused with what to do. */
function Waiting({
  pending,
  keyId,
  timeZone,
  correcting,
  onCorrect,
  onDiscard,
}: {
  pending: PendingCoup[];
  keyId: string;
  timeZone: string;
  correcting: PendingCoup | null;
  onCorrect: (c: PendingCoup) => void;
  onDiscard: (c: PendingCoup) => Promise<void>;
}) {
  const t = useT(DESK);
  const f = useFormat();
  return (
    <section aria-labelledby="desk-waiting" data-testid="desk-waiting" class="waiting">
      <h3 id="desk-waiting">{t.waitingTitle(f.integer(pending.length))}</h3>
      <p class="hint">{t.waitingHint}</p>
      <table class="figures">
        <caption class="sr-only">{t.waitingTitle(f.integer(pending.length))}</caption>
        <Head columns={t.waitingColumns} />
        <tbody>
          {pending.map((c) => (
            <tr key={c.key} data-key={c.key} data-number={c.request.number} data-state={c.refused ? 'refused' : 'waiting'}>
              <td class="num">{f.integer(c.request.number)}</td>
              <td>{f.dateTime(c.request.recordedAt, timeZone)}</td>
              <td>{c.refused ? <ErrorNote problem={c.refused} /> : c.keyId !== keyId ? t.otherSignIn : t.notConfirmed}</td>
              <td>
                {c.refused && (
                  <div class="decide">
                    <button type="button" disabled={correcting?.key === c.key} onClick={() => onCorrect(c)}>
                      {t.correct(f.integer(c.request.number))}
                    </button>
                    <button type="button" onClick={() => void onDiscard(c)}>
                      {t.discard(f.integer(c.request.number))}
                    </button>
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The wagers on the coup taking bets, each withdrawable until its cards are recorded. */
function Bets({ coupId, table }: { coupId: string; table: Table }) {
  const t = useT(DESK);
  const w = useT(WORDS);
  const f = useFormat();
  const act = useAct();
  const caller = useCaller();
  const [gone, setGone] = useState<string[]>([]);
  const { data } = useLoad(() => get<Coup>(`/v1/coups/${coupId}`), [coupId, gone.length]);
  const open = data?.wagers.filter((x) => x.status === 'OPEN') ?? [];
  if (open.length === 0) return null;
  return (
    <section aria-labelledby="desk-bets" data-testid="desk-bets">
      <h3 id="desk-bets">{t.betsTaken(f.integer(data!.number))}</h3>
      <table class="figures">
        <caption class="sr-only">{t.betsTaken(f.integer(data!.number))}</caption>
        <Head columns={t.betColumns.map((c, i) => (i === 3 ? `${c} (${table.currency})` : c))} />
        <tbody>
          {open.map((x) => (
            <tr key={x.id} data-wager={x.id}>
              <td class="num">{f.integer(x.seat)}</td>
              <td>{w.bets[x.betType] ?? x.betType}</td>
              <td>{t.chipKinds[x.chipKind ?? 'CASH']}</td>
              <Money field="amount" v={x.amount as Amount} currency={table.currency} />
              <td>
                {mayCall(caller, 'withdrawWager') && x.carriedFromId && (
                  <button
                    type="button"
                    disabled={act.busy}
                    onClick={() =>
                      void act.send(`/v1/wagers/${x.id}/withdraw`, {}).then((r) => {
                        if (r) setGone([...gone, x.id]);
                      })
                    }
                  >
                    {t.withdraw(f.integer(x.seat))}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ActProblem problem={act.problem} />
    </section>
  );
}

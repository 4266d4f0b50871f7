import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Amount, ApiError, get, Schemas } from './api';
import { lastDesk, rememberDesk } from './outbox';
import { Outcome, useAct } from './act';
import { minorOf, wireAmount } from './amounts';
import { mayCall, useCaller } from './caller';
import { Head, LiveBadge, Money } from './cells';
import { BankDesk } from './desk-bank';
import { CoupForm } from './desk-coup';
import { TableSession } from './desk-session';
import { AskVoid } from './desk-void';
import { DESK } from './desk-words';
import { ErrorNote } from './error-note';
import { decimalOf, exponentOf, Format, useFormat } from './format';
import { useLive, useLoad } from './hooks';
import { gamingDayNow } from './gaming-day';
import { useT } from './i18n';
import { Scroll } from './scroll';
import { payTermsIn, WORDS } from './words';
import type { ScreenProps } from './screen';

type Table = Schemas['TableDto'];
type Shoe = Schemas['ShoeDto'];
type Seating = Schemas['TableSeatingDto'];
type DealerShift = Schemas['DealerShiftDto'];
type VoidRequest = Schemas['VoidRequestDto'];
type Commissions = Schemas['ShoeCommissionsDto'];

/** The games a player banks: their coups are recorded against the bank (app/src/desk-bank.tsx). */
const BANKED: string[] = ['CHEMIN_DE_FER', 'BANQUE'];

interface DeskData {
  table: Table;
  /** The property's time zone: every time at the table is shown in it. */
  timeZone: string;
  /** The property's gaming day now. */
  gamingDay: string;
  /** The table's buy-ins of the gaming day, for a supervisor. */
  buyIns: Schemas['BuyInDto'][];
  shoe: Shoe | null;
  lastShoe: Schemas['ShoeDto'] | null;
  dealer: DealerShift | null;
  seated: Seating[];
  commissions: Commissions | null;
  voids: VoidRequest[] | null;
  /** When the desk was read (ms since the epoch): how long each card has been in is counted to it. */
  readAt: number;
  /** The table's latest session (table accounting), for a supervisor. */
  session: Schemas['SessionDto'] | null;
  /** Read from this terminal's copy: the service could not be reached. */
  offline?: boolean;
}

/**
 * The desk as the service answers it, kept on this terminal; when the service cannot be reached, the
 * copy last kept (the pit keeps dealing: app/src/outbox.ts). A refusal is never covered by the copy.
 */
async function loadDeskOrCopy(id: string, supervisor: boolean): Promise<DeskData> {
  try {
    const d = await loadDesk(id, supervisor);
    void rememberDesk(id, d).catch(() => undefined);
    return d;
  } catch (e) {
    if (e instanceof ApiError && e.status < 500) throw e;
    const copy = await lastDesk<DeskData>(id).catch(() => null);
    if (!copy) throw e;
    return { ...copy, offline: true };
  }
}

async function loadDesk(id: string, supervisor: boolean): Promise<DeskData> {
  const [table, shoes, dealers, seatings, properties] = await Promise.all([
    get<Table>(`/v1/tables/${id}`),
    get<Schemas['ShoeDto'][]>(`/v1/tables/${id}/shoes`),
    get<DealerShift[]>(`/v1/tables/${id}/dealers`),
    get<Seating[]>(`/v1/tables/${id}/seatings`),
    get<Schemas['PropertyDto'][]>('/v1/properties'),
  ]);
  const open = shoes.find((s) => s.status === 'OPEN') ?? null;
  const property = properties.find((p) => p.id === table.propertyId);
  const gamingDay = property ? gamingDayNow(property.timeZone, property.gamingDayStartHour) : '';
  const [shoe, commissions, voids, sessions, buyIns] = await Promise.all([
    open ? get<Shoe>(`/v1/shoes/${open.id}`) : Promise.resolve(null),
    open ? get<Commissions>(`/v1/shoes/${open.id}/commissions`) : Promise.resolve(null),
    supervisor ? get<VoidRequest[]>('/v1/void-requests', { status: 'PENDING' }) : Promise.resolve(null),
    supervisor ? get<Schemas['SessionDto'][]>(`/v1/tables/${id}/sessions`) : Promise.resolve([]),
    supervisor && gamingDay ? get<Schemas['BuyInDto'][]>(`/v1/tables/${id}/buy-ins`, { gamingDay }) : Promise.resolve([]),
  ]);
  return {
    table,
    timeZone: property?.timeZone ?? 'UTC',
    gamingDay,
    buyIns,
    shoe,
    lastShoe: shoes.length ? shoes.reduce((a, b) => (b.number > a.number ? b : a)) : null,
    dealer: dealers.find((d) => !d.endedAt) ?? null,
    seated: seatings.filter((s) => !s.endedAt).sort((a, b) => a.seat - b.seat),
    commissions,
    voids: voids?.filter((v) => v.tableId === id) ?? null,
    session: sessions[0] ?? null,
    readAt: Date.now(),
  };
}

/**
 * The table desk (#/desk/<tableId>): what a dealer's terminal and the pit supervisor record at one
 * table, coup after coup. The shoe opened and closed, each coup's cards and wagers (app/src/desk-coup.tsx),
 * patrons' cards in and out, the dealer taking the table and buy-ins; for a supervisor also voids
 * asked and decided, commission collected by seat, limits changed and the table closed. Each act is
 * shown only to a role that may do it, and every figure with its currency.
 */
export function Desk({ args }: ScreenProps) {
  const id = args[0] ?? '';
  const t = useT(DESK);
  const w = useT(WORDS);
  const f = useFormat();
  const caller = useCaller();
  const supervisor = mayCall(caller, 'approveVoid');
  const { data, error, reload } = useLoad(() => loadDeskOrCopy(id, supervisor), [id, supervisor]);
  const live = useLive(id ? `/v1/tables/${id}/events` : null, reload);
  const may = (op: string) => mayCall(caller, op);
  if (!data)
    return (
      <main class="desk">
        <ErrorNote problem={error} />
        {!error && <p role="status">{w.loading}</p>}
      </main>
    );
  const { table, shoe } = data;
  const closed = table.status !== 'OPEN';
  return (
    <main class="desk">
      <div class="title">
        <h1>{t.title(table.code)}</h1>
        <a href={`#/tables/${table.id}`}>{t.board}</a>
        <LiveBadge live={live} />
      </div>
      <ErrorNote problem={error} />
      {data.offline && (
        <p role="status" class="offline" data-testid="desk-offline">
          {t.offline}
        </p>
      )}
      <Facts d={data} f={f} />
      {closed && <p class="hint">{t.tableClosed}</p>}
      {!closed && !shoe && data.lastShoe && <p data-testid="shuffling">{t.shuffling}</p>}
      {!closed && !shoe && may('openShoe') && <OpenShoe table={table} onDone={reload} />}
      {shoe && may('recordCoup') && !BANKED.includes(table.variant) && (
        <CoupForm key={shoe.id} table={table} shoe={shoe} timeZone={data.timeZone} onDone={reload} />
      )}
      {shoe && may('recordBankCoup') && BANKED.includes(table.variant) && <BankDesk key={shoe.id} table={table} shoe={shoe} onDone={reload} />}
      <div class="desk-grid">
        <Seats d={data} f={f} onDone={reload} />
        {!closed && may('startDealerShift') && <TakeTable table={table} onDone={reload} />}
        {!closed && may('recordBuyIn') && <BuyIn table={table} onDone={reload} />}
        {shoe && may('closeShoe') && <CloseShoe shoe={shoe} onDone={reload} />}
      </div>
      {supervisor && (
        <section aria-labelledby="supervisor" data-testid="desk-supervisor">
          <h2 id="supervisor">{t.supervisor}</h2>
          <Voids d={data} f={f} onDone={reload} />
          {shoe && <ShoeCoups table={table} shoe={shoe} f={f} onDone={reload} />}
          {data.commissions && <Commission c={data.commissions} f={f} onDone={reload} />}
          <BuyIns d={data} f={f} onDone={reload} />
          {may('openTableSession') && <TableSession table={table} session={data.session} onDone={reload} />}
          {may('changeTableLimits') && !closed && <Limits table={table} onDone={reload} />}
          <TableState table={table} onDone={reload} />
        </section>
      )}
    </main>
  );
}

function Facts({ d, f }: { d: DeskData; f: Format }) {
  const t = useT(DESK);
  const w = useT(WORDS);
  const { table, shoe } = d;
  return (
    <section aria-labelledby="desk-facts" data-testid="desk-facts">
      <h2 id="desk-facts" class="sr-only">
        {t.facts}
      </h2>
      <dl class="facts">
        <div>
          <dt>{t.game}</dt>
          <dd>{w.variants[table.variant]}</dd>
        </div>
        <div>
          <dt>{t.currency}</dt>
          <dd data-field="currency">{table.currency}</dd>
        </div>
        <div>
          <dt>{t.dealer}</dt>
          <dd data-field="dealer">{d.dealer?.dealerId ?? t.noDealer}</dd>
        </div>
        <div>
          <dt>{t.shoe}</dt>
          <dd data-field="shoe">{shoe ? t.shoeOf(f.integer(shoe.number), f.integer(shoe.cardsLeft)) : t.noShoe}</dd>
        </div>
      </dl>
      <Scroll label={t.limits}>
        <table class="figures limits" data-testid="desk-limits">
          <caption>
            {t.limits} ({table.currency})
          </caption>
          <Head columns={t.limitsColumns} />
          <tbody>
            {table.bets.map((b) => (
              <tr key={b.betType} data-bet={b.betType}>
                <th scope="row">{w.bets[b.betType] ?? b.betType}</th>
                <Money field="min" v={b.min as Amount} currency={table.currency} />
                <Money field="max" v={b.max as Amount} currency={table.currency} />
                <td data-field="pays">{payTermsIn(b, w, f, table.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Scroll>
    </section>
  );
}

/** A small act's form: a heading, its fields, its button, what came of it. */
function ActBox({
  id,
  title,
  button,
  busy,
  problem,
  done,
  onSubmit,
  hint,
  children,
}: {
  id: string;
  title: string;
  button: string;
  busy: boolean;
  problem: ReturnType<typeof useAct>['problem'];
  done: string | null;
  onSubmit: () => Promise<unknown> | void;
  hint?: string;
  children?: ComponentChildren;
}) {
  return (
    <section aria-labelledby={id} data-testid={id}>
      <h3 id={id}>{title}</h3>
      {hint && <p class="hint">{hint}</p>}
      <form
        class="act"
        aria-labelledby={id}
        onSubmit={(e) => {
          e.preventDefault();
          void onSubmit();
        }}
      >
        {children}
        <button type="submit" disabled={busy}>
          {button}
        </button>
      </form>
      <Outcome problem={problem} done={done} />
    </section>
  );
}

function OpenShoe({ table, onDone }: { table: Table; onDone: () => void }) {
  const t = useT(DESK);
  const f = useFormat();
  const act = useAct();
  const [decks, setDecks] = useState(String(table.decks));
  const [burn, setBurn] = useState('');
  const [cut, setCut] = useState('');
  const [ref, setRef] = useState('');
  const [done, setDone] = useState<string | null>(null);
  return (
    <ActBox
      id="desk-open-shoe"
      title={t.openShoe}
      button={t.openShoeButton}
      busy={act.busy}
      problem={act.problem}
      done={done}
      onSubmit={async () => {
        const burnCards = burn
          .split(/[\s,]+/)
          .filter(Boolean)
          .map((c) => c.toUpperCase().replace(/^10/, 'T'));
        const shoe = await act.send<Shoe>(`/v1/tables/${table.id}/shoes`, {
          decks: Number(decks),
          ...(burnCards.length ? { burnCards } : {}),
          ...(cut.trim() ? { cutCardPosition: Number(cut) } : {}),
          ...(ref.trim() ? { shuffleRef: ref.trim() } : {}),
        });
        if (shoe) {
          setDone(t.shoeOpened(f.integer(shoe.number)));
          onDone();
        }
      }}
    >
      <label>
        {t.decks}
        <input type="number" min={1} max={8} value={decks} onInput={(e) => setDecks(e.currentTarget.value)} required />
      </label>
      <label>
        {t.burn}
        <input autoComplete="off" value={burn} onInput={(e) => setBurn(e.currentTarget.value)} />
      </label>
      <label>
        {t.cut}
        <input type="number" min={1} max={415} value={cut} onInput={(e) => setCut(e.currentTarget.value)} />
      </label>
      <label>
        {t.shuffleRef}
        <input autoComplete="off" value={ref} onInput={(e) => setRef(e.currentTarget.value)} />
      </label>
    </ActBox>
  );
}

function CloseShoe({ shoe, onDone }: { shoe: Shoe; onDone: () => void }) {
  const t = useT(DESK);
  const f = useFormat();
  const act = useAct();
  const [done, setDone] = useState<string | null>(null);
  return (
    <ActBox
      id="desk-close-shoe"
      title={t.closeShoe}
      hint={t.closeShoeHint}
      button={t.closeShoeButton}
      busy={act.busy}
      problem={act.problem}
      done={done}
      onSubmit={async () => {
        const closed = await act.send<Schemas['ClosedShoeDto']>(`/v1/shoes/${shoe.id}/close`, {});
        if (closed) {
          setDone(t.shoeClosed(f.integer(closed.number)));
          onDone();
        }
      }}
    />
  );
}

function Seats({ d, f, onDone }: { d: DeskData; f: Format; onDone: () => void }) {
  const t = useT(DESK);
  const caller = useCaller();
  const act = useAct();
  const [card, setCard] = useState('');
  const [seat, setSeat] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const mayEnd = mayCall(caller, 'endSeating');
  /** How long a card has been in, to the minute, as of the desk's last read. */
  const at = (since: string) => {
    const minutes = Math.max(0, Math.floor((d.readAt - Date.parse(since)) / 60_000));
    return t.duration(Math.floor(minutes / 60), minutes % 60);
  };
  const seatPatron = async () => {
    setDone(null);
    const s = await act.send<Seating>(`/v1/tables/${d.table.id}/seatings`, { patronId: card.trim(), seat: Number(seat) });
    if (s) {
      setDone(t.seated(s.patronId, f.integer(s.seat)));
      setCard('');
      setSeat('');
      onDone();
    }
  };
  const unseat = async (s: Seating) => {
    setDone(null);
    if (await act.send<Seating>(`/v1/seatings/${s.id}/end`, {})) {
      setDone(t.unseated(s.patronId));
      onDone();
    }
  };
  return (
    <section aria-labelledby="desk-seats" data-testid="desk-seats">
      <h3 id="desk-seats">{t.seats}</h3>
      {d.seated.length === 0 ? (
        <p>{t.nobodySeated}</p>
      ) : (
        <table class="figures">
          <caption class="sr-only">{t.seatsCaption}</caption>
          <Head columns={t.seatColumns.map((c, i) => (i === 5 ? `${c} (${d.table.currency})` : c))} />
          <tbody>
            {d.seated.map((s) => (
              <tr key={s.id} data-seating={s.id} data-patron={s.patronId}>
                <td class="num">{f.integer(s.seat)}</td>
                <td>{s.patronId}</td>
                <td>{f.dateTime(s.startedAt, d.timeZone)}</td>
                <td>{at(s.startedAt)}</td>
                <td class="num" data-field="coups">
                  {f.integer(s.coups)}
                </td>
                <Money field="averageBet" v={s.averageBet as Amount | null} currency={d.table.currency} />
                <td>
                  {mayEnd && (
                    <button type="button" disabled={act.busy} onClick={() => void unseat(s)}>
                      {t.unseat(s.patronId)}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {d.table.status === 'OPEN' && mayCall(caller, 'seatPatron') && (
        <form
          class="act"
          aria-label={t.seatPatron}
          onSubmit={(e) => {
            e.preventDefault();
            void seatPatron();
          }}
        >
          <label>
            {t.card}
            <input autoComplete="off" value={card} onInput={(e) => setCard(e.currentTarget.value)} required />
          </label>
          <label>
            {t.seatNo}
            <input type="number" min={1} max={20} value={seat} onInput={(e) => setSeat(e.currentTarget.value)} required />
          </label>
          <button type="submit" disabled={act.busy}>
            {t.seatButton}
          </button>
        </form>
      )}
      <Outcome problem={act.problem} done={done} />
    </section>
  );
}

function TakeTable({ table, onDone }: { table: Table; onDone: () => void }) {
  const t = useT(DESK);
  const act = useAct();
  const [dealer, setDealer] = useState('');
  const [done, setDone] = useState<string | null>(null);
  return (
    <ActBox
      id="desk-dealer"
      title={t.takeTable}
      button={t.takeButton}
      busy={act.busy}
      problem={act.problem}
      done={done}
      onSubmit={async () => {
        const s = await act.send<DealerShift>(`/v1/tables/${table.id}/dealers`, { dealerId: dealer.trim() });
        if (s) {
          setDone(t.dealerTook(s.dealerId));
          setDealer('');
          onDone();
        }
      }}
    >
      <label>
        {t.dealerId}
        <input autoComplete="off" value={dealer} onInput={(e) => setDealer(e.currentTarget.value)} required />
      </label>
    </ActBox>
  );
}

function BuyIn({ table, onDone }: { table: Table; onDone: () => void }) {
  const t = useT(DESK);
  const f = useFormat();
  const act = useAct();
  const [kind, setKind] = useState('CASH');
  const [amount, setAmount] = useState('');
  const [card, setCard] = useState('');
  const [seat, setSeat] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [local, setLocal] = useState<string | null>(null);
  return (
    <ActBox
      id="desk-buy-in"
      title={t.buyIn}
      button={t.buyInButton}
      busy={act.busy}
      problem={act.problem}
      done={done ?? null}
      onSubmit={async () => {
        setDone(null);
        const minor = minorOf(amount, table.currency);
        if (minor === null || minor === 0n) return setLocal(t.notAnAmountField(t.amount));
        setLocal(null);
        const b = await act.send<Schemas['BuyInDto']>(`/v1/tables/${table.id}/buy-ins`, {
          kind,
          amount: wireAmount(minor),
          ...(card.trim() ? { patronId: card.trim() } : {}),
          ...(seat.trim() ? { seat: Number(seat) } : {}),
        });
        if (b) {
          setDone(t.boughtIn(f.currency(b.amount, b.currency)));
          setAmount('');
          setCard('');
          setSeat('');
          onDone();
        }
      }}
    >
      <label>
        {t.kind}
        <select value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
          {['CASH', 'CHIPS', 'MARKER'].map((k) => (
            <option key={k} value={k}>
              {t.buyInKinds[k]}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t.amount} ({table.currency})
        <input inputMode="decimal" autoComplete="off" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} required />
      </label>
      <label>
        {t.cardOptional}
        <input autoComplete="off" value={card} onInput={(e) => setCard(e.currentTarget.value)} />
      </label>
      <label>
        {t.seatOptional}
        <input type="number" min={1} max={20} value={seat} onInput={(e) => setSeat(e.currentTarget.value)} />
      </label>
      {local && (
        <p role="alert" class="error">
          {local}
        </p>
      )}
    </ActBox>
  );
}

/** The shoe's coups, each with its void asked for by a supervisor (a different supervisor decides). */
function ShoeCoups({ table, shoe, f, onDone }: { table: Table; shoe: Shoe; f: Format; onDone: () => void }) {
  const t = useT(DESK);
  const w = useT(WORDS);
  const act = useAct();
  const [asking, setAsking] = useState<Schemas['CoupSummaryDto'] | null>(null);
  const [reason, setReason] = useState('');
  const [returnCards, setReturnCards] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const coups = [...shoe.coups].reverse().slice(0, 12);
  const askVoid = async (coup: Schemas['CoupSummaryDto']) => {
    setDone(null);
    if (await act.send<VoidRequest>(`/v1/coups/${coup.id}/void`, { reason: reason.trim(), ...(returnCards ? { returnCards: true } : {}) })) {
      setDone(t.voidAsked(f.integer(coup.number)));
      setAsking(null);
      setReason('');
      setReturnCards(false);
      onDone();
    }
  };
  return (
    <section aria-labelledby="desk-coups" data-testid="desk-coups">
      <h3 id="desk-coups">{t.lastCoups}</h3>
      <table class="figures">
        <caption class="sr-only">
          {t.lastCoups} ({table.code})
        </caption>
        <Head columns={t.lastCoupsColumns} />
        <tbody>
          {coups.map((c) => (
            <tr key={c.id} data-coup={c.id} data-number={c.number} class={c.voided ? 'voided' : undefined}>
              <td class="num">{f.integer(c.number)}</td>
              <td class={c.winner?.toLowerCase()}>{c.winner ? `${w.winner[c.winner]} ${c.playerTotal ?? ''}–${c.bankerTotal ?? ''}` : '—'}</td>
              <td>
                {c.voided ? (
                  t.voided
                ) : (
                  <button type="button" onClick={() => setAsking(c)}>
                    {t.askVoid(f.integer(c.number))}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {asking && (
        <form
          class="act"
          aria-label={t.askVoid(f.integer(asking.number))}
          onSubmit={(e) => {
            e.preventDefault();
            void askVoid(asking);
          }}
        >
          <label>
            {t.reason} ({t.coupNumber(f.integer(asking.number))})
            <input autoComplete="off" value={reason} onInput={(e) => setReason(e.currentTarget.value)} required />
          </label>
          <label class="check">
            <input type="checkbox" checked={returnCards} onChange={(e) => setReturnCards(e.currentTarget.checked)} />
            {t.returnCards}
          </label>
          <button type="submit" disabled={act.busy}>
            {t.askVoidButton}
          </button>
        </form>
      )}
      <Outcome problem={act.problem} done={done} />
    </section>
  );
}

/** Void requests of this table waiting for a second supervisor: approve or reject, never one's own. */
function Voids({ d, f, onDone }: { d: DeskData; f: Format; onDone: () => void }) {
  const t = useT(DESK);
  const caller = useCaller();
  const act = useAct();
  const [notes, setNotes] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string | null>(null);
  const coupNumber = new Map((d.shoe?.coups ?? []).map((c) => [c.id, c.number]));
  const decide = async (v: VoidRequest, how: 'approve' | 'reject') => {
    setDone(null);
    const note = notes[v.voidRequestId]?.trim();
    if (await act.send<VoidRequest>(`/v1/void-requests/${v.voidRequestId}/${how}`, note ? { note } : {})) {
      setDone(how === 'approve' ? t.approved : t.rejected);
      onDone();
    }
  };
  const voids = d.voids ?? [];
  return (
    <section aria-labelledby="desk-voids" data-testid="desk-voids">
      <h3 id="desk-voids">{t.voids}</h3>
      {voids.length === 0 ? (
        <p>{t.noVoids}</p>
      ) : (
        <Scroll label={t.voidsCaption}>
          <table class="figures">
            <caption class="sr-only">{t.voidsCaption}</caption>
            <Head columns={t.voidColumns} />
            <tbody>
              {voids.map((v) => {
                const n = coupNumber.get(v.targetId);
                return (
                  <tr key={v.voidRequestId} data-void={v.voidRequestId} data-target={v.targetId}>
                    <td>{f.dateTime(v.requestedAt, d.timeZone)}</td>
                    <td>
                      {t.targets[v.target] ?? v.target}
                      {v.target === 'COUP' && n !== undefined ? ` ${f.integer(n)}` : ''}
                    </td>
                    <td>{v.reason}</td>
                    <td>
                      {v.requestedByKeyId === caller.keyId ? (
                        <span class="hint">{t.yours}</span>
                      ) : (
                        <div class="decide">
                          <label>
                            {t.note}
                            <input
                              autoComplete="off"
                              value={notes[v.voidRequestId] ?? ''}
                              onInput={(e) => setNotes({ ...notes, [v.voidRequestId]: e.currentTarget.value })}
                            />
                          </label>
                          <button type="button" disabled={act.busy} onClick={() => void decide(v, 'approve')}>
                            {t.approve}
                          </button>
                          <button type="button" disabled={act.busy} onClick={() => void decide(v, 'reject')}>
                            {t.reject}
                          </button>
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </Scroll>
      )}
      <Outcome problem={act.problem} done={done} />
    </section>
  );
}

/** Commission owed in the shoe by seat, each collected in full (the service's figure, never the screen's). */
function Commission({ c, f, onDone }: { c: Commissions; f: Format; onDone: () => void }) {
  const t = useT(DESK);
  const caller = useCaller();
  const act = useAct();
  const [done, setDone] = useState<string | null>(null);
  const collect = async (s: Schemas['SeatCommissionDto']) => {
    setDone(null);
    if (await act.send(`/v1/shoes/${c.shoeId}/commissions/collections`, { seat: s.seat, ...(s.patronId ? { patronId: s.patronId } : {}) })) {
      setDone(t.collected(f.integer(s.seat)));
      onDone();
    }
  };
  const owed = c.seats.filter((s) => BigInt(s.outstanding) !== 0n || BigInt(s.accrued) !== 0n);
  return (
    <section aria-labelledby="desk-commission" data-testid="desk-commission">
      <h3 id="desk-commission">{t.commission}</h3>
      {owed.length === 0 ? (
        <p>{t.noCommission}</p>
      ) : (
        <table class="figures">
          <caption class="sr-only">
            {t.commissionCaption} ({c.currency})
          </caption>
          <Head columns={t.commissionColumns.map((h, i) => (i >= 2 && i <= 4 ? `${h} (${c.currency})` : h))} />
          <tbody>
            {owed.map((s) => (
              <tr key={`${s.seat}-${s.patronId ?? ''}`} data-seat={s.seat}>
                <td class="num">{f.integer(s.seat)}</td>
                <td>{s.patronId ?? '—'}</td>
                <Money field="accrued" v={s.accrued as Amount} currency={c.currency} />
                <Money field="collected" v={s.collected as Amount} currency={c.currency} />
                <Money field="outstanding" v={s.outstanding as Amount} currency={c.currency} />
                <td>
                  {mayCall(caller, 'collectCommission') && BigInt(s.outstanding) > 0n && (
                    <button type="button" disabled={act.busy} onClick={() => void collect(s)}>
                      {t.collect(f.integer(s.seat))}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Outcome problem={act.problem} done={done} />
    </section>
  );
}

function Limits({ table, onDone }: { table: Table; onDone: () => void }) {
  const t = useT(DESK);
  const act = useAct();
  const plain = (v: Amount) => decimalOf(v, exponentOf(table.currency));
  const [min, setMin] = useState(plain(table.minBet as Amount));
  const [max, setMax] = useState(plain(table.maxBet as Amount));
  const [reason, setReason] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [local, setLocal] = useState<string | null>(null);
  return (
    <ActBox
      id="desk-limits-change"
      title={t.changeLimits}
      button={t.limitsButton}
      busy={act.busy}
      problem={act.problem}
      done={done}
      onSubmit={async () => {
        setDone(null);
        const lo = minorOf(min, table.currency);
        const hi = minorOf(max, table.currency);
        if (lo === null || lo === 0n) return setLocal(t.notAnAmountField(t.minBet));
        if (hi === null || hi === 0n) return setLocal(t.notAnAmountField(t.maxBet));
        setLocal(null);
        if (await act.send(`/v1/tables/${table.id}/limits`, { minBet: wireAmount(lo), maxBet: wireAmount(hi), reason: reason.trim() })) {
          setDone(t.limitsChanged);
          setReason('');
          onDone();
        }
      }}
    >
      <label>
        {t.minBet} ({table.currency})
        <input inputMode="decimal" autoComplete="off" value={min} onInput={(e) => setMin(e.currentTarget.value)} required />
      </label>
      <label>
        {t.maxBet} ({table.currency})
        <input inputMode="decimal" autoComplete="off" value={max} onInput={(e) => setMax(e.currentTarget.value)} required />
      </label>
      <label>
        {t.reason}
        <input autoComplete="off" value={reason} onInput={(e) => setReason(e.currentTarget.value)} required />
      </label>
      {local && (
        <p role="alert" class="error">
          {local}
        </p>
      )}
    </ActBox>
  );
}

function TableState({ table, onDone }: { table: Table; onDone: () => void }) {
  const t = useT(DESK);
  const caller = useCaller();
  const act = useAct();
  const [done, setDone] = useState<string | null>(null);
  const open = table.status === 'OPEN';
  if (!mayCall(caller, open ? 'closeTable' : 'reopenTable')) return null;
  return (
    <ActBox
      id="desk-table-state"
      title={open ? t.closeTable : t.reopenTable}
      button={open ? t.closeTableButton : t.reopenTable}
      busy={act.busy}
      problem={act.problem}
      done={done}
      onSubmit={async () => {
        setDone(null);
        if (await act.send(`/v1/tables/${table.id}/${open ? 'close' : 'reopen'}`, {})) {
          setDone(open ? t.tableClosedNow : t.tableReopened);
          onDone();
        }
      }}
    />
  );
}

/** The table's buy-ins of the gaming day, each with its void asked for by a supervisor. */
function BuyIns({ d, f, onDone }: { d: DeskData; f: Format; onDone: () => void }) {
  const t = useT(DESK);
  const caller = useCaller();
  if (d.buyIns.length === 0) return null;
  return (
    <section aria-labelledby="desk-buy-ins" data-testid="desk-buy-ins">
      <h3 id="desk-buy-ins">{t.buyInsToday(f.day(d.gamingDay))}</h3>
      <table class="figures">
        <caption class="sr-only">{t.buyInsToday(f.day(d.gamingDay))}</caption>
        <Head columns={t.buyInColumns.map((c, i) => (i === 2 ? `${c} (${d.table.currency})` : c))} />
        <tbody>
          {d.buyIns.map((b) => (
            <tr key={b.id} data-buy-in={b.id} class={b.voided ? 'voided' : undefined}>
              <td>{f.dateTime(b.recordedAt, d.timeZone)}</td>
              <td>{t.buyInKinds[b.kind]}</td>
              <Money field="amount" v={b.amount as Amount} currency={b.currency} />
              <td>{b.patronId ?? '—'}</td>
              <td>
                {b.voided
                  ? t.voided
                  : mayCall(caller, 'requestBuyInVoid') && (
                      <AskVoid
                        path={`/v1/buy-ins/${b.id}/void`}
                        label={t.askVoidOf(t.buyInKinds[b.kind], f.currency(b.amount as Amount, b.currency))}
                        onDone={onDone}
                      />
                    )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

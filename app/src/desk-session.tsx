import { useState } from 'preact/hooks';
import { Amount, Schemas } from './api';
import { Outcome, useAct } from './act';
import { minorOf, wireAmount } from './amounts';
import { Head, Money } from './cells';
import { AskVoid } from './desk-void';
import { DESK } from './desk-words';
import { useFormat } from './format';
import { useT } from './i18n';

type Table = Schemas['TableDto'];
type Session = Schemas['SessionDto'];
type ChipCount = Schemas['ChipCountDto'];

/** The chip values a table's tray holds, in minor units: the usual denominations from a fifth of its minimum to its maximum. */
export function denominationsOf(table: Table): bigint[] {
  const unit = minorOf('1', table.currency)!;
  return [1n, 5n, 25n, 100n, 500n, 1_000n, 5_000n, 10_000n, 50_000n, 100_000n]
    .map((v) => v * unit)
    .filter((v) => v >= BigInt(table.minBet) / 5n && v <= BigInt(table.maxBet));
}

/** Chips counted by denomination: a count field for each of the table's chip values. */
function ChipCounts({
  table,
  label,
  counts,
  onChange,
}: {
  table: Table;
  label: string;
  counts: Record<string, string>;
  onChange: (c: Record<string, string>) => void;
}) {
  const t = useT(DESK);
  const f = useFormat();
  return (
    <fieldset class="chip-counts">
      <legend>
        {label} ({table.currency})
      </legend>
      {denominationsOf(table).map((d) => (
        <label key={String(d)}>
          {t.chipCount(f.currency(d, table.currency))}
          <input
            type="number"
            min={0}
            max={1_000_000}
            inputMode="numeric"
            value={counts[String(d)] ?? ''}
            onInput={(e) => onChange({ ...counts, [String(d)]: e.currentTarget.value })}
          />
        </label>
      ))}
    </fieldset>
  );
}

const chipsOf = (counts: Record<string, string>): ChipCount[] =>
  Object.entries(counts)
    .filter(([, n]) => n.trim() !== '' && Number(n) > 0)
    .map(([d, n]) => ({ denomination: Number(d), count: Number(n) }));

/**
 * The table's session for the supervisor (table accounting): opened with its opener inventory,
 * fills and credits while it is open (each numbered by the service), closed with its closer
 * inventory and the drop. The statistical win is the service's.
 */
export function TableSession({ table, session, onDone }: { table: Table; session: Session | null; onDone: () => void }) {
  const t = useT(DESK);
  const f = useFormat();
  const act = useAct();
  const [counts, setCounts] = useState<Record<string, string>>({});
  const [shift, setShift] = useState('');
  const [kind, setKind] = useState<'FILL' | 'CREDIT'>('FILL');
  const [drop, setDrop] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [local, setLocal] = useState<string | null>(null);
  const open = session?.status === 'OPEN' ? session : null;
  const send = async (path: string, body: unknown, said: (answer: Session & Schemas['SlipDto']) => string) => {
    setDone(null);
    const answer = await act.send<Session & Schemas['SlipDto']>(path, body);
    if (answer) {
      setDone(said(answer));
      setCounts({});
      setDrop('');
      onDone();
    }
  };
  return (
    <section aria-labelledby="desk-session" data-testid="desk-session">
      <h3 id="desk-session">{t.session}</h3>
      {open ? (
        <>
          <p data-testid="session-open" data-session={open.id}>
            {t.sessionOpen(f.day(open.gamingDay), open.shift)}{' '}
            <span data-field="openerTotal" data-minor={String(open.openerTotal)}>
              {t.opener}: {f.currency(open.openerTotal, table.currency)}
            </span>
          </p>
          {open.slips.length > 0 && (
            <table class="figures" data-testid="session-slips">
              <caption class="sr-only">{t.slips}</caption>
              <Head columns={t.slipColumns.map((c, i) => (i === 2 ? `${c} (${table.currency})` : c))} />
              <tbody>
                {open.slips.map((s) => (
                  <tr key={s.id} data-slip={s.id}>
                    <td>{t.slipKinds[s.kind]}</td>
                    <td class="num">
                      {f.integer(s.number)}/{s.year}
                    </td>
                    <Money field="amount" v={s.amount as Amount} currency={table.currency} />
                    <td>
                      {s.voidReason ? (
                        t.voided
                      ) : (
                        <AskVoid path={`/v1/slips/${s.id}/void`} label={t.askVoidOf(t.slipKinds[s.kind], f.integer(s.number))} onDone={onDone} />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <form
            class="act"
            aria-label={t.slipForm}
            onSubmit={(e) => {
              e.preventDefault();
              const chips = chipsOf(counts);
              if (chips.length === 0) return setLocal(t.noChips);
              setLocal(null);
              void send(`/v1/table-sessions/${open.id}/slips`, { kind, chips }, (s) => t.slipDone(t.slipKinds[s.kind], f.integer(s.number)));
            }}
          >
            <label>
              {t.slipKind}
              <select value={kind} onChange={(e) => setKind(e.currentTarget.value as 'FILL' | 'CREDIT')}>
                <option value="FILL">{t.slipKinds.FILL}</option>
                <option value="CREDIT">{t.slipKinds.CREDIT}</option>
              </select>
            </label>
            <ChipCounts table={table} label={t.chips} counts={counts} onChange={setCounts} />
            <button type="submit" disabled={act.busy}>
              {t.slipButton}
            </button>
          </form>
          <form
            class="act"
            aria-label={t.closeSession}
            onSubmit={(e) => {
              e.preventDefault();
              const minor = minorOf(drop, table.currency);
              if (minor === null) return setLocal(t.notAnAmountField(t.drop));
              setLocal(null);
              void send(`/v1/table-sessions/${open.id}/close`, { closer: chipsOf(counts), drop: wireAmount(minor) }, () => t.sessionClosed);
            }}
          >
            <ChipCounts table={table} label={t.closer} counts={counts} onChange={setCounts} />
            <label>
              {t.drop} ({table.currency})
              <input inputMode="decimal" autoComplete="off" value={drop} onInput={(e) => setDrop(e.currentTarget.value)} required />
            </label>
            <button type="submit" disabled={act.busy}>
              {t.closeSession}
            </button>
          </form>
        </>
      ) : (
        <form
          class="act"
          aria-label={t.openSession}
          onSubmit={(e) => {
            e.preventDefault();
            void send(`/v1/tables/${table.id}/sessions`, { opener: chipsOf(counts), ...(shift.trim() ? { shift: shift.trim() } : {}) }, () => t.sessionOpened);
          }}
        >
          <ChipCounts table={table} label={t.opener} counts={counts} onChange={setCounts} />
          <label>
            {t.shift}
            <input autoComplete="off" value={shift} onInput={(e) => setShift(e.currentTarget.value)} />
          </label>
          <button type="submit" disabled={act.busy}>
            {t.openSession}
          </button>
        </form>
      )}
      {session && session.status === 'CLOSED' && session.statisticalWin !== null && (
        <p data-testid="session-closed" data-minor={String(session.statisticalWin)}>
          {t.lastSession(f.day(session.gamingDay), f.currency(session.statisticalWin, table.currency))}
        </p>
      )}
      <Outcome local={local} problem={act.problem} done={done} />
    </section>
  );
}

import { useState } from 'preact/hooks';
import { Amount, get, Schemas } from './api';
import { Done, Outcome, useAct } from './act';
import { minorOf, wireAmount } from './amounts';
import { Head, Money } from './cells';
import { cardsOf } from './desk-coup';
import { DESK } from './desk-words';
import { decimalOf, exponentOf, Format, useFormat } from './format';
import { useLoad } from './hooks';
import { useT } from './i18n';
import { WORDS } from './words';

type Table = Schemas['TableDto'];
type Shoe = Schemas['ShoeDto'];
type Bank = Schemas['BankDto'];
type BankCoup = Schemas['BankCoupDto'];

interface StakeLine {
  seat: string;
  amount: string;
  /** Chemin de fer: '' (a stake), BANCO or BANCO_SUIVI; banque: the side. */
  call: string;
  bystander: boolean;
}
const blank = (): StakeLine => ({ seat: '', amount: '', call: '', bystander: false });
const seatsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number);

/**
 * The player-banked games at the desk (chemin de fer, baccarat banque): a player holds the bank, the
 * others stake against it. The bank opened by a seat (the service checks the rotation), each coup's
 * cards and stakes (banco, banco suivi, bystanders; banque's right, left and à cheval), the bank
 * retired. The service settles: the bank after, what it covered and set aside, the house's
 * commission and each punter's result are its answer.
 */
export function BankDesk({ table, shoe, onDone }: { table: Table; shoe: Shoe; onDone: () => void }) {
  const t = useT(DESK);
  const f = useFormat();
  const [version, setVersion] = useState(0);
  const { data: banks } = useLoad(() => get<Bank[]>(`/v1/shoes/${shoe.id}/banks`), [shoe.id, shoe.coupCount, version]);
  const [last, setLast] = useState<BankCoup | null>(null);
  // What the last act at the bank came to: kept here, as the form that did it gives way to the next.
  const [notice, setNotice] = useState<string | null>(null);
  const done = (said?: string) => {
    setNotice(said ?? null);
    setVersion((v) => v + 1);
    onDone();
  };
  const bank = banks?.find((b) => b.status === 'ACTIVE') ?? null;
  const banque = table.variant === 'BANQUE';
  return (
    <section aria-labelledby="desk-bank" data-testid="desk-bank">
      <h2 id="desk-bank">{t.bank}</h2>
      {banks && !bank && <OpenBank table={table} shoe={shoe} first={banks.length === 0} previous={banks.at(-1) ?? null} onDone={done} />}
      {bank && (
        <>
          <p data-testid="bank-facts" data-bank={bank.id} data-minor={String(bank.bank)}>
            {t.bankFacts(f.integer(bank.number), f.integer(bank.bankerSeat), f.currency(bank.bank, table.currency), f.integer(bank.coups))}
          </p>
          <BankCoupForm
            table={table}
            bank={bank}
            banque={banque}
            onDone={(c, said) => {
              setLast(c);
              done(said);
            }}
          />
          <RetireBank table={table} bank={bank} banque={banque} onDone={() => done()} />
        </>
      )}
      {notice && <Done>{notice}</Done>}
      {last && <BankSettled coup={last} table={table} f={f} />}
    </section>
  );
}

function OpenBank({
  table,
  shoe,
  first,
  previous,
  onDone,
}: {
  table: Table;
  shoe: Shoe;
  first: boolean;
  previous: Bank | null;
  onDone: (said: string) => void;
}) {
  const t = useT(DESK);
  const f = useFormat();
  const act = useAct();
  const [seat, setSeat] = useState(previous?.nextBanker ? String(previous.nextBanker) : '');
  const [amount, setAmount] = useState(previous?.offer ? decimalOf(previous.offer as Amount, exponentOf(table.currency)) : '');
  const [rotation, setRotation] = useState('');
  const [declined, setDeclined] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  return (
    <form
      class="act"
      aria-label={t.openBank}
      onSubmit={(e) => {
        e.preventDefault();
        const minor = minorOf(amount, table.currency);
        if (minor === null || minor === 0n) return setLocal(t.notAnAmountField(t.bankAmount));
        setLocal(null);
        void act
          .send<Bank>(`/v1/shoes/${shoe.id}/banks`, {
            bankerSeat: Number(seat),
            amount: wireAmount(minor),
            ...(rotation.trim() ? { rotation: seatsOf(rotation) } : {}),
            ...(declined.trim() ? { declined: seatsOf(declined) } : {}),
          })
          .then((b) => {
            if (b) onDone(t.bankOpened(f.integer(b.bankerSeat)));
          });
      }}
    >
      <label>
        {t.bankerSeat}
        <input type="number" min={1} max={20} value={seat} onInput={(e) => setSeat(e.currentTarget.value)} required />
      </label>
      <label>
        {t.bankAmount} ({table.currency})
        <input inputMode="decimal" autoComplete="off" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} required />
      </label>
      <label>
        {first ? t.rotationFirst : t.rotation}
        <input autoComplete="off" value={rotation} onInput={(e) => setRotation(e.currentTarget.value)} required={first} />
      </label>
      <label>
        {t.declined}
        <input autoComplete="off" value={declined} onInput={(e) => setDeclined(e.currentTarget.value)} />
      </label>
      <button type="submit" disabled={act.busy}>
        {t.openBank}
      </button>
      <Outcome local={local} problem={act.problem} />
    </form>
  );
}

function BankCoupForm({ table, bank, banque, onDone }: { table: Table; bank: Bank; banque: boolean; onDone: (c: BankCoup, said: string) => void }) {
  const t = useT(DESK);
  const w = useT(WORDS);
  const f = useFormat();
  const act = useAct();
  const [hands, setHands] = useState<Record<string, string>>({});
  const [lines, setLines] = useState<StakeLine[]>([blank()]);
  const [adds, setAdds] = useState('');
  const [accepted, setAccepted] = useState(false);
  const [local, setLocal] = useState<string | null>(null);
  const handNames = banque ? (['right', 'left', 'banker'] as const) : (['player', 'banker'] as const);
  const setLine = (i: number, patch: Partial<StakeLine>) =>
    setLines((ls) => {
      const next = ls.map((l, j) => (j === i ? { ...l, ...patch } : l));
      if (i === next.length - 1 && (next[i].seat.trim() !== '' || next[i].amount.trim() !== '')) next.push(blank());
      return next;
    });
  const submit = async () => {
    const cards: Record<string, string[]> = {};
    for (const h of handNames) {
      const c = cardsOf(hands[h] ?? '');
      if (c.bad.length) return setLocal(t.badCard(c.bad.join(' ')));
      cards[h] = c.cards;
    }
    const stakes: Schemas['BankStakeDto'][] = [];
    for (const [i, l] of lines.entries()) {
      if (l.seat.trim() === '') continue;
      const minor = l.amount.trim() === '' ? null : minorOf(l.amount, table.currency);
      if (l.amount.trim() !== '' && (minor === null || minor === 0n)) return setLocal(t.notAnAmount(i + 1));
      stakes.push({
        seat: Number(l.seat),
        ...(minor !== null ? { amount: wireAmount(minor) } : {}),
        ...(banque && l.call ? { side: l.call as Schemas['BanqueSide'] } : {}),
        ...(!banque && l.call ? { call: l.call as Schemas['BancoCall'] } : {}),
        ...(!banque && l.bystander ? { bystander: true } : {}),
      });
    }
    const added = adds.trim() ? minorOf(adds, table.currency) : null;
    if (adds.trim() && (added === null || added === 0n)) return setLocal(t.notAnAmountField(t.bankerAdds));
    setLocal(null);
    const answer = await act.send<BankCoup>(`/v1/banks/${bank.id}/coups`, {
      cards,
      ...(stakes.length ? { stakes } : {}),
      ...(added ? { bankerAdds: wireAmount(added) } : {}),
      ...(banque && accepted ? { declareStakesAccepted: true } : {}),
    });
    if (!answer) return;
    setHands({});
    setLines([blank()]);
    setAdds('');
    onDone(answer, t.bankCoupRecorded(f.integer(answer.number)));
  };
  return (
    <form
      class="act bank-coup"
      aria-label={t.bankCoup}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {handNames.map((h) => (
        <label key={h}>
          {t.bankHands[h]}
          <input autoComplete="off" autoCapitalize="characters" value={hands[h] ?? ''} onInput={(e) => setHands({ ...hands, [h]: e.currentTarget.value })} />
        </label>
      ))}
      <table class="figures stake-lines">
        <Head columns={banque ? t.banqueStakeColumns : t.stakeColumns} />
        <tbody>
          {lines.map((l, i) => (
            <tr key={i}>
              <td>
                <input
                  type="number"
                  min={1}
                  max={20}
                  aria-label={t.stakeSeat(i + 1)}
                  value={l.seat}
                  onInput={(e) => setLine(i, { seat: e.currentTarget.value })}
                />
              </td>
              <td>
                <input
                  inputMode="decimal"
                  autoComplete="off"
                  aria-label={`${t.stakeAmount(i + 1)} (${table.currency})`}
                  value={l.amount}
                  onInput={(e) => setLine(i, { amount: e.currentTarget.value })}
                />
              </td>
              <td>
                <select
                  aria-label={banque ? t.stakeSide(i + 1) : t.stakeCall(i + 1)}
                  value={l.call}
                  onChange={(e) => setLine(i, { call: e.currentTarget.value })}
                >
                  {(banque ? ['', 'RIGHT', 'LEFT', 'A_CHEVAL'] : ['', 'BANCO', 'BANCO_SUIVI']).map((c) => (
                    <option key={c} value={c}>
                      {t.calls[c]}
                    </option>
                  ))}
                </select>
              </td>
              {!banque && (
                <td>
                  <input
                    type="checkbox"
                    aria-label={t.stakeBystander(i + 1)}
                    checked={l.bystander}
                    onChange={(e) => setLine(i, { bystander: e.currentTarget.checked })}
                  />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {!banque && (
        <label>
          {t.bankerAdds} ({table.currency})
          <input inputMode="decimal" autoComplete="off" value={adds} onInput={(e) => setAdds(e.currentTarget.value)} />
        </label>
      )}
      {banque && !bank.stakesAccepted && (
        <label class="check">
          <input type="checkbox" checked={accepted} onChange={(e) => setAccepted(e.currentTarget.checked)} />
          {t.stakesAccepted}
        </label>
      )}
      <button type="submit" disabled={act.busy}>
        {t.recordBankCoup}
      </button>
      <Outcome local={local} problem={act.problem} />
      <p class="sr-only">{w.variants[table.variant]}</p>
    </form>
  );
}

function RetireBank({ table, bank, banque, onDone }: { table: Table; bank: Bank; banque: boolean; onDone: () => void }) {
  const t = useT(DESK);
  const act = useAct();
  const [amount, setAmount] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  return (
    <form
      class="act"
      aria-label={t.retireBank}
      onSubmit={(e) => {
        e.preventDefault();
        const minor = amount.trim() ? minorOf(amount, table.currency) : null;
        if (amount.trim() && (minor === null || minor === 0n)) return setLocal(t.notAnAmountField(t.continueAt));
        setLocal(null);
        void act.send<Bank>(`/v1/banks/${bank.id}/retire`, minor ? { amount: wireAmount(minor) } : {}).then((b) => b && onDone());
      }}
    >
      {banque && (
        <label>
          {t.continueAt} ({table.currency})
          <input inputMode="decimal" autoComplete="off" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} />
        </label>
      )}
      <button type="submit" disabled={act.busy}>
        {t.retireBank}
      </button>
      <Outcome local={local} problem={act.problem} />
    </form>
  );
}

/** A bank coup as the service settled it: each punter's result, the bank before and after, the house's commission. */
function BankSettled({ coup, table, f }: { coup: BankCoup; table: Table; f: Format }) {
  const t = useT(DESK);
  return (
    <section aria-labelledby="bank-last" data-testid="bank-settled" data-coup={coup.id}>
      <h3 id="bank-last">{t.coupNumber(f.integer(coup.number))}</h3>
      <dl class="facts">
        <div>
          <dt>{t.bankBefore}</dt>
          <dd data-field="bankBefore" data-minor={String(coup.bankBefore)}>
            {f.currency(coup.bankBefore, table.currency)}
          </dd>
        </div>
        <div>
          <dt>{t.houseCommission}</dt>
          <dd data-field="commission" data-minor={String(coup.commission)}>
            {f.currency(coup.commission, table.currency)}
          </dd>
        </div>
        <div>
          <dt>{t.bankAfter}</dt>
          <dd data-field="bankAfter" data-minor={String(coup.bankAfter)}>
            {f.currency(coup.bankAfter, table.currency)}
          </dd>
        </div>
      </dl>
      <table class="figures">
        <caption class="sr-only">{t.punters}</caption>
        <Head columns={t.punterColumns.map((c, i) => (i >= 1 ? `${c} (${table.currency})` : c))} />
        <tbody>
          {coup.punters.map((p, i) => (
            <tr key={i} data-seat={p.seat}>
              <td class="num">{f.integer(p.seat)}</td>
              <Money field="stake" v={p.stake as Amount} currency={table.currency} />
              <Money field="net" v={p.net as Amount} currency={table.currency} />
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Amount, get, Schemas } from './api';
import { ActForm, ActPart, ActProblem, CurrencyChoice, Done, Field, useAct } from './act';
import { mayCall, useCaller } from './caller';
import { ErrorNote } from './error-note';
import { minorOf, wireAmount } from './amounts';
import { exponentOf, useFormat } from './format';
import { useLoad } from './hooks';
import { useT, Words } from './i18n';

/**
 * What the cage records (issue 50): cash at the cage (chips cashed, front money in and out), a
 * marker's payment, dead chips sold and bought back, and a junket's markers, repayments and player
 * credit. Each form is shown only to a role that may call its operation; amounts are typed in the
 * currency's major units and sent as integer minor units (amounts.ts minorOf); a refusal is said in
 * the screen's language by its code (refusals/cage.ts).
 */
const en = {
  amount: 'Amount',
  currency: 'Currency',
  card: "Patron's card",
  record: 'Record',
  badAmount: (currency: string, digits: string) =>
    digits === '0'
      ? `Write the amount in ${currency} in whole units, as digits (1,234): ${currency} has no decimals.`
      : `Write the amount in ${currency} as digits, with at most ${digits} decimals (1,234.50).`,
  cash: 'Cash at the cage',
  cashHint:
    "Chips cashed and front money deposited or withdrawn, with the patron's card (needed over the report threshold). A marker paid in cash is recorded on the marker, below.",
  kind: 'What',
  cashKinds: {
    CHIP_REDEMPTION: 'Chips cashed (cash out)',
    DEPOSIT: 'Front money deposited (cash in)',
    WITHDRAWAL: 'Front money withdrawn (cash out)',
  } as Record<string, string>,
  cashDone: (kind: string, amount: string, card: string) => `Recorded: ${kind}, ${amount}${card ? `, card ${card}` : ''}.`,
  pay: 'Pay a marker',
  marker: 'Marker',
  markerOption: (day: string, amount: string, outstanding: string) => `${day}: ${amount}, outstanding ${outstanding}`,
  method: 'Paid in',
  methods: { CASH: 'Cash', CHIPS: 'Chips', CHECK: 'Cheque', WIRE: 'Wire transfer' } as Record<string, string>,
  reference: 'Cheque number or wire reference',
  referenceHint: 'required for a cheque or a wire',
  request: 'Approved repayment request',
  requestHint: "over the repayment threshold: the request's number",
  payDone: (amount: string, outstanding: string) => `Payment of ${amount} recorded: ${outstanding} still outstanding.`,
  chips: 'Dead chips sold and bought back',
  chipsHint: 'Dead (non-negotiable) chips issued to a registered patron at the cage, or exchanged back at the end of a trip.',
  chipKinds: { PURCHASE: 'Sold to the patron', RETURN: 'Bought back from the patron' } as Record<string, string>,
  settledIn: 'Against',
  means: { FRONT_MONEY: 'Front money', MARKER: 'A marker', CASH_CHIPS: 'Cash chips' } as Record<string, string>,
  chipsDone: (kind: string, amount: string, card: string) => `Recorded: dead chips ${kind.toLowerCase()}, ${amount}, card ${card}.`,
  junkets: 'Junkets at the cage',
  junketsHint: "A junket's markers, repayments and payouts on its account, and the credit it reports giving its players.",
  noJunkets: 'This property has no junket.',
  junket: 'Junket',
  balance: 'Balance (+ the junket owes)',
  creditLimit: 'Credit limit',
  entry: "On the junket's account",
  entryKinds: { MARKER: 'Marker (credit to the junket)', REPAYMENT: 'Repayment by the junket', PAYOUT: 'Payout to the junket' } as Record<string, string>,
  entryDone: (kind: string, amount: string, balance: string) => `Recorded: ${kind}, ${amount}. Balance now ${balance}.`,
  playerCredit: 'Credit the junket gave a player (as it reports it)',
  creditKinds: { ADVANCE: 'Advance to the player', REPAYMENT: 'Repaid by the player' } as Record<string, string>,
  creditDone: (kind: string, amount: string, card: string, day: string) => `Recorded: ${kind}, ${amount}, card ${card}, gaming day ${day}.`,
};

const ACTS: Words<typeof en> = {
  en,
  'zh-Hant': {
    amount: '金額',
    currency: '貨幣',
    card: '客戶卡號',
    record: '記錄',
    badAmount: (currency, digits) =>
      digits === '0'
        ? `請以數字輸入 ${currency} 整數金額（1,234）：${currency} 沒有小數。`
        : `請以數字輸入 ${currency} 金額，最多 ${digits} 位小數（1,234.50）。`,
    cash: '賬房現金',
    cashHint: '籌碼兌現、存入或提取按金，連同客戶卡號（超過申報門檻必須註明）。以現金償還借據，請在下方借據記錄。',
    kind: '類別',
    cashKinds: { CHIP_REDEMPTION: '籌碼兌現（現金支出）', DEPOSIT: '存入按金（現金收入）', WITHDRAWAL: '提取按金（現金支出）' },
    cashDone: (kind, amount, card) => `已記錄：${kind}，${amount}${card ? `，卡號 ${card}` : ''}。`,
    pay: '收取借據還款',
    marker: '借據',
    markerOption: (day, amount, outstanding) => `${day}：${amount}，尚欠 ${outstanding}`,
    method: '付款方式',
    methods: { CASH: '現金', CHIPS: '籌碼', CHECK: '支票', WIRE: '電匯' },
    reference: '支票號碼或電匯編號',
    referenceHint: '支票或電匯必須填寫',
    request: '已批准的還款申請',
    requestHint: '超過還款門檻時：申請編號',
    payDone: (amount, outstanding) => `已記錄還款 ${amount}：尚欠 ${outstanding}。`,
    chips: '泥碼購入及交回',
    chipsHint: '在賬房向已登記客戶發出的泥碼（不可兌現籌碼），或於行程結束時交回兌換。',
    chipKinds: { PURCHASE: '客戶購入', RETURN: '客戶交回' },
    settledIn: '結算方式',
    means: { FRONT_MONEY: '按金', MARKER: '借據', CASH_CHIPS: '現金碼' },
    chipsDone: (kind, amount, card) => `已記錄：泥碼${kind}，${amount}，卡號 ${card}。`,
    junkets: '賬房：博彩中介人',
    junketsHint: '中介人賬戶上的借據、還款及派付，以及中介人申報借予其客戶的信貸。',
    noJunkets: '此場館沒有博彩中介人。',
    junket: '中介人',
    balance: '結餘（正數：中介人欠賭場）',
    creditLimit: '信貸額度',
    entry: '中介人賬戶',
    entryKinds: { MARKER: '借據（予中介人的信貸）', REPAYMENT: '中介人還款', PAYOUT: '向中介人派付' },
    entryDone: (kind, amount, balance) => `已記錄：${kind}，${amount}。現時結餘 ${balance}。`,
    playerCredit: '中介人借予客戶的信貸（按中介人申報）',
    creditKinds: { ADVANCE: '借予客戶', REPAYMENT: '客戶還款' },
    creditDone: (kind, amount, card, day) => `已記錄：${kind}，${amount}，卡號 ${card}，博彩日 ${day}。`,
  },
  'zh-Hans': {
    amount: '金额',
    currency: '货币',
    card: '客户卡号',
    record: '记录',
    badAmount: (currency, digits) =>
      digits === '0'
        ? `请以数字输入 ${currency} 整数金额（1,234）：${currency} 没有小数。`
        : `请以数字输入 ${currency} 金额，最多 ${digits} 位小数（1,234.50）。`,
    cash: '账房现金',
    cashHint: '筹码兑现、存入或提取按金，连同客户卡号（超过申报门槛必须注明）。以现金偿还借据，请在下方借据记录。',
    kind: '类别',
    cashKinds: { CHIP_REDEMPTION: '筹码兑现（现金支出）', DEPOSIT: '存入按金（现金收入）', WITHDRAWAL: '提取按金（现金支出）' },
    cashDone: (kind, amount, card) => `已记录：${kind}，${amount}${card ? `，卡号 ${card}` : ''}。`,
    pay: '收取借据还款',
    marker: '借据',
    markerOption: (day, amount, outstanding) => `${day}：${amount}，尚欠 ${outstanding}`,
    method: '付款方式',
    methods: { CASH: '现金', CHIPS: '筹码', CHECK: '支票', WIRE: '电汇' },
    reference: '支票号码或电汇编号',
    referenceHint: '支票或电汇必须填写',
    request: '已批准的还款申请',
    requestHint: '超过还款门槛时：申请编号',
    payDone: (amount, outstanding) => `已记录还款 ${amount}：尚欠 ${outstanding}。`,
    chips: '泥码购入及交回',
    chipsHint: '在账房向已登记客户发出的泥码（不可兑现筹码），或于行程结束时交回兑换。',
    chipKinds: { PURCHASE: '客户购入', RETURN: '客户交回' },
    settledIn: '结算方式',
    means: { FRONT_MONEY: '按金', MARKER: '借据', CASH_CHIPS: '现金码' },
    chipsDone: (kind, amount, card) => `已记录：泥码${kind}，${amount}，卡号 ${card}。`,
    junkets: '账房：博彩中介人',
    junketsHint: '中介人账户上的借据、还款及派付，以及中介人申报借予其客户的信贷。',
    noJunkets: '此场馆没有博彩中介人。',
    junket: '中介人',
    balance: '结余（正数：中介人欠赌场）',
    creditLimit: '信贷额度',
    entry: '中介人账户',
    entryKinds: { MARKER: '借据（予中介人的信贷）', REPAYMENT: '中介人还款', PAYOUT: '向中介人派付' },
    entryDone: (kind, amount, balance) => `已记录：${kind}，${amount}。现时结余 ${balance}。`,
    playerCredit: '中介人借予客户的信贷（按中介人申报）',
    creditKinds: { ADVANCE: '借予客户', REPAYMENT: '客户还款' },
    creditDone: (kind, amount, card, day) => `已记录：${kind}，${amount}，卡号 ${card}，博彩日 ${day}。`,
  },
};

type Property = Schemas['PropertyDto'];
type Marker = Schemas['MarkerDto'];
type Junket = Schemas['JunketDto'];
type CashKind = Schemas['CageTransactionKind'];
type Method = Schemas['MarkerPaymentMethod'];
type ChipKind = Schemas['ChipExchangeKind'];
type Means = Schemas['ChipExchangeMeans'];
type EntryKind = Schemas['JunketEntryInputKind'];
type CreditKind = Schemas['JunketPlayerCreditKind'];

const CASH_KINDS: CashKind[] = ['CHIP_REDEMPTION', 'DEPOSIT', 'WITHDRAWAL'];
const METHODS: Method[] = ['CASH', 'CHIPS', 'CHECK', 'WIRE'];
const CHIP_KINDS: ChipKind[] = ['PURCHASE', 'RETURN'];
/** What each kind of exchange may be settled in (the API's ChipExchangeMeans). */
const MEANS: Record<ChipKind, Means[]> = { PURCHASE: ['FRONT_MONEY', 'MARKER', 'CASH_CHIPS'], RETURN: ['CASH_CHIPS', 'FRONT_MONEY'] };
const ENTRY_KINDS: EntryKind[] = ['MARKER', 'REPAYMENT', 'PAYOUT'];
const CREDIT_KINDS: CreditKind[] = ['ADVANCE', 'REPAYMENT'];

/** A select of `options`, each said in words. */
function Choice<T extends string>({
  label,
  value,
  options,
  words,
  onChange,
}: {
  label: string;
  value: T;
  options: T[];
  words: Record<string, string>;
  onChange: (v: T) => void;
}) {
  return (
    <Field label={label}>
      <select value={value} onChange={(e) => onChange(e.currentTarget.value as T)}>
        {options.map((o) => (
          <option key={o} value={o}>
            {words[o]}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** The amount typed in major units, its currency beside it (a choice when there are several). */
function AmountField({
  value,
  onInput,
  currency,
  currencies,
  onCurrency,
}: {
  value: string;
  onInput: (v: string) => void;
  currency: string;
  currencies?: string[];
  onCurrency?: (c: string) => void;
}) {
  const t = useT(ACTS);
  return (
    <>
      <Field label={t.amount}>
        <span class="with-unit">
          <input name="amount" inputMode="decimal" autoComplete="off" required value={value} onInput={(e) => onInput(e.currentTarget.value)} />{' '}
          {(!currencies || currencies.length < 2) && <span data-field="currency">{currency}</span>}
        </span>
      </Field>
      {currencies && currencies.length > 1 && onCurrency && (
        <CurrencyChoice label={t.currency} currencies={currencies} value={currency} onChange={onCurrency} />
      )}
    </>
  );
}

/** A typed amount the screen could not read: said before anything is sent. */
function AmountProblem({ currency, shown }: { currency: string; shown: boolean }) {
  const t = useT(ACTS);
  const f = useFormat();
  return shown ? (
    <p role="alert" class="error" data-code="AMOUNT">
      {t.badAmount(currency, f.integer(exponentOf(currency)))}
    </p>
  ) : null;
}

/**
 * An act's form: its amount read on submit (a typed amount the screen cannot read is said, and
 * nothing is sent), then `send` with the minor units; the refusal or the confirmation beneath.
 */
function AmountActForm({
  label,
  testId,
  currency,
  amount,
  busy,
  onSend,
  children,
  after,
}: {
  label: string;
  testId: string;
  currency: string;
  amount: string;
  busy: boolean;
  onSend: (minor: Amount) => void;
  children: ComponentChildren;
  after: ComponentChildren;
}) {
  const t = useT(ACTS);
  const [bad, setBad] = useState(false);
  return (
    <>
      <ActForm
        label={label}
        testId={testId}
        busy={busy}
        button={t.record}
        onSubmit={() => {
          const minor = minorOf(amount, currency);
          const ok = minor !== null && minor > 0n && minor <= BigInt(Number.MAX_SAFE_INTEGER);
          setBad(!ok);
          if (ok) onSend(wireAmount(minor));
        }}
      >
        {children}
      </ActForm>
      <AmountProblem currency={currency} shown={bad} />
      {after}
    </>
  );
}

const cardOf = (typed: string): string => typed.trim();

/** Cash at the cage (recordCageTransaction): chips cashed, front money in and out. */
export function CashAtCage({ property, currencies, onDone }: { property: Property; currencies: string[]; onDone: () => void }) {
  const t = useT(ACTS);
  const f = useFormat();
  const act = useAct();
  const [kind, setKind] = useState<CashKind>('CHIP_REDEMPTION');
  const [card, setCard] = useState('');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState(property.cashCurrency);
  const [done, setDone] = useState<Schemas['CashTransactionDto'] | null>(null);
  const send = async (minor: Amount) => {
    setDone(null);
    const patronId = cardOf(card);
    const tx = await act.send<Schemas['CashTransactionDto']>(`/v1/properties/${property.id}/cash-transactions`, {
      kind,
      amount: minor,
      currency,
      ...(patronId ? { patronId } : {}),
    });
    if (tx) {
      setDone(tx);
      setAmount('');
      onDone();
    }
  };
  return (
    <ActPart id="cage-cash-desk" title={t.cash} hint={t.cashHint}>
      <AmountActForm
        label={t.cash}
        testId="cage-cash-form"
        currency={currency}
        amount={amount}
        busy={act.busy}
        onSend={(m) => void send(m)}
        after={
          <>
            <ActProblem problem={act.problem} />
            {done && (
              <Done testId="cage-cash-done">
                <span data-tx={done.id} data-minor={String(done.amount)}>
                  {t.cashDone(t.cashKinds[done.kind], f.currency(done.amount, done.currency), done.patronId ?? '')}
                </span>
              </Done>
            )}
          </>
        }
      >
        <Choice label={t.kind} value={kind} options={CASH_KINDS} words={t.cashKinds} onChange={setKind} />
        <Field label={t.card}>
          <input name="card" autoComplete="off" value={card} onInput={(e) => setCard(e.currentTarget.value)} />
        </Field>
        <AmountField value={amount} onInput={setAmount} currency={currency} currencies={currencies} onCurrency={setCurrency} />
      </AmountActForm>
    </ActPart>
  );
}

/** A marker's payment (payMarker), from the patron's markers still owed; `onPaid` reads the list again. */
export function PayMarker({ markers, onPaid }: { markers: Marker[]; onPaid: () => void }) {
  const t = useT(ACTS);
  const f = useFormat();
  const act = useAct();
  const open = markers.filter((m) => !m.voided && BigInt(m.outstanding) > 0n);
  const [id, setId] = useState(open[0]?.id ?? '');
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState<Method>('CASH');
  const [reference, setReference] = useState('');
  const [request, setRequest] = useState('');
  const [done, setDone] = useState<{ amount: Amount; currency: string; markerId: string } | null>(null);
  const marker = open.find((m) => m.id === id) ?? open[0];
  const after = done && markers.find((m) => m.id === done.markerId);
  if (!marker && !done) return null;
  const currency = marker?.currency ?? done!.currency;
  const send = async (minor: Amount) => {
    if (!marker) return;
    setDone(null);
    const paid = await act.send<Schemas['MarkerPaymentDto']>(`/v1/markers/${marker.id}/payments`, {
      amount: minor,
      method,
      ...(reference.trim() ? { reference: reference.trim() } : {}),
      ...(request.trim() ? { requestId: request.trim() } : {}),
    });
    if (paid) {
      setDone({ amount: paid.amount, currency: marker.currency, markerId: marker.id });
      setAmount('');
      setReference('');
      setRequest('');
      onPaid();
    }
  };
  return (
    <section aria-labelledby="cage-pay" data-testid="cage-pay">
      <h3 id="cage-pay">{t.pay}</h3>
      {marker && (
        <AmountActForm label={t.pay} testId="cage-pay-form" currency={currency} amount={amount} busy={act.busy} onSend={(m) => void send(m)} after={null}>
          <Field label={t.marker}>
            <select name="marker" value={marker.id} onChange={(e) => setId(e.currentTarget.value)}>
              {open.map((m) => (
                <option key={m.id} value={m.id}>
                  {t.markerOption(f.day(m.gamingDay), f.currency(m.amount, m.currency), f.currency(m.outstanding, m.currency))}
                </option>
              ))}
            </select>
          </Field>
          <AmountField value={amount} onInput={setAmount} currency={currency} />
          <Choice label={t.method} value={method} options={METHODS} words={t.methods} onChange={setMethod} />
          <label>
            {t.reference} <span class="hint">({t.referenceHint})</span>
            <input
              name="reference"
              autoComplete="off"
              value={reference}
              required={method === 'CHECK' || method === 'WIRE'}
              onInput={(e) => setReference(e.currentTarget.value)}
            />
          </label>
          <label>
            {t.request} <span class="hint">({t.requestHint})</span>
            <input name="requestId" autoComplete="off" value={request} onInput={(e) => setRequest(e.currentTarget.value)} />
          </label>
        </AmountActForm>
      )}
      <ActProblem problem={act.problem} />
      {done && (
        <Done testId="cage-pay-done">{t.payDone(f.currency(done.amount, done.currency), after ? f.currency(after.outstanding, after.currency) : '…')}</Done>
      )}
    </section>
  );
}

/** Dead chips sold to a patron or bought back at the cage (recordChipExchange). */
export function ChipExchange({ property, currencies }: { property: Property; currencies: string[] }) {
  const t = useT(ACTS);
  const f = useFormat();
  const act = useAct();
  const [card, setCard] = useState('');
  const [kind, setKind] = useState<ChipKind>('PURCHASE');
  const [means, setMeans] = useState<Means>('FRONT_MONEY');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState(currencies[0] ?? property.cashCurrency);
  const [done, setDone] = useState<Schemas['ChipExchangeDto'] | null>(null);
  const chooseKind = (k: ChipKind) => {
    setKind(k);
    if (!MEANS[k].includes(means)) setMeans(MEANS[k][0]);
  };
  const send = async (minor: Amount) => {
    setDone(null);
    const x = await act.send<Schemas['ChipExchangeDto']>(`/v1/patrons/${encodeURIComponent(cardOf(card))}/chip-exchanges`, {
      kind,
      amount: minor,
      settledIn: means,
      propertyId: property.id,
      currency,
    });
    if (x) {
      setDone(x);
      setAmount('');
    }
  };
  return (
    <ActPart id="cage-chips" title={t.chips} hint={t.chipsHint}>
      <AmountActForm
        label={t.chips}
        testId="cage-chips-form"
        currency={currency}
        amount={amount}
        busy={act.busy}
        onSend={(m) => void send(m)}
        after={
          <>
            <ActProblem problem={act.problem} />
            {done && (
              <Done testId="cage-chips-done">
                <span data-exchange={done.id} data-minor={String(done.amount)}>
                  {t.chipsDone(t.chipKinds[done.kind], f.currency(done.amount, done.currency), done.patronId)}
                </span>
              </Done>
            )}
          </>
        }
      >
        <Field label={t.card}>
          <input name="card" autoComplete="off" required value={card} onInput={(e) => setCard(e.currentTarget.value)} />
        </Field>
        <Choice label={t.kind} value={kind} options={CHIP_KINDS} words={t.chipKinds} onChange={chooseKind} />
        <Choice label={t.settledIn} value={means} options={MEANS[kind]} words={t.means} onChange={setMeans} />
        <AmountField value={amount} onInput={setAmount} currency={currency} currencies={currencies} onCurrency={setCurrency} />
      </AmountActForm>
    </ActPart>
  );
}

/** The property's junkets, and for the one chosen the cashier's acts on it (its account, its players' credit). */
export function JunketsAtCage({ propertyId }: { propertyId: string }) {
  const t = useT(ACTS);
  const f = useFormat();
  const caller = useCaller();
  const junkets = useLoad(() => get<Junket[]>(`/v1/properties/${propertyId}/junkets`), []);
  const [chosen, setChosen] = useState('');
  const junket = junkets.data?.find((j) => j.id === chosen) ?? junkets.data?.[0];
  return (
    <ActPart id="cage-junkets" title={t.junkets} hint={t.junketsHint}>
      <ErrorNote problem={junkets.error} />
      {junkets.data && junkets.data.length === 0 && <p>{t.noJunkets}</p>}
      {junket && (
        <>
          <form class="range" aria-label={t.junket} onSubmit={(e) => e.preventDefault()}>
            <Field label={t.junket}>
              <select name="junket" value={junket.id} onChange={(e) => setChosen(e.currentTarget.value)}>
                {junkets.data!.map((j) => (
                  <option key={j.id} value={j.id}>
                    {j.code} {j.name}
                  </option>
                ))}
              </select>
            </Field>
          </form>
          <dl class="facts" data-junket={junket.id}>
            <div>
              <dt>{t.balance}</dt>
              <dd data-field="balance" data-minor={String(junket.balance)}>
                {f.currency(junket.balance, junket.currency)}
              </dd>
            </div>
            <div>
              <dt>{t.creditLimit}</dt>
              <dd data-field="creditLimit" data-minor={String(junket.creditLimit)}>
                {f.currency(junket.creditLimit, junket.currency)}
              </dd>
            </div>
          </dl>
          {mayCall(caller, 'addJunketAccountEntry') && <JunketEntry key={junket.id} junket={junket} onDone={junkets.reload} />}
          {mayCall(caller, 'reportJunketPlayerCredit') && <PlayerCredit key={junket.id} junket={junket} />}
        </>
      )}
    </ActPart>
  );
}

function JunketEntry({ junket, onDone }: { junket: Junket; onDone: () => void }) {
  const t = useT(ACTS);
  const f = useFormat();
  const act = useAct();
  const [kind, setKind] = useState<EntryKind>('MARKER');
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState<Method>('CASH');
  const [reference, setReference] = useState('');
  const [request, setRequest] = useState('');
  const [done, setDone] = useState<Schemas['AccountEntryDto'] | null>(null);
  const paying = kind !== 'MARKER';
  const send = async (minor: Amount) => {
    setDone(null);
    const e = await act.send<Schemas['AccountEntryDto']>(`/v1/junkets/${junket.id}/account`, {
      kind,
      amount: minor,
      ...(paying ? { method } : {}),
      ...(paying && reference.trim() ? { reference: reference.trim() } : {}),
      ...(kind === 'REPAYMENT' && request.trim() ? { requestId: request.trim() } : {}),
    });
    if (e) {
      setDone(e);
      setAmount('');
      setReference('');
      setRequest('');
      onDone();
    }
  };
  return (
    <section aria-labelledby="cage-junket-entry" data-testid="cage-junket-entry">
      <h3 id="cage-junket-entry">{t.entry}</h3>
      <AmountActForm
        label={t.entry}
        testId="cage-junket-entry-form"
        currency={junket.currency}
        amount={amount}
        busy={act.busy}
        onSend={(m) => void send(m)}
        after={
          <>
            <ActProblem problem={act.problem} />
            {done && (
              <Done testId="cage-junket-entry-done">
                <span data-entry={done.id} data-minor={String(done.amount)}>
                  {t.entryDone(t.entryKinds[done.kind] ?? done.kind, f.currency(done.amount, done.currency), f.currency(done.balance, done.currency))}
                </span>
              </Done>
            )}
          </>
        }
      >
        <Choice label={t.kind} value={kind} options={ENTRY_KINDS} words={t.entryKinds} onChange={setKind} />
        <AmountField value={amount} onInput={setAmount} currency={junket.currency} />
        {paying && <Choice label={t.method} value={method} options={METHODS} words={t.methods} onChange={setMethod} />}
        {paying && (
          <label>
            {t.reference} <span class="hint">({t.referenceHint})</span>
            <input
              name="reference"
              autoComplete="off"
              value={reference}
              required={method === 'CHECK' || method === 'WIRE'}
              onInput={(e) => setReference(e.currentTarget.value)}
            />
          </label>
        )}
        {kind === 'REPAYMENT' && (
          <label>
            {t.request} <span class="hint">({t.requestHint})</span>
            <input name="requestId" autoComplete="off" value={request} onInput={(e) => setRequest(e.currentTarget.value)} />
          </label>
        )}
      </AmountActForm>
    </section>
  );
}

function PlayerCredit({ junket }: { junket: Junket }) {
  const t = useT(ACTS);
  const f = useFormat();
  const act = useAct();
  const [card, setCard] = useState('');
  const [kind, setKind] = useState<CreditKind>('ADVANCE');
  const [amount, setAmount] = useState('');
  const [done, setDone] = useState<Schemas['PlayerCreditDto'] | null>(null);
  const send = async (minor: Amount) => {
    setDone(null);
    const c = await act.send<Schemas['PlayerCreditDto']>(`/v1/junkets/${junket.id}/player-credit`, { patronId: cardOf(card), kind, amount: minor });
    if (c) {
      setDone(c);
      setAmount('');
    }
  };
  return (
    <section aria-labelledby="cage-player-credit" data-testid="cage-player-credit">
      <h3 id="cage-player-credit">{t.playerCredit}</h3>
      <AmountActForm
        label={t.playerCredit}
        testId="cage-player-credit-form"
        currency={junket.currency}
        amount={amount}
        busy={act.busy}
        onSend={(m) => void send(m)}
        after={
          <>
            <ActProblem problem={act.problem} />
            {done && (
              <Done testId="cage-player-credit-done">
                <span data-credit={done.id} data-minor={String(done.amount)}>
                  {t.creditDone(t.creditKinds[done.kind], f.currency(done.amount, done.currency), done.patronId, f.day(done.gamingDay))}
                </span>
              </Done>
            )}
          </>
        }
      >
        <Field label={t.card}>
          <input name="card" autoComplete="off" required value={card} onInput={(e) => setCard(e.currentTarget.value)} />
        </Field>
        <Choice label={t.kind} value={kind} options={CREDIT_KINDS} words={t.creditKinds} onChange={setKind} />
        <AmountField value={amount} onInput={setAmount} currency={junket.currency} />
      </AmountActForm>
    </section>
  );
}

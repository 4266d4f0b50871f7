import { useState } from 'preact/hooks';
import type { Schemas } from './api';
import { Outcome, useAct } from './act';
import { minorOf, wireAmount } from './amounts';
import { mayCall, useCaller } from './caller';
import { useFormat } from './format';
import { useT, Words } from './i18n';

type Property = Schemas['PropertyDto'];
type Marker = Schemas['MarkerDto'];

/** The cage's acts (issue 50): cash at the counter, dead chips issued and taken back, a marker paid. */
const en = {
  acts: 'At the counter',
  cash: 'Cash at the cage',
  cashKinds: { CHIP_REDEMPTION: 'Chips cashed', DEPOSIT: 'Front money in', WITHDRAWAL: 'Front money out' } as Record<string, string>,
  kind: 'What',
  amount: 'Amount',
  currency: 'Currency',
  card: 'Patron card (required over the report threshold)',
  cardRequired: 'Patron card',
  record: 'Record',
  cashDone: (what: string, amount: string) => `${what}: ${amount} recorded.`,
  deadChips: 'Dead chips',
  chipKinds: { PURCHASE: 'Issued to the patron', RETURN: 'Taken back' } as Record<string, string>,
  settledIn: 'Against',
  means: { FRONT_MONEY: 'Front money', MARKER: 'A marker', CASH_CHIPS: 'Cash chips' } as Record<string, string>,
  chipsDone: (what: string, amount: string, card: string) => `${what}: ${amount} dead chips, ${card}.`,
  notAnAmount: 'The amount is not an amount in this currency.',
  pay: (amount: string) => `Pay this marker (${amount} owed)`,
  method: 'Paid in',
  methods: { CASH: 'Cash', CHIPS: 'Chips', CHECK: 'Cheque', WIRE: 'Wire' } as Record<string, string>,
  reference: 'Cheque number or wire reference',
  payButton: 'Record the payment',
  paid: (amount: string) => `Payment of ${amount} recorded.`,
};
const ACTS: Words<typeof en> = {
  en,
  'zh-Hant': {
    acts: '櫃台操作',
    cash: '賬房現金',
    cashKinds: { CHIP_REDEMPTION: '兌換籌碼', DEPOSIT: '存入按金', WITHDRAWAL: '提取按金' },
    kind: '項目',
    amount: '金額',
    currency: '貨幣',
    card: '客人卡號（超過申報門檻時必填）',
    cardRequired: '客人卡號',
    record: '記錄',
    cashDone: (what, amount) => `${what}：已記錄 ${amount}。`,
    deadChips: '泥碼',
    chipKinds: { PURCHASE: '發給客人', RETURN: '收回' },
    settledIn: '以此支付',
    means: { FRONT_MONEY: '按金', MARKER: '借據', CASH_CHIPS: '現金碼' },
    chipsDone: (what, amount, card) => `${what}：泥碼 ${amount}，${card}。`,
    notAnAmount: '金額不是此貨幣的金額。',
    pay: (amount) => `償還此借據（尚欠 ${amount}）`,
    method: '付款方式',
    methods: { CASH: '現金', CHIPS: '籌碼', CHECK: '支票', WIRE: '電匯' },
    reference: '支票號碼或電匯編號',
    payButton: '記錄還款',
    paid: (amount) => `已記錄還款 ${amount}。`,
  },
  'zh-Hans': {
    acts: '柜台操作',
    cash: '账房现金',
    cashKinds: { CHIP_REDEMPTION: '兑换筹码', DEPOSIT: '存入按金', WITHDRAWAL: '提取按金' },
    kind: '项目',
    amount: '金额',
    currency: '货币',
    card: '客人卡号（超过申报门槛时必填）',
    cardRequired: '客人卡号',
    record: '记录',
    cashDone: (what, amount) => `${what}：已记录 ${amount}。`,
    deadChips: '泥码',
    chipKinds: { PURCHASE: '发给客人', RETURN: '收回' },
    settledIn: '以此支付',
    means: { FRONT_MONEY: '按金', MARKER: '借据', CASH_CHIPS: '现金码' },
    chipsDone: (what, amount, card) => `${what}：泥码 ${amount}，${card}。`,
    notAnAmount: '金额不是此货币的金额。',
    pay: (amount) => `偿还此借据（尚欠 ${amount}）`,
    method: '付款方式',
    methods: { CASH: '现金', CHIPS: '筹码', CHECK: '支票', WIRE: '电汇' },
    reference: '支票号码或电汇编号',
    payButton: '记录还款',
    paid: (amount) => `已记录还款 ${amount}。`,
  },
};

/** The currencies the cage deals in at a property: its cash currency and its tables'. */
const currenciesOf = (property: Property, tables: Schemas['TableDto'][]) => [...new Set([property.cashCurrency, ...tables.map((t) => t.currency)])];

/** Cash at the counter and dead chips, for a role that may record them. */
export function CageActs({ property, tables, onDone }: { property: Property; tables: Schemas['TableDto'][]; onDone: () => void }) {
  const t = useT(ACTS);
  const caller = useCaller();
  const currencies = currenciesOf(property, tables);
  if (!mayCall(caller, 'recordCageTransaction') && !mayCall(caller, 'recordChipExchange')) return null;
  return (
    <section aria-labelledby="cage-acts" data-testid="cage-acts">
      <h2 id="cage-acts">{t.acts}</h2>
      {mayCall(caller, 'recordCageTransaction') && <Cash property={property} currencies={currencies} onDone={onDone} />}
      {mayCall(caller, 'recordChipExchange') && <DeadChips property={property} currencies={currencies} onDone={onDone} />}
    </section>
  );
}

function Cash({ property, currencies, onDone }: { property: Property; currencies: string[]; onDone: () => void }) {
  const t = useT(ACTS);
  const f = useFormat();
  const act = useAct();
  const [kind, setKind] = useState('CHIP_REDEMPTION');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState(property.cashCurrency);
  const [card, setCard] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  return (
    <form
      class="act"
      aria-label={t.cash}
      data-testid="cage-cash-act"
      onSubmit={(e) => {
        e.preventDefault();
        setDone(null);
        const minor = minorOf(amount, currency);
        if (minor === null || minor === 0n) return setLocal(t.notAnAmount);
        setLocal(null);
        void act
          .send(`/v1/properties/${property.id}/cash-transactions`, {
            kind,
            amount: wireAmount(minor),
            currency,
            ...(card.trim() ? { patronId: card.trim() } : {}),
          })
          .then((r) => {
            if (!r) return;
            setDone(t.cashDone(t.cashKinds[kind], f.currency(minor, currency)));
            setAmount('');
            setCard('');
            onDone();
          });
      }}
    >
      <h3>{t.cash}</h3>
      <label>
        {t.kind}
        <select value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
          {Object.keys(t.cashKinds).map((k) => (
            <option key={k} value={k}>
              {t.cashKinds[k]}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t.amount}
        <input inputMode="decimal" autoComplete="off" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} required />
      </label>
      <label>
        {t.currency}
        <select value={currency} onChange={(e) => setCurrency(e.currentTarget.value)}>
          {currencies.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t.card}
        <input autoComplete="off" value={card} onInput={(e) => setCard(e.currentTarget.value)} />
      </label>
      <button type="submit" disabled={act.busy}>
        {t.record}
      </button>
      <Outcome local={local} problem={act.problem} done={done} />
    </form>
  );
}

function DeadChips({ property, currencies, onDone }: { property: Property; currencies: string[]; onDone: () => void }) {
  const t = useT(ACTS);
  const f = useFormat();
  const act = useAct();
  const [kind, setKind] = useState('PURCHASE');
  const [amount, setAmount] = useState('');
  const [means, setMeans] = useState('FRONT_MONEY');
  const [currency, setCurrency] = useState(currencies.find((c) => c !== property.cashCurrency) ?? property.cashCurrency);
  const [card, setCard] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const meansOf = kind === 'PURCHASE' ? ['FRONT_MONEY', 'MARKER', 'CASH_CHIPS'] : ['CASH_CHIPS', 'FRONT_MONEY'];
  return (
    <form
      class="act"
      aria-label={t.deadChips}
      data-testid="cage-dead-chips-act"
      onSubmit={(e) => {
        e.preventDefault();
        setDone(null);
        const minor = minorOf(amount, currency);
        if (minor === null || minor === 0n) return setLocal(t.notAnAmount);
        setLocal(null);
        const settledIn = meansOf.includes(means) ? means : meansOf[0];
        void act
          .send(`/v1/patrons/${encodeURIComponent(card.trim())}/chip-exchanges`, {
            kind,
            amount: wireAmount(minor),
            settledIn,
            propertyId: property.id,
            currency,
          })
          .then((r) => {
            if (!r) return;
            setDone(t.chipsDone(t.chipKinds[kind], f.currency(minor, currency), card.trim()));
            setAmount('');
            onDone();
          });
      }}
    >
      <h3>{t.deadChips}</h3>
      <label>
        {t.cardRequired}
        <input autoComplete="off" value={card} onInput={(e) => setCard(e.currentTarget.value)} required />
      </label>
      <label>
        {t.kind}
        <select value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
          {Object.keys(t.chipKinds).map((k) => (
            <option key={k} value={k}>
              {t.chipKinds[k]}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t.amount}
        <input inputMode="decimal" autoComplete="off" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} required />
      </label>
      <label>
        {t.currency}
        <select value={currency} onChange={(e) => setCurrency(e.currentTarget.value)}>
          {currencies.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t.settledIn}
        <select value={meansOf.includes(means) ? means : meansOf[0]} onChange={(e) => setMeans(e.currentTarget.value)}>
          {meansOf.map((m) => (
            <option key={m} value={m}>
              {t.means[m]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={act.busy}>
        {t.record}
      </button>
      <Outcome local={local} problem={act.problem} done={done} />
    </form>
  );
}

/** A marker paid at the cage: the amount in the marker's currency, how, and the cheque's or wire's reference. */
export function PayMarker({ marker, onDone }: { marker: Marker; onDone: () => void }) {
  const t = useT(ACTS);
  const f = useFormat();
  const act = useAct();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState('CASH');
  const [reference, setReference] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const owed = f.currency(marker.outstanding, marker.currency);
  if (!open)
    return (
      <button type="button" onClick={() => setOpen(true)}>
        {t.pay(owed)}
      </button>
    );
  return (
    <form
      class="act"
      aria-label={t.pay(owed)}
      onSubmit={(e) => {
        e.preventDefault();
        const minor = minorOf(amount, marker.currency);
        if (minor === null || minor === 0n) return setLocal(t.notAnAmount);
        setLocal(null);
        void act
          .send(`/v1/markers/${marker.id}/payments`, { amount: wireAmount(minor), method, ...(reference.trim() ? { reference: reference.trim() } : {}) })
          .then((r) => {
            if (!r) return;
            setOpen(false);
            onDone();
          });
      }}
    >
      <label>
        {t.amount} ({marker.currency})
        <input inputMode="decimal" autoComplete="off" value={amount} onInput={(e) => setAmount(e.currentTarget.value)} required />
      </label>
      <label>
        {t.method}
        <select value={method} onChange={(e) => setMethod(e.currentTarget.value)}>
          {Object.keys(t.methods).map((m) => (
            <option key={m} value={m}>
              {t.methods[m]}
            </option>
          ))}
        </select>
      </label>
      {(method === 'CHECK' || method === 'WIRE') && (
        <label>
          {t.reference}
          <input autoComplete="off" value={reference} onInput={(e) => setReference(e.currentTarget.value)} required />
        </label>
      )}
      <button type="submit" disabled={act.busy}>
        {t.payButton}
      </button>
      <Outcome local={local} problem={act.problem} />
    </form>
  );
}

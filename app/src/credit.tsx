import { useEffect, useState } from 'preact/hooks';
import { get, Schemas } from './api';
import { CurrencyChoice, Field, Outcome, Text, useAct } from './act';
import { bpsOf, minorOf, wireAmount } from './amounts';
import { mayCall, useCaller } from './caller';
import { Head } from './cells';
import { ErrorNote } from './error-note';
import { Scroll } from './scroll';
import { exponentOf, Format, useFormat } from './format';
import { gamingDayNow } from './gaming-day';
import { useLoad } from './hooks';
import { useT, Words } from './i18n';
import { WORDS } from './words';

/**
 * The credit office (#/credit, issue 50): what the credit department asks for and a second person
 * decides. A credit line, a repayment over the threshold, a marker written off or deposited, the
 * credit policy, a rolling programme, a junket's statement: each is asked for with a reason, and
 * approved or rejected by someone else (the service refuses the asker, and a casino manager signs a
 * line over the senior threshold last). An approved programme or statement is then recorded from
 * here with its request. The cage asks for repayments only. Amounts are typed in major units and
 * rates in percent (amounts.ts); refusals are said by code (refusals/vip.ts).
 */
const en = {
  title: 'Credit office',
  property: 'Property',
  ask: 'Ask for approval',
  askHint: 'What you ask for waits for a second person. Say why: they read it before deciding.',
  act: 'Request',
  acts: {
    LIMIT: 'Credit line',
    REPAYMENT: 'Repayment over the threshold',
    WRITE_OFF: 'Write a marker off',
    DEPOSIT: "Present a marker to the patron's bank",
    POLICY: 'Credit policy',
    PROGRAMME: 'Rolling programme',
    STATEMENT: "Junket's statement",
  } as Record<string, string>,
  holder: 'For',
  patron: 'A patron',
  junket: 'A junket',
  card: "Patron's card",
  markers: 'Marker',
  markerOption: (day: string, amount: string, outstanding: string) => `${day}: ${amount}, outstanding ${outstanding}`,
  noMarkers: 'This card has no marker still owed.',
  creditLimit: 'Credit limit (0 ends the line)',
  currency: 'Currency',
  amount: 'Amount',
  method: 'Paid in',
  methods: { CASH: 'Cash', CHIPS: 'Chips', CHECK: 'Cheque', WIRE: 'Wire transfer' } as Record<string, string>,
  reference: 'Cheque number, wire or deposit reference',
  seniorLimitThreshold: 'A line above this is signed last by a casino manager',
  repaymentThreshold: 'A repayment above this waits for a second person',
  rollingCap: 'Most commission on the rolling (%)',
  winLossCap: 'Most commission on win/loss (%)',
  code: 'Programme code',
  name: 'Name',
  basis: 'Commission on',
  bases: { ROLLING: 'the rolling', WIN_LOSS: "the house's win or loss" } as Record<string, string>,
  commission: 'Commission (%)',
  allowance: 'Trip allowance (% of the rolling)',
  effectiveFrom: 'From gaming day',
  reason: 'Why',
  send: 'Ask',
  asked: (act: string, id: string) => `Asked: ${act} (request ${id}). It waits for a second person.`,
  badAmount: (currency: string) => `Write the amount in ${currency} as digits (1,234.50), with no more decimals than ${currency} has.`,
  badRate: 'Write each rate as a percentage with at most two decimals (1.2).',
  needCard: "Type the patron's card.",
  needMarker: 'Choose the marker.',
  needJunket: 'Choose the junket.',
  pending: 'Waiting for a decision',
  pendingCaption: 'Requests waiting for a decision',
  decidedCaption: 'Requests decided',
  noPending: 'Nothing waits for a decision.',
  decided: 'Decided, newest first',
  noDecided: 'Nothing decided yet.',
  columns: ['Asked', 'Request', 'For', 'Terms', 'Why', 'Decisions', 'Act'],
  approvals: (done: string, needed: string, role: string) => `${done} of ${needed}${role === 'CASINO_MANAGER' ? ', last by a casino manager' : ''}`,
  approve: 'Approve',
  reject: 'Reject',
  note: 'Note (needed to reject)',
  yours: 'You asked: another person decides.',
  decidedByYou: 'You have approved: another person signs next.',
  approved: 'Approved',
  rejected: 'Rejected',
  approvedDone: (id: string) => `Request ${id} approved.`,
  rejectedDone: (id: string) => `Request ${id} rejected.`,
  record: 'Record it',
  recordedOn: (when: string) => `Recorded ${when}`,
  recordedDone: (id: string) => `Recorded as approved (request ${id}).`,
  terms: {
    patronId: 'card',
    junketId: 'junket',
    markerId: 'marker',
    creditLimit: 'credit limit',
    currency: 'currency',
    amount: 'amount',
    method: 'paid in',
    reference: 'reference',
    seniorLimitThreshold: 'senior threshold',
    repaymentThreshold: 'repayment threshold',
    rollingCommissionCapBps: 'cap on the rolling',
    winLossCommissionCapBps: 'cap on win/loss',
    code: 'code',
    name: 'name',
    basis: 'on',
    commissionBps: 'commission',
    allowanceBps: 'allowance',
    effectiveFrom: 'from',
    from: 'from',
    to: 'to',
    digest: 'digest',
    junketSignatory: "junket's signatory",
  } as Record<string, string>,
};

const CREDIT: Words<typeof en> = {
  en,
  'zh-Hant': {
    ...en,
    title: '信貸辦公室',
    property: '場館',
    ask: '申請批准',
    askHint: '申請須由第二人批准。請寫明原因：批核人決定前會閱讀。',
    act: '申請',
    acts: {
      LIMIT: '信貸額度',
      REPAYMENT: '超過門檻的還款',
      WRITE_OFF: '借據撇賬',
      DEPOSIT: '借據提交客戶銀行',
      POLICY: '信貸政策',
      PROGRAMME: '轉碼計劃',
      STATEMENT: '中介人結算單',
    },
    holder: '對象',
    patron: '客戶',
    junket: '中介人',
    card: '客戶卡號',
    markers: '借據',
    markerOption: (day, amount, outstanding) => `${day}：${amount}，尚欠 ${outstanding}`,
    noMarkers: '此卡沒有尚欠的借據。',
    creditLimit: '信貸額度（0 即終止）',
    currency: '貨幣',
    amount: '金額',
    method: '付款方式',
    methods: { CASH: '現金', CHIPS: '籌碼', CHECK: '支票', WIRE: '電匯' },
    reference: '支票號碼、電匯或存款編號',
    seniorLimitThreshold: '高於此額度須由賭場經理最後簽批',
    repaymentThreshold: '高於此數的還款須由第二人批准',
    rollingCap: '轉碼佣金上限（%）',
    winLossCap: '輸贏佣金上限（%）',
    code: '計劃編號',
    name: '名稱',
    basis: '佣金計算',
    bases: { ROLLING: '按轉碼', WIN_LOSS: '按賭場輸贏' },
    commission: '佣金（%）',
    allowance: '旅程津貼（轉碼的 %）',
    effectiveFrom: '由博彩日起',
    reason: '原因',
    send: '申請',
    asked: (act, id) => `已申請：${act}（申請 ${id}），等候第二人批准。`,
    badAmount: (currency) => `請以數字填寫 ${currency} 金額（1,234.50），小數位不可多於 ${currency} 所有。`,
    badRate: '每個比率請以百分比填寫，最多兩位小數（1.2）。',
    needCard: '請輸入客戶卡號。',
    needMarker: '請選擇借據。',
    needJunket: '請選擇中介人。',
    pending: '等候決定',
    pendingCaption: '等候決定的申請',
    decidedCaption: '已決定的申請',
    noPending: '沒有等候決定的申請。',
    decided: '已決定（最新在前）',
    noDecided: '尚未有已決定的申請。',
    columns: ['申請時間', '申請', '對象', '條款', '原因', '決定', '處理'],
    approvals: (done, needed, role) => `${needed} 之 ${done}${role === 'CASINO_MANAGER' ? '，最後由賭場經理簽批' : ''}`,
    approve: '批准',
    reject: '拒絕',
    note: '備註（拒絕時必填）',
    yours: '由你申請：須由另一人決定。',
    decidedByYou: '你已批准：下一位簽批人為另一人。',
    approved: '已批准',
    rejected: '已拒絕',
    approvedDone: (id) => `申請 ${id} 已批准。`,
    rejectedDone: (id) => `申請 ${id} 已拒絕。`,
    record: '記錄',
    recordedOn: (when) => `已於 ${when} 記錄`,
    recordedDone: (id) => `已按批准記錄（申請 ${id}）。`,
    terms: {
      patronId: '卡號',
      junketId: '中介人',
      markerId: '借據',
      creditLimit: '信貸額度',
      currency: '貨幣',
      amount: '金額',
      method: '付款方式',
      reference: '編號',
      seniorLimitThreshold: '高級門檻',
      repaymentThreshold: '還款門檻',
      rollingCommissionCapBps: '轉碼上限',
      winLossCommissionCapBps: '輸贏上限',
      code: '編號',
      name: '名稱',
      basis: '計算',
      commissionBps: '佣金',
      allowanceBps: '津貼',
      effectiveFrom: '由',
      from: '由',
      to: '至',
      digest: '摘要',
      junketSignatory: '中介人簽署人',
    },
  },
  'zh-Hans': {
    ...en,
    title: '信贷办公室',
    property: '场馆',
    ask: '申请批准',
    askHint: '申请须由第二人批准。请写明原因：批核人决定前会阅读。',
    act: '申请',
    acts: {
      LIMIT: '信贷额度',
      REPAYMENT: '超过门槛的还款',
      WRITE_OFF: '借据核销',
      DEPOSIT: '借据提交客户银行',
      POLICY: '信贷政策',
      PROGRAMME: '转码计划',
      STATEMENT: '中介人结算单',
    },
    holder: '对象',
    patron: '客户',
    junket: '中介人',
    card: '客户卡号',
    markers: '借据',
    markerOption: (day, amount, outstanding) => `${day}：${amount}，尚欠 ${outstanding}`,
    noMarkers: '此卡没有尚欠的借据。',
    creditLimit: '信贷额度（0 即终止）',
    currency: '货币',
    amount: '金额',
    method: '付款方式',
    methods: { CASH: '现金', CHIPS: '筹码', CHECK: '支票', WIRE: '电汇' },
    reference: '支票号码、电汇或存款编号',
    seniorLimitThreshold: '高于此额度须由赌场经理最后签批',
    repaymentThreshold: '高于此数的还款须由第二人批准',
    rollingCap: '转码佣金上限（%）',
    winLossCap: '输赢佣金上限（%）',
    code: '计划编号',
    name: '名称',
    basis: '佣金计算',
    bases: { ROLLING: '按转码', WIN_LOSS: '按赌场输赢' },
    commission: '佣金（%）',
    allowance: '旅程津贴（转码的 %）',
    effectiveFrom: '由博彩日起',
    reason: '原因',
    send: '申请',
    asked: (act, id) => `已申请：${act}（申请 ${id}），等候第二人批准。`,
    badAmount: (currency) => `请以数字填写 ${currency} 金额（1,234.50），小数位不可多于 ${currency} 所有。`,
    badRate: '每个比率请以百分比填写，最多两位小数（1.2）。',
    needCard: '请输入客户卡号。',
    needMarker: '请选择借据。',
    needJunket: '请选择中介人。',
    pending: '等候决定',
    pendingCaption: '等候决定的申请',
    decidedCaption: '已决定的申请',
    noPending: '没有等候决定的申请。',
    decided: '已决定（最新在前）',
    noDecided: '尚未有已决定的申请。',
    columns: ['申请时间', '申请', '对象', '条款', '原因', '决定', '处理'],
    approvals: (done, needed, role) => `${needed} 之 ${done}${role === 'CASINO_MANAGER' ? '，最后由赌场经理签批' : ''}`,
    approve: '批准',
    reject: '拒绝',
    note: '备注（拒绝时必填）',
    yours: '由你申请：须由另一人决定。',
    decidedByYou: '你已批准：下一位签批人为另一人。',
    approved: '已批准',
    rejected: '已拒绝',
    approvedDone: (id) => `申请 ${id} 已批准。`,
    rejectedDone: (id) => `申请 ${id} 已拒绝。`,
    record: '记录',
    recordedOn: (when) => `已于 ${when} 记录`,
    recordedDone: (id) => `已按批准记录（申请 ${id}）。`,
    terms: {
      patronId: '卡号',
      junketId: '中介人',
      markerId: '借据',
      creditLimit: '信贷额度',
      currency: '货币',
      amount: '金额',
      method: '付款方式',
      reference: '编号',
      seniorLimitThreshold: '高级门槛',
      repaymentThreshold: '还款门槛',
      rollingCommissionCapBps: '转码上限',
      winLossCommissionCapBps: '输赢上限',
      code: '编号',
      name: '名称',
      basis: '计算',
      commissionBps: '佣金',
      allowanceBps: '津贴',
      effectiveFrom: '由',
      from: '由',
      to: '至',
      digest: '摘要',
      junketSignatory: '中介人签署人',
    },
  },
};

type Property = Schemas['PropertyDto'];
type Junket = Schemas['JunketDto'];
type Marker = Schemas['AgedMarkerDto'];
type Request = Schemas['CreditRequestDto'];

const ACTS = ['LIMIT', 'REPAYMENT', 'WRITE_OFF', 'DEPOSIT', 'POLICY', 'PROGRAMME'] as const;
type AskAct = (typeof ACTS)[number];
const METHODS = ['CASH', 'CHIPS', 'CHECK', 'WIRE'] as const;
const AMOUNT_TERMS = ['creditLimit', 'amount', 'seniorLimitThreshold', 'repaymentThreshold'];
const RATE_TERMS = ['rollingCommissionCapBps', 'winLossCommissionCapBps', 'commissionBps', 'allowanceBps'];

export function Credit({ args }: { args: string[] }) {
  const t = useT(CREDIT);
  const w = useT(WORDS);
  const props = useLoad(() => get<Property[]>('/v1/properties'), []);
  const [chosen, setChosen] = useState<string | null>(args[0] ?? null);
  const property = props.data?.find((p) => p.id === chosen) ?? props.data?.[0] ?? null;
  return (
    <main class="credit">
      <h1>{t.title}</h1>
      <ErrorNote problem={props.error} />
      {!props.data && !props.error && <p role="status">{w.loading}</p>}
      {props.data && props.data.length > 1 && (
        <label>
          {t.property}
          <select name="property" value={property?.id} onChange={(e) => setChosen(e.currentTarget.value)}>
            {props.data.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
      )}
      {property && <Office key={property.id} property={property} />}
    </main>
  );
}

/** One property's credit office: the form to ask, the requests waiting, those decided. */
export function Office({ property }: { property: Property }) {
  const caller = useCaller();
  const [version, setVersion] = useState(0);
  const requests = useLoad(() => get<Request[]>(`/v1/properties/${property.id}/credit-requests`), [version]);
  const junkets = useLoad(() => (mayCall(caller, 'listJunkets') ? get<Junket[]>(`/v1/properties/${property.id}/junkets`) : Promise.resolve([])), []);
  // A patron's line is in a currency the property deals in: its cash currency and its tables'.
  const tables = useLoad(
    () => (mayCall(caller, 'listTables') ? get<Schemas['TableDto'][]>('/v1/tables', { propertyId: property.id }) : Promise.resolve([])),
    [],
  );
  const currencies = [...new Set([property.cashCurrency, ...(tables.data ?? []).map((x) => x.currency)])];
  const again = () => setVersion((v) => v + 1);
  return (
    <>
      {mayCall(caller, 'requestCredit') && <Ask property={property} junkets={junkets.data ?? []} currencies={currencies} onAsked={again} />}
      <ErrorNote problem={requests.error ?? junkets.error} />
      {requests.data && <Queue property={property} requests={requests.data} junkets={junkets.data ?? []} onDecided={again} />}
    </>
  );
}

/** The form that asks (requestCredit): its fields are the act's; the cage asks for repayments only. */
function Ask({ property, junkets, currencies, onAsked }: { property: Property; junkets: Junket[]; currencies: string[]; onAsked: () => void }) {
  const t = useT(CREDIT);
  const caller = useCaller();
  const act = useAct();
  const offered: readonly AskAct[] = caller.role === 'CASHIER' ? ['REPAYMENT'] : ACTS;
  const [kind, setKind] = useState<AskAct>(offered[0]);
  const [holder, setHolder] = useState<'patron' | 'junket'>('patron');
  const [v, setV] = useState<Record<string, string>>({ method: 'CASH', basis: 'ROLLING', currency: property.cashCurrency });
  const [local, setLocal] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const set = (k: string) => (x: string) => setV((o) => ({ ...o, [k]: x }));
  const card = (v.card ?? '').trim();
  // The card's markers still owed at this property, as the office reads them (the ageing: every credit role may).
  const markers = useLoad(
    () =>
      card && mayCall(caller, 'getMarkerAgeing')
        ? get<Schemas['AgeingDto']>(`/v1/properties/${property.id}/marker-ageing`).then((a) => a.markers)
        : Promise.resolve([] as Marker[]),
    [card, property.id],
  );
  const owed = (markers.data ?? []).filter((m) => m.patronId === card && BigInt(m.outstanding) > 0n);
  const junket = junkets.find((j) => j.id === v.junket) ?? null;
  const onMarker = kind === 'WRITE_OFF' || kind === 'DEPOSIT' || (kind === 'REPAYMENT' && holder === 'patron');
  const marker = onMarker ? (owed.find((m) => m.id === v.marker) ?? owed[0] ?? null) : null;
  const amountCurrency = kind === 'POLICY' ? property.cashCurrency : junket && holder === 'junket' ? junket.currency : (marker?.currency ?? v.currency);

  const submit = async () => {
    setLocal(null);
    setDone(null);
    const body: Record<string, unknown> = { act: kind, reason: (v.reason ?? '').trim() };
    const amount = (k: string, typed: string | undefined): boolean => {
      const m = minorOf(typed ?? '', amountCurrency);
      if (m === null) return false;
      body[k] = wireAmount(m);
      return true;
    };
    const rate = (k: string, typed: string | undefined, optional = false): boolean => {
      if (optional && !(typed ?? '').trim()) return true;
      const b = bpsOf(typed ?? '');
      if (b === null) return false;
      body[k] = b;
      return true;
    };
    if (kind === 'LIMIT' || kind === 'REPAYMENT') {
      if (holder === 'junket' || kind === 'LIMIT') {
        if (holder === 'junket') {
          if (!junket) return setLocal(t.needJunket);
          body.junketId = junket.id;
        } else {
          if (!card) return setLocal(t.needCard);
          body.patronId = card;
          body.currency = v.currency;
        }
      }
    }
    if (onMarker) {
      if (!marker) return setLocal(card ? t.needMarker : t.needCard);
      body.markerId = marker.id;
    }
    if (kind === 'LIMIT' && !amount('creditLimit', v.creditLimit)) return setLocal(t.badAmount(amountCurrency));
    if (kind === 'REPAYMENT') {
      if (!amount('amount', v.amount)) return setLocal(t.badAmount(amountCurrency));
      body.method = v.method;
    }
    if ((kind === 'REPAYMENT' || kind === 'DEPOSIT') && (v.reference ?? '').trim()) body.reference = v.reference.trim();
    if (kind === 'POLICY') {
      if (!amount('seniorLimitThreshold', v.seniorLimitThreshold) || !amount('repaymentThreshold', v.repaymentThreshold))
        return setLocal(t.badAmount(amountCurrency));
      if (!rate('rollingCommissionCapBps', v.rollingCap) || !rate('winLossCommissionCapBps', v.winLossCap)) return setLocal(t.badRate);
    }
    if (kind === 'PROGRAMME') {
      Object.assign(body, {
        code: (v.code ?? '').trim(),
        name: (v.name ?? '').trim(),
        basis: v.basis,
        effectiveFrom: v.effectiveFrom || gamingDayNow(property.timeZone, property.gamingDayStartHour),
      });
      if (!rate('commissionBps', v.commission) || !rate('allowanceBps', v.allowance, true)) return setLocal(t.badRate);
    }
    const asked = await act.send<Request>(`/v1/properties/${property.id}/credit-requests`, body);
    if (asked) {
      setDone(t.asked(t.acts[asked.act], asked.id));
      setV((o) => ({ method: o.method, basis: o.basis, currency: o.currency }));
      onAsked();
    }
  };

  return (
    <section aria-labelledby="credit-ask" data-testid="credit-ask">
      <h2 id="credit-ask">{t.ask}</h2>
      <p class="hint">{t.askHint}</p>
      <form
        class="act"
        aria-label={t.ask}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {offered.length > 1 && (
          <Field label={t.act}>
            <select name="act" value={kind} onChange={(e) => setKind(e.currentTarget.value as AskAct)}>
              {offered.map((a) => (
                <option key={a} value={a}>
                  {t.acts[a]}
                </option>
              ))}
            </select>
          </Field>
        )}
        {(kind === 'LIMIT' || kind === 'REPAYMENT') && (
          <Field label={t.holder}>
            <select name="holder" value={holder} onChange={(e) => setHolder(e.currentTarget.value as 'patron' | 'junket')}>
              <option value="patron">{t.patron}</option>
              <option value="junket">{t.junket}</option>
            </select>
          </Field>
        )}
        {holder === 'junket' && (kind === 'LIMIT' || kind === 'REPAYMENT') && (
          <Field label={t.junket}>
            <select name="junket" value={v.junket ?? ''} onChange={(e) => set('junket')(e.currentTarget.value)}>
              <option value="">—</option>
              {junkets.map((j) => (
                <option key={j.id} value={j.id}>
                  {j.code} · {j.name} ({j.currency})
                </option>
              ))}
            </select>
          </Field>
        )}
        {(onMarker || (kind === 'LIMIT' && holder === 'patron')) && (
          <Field label={t.card}>
            <Text name="card" value={v.card ?? ''} onInput={set('card')} />
          </Field>
        )}
        {onMarker && card && <MarkerChoice markers={owed} value={marker?.id ?? ''} onChange={set('marker')} />}
        {kind === 'LIMIT' && (
          <>
            <Field label={`${t.creditLimit} (${amountCurrency})`}>
              <Text name="creditLimit" mode="decimal" value={v.creditLimit ?? ''} onInput={set('creditLimit')} />
            </Field>
            {holder === 'patron' && <CurrencyChoice label={t.currency} currencies={currencies} value={v.currency} onChange={set('currency')} />}
          </>
        )}
        {kind === 'REPAYMENT' && (
          <>
            <Field label={`${t.amount} (${amountCurrency})`}>
              <Text name="amount" mode="decimal" value={v.amount ?? ''} onInput={set('amount')} />
            </Field>
            <Field label={t.method}>
              <select name="method" value={v.method} onChange={(e) => set('method')(e.currentTarget.value)}>
                {METHODS.map((m) => (
                  <option key={m} value={m}>
                    {t.methods[m]}
                  </option>
                ))}
              </select>
            </Field>
          </>
        )}
        {(kind === 'REPAYMENT' || kind === 'DEPOSIT') && (
          <Field label={t.reference}>
            <Text name="reference" value={v.reference ?? ''} onInput={set('reference')} />
          </Field>
        )}
        {kind === 'POLICY' && (
          <>
            <Field label={`${t.seniorLimitThreshold} (${amountCurrency})`}>
              <Text name="seniorLimitThreshold" mode="decimal" value={v.seniorLimitThreshold ?? ''} onInput={set('seniorLimitThreshold')} />
            </Field>
            <Field label={`${t.repaymentThreshold} (${amountCurrency})`}>
              <Text name="repaymentThreshold" mode="decimal" value={v.repaymentThreshold ?? ''} onInput={set('repaymentThreshold')} />
            </Field>
            <Field label={t.rollingCap}>
              <Text name="rollingCap" mode="decimal" value={v.rollingCap ?? ''} onInput={set('rollingCap')} />
            </Field>
            <Field label={t.winLossCap}>
              <Text name="winLossCap" mode="decimal" value={v.winLossCap ?? ''} onInput={set('winLossCap')} />
            </Field>
          </>
        )}
        {kind === 'PROGRAMME' && (
          <>
            <Field label={t.code}>
              <Text name="code" value={v.code ?? ''} onInput={set('code')} />
            </Field>
            <Field label={t.name}>
              <Text name="name" value={v.name ?? ''} onInput={set('name')} />
            </Field>
            <Field label={t.basis}>
              <select name="basis" value={v.basis} onChange={(e) => set('basis')(e.currentTarget.value)}>
                {Object.keys(t.bases).map((b) => (
                  <option key={b} value={b}>
                    {t.bases[b]}
                  </option>
                ))}
              </select>
            </Field>
            <Field label={t.commission}>
              <Text name="commission" mode="decimal" value={v.commission ?? ''} onInput={set('commission')} />
            </Field>
            <Field label={t.allowance}>
              <Text name="allowance" mode="decimal" value={v.allowance ?? ''} onInput={set('allowance')} />
            </Field>
            <Field label={t.effectiveFrom}>
              <input name="effectiveFrom" type="date" value={v.effectiveFrom ?? ''} onInput={(e) => set('effectiveFrom')(e.currentTarget.value)} />
            </Field>
          </>
        )}
        <Field label={t.reason}>
          <Text name="reason" value={v.reason ?? ''} onInput={set('reason')} />
        </Field>
        <button type="submit" disabled={act.busy}>
          {t.send}
        </button>
      </form>
      <Outcome local={local} problem={act.problem} done={done} testId="credit-asked" />
    </section>
  );
}

function MarkerChoice({ markers, value, onChange }: { markers: Marker[]; value: string; onChange: (id: string) => void }) {
  const t = useT(CREDIT);
  const f = useFormat();
  if (!markers.length) return <p class="hint">{t.noMarkers}</p>;
  return (
    <Field label={t.markers}>
      <select name="marker" value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {markers.map((m) => (
          <option key={m.id} value={m.id}>
            {t.markerOption(f.day(m.issuedDay), f.currency(m.amount, m.currency), f.currency(m.outstanding, m.currency))}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** A marker as a person tells markers apart: the patron's card, its gaming day, its amount. */
const markerName = (m: NonNullable<Request['marker']>, f: Format, timeZone: string): string =>
  `${m.patronId} · ${f.dateTime(m.issuedAt, timeZone)} · ${f.currency(m.amount, m.currency)}`;

function MarkerName({ m, timeZone }: { m: NonNullable<Request['marker']>; timeZone: string }) {
  return <span data-marker-of={m.patronId}>{markerName(m, useFormat(), timeZone)}</span>;
}

/** What a request is about, as a person reads it: a marker, a junket by its code, the property by its name, else its subject (a card, a code). */
function Subject({ r, property, junkets }: { r: Request; property: Property; junkets: Junket[] }) {
  if (r.marker) return <MarkerName m={r.marker} timeZone={property.timeZone} />;
  if (r.junket) return <>{r.junket.code}</>;
  if (r.subject === property.id) return <>{property.name}</>;
  return <>{junkets.find((j) => j.id === r.subject)?.code ?? r.subject}</>;
}

/** A request's terms as a person reads them: amounts in their currency, rates in percent. */
function Terms({ r, property, junkets }: { r: Request; property: Property; junkets: Junket[] }) {
  const t = useT(CREDIT);
  const f = useFormat();
  const terms = r.terms as Record<string, unknown>;
  const junket = junkets.find((j) => j.id === terms.junketId);
  const currency = (terms.currency as string | undefined) ?? junket?.currency ?? property.cashCurrency;
  const shown = (k: string, x: unknown): string => {
    if (AMOUNT_TERMS.includes(k) && (typeof x === 'string' || typeof x === 'number') && exponentOf(currency) >= 0) return f.currency(BigInt(x), currency);
    if (RATE_TERMS.includes(k) && typeof x === 'number') return f.percent((x / 100).toFixed(2));
    if (k === 'junketId') return r.junket?.code ?? junket?.code ?? String(x);
    if (k === 'markerId' && r.marker) return markerName(r.marker, f, property.timeZone);
    if (k === 'method') return t.methods[x as string] ?? String(x);
    if (k === 'basis') return t.bases[x as string] ?? String(x);
    if (k === 'digest') return `${String(x).slice(0, 12)}…`;
    return String(x);
  };
  return (
    <ul class="terms">
      {Object.entries(terms)
        .filter(([, x]) => x !== null && x !== undefined && x !== '')
        .map(([k, x]) => (
          <li key={k} data-term={k}>
            {t.terms[k] ?? k}: {shown(k, x)}
          </li>
        ))}
    </ul>
  );
}

/** The requests: those waiting with approve and reject (to anyone but the asker), then those decided. */
function Queue({ property, requests, junkets, onDecided }: { property: Property; requests: Request[]; junkets: Junket[]; onDecided: () => void }) {
  const t = useT(CREDIT);
  const pending = requests.filter((r) => r.status === 'PENDING');
  // The last 50 decided, and every approved programme or statement still to record however old.
  const toRecord = (r: Request) => r.status === 'APPROVED' && (r.act === 'PROGRAMME' || r.act === 'STATEMENT') && !r.recordedAt;
  const done = requests.filter((r) => r.status !== 'PENDING');
  const decided = [...done.filter(toRecord), ...done.filter((r) => !toRecord(r)).slice(0, 50)];
  return (
    <>
      <section aria-labelledby="credit-pending" data-testid="credit-pending">
        <h2 id="credit-pending">{t.pending}</h2>
        {pending.length === 0 ? (
          <p>{t.noPending}</p>
        ) : (
          <Requests label={t.pendingCaption} rows={pending} property={property} junkets={junkets} onDecided={onDecided} />
        )}
      </section>
      <section aria-labelledby="credit-decided" data-testid="credit-decided">
        <h2 id="credit-decided">{t.decided}</h2>
        {decided.length === 0 ? (
          <p>{t.noDecided}</p>
        ) : (
          <Requests label={t.decidedCaption} rows={decided} property={property} junkets={junkets} onDecided={onDecided} />
        )}
      </section>
    </>
  );
}

function Requests({
  label,
  rows,
  property,
  junkets,
  onDecided,
}: {
  label: string;
  rows: Request[];
  property: Property;
  junkets: Junket[];
  onDecided: () => void;
}) {
  const t = useT(CREDIT);
  const f = useFormat();
  return (
    <Scroll label={label}>
      <table class="figures">
        <caption class="sr-only">{label}</caption>
        <Head columns={t.columns} />
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-request={r.id} data-status={r.status}>
              <td>{f.dateTime(r.requestedAt, property.timeZone)}</td>
              <th scope="row" data-field="act" data-value={r.act}>
                {t.acts[r.act]}
              </th>
              <td data-field="subject">
                <Subject r={r} property={property} junkets={junkets} />
              </td>
              <td>
                <Terms r={r} property={property} junkets={junkets} />
              </td>
              <td>{r.reason}</td>
              <td data-field="decisions">
                {r.status === 'PENDING'
                  ? t.approvals(f.integer(r.decisions.filter((d) => d.approve).length), f.integer(r.approvalsNeeded), r.finalRole ?? '')
                  : r.status === 'APPROVED'
                    ? t.approved
                    : t.rejected}
                {r.decisions
                  .filter((d) => d.note)
                  .map((d) => (
                    <div key={d.step} class="hint">
                      {d.note}
                    </div>
                  ))}
              </td>
              <td>
                {r.status === 'PENDING' && <Decide r={r} onDecided={onDecided} />}
                {r.recordedAt ? (
                  <span data-field="recorded" data-value={r.recordedAt}>
                    {t.recordedOn(f.dateTime(r.recordedAt, property.timeZone))}
                  </span>
                ) : (
                  r.status === 'APPROVED' && (r.act === 'PROGRAMME' || r.act === 'STATEMENT') && <RecordApproved r={r} property={property} onDone={onDecided} />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}

/** Approve or reject (a note is needed to reject); not offered to the asker, nor twice to one approver. */
function Decide({ r, onDecided }: { r: Request; onDecided: () => void }) {
  const t = useT(CREDIT);
  const caller = useCaller();
  const act = useAct();
  const [note, setNote] = useState('');
  const [done, setDone] = useState<string | null>(null);
  if (!mayCall(caller, 'approveCreditRequest')) return null;
  if (r.requestedByKeyId === caller.keyId) return <p class="hint">{t.yours}</p>;
  if (r.decisions.some((d) => d.keyId === caller.keyId)) return <p class="hint">{t.decidedByYou}</p>;
  const decide = async (approve: boolean) => {
    const answer = await act.send<Request>(`/v1/credit-requests/${r.id}/${approve ? 'approve' : 'reject'}`, note.trim() ? { note: note.trim() } : {});
    if (answer) {
      setDone(approve ? t.approvedDone(r.id) : t.rejectedDone(r.id));
      onDecided();
    }
  };
  return (
    <form class="act inline" aria-label={`${t.approve} / ${t.reject}: ${t.acts[r.act]}`} onSubmit={(e) => e.preventDefault()}>
      <Field label={t.note}>
        <Text name="note" value={note} onInput={setNote} />
      </Field>
      <button type="button" disabled={act.busy} onClick={() => void decide(true)}>
        {t.approve}
      </button>
      <button type="button" disabled={act.busy} onClick={() => void decide(false)}>
        {t.reject}
      </button>
      <Outcome problem={act.problem} done={done} />
    </form>
  );
}

/** An approved programme or statement recorded as approved: its terms, its request's id. */
function RecordApproved({ r, property, onDone }: { r: Request; property: Property; onDone: () => void }) {
  const t = useT(CREDIT);
  const caller = useCaller();
  const act = useAct();
  const [said, setSaid] = useState<string | null>(null);
  const op = r.act === 'PROGRAMME' ? 'addRollingProgramme' : 'agreeJunketStatement';
  if (!mayCall(caller, op)) return null;
  const terms = r.terms as Record<string, unknown>;
  const record = async () => {
    const answer =
      r.act === 'PROGRAMME'
        ? await act.send(`/v1/properties/${property.id}/rolling-programmes`, {
            code: terms.code,
            name: terms.name,
            basis: terms.basis,
            commissionBps: terms.commissionBps,
            ...(terms.allowanceBps !== undefined ? { allowanceBps: terms.allowanceBps } : {}),
            effectiveFrom: terms.effectiveFrom,
            requestId: r.id,
          })
        : await act.send(`/v1/junkets/${String(terms.junketId)}/statements`, {
            from: terms.from,
            to: terms.to,
            digest: terms.digest,
            junketSignatory: terms.junketSignatory,
            requestId: r.id,
          });
    if (answer) {
      setSaid(t.recordedDone(r.id));
      onDone();
    }
  };
  // Recorded already, from another screen (CONFLICT): the list, read again, says when.
  const conflict = act.problem?.code === 'CONFLICT';
  useEffect(() => {
    if (conflict) onDone();
  }, [conflict]);
  return (
    <>
      <button type="button" disabled={act.busy} onClick={() => void record()}>
        {t.record}
      </button>
      <Outcome problem={act.problem} done={said} />
    </>
  );
}

import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, Schemas } from './api';
import { mayCall, useCaller } from './caller';
import { Head, LiveBadge, Money } from './cells';
import { ErrorNote } from './error-note';
import { useFormat } from './format';
import { gamingDayNow } from './gaming-day';
import { useLive, useLoad } from './hooks';
import { useT, Words } from './i18n';
import { Scroll } from './scroll';
import { WORDS } from './words';
import { Range, RangeForm } from './range-form';
import { CardSearch } from './card-search';
import { CashAtCage, ChipExchange, JunketsAtCage, PayMarker } from './cage-acts';
import { rememberProperty, startProperty } from './start-property';

/**
 * The cage and compliance desk: for a property and its gaming days, the buy-ins recorded at its
 * tables, a patron's markers, the drop reconciled against the buy-ins, and the cash reports (the
 * multiple-transaction log, the currency-transaction-report candidates, the structuring alerts and
 * every named patron's cash day). Each part is shown only to a role that may read it.
 */
const en = {
  title: 'Cage and compliance',
  period: 'Property and gaming days',
  property: 'Property',
  from: 'From',
  to: 'To',
  noProperty: 'No property is set up yet.',
  buyIns: 'Buy-ins at the tables',
  buyInsCaption: 'Buy-ins recorded at the tables, oldest first',
  noBuyIns: 'No buy-in was recorded at this property on these days.',
  noTables: 'This property has no table.',
  lastDays: (n: string) => `Only the last ${n} gaming days of the range are listed.`,
  buyInColumns: ['Gaming day', 'Recorded', 'Table', 'Kind', 'Patron card', 'Amount', 'Currency', 'Marker'],
  buyInKinds: { CASH: 'Cash', MARKER: 'Marker', CHIPS: 'Chips from another table' } as Record<string, string>,
  voided: 'voided',
  unnamed: 'not named',
  markerIssued: 'issued',
  markers: 'Markers',
  markersHint: "A patron's markers, with their payments and what each still owes. Reading them is recorded in the patron's audit trail.",
  card: 'Patron card',
  show: 'Show markers',
  takenHere: 'Markers taken at these tables on these days:',
  markersOf: (card: string) => `Markers of ${card}`,
  noMarkers: (card: string) => `${card} has no marker.`,
  markerColumns: ['Gaming day', 'Issued', 'Table', 'Amount', 'Paid', 'Outstanding', 'Currency', 'Payments'],
  methods: { CASH: 'cash', CHIPS: 'chips', CHECK: 'check', WIRE: 'wire' } as Record<string, string>,
  open: 'outstanding',
  paidOff: 'paid off',
  ageing: 'Markers ageing',
  ageingHint: 'Every marker still owed at this property on the last gaming day of the range, aged from the day it was issued. Totals are per currency.',
  ageingCaption: (day: string) => `Markers still owed on ${day}, oldest first`,
  noAgeing: 'No marker is owed at this property.',
  ageingTotalsCaption: 'Outstanding by age, per currency',
  ageingTotalColumns: ['Currency', 'Up to 30 days', '31–60 days', '61–90 days', 'Over 90 days', 'Total'],
  ageingColumns: ['Issued', 'Age (days)', 'Bucket', 'Patron card', 'Table', 'Amount', 'Outstanding', 'Currency'],
  buckets: { CURRENT: 'up to 30 days', DAYS_31_60: '31–60 days', DAYS_61_90: '61–90 days', OVER_90: 'over 90 days' } as Record<string, string>,
  cageCounter: 'the cage',
  drop: 'Drop reconciliation',
  dropCaption: 'The drop counted against the cash and marker buy-ins, by table and gaming day',
  noDrop: 'No table of this property had a session on these days.',
  dropColumns: ['Table', 'Gaming day', 'Currency', 'Cash', 'Markers', 'Chips from other tables', 'Expected drop', 'Counted drop', 'Difference', 'Status'],
  dropStatus: { RECONCILED: 'Reconciled', EXCEPTION: 'Exception: explain the difference', NOT_COUNTED: 'Not counted yet' } as Record<string, string>,
  cash: 'Cash reports',
  thresholds: 'Thresholds',
  mtlThreshold: 'Log: a single transaction of',
  ctrThreshold: 'Report: a patron-day of more than',
  floor: '"Just under" from',
  orMore: 'or more',
  mtl: 'Multiple-transaction log',
  mtlHint: 'Every single cash transaction at the log threshold or more. Review it each gaming day.',
  noMtl: 'No transaction reached the log threshold.',
  txColumns: ['Time', 'Gaming day', 'Patron card', 'Kind', 'In or out', 'Amount', 'Currency', 'Table'],
  ctr: 'Currency transaction report candidates',
  ctrHint: 'Each patron-day whose cash in, or cash out, is more than the report threshold. File a report for each within the deadline.',
  noCtr: 'No patron-day is over the report threshold.',
  dayColumns: ['Patron card', 'Gaming day', 'In or out', 'Total', 'Transactions'],
  structuring: 'Structuring alerts',
  structuringHint: 'Cash that looks split to stay under a threshold: a reason to look at the play and the patron, not a finding.',
  noStructuring: 'No structuring alert.',
  alertColumns: ['Patron card', 'Gaming day', 'Pattern', 'In or out', 'Total', 'Transactions'],
  patterns: {
    JUST_UNDER: 'Just under the report threshold',
    SPLIT: 'Split below the log threshold',
    ACROSS_DAYS: 'Across gaming days (24 hours)',
  } as Record<string, string>,
  patronDays: 'Cash transactions by patron and day',
  patronDaysHint: "Every named patron's cash in and cash out per gaming day: the working file behind the reports.",
  noPatronDays: 'No named patron moved cash on these days.',
  transactions: "Named patrons' cash transactions, oldest first",
  directions: { IN: 'Cash in', OUT: 'Cash out' } as Record<string, string>,
  txKinds: {
    BUY_IN: 'Buy-in',
    MARKER_PAYMENT: 'Marker payment',
    CHIP_REDEMPTION: 'Chips cashed',
    DEPOSIT: 'Front money deposited',
    WITHDRAWAL: 'Front money withdrawn',
  } as Record<string, string>,
  atCage: 'cage',
  liveNote: 'Buy-ins, the drop and the reports follow the tables live; transactions at the cage appear when the page is read again.',
  readAgain: 'Read again',
};

const CAGE: Words<typeof en> = {
  en,
  'zh-Hant': {
    title: '賬房與合規',
    period: '場館及博彩日',
    property: '場館',
    from: '由',
    to: '至',
    noProperty: '尚未設立場館。',
    buyIns: '賭枱買碼',
    buyInsCaption: '各賭枱記錄的買碼，按時間先後',
    noBuyIns: '此場館在這些博彩日沒有買碼記錄。',
    noTables: '此場館沒有賭枱。',
    lastDays: (n) => `只列出所選範圍最後 ${n} 個博彩日。`,
    buyInColumns: ['博彩日', '記錄時間', '賭枱', '類別', '客戶卡號', '金額', '貨幣', '借據'],
    buyInKinds: { CASH: '現金', MARKER: '借據（簽碼）', CHIPS: '他枱籌碼' },
    voided: '已作廢',
    unnamed: '未具名',
    markerIssued: '已發出',
    markers: '借據',
    markersHint: '客戶的借據、還款記錄及每張尚欠金額。查閱會記入該客戶的審計記錄。',
    card: '客戶卡號',
    show: '顯示借據',
    takenHere: '這些博彩日在本場館賭枱簽出借據的客戶：',
    markersOf: (card) => `${card} 的借據`,
    noMarkers: (card) => `${card} 沒有借據。`,
    markerColumns: ['博彩日', '簽發時間', '賭枱', '金額', '已還', '尚欠', '貨幣', '還款'],
    methods: { CASH: '現金', CHIPS: '籌碼', CHECK: '支票', WIRE: '電匯' },
    open: '尚欠',
    paidOff: '已還清',
    ageing: '借據賬齡',
    ageingHint: '此場館在所選範圍最後一個博彩日仍未還清的每張借據，按簽發日計算賬齡。合計按貨幣分列。',
    ageingCaption: (day) => `${day} 仍未還清的借據，按時間先後`,
    noAgeing: '此場館沒有未還清的借據。',
    ageingTotalsCaption: '按賬齡及貨幣列出的未還金額',
    ageingTotalColumns: ['貨幣', '30 日內', '31–60 日', '61–90 日', '逾 90 日', '合計'],
    ageingColumns: ['簽發日', '賬齡（日）', '賬齡組別', '客戶卡號', '賭枱', '金額', '尚欠', '貨幣'],
    buckets: { CURRENT: '30 日內', DAYS_31_60: '31–60 日', DAYS_61_90: '61–90 日', OVER_90: '逾 90 日' },
    cageCounter: '賬房',
    drop: '錢箱投放對賬',
    dropCaption: '按賭枱及博彩日，點算的投放額與現金及借據買碼對照',
    noDrop: '此場館的賭枱在這些博彩日沒有開檯。',
    dropColumns: ['賭枱', '博彩日', '貨幣', '現金', '借據', '他枱籌碼', '應有投放額', '點算投放額', '差額', '狀態'],
    dropStatus: { RECONCILED: '相符', EXCEPTION: '有差異：須查明原因', NOT_COUNTED: '尚未點算' },
    cash: '現金交易報告',
    thresholds: '申報門檻',
    mtlThreshold: '登記：單筆交易達',
    ctrThreshold: '申報：客戶單日累計超過',
    floor: '「略低於門檻」由',
    orMore: '或以上',
    mtl: '多筆交易登記冊（MTL）',
    mtlHint: '每筆達登記門檻或以上的現金交易。須於每個博彩日覆核。',
    noMtl: '沒有交易達到登記門檻。',
    txColumns: ['時間', '博彩日', '客戶卡號', '類別', '收入或支出', '金額', '貨幣', '賭枱'],
    ctr: '大額現金交易報告（CTR）候選',
    ctrHint: '客戶單日現金收入或現金支出超過申報門檻者。須於限期內逐一申報。',
    noCtr: '沒有客戶單日超過申報門檻。',
    dayColumns: ['客戶卡號', '博彩日', '收入或支出', '合計', '交易筆數'],
    structuring: '分拆交易警示',
    structuringHint: '看似為避開門檻而拆開的現金交易：須查看客戶及其投注，警示本身並非結論。',
    noStructuring: '沒有分拆交易警示。',
    alertColumns: ['客戶卡號', '博彩日', '模式', '收入或支出', '合計', '交易筆數'],
    patterns: {
      JUST_UNDER: '略低於申報門檻',
      SPLIT: '拆成低於登記門檻的小額',
      ACROSS_DAYS: '跨博彩日（24 小時內）',
    },
    patronDays: '按客戶及博彩日的現金交易',
    patronDaysHint: '每位具名客戶每個博彩日的現金收入及支出：各報告的底稿。',
    noPatronDays: '這些博彩日沒有具名客戶的現金交易。',
    transactions: '具名客戶的現金交易，按時間先後',
    directions: { IN: '現金收入', OUT: '現金支出' },
    txKinds: {
      BUY_IN: '買碼',
      MARKER_PAYMENT: '償還借據',
      CHIP_REDEMPTION: '籌碼兌現',
      DEPOSIT: '存入按金',
      WITHDRAWAL: '提取按金',
    },
    atCage: '賬房',
    liveNote: '買碼、投放額及報告隨賭枱即時更新；賬房的交易須重新讀取才會顯示。',
    readAgain: '重新讀取',
  },
  'zh-Hans': {
    title: '账房与合规',
    period: '场馆及博彩日',
    property: '场馆',
    from: '从',
    to: '至',
    noProperty: '尚未设立场馆。',
    buyIns: '赌台买码',
    buyInsCaption: '各赌台记录的买码，按时间先后',
    noBuyIns: '此场馆在这些博彩日没有买码记录。',
    noTables: '此场馆没有赌台。',
    lastDays: (n) => `只列出所选范围最后 ${n} 个博彩日。`,
    buyInColumns: ['博彩日', '记录时间', '赌台', '类别', '客户卡号', '金额', '货币', '借据'],
    buyInKinds: { CASH: '现金', MARKER: '借据（签码）', CHIPS: '他台筹码' },
    voided: '已作废',
    unnamed: '未具名',
    markerIssued: '已发出',
    markers: '借据',
    markersHint: '客户的借据、还款记录及每张尚欠金额。查阅会记入该客户的审计记录。',
    card: '客户卡号',
    show: '显示借据',
    takenHere: '这些博彩日在本场馆赌台签出借据的客户：',
    markersOf: (card) => `${card} 的借据`,
    noMarkers: (card) => `${card} 没有借据。`,
    markerColumns: ['博彩日', '签发时间', '赌台', '金额', '已还', '尚欠', '货币', '还款'],
    methods: { CASH: '现金', CHIPS: '筹码', CHECK: '支票', WIRE: '电汇' },
    open: '尚欠',
    paidOff: '已还清',
    ageing: '借据账龄',
    ageingHint: '此场馆在所选范围最后一个博彩日仍未还清的每张借据，按签发日计算账龄。合计按货币分列。',
    ageingCaption: (day) => `${day} 仍未还清的借据，按时间先后`,
    noAgeing: '此场馆没有未还清的借据。',
    ageingTotalsCaption: '按账龄及货币列出的未还金额',
    ageingTotalColumns: ['货币', '30 日内', '31–60 日', '61–90 日', '逾 90 日', '合计'],
    ageingColumns: ['签发日', '账龄（日）', '账龄组别', '客户卡号', '赌台', '金额', '尚欠', '货币'],
    buckets: { CURRENT: '30 日内', DAYS_31_60: '31–60 日', DAYS_61_90: '61–90 日', OVER_90: '逾 90 日' },
    cageCounter: '账房',
    drop: '钱箱投放对账',
    dropCaption: '按赌台及博彩日，点算的投放额与现金及借据买码对照',
    noDrop: '此场馆的赌台在这些博彩日没有开台。',
    dropColumns: ['赌台', '博彩日', '货币', '现金', '借据', '他台筹码', '应有投放额', '点算投放额', '差额', '状态'],
    dropStatus: { RECONCILED: '相符', EXCEPTION: '有差异：须查明原因', NOT_COUNTED: '尚未点算' },
    cash: '现金交易报告',
    thresholds: '申报门槛',
    mtlThreshold: '登记：单笔交易达',
    ctrThreshold: '申报：客户单日累计超过',
    floor: '“略低于门槛”从',
    orMore: '或以上',
    mtl: '多笔交易登记册（MTL）',
    mtlHint: '每笔达登记门槛或以上的现金交易。须于每个博彩日复核。',
    noMtl: '没有交易达到登记门槛。',
    txColumns: ['时间', '博彩日', '客户卡号', '类别', '收入或支出', '金额', '货币', '赌台'],
    ctr: '大额现金交易报告（CTR）候选',
    ctrHint: '客户单日现金收入或现金支出超过申报门槛者。须于期限内逐一申报。',
    noCtr: '没有客户单日超过申报门槛。',
    dayColumns: ['客户卡号', '博彩日', '收入或支出', '合计', '交易笔数'],
    structuring: '拆分交易警示',
    structuringHint: '看似为规避门槛而拆开的现金交易：须查看客户及其投注，警示本身并非结论。',
    noStructuring: '没有拆分交易警示。',
    alertColumns: ['客户卡号', '博彩日', '模式', '收入或支出', '合计', '交易笔数'],
    patterns: {
      JUST_UNDER: '略低于申报门槛',
      SPLIT: '拆成低于登记门槛的小额',
      ACROSS_DAYS: '跨博彩日（24 小时内）',
    },
    patronDays: '按客户及博彩日的现金交易',
    patronDaysHint: '每位具名客户每个博彩日的现金收入及支出：各报告的底稿。',
    noPatronDays: '这些博彩日没有具名客户的现金交易。',
    transactions: '具名客户的现金交易，按时间先后',
    directions: { IN: '现金收入', OUT: '现金支出' },
    txKinds: {
      BUY_IN: '买码',
      MARKER_PAYMENT: '偿还借据',
      CHIP_REDEMPTION: '筹码兑现',
      DEPOSIT: '存入按金',
      WITHDRAWAL: '提取按金',
    },
    atCage: '账房',
    liveNote: '买码、投放额及报告随赌台实时更新；账房的交易须重新读取才会显示。',
    readAgain: '重新读取',
  },
};

type Property = Schemas['PropertyDto'];
type Table = Schemas['TableDto'];
type BuyIn = Schemas['BuyInDto'];
type Marker = Schemas['MarkerDto'];
type Ageing = Schemas['AgeingDto'];
type DropLine = Schemas['DropLineDto'];
type CashReport = Schemas['CashReportDto'];
type Tx = Schemas['CashTransactionDto'];
type PatronDay = Schemas['PatronCashDayDto'];
type Alert = Schemas['StructuringAlertDto'];

/** At most this many gaming days of buy-ins are read (one request per table and day). */
const BUY_IN_DAYS = 7;
/** Table events that change what this screen shows: a buy-in recorded or voided, a session opened or closed (the drop). */
const RELEVANT = /^(buyIn\.|session\.)/;

/** Basis points as an exact percentage string (8000 → "80", 8050 → "80.50"). */
const percentOfBps = (bps: number): string => (bps % 100 === 0 ? String(bps / 100) : `${Math.trunc(bps / 100)}.${String(bps % 100).padStart(2, '0')}`);

/** The gaming days from `from` to `to`, the last `max` of them. */
function daysOf(from: string, to: string, max: number): { days: string[]; cut: boolean } {
  const days: string[] = [];
  for (let d = Date.parse(to); d >= Date.parse(from) && days.length <= max; d -= 86_400_000) days.unshift(new Date(d).toISOString().slice(0, 10));
  return { days: days.slice(-max), cut: days.length > max };
}

export function Cage({ args }: { args: string[] }) {
  const t = useT(CAGE);
  const w = useT(WORDS);
  const caller = useCaller();
  // The property the desk opens on: the one in the address, else the one chosen last here (startProperty; the
  // property with play most recently only for a role that may read the win/loss report it asks).
  const props = useLoad(async () => {
    const properties = await get<Property[]>('/v1/properties');
    const tables = mayCall(caller, 'winLossReport') && !properties.some((x) => x.id === args[0]) ? await get<Table[]>('/v1/tables') : [];
    const start = properties.find((x) => x.id === args[0]) ?? (await startProperty('cage', properties, tables));
    return { properties, start };
  }, []);
  const [range, setRange] = useState<Range | null>(null);
  useEffect(() => {
    const p = props.data?.start;
    if (p && !range) {
      const today = gamingDayNow(p.timeZone, p.gamingDayStartHour);
      setRange({ propertyId: p.id, from: today, to: today });
    }
  }, [props.data]);
  const choose = (r: Range) => {
    if (r.propertyId !== range?.propertyId) rememberProperty('cage', r.propertyId);
    setRange(r);
  };
  const property = props.data?.properties.find((p) => p.id === range?.propertyId);
  const [asked, setAsked] = useState(0);
  const [card, setCard] = useState('');
  return (
    <main class="cage">
      <h1>{t.title}</h1>
      <ErrorNote problem={props.error} />
      {!props.data && !props.error && <p role="status">{w.loading}</p>}
      {props.data && props.data.properties.length === 0 && <p>{t.noProperty}</p>}
      {range && props.data && (
        <RangeForm label={t.period} range={range} properties={props.data.properties} onChange={choose}>
          <button type="button" onClick={() => setAsked((v) => v + 1)}>
            {t.readAgain}
          </button>
        </RangeForm>
      )}
      {range && property && <Desk key={range.propertyId} property={property} range={range} asked={asked} card={card} setCard={setCard} />}
    </main>
  );
}

/**
 * One property's desk. Each part is keyed by what it reads (a new property, new days, another card
 * make a new part), so an answer to an earlier question never stands for a later one; `version`
 * reads the same question again (live, or asked).
 */
function Desk({ property, range, asked, card, setCard }: { property: Property; range: Range; asked: number; card: string; setCard: (c: string) => void }) {
  const t = useT(CAGE);
  const caller = useCaller();
  const tables = useLoad(() => (mayCall(caller, 'listTables') ? get<Table[]>('/v1/tables', { propertyId: range.propertyId }) : Promise.resolve([])), []);
  // Live: the property's table events (a buy-in, a void, a session opened or closed) read the parts again.
  const [heard, setHeard] = useState(0);
  const last = useRef<string | null>(null);
  const again = () => {
    const type = last.current;
    last.current = null;
    if (type === null || RELEVANT.test(type)) setHeard((v) => v + 1);
  };
  const ids = (tables.data ?? []).map((x) => x.id).join(',');
  const live = useLive(ids ? `/v1/events?tables=${ids}` : null, again, (e) => (last.current = e.type));
  // An act recorded here reads the parts again (cash at the cage appears in the reports).
  const [acted, setActed] = useState(0);
  const version = asked + heard + acted;
  const days = `${range.from}:${range.to}`;
  const currencies = [...new Set([property.cashCurrency, ...(tables.data ?? []).map((x) => x.currency)])];
  return (
    <>
      <p class="hint">
        {ids && <LiveBadge live={live} />} {t.liveNote}
      </p>
      <ErrorNote problem={tables.error} />
      {mayCall(caller, 'recordCageTransaction') && tables.data && (
        <CashAtCage property={property} currencies={currencies} onDone={() => setActed((v) => v + 1)} />
      )}
      {mayCall(caller, 'listBuyIns') && tables.data && (
        <BuyIns key={`${days}:${ids}`} range={range} tables={tables.data} timeZone={property.timeZone} version={version} onCard={setCard} />
      )}
      {mayCall(caller, 'listMarkers') && (
        <Markers card={card} setCard={setCard} tables={tables.data ?? []} timeZone={property.timeZone} onPaid={() => setActed((v) => v + 1)} />
      )}
      {mayCall(caller, 'recordChipExchange') && tables.data && <ChipExchange property={property} currencies={currencies} />}
      {mayCall(caller, 'listJunkets') && (mayCall(caller, 'addJunketAccountEntry') || mayCall(caller, 'reportJunketPlayerCredit')) && (
        <JunketsAtCage propertyId={property.id} />
      )}
      {mayCall(caller, 'getMarkerAgeing') && (
        <MarkerAgeing key={`${range.propertyId}:${range.to}`} range={range} version={version} tables={tables.data ?? []} />
      )}
      {mayCall(caller, 'dropReconciliation') && <Drop key={days} range={range} version={version} />}
      {mayCall(caller, 'cashReport') && <CashReports key={days} range={range} version={version} tables={tables.data ?? []} timeZone={property.timeZone} />}
    </>
  );
}

function Section({ id, title, hint, sub, children }: { id: string; title: string; hint?: string; sub?: boolean; children: ComponentChildren }) {
  return (
    <section aria-labelledby={sub ? undefined : id} data-testid={id}>
      {sub ? <h3 id={id}>{title}</h3> : <h2 id={id}>{title}</h2>}
      {hint && <p class="hint">{hint}</p>}
      {children}
    </section>
  );
}

function Loading({ shown }: { shown: boolean }) {
  const w = useT(WORDS);
  return shown ? <p role="status">{w.loading}</p> : null;
}

function BuyIns({
  range,
  tables,
  timeZone,
  version,
  onCard,
}: {
  range: Range;
  tables: Table[];
  timeZone: string;
  version: number;
  onCard: (card: string) => void;
}) {
  const t = useT(CAGE);
  const f = useFormat();
  const { days, cut } = daysOf(range.from, range.to, BUY_IN_DAYS);
  const { data, error } = useLoad(async () => {
    const lists = await Promise.all(tables.flatMap((x) => days.map((d) => get<BuyIn[]>(`/v1/tables/${x.id}/buy-ins`, { gamingDay: d }))));
    return lists.flat().sort((a, b) => a.recordedAt.localeCompare(b.recordedAt));
  }, [range.from, range.to, tables, version]);
  const code = new Map(tables.map((x) => [x.id, x.code]));
  const markerCards = [...new Set((data ?? []).filter((b) => b.kind === 'MARKER' && b.patronId && !b.voided).map((b) => b.patronId!))];
  return (
    <Section id="cage-buy-ins" title={t.buyIns}>
      <ErrorNote problem={error} />
      <Loading shown={!data && !error} />
      {cut && <p class="hint">{t.lastDays(f.integer(BUY_IN_DAYS))}</p>}
      {tables.length === 0 && <p>{t.noTables}</p>}
      {data && tables.length > 0 && data.length === 0 && <p data-testid="cage-buy-ins-empty">{t.noBuyIns}</p>}
      {data && data.length > 0 && (
        <Scroll label={t.buyInsCaption}>
          <table class="figures">
            <caption class="sr-only">{t.buyInsCaption}</caption>
            <Head columns={t.buyInColumns} />
            <tbody>
              {data.map((b) => (
                <tr key={b.id} data-buy-in={b.id} class={b.voided ? 'voided' : undefined}>
                  <td data-field="gamingDay" data-value={b.gamingDay}>
                    {f.day(b.gamingDay)}
                  </td>
                  <td>{f.dateTime(b.recordedAt, timeZone)}</td>
                  <th scope="row">{code.get(b.tableId) ?? '—'}</th>
                  <td data-field="kind" data-value={b.kind}>
                    {t.buyInKinds[b.kind]}
                    {b.voided && <span class="tag"> ({t.voided})</span>}
                  </td>
                  <td data-field="patronId" data-value={b.patronId ?? ''}>
                    {b.patronId ?? <span class="hint">{t.unnamed}</span>}
                  </td>
                  <Money field="amount" v={b.amount} currency={b.currency} />
                  <td>{b.currency}</td>
                  <td>{b.markerId ? t.markerIssued : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      {markerCards.length > 0 && (
        <p class="cards-taken">
          {t.takenHere}{' '}
          {markerCards.map((c) => (
            <button key={c} type="button" class="chip" data-card={c} onClick={() => onCard(c)}>
              {c}
            </button>
          ))}
        </p>
      )}
    </Section>
  );
}

function Markers({
  card,
  setCard,
  tables,
  timeZone,
  onPaid,
}: {
  card: string;
  setCard: (c: string) => void;
  tables: Table[];
  timeZone: string;
  onPaid: () => void;
}) {
  const t = useT(CAGE);
  return (
    <Section id="cage-markers" title={t.markers} hint={t.markersHint}>
      <CardSearch label={t.markers} field={t.card} button={t.show} card={card} onSearch={setCard} />
      {card && <MarkersOf key={card} card={card} tables={tables} timeZone={timeZone} onPaid={onPaid} />}
    </Section>
  );
}

/** One patron's markers (reading them is an audit entry: read when asked for, not on every table event). */
function MarkersOf({ card, tables, timeZone, onPaid }: { card: string; tables: Table[]; timeZone: string; onPaid: () => void }) {
  const t = useT(CAGE);
  const f = useFormat();
  const caller = useCaller();
  const { data, error, reload } = useLoad(() => get<Marker[]>('/v1/markers', { patronId: card }), []);
  const code = new Map(tables.map((x) => [x.id, x.code]));
  return (
    <>
      <ErrorNote problem={error} />
      <Loading shown={!data && !error} />
      {data && data.length === 0 && <p data-testid="cage-markers-empty">{t.noMarkers(card)}</p>}
      {data && data.length > 0 && (
        <Scroll label={t.markersOf(card)}>
          <table class="figures" data-card={card}>
            <caption>{t.markersOf(card)}</caption>
            <Head columns={t.markerColumns} />
            <tbody>
              {data.map((m) => {
                const paid = m.payments.reduce((s, p) => s + BigInt(p.amount), 0n);
                return (
                  <tr key={m.id} data-marker={m.id} class={m.voided ? 'voided' : undefined}>
                    <td data-field="gamingDay" data-value={m.gamingDay}>
                      {f.day(m.gamingDay)}
                    </td>
                    <td>{f.dateTime(m.issuedAt, timeZone)}</td>
                    <th scope="row">{m.tableId ? (code.get(m.tableId) ?? '—') : t.cageCounter}</th>
                    <Money field="amount" v={m.amount} currency={m.currency} />
                    <Money field="paid" v={paid} currency={m.currency} />
                    <Money field="outstanding" v={m.outstanding} currency={m.currency} />
                    <td>{m.currency}</td>
                    <td data-field="payments" data-value={String(m.payments.length)}>
                      {m.voided
                        ? t.voided
                        : m.payments.length === 0
                          ? BigInt(m.outstanding) > 0n
                            ? t.open
                            : t.paidOff
                          : m.payments.map((p) => (
                              <span key={p.id} class="payment" data-payment={p.id} data-minor={String(p.amount)}>
                                {f.day(p.gamingDay)} {f.money(p.amount, m.currency)} {t.methods[p.method]}
                              </span>
                            ))}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </Scroll>
      )}
      {data && mayCall(caller, 'payMarker') && (
        <PayMarker
          markers={data}
          onPaid={() => {
            reload();
            onPaid();
          }}
        />
      )}
    </>
  );
}

/** The property's markers still owed on the range's last gaming day, aged 30/60/90 (reading it is an audit entry, as for any patron's record). */
function MarkerAgeing({ range, version, tables }: { range: Range; version: number; tables: Table[] }) {
  const t = useT(CAGE);
  const f = useFormat();
  const { data, error } = useLoad(() => get<Ageing>(`/v1/properties/${range.propertyId}/marker-ageing`, { asOf: range.to }), [version]);
  const code = new Map(tables.map((x) => [x.id, x.code]));
  return (
    <Section id="cage-ageing" title={t.ageing} hint={t.ageingHint}>
      <ErrorNote problem={error} />
      <Loading shown={!data && !error} />
      {data && data.markers.length === 0 && <p data-testid="cage-ageing-empty">{t.noAgeing}</p>}
      {data && data.markers.length > 0 && (
        <>
          <Scroll label={t.ageingTotalsCaption}>
            <table class="figures" data-testid="cage-ageing-totals">
              <caption>{t.ageingTotalsCaption}</caption>
              <Head columns={t.ageingTotalColumns} />
              <tbody>
                {data.totals.map((x) => (
                  <tr key={x.currency} data-currency={x.currency}>
                    <th scope="row">{x.currency}</th>
                    <Money field="current" v={x.current} currency={x.currency} />
                    <Money field="days31to60" v={x.days31to60} currency={x.currency} />
                    <Money field="days61to90" v={x.days61to90} currency={x.currency} />
                    <Money field="over90" v={x.over90} currency={x.currency} />
                    <Money field="total" v={x.total} currency={x.currency} />
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
          <Scroll label={t.ageingCaption(f.day(data.asOf))}>
            <table class="figures" data-testid="cage-ageing-markers">
              <caption>{t.ageingCaption(f.day(data.asOf))}</caption>
              <Head columns={t.ageingColumns} />
              <tbody>
                {data.markers.map((m) => (
                  <tr key={m.id} data-marker={m.id} data-bucket={m.bucket}>
                    <td data-field="issuedDay" data-value={m.issuedDay}>
                      {f.day(m.issuedDay)}
                    </td>
                    <td data-field="ageDays" data-value={String(m.ageDays)}>
                      {f.integer(m.ageDays)}
                    </td>
                    <td data-field="bucket" data-value={m.bucket}>
                      {t.buckets[m.bucket]}
                    </td>
                    <th scope="row" data-field="patronId" data-value={m.patronId}>
                      {m.patronId}
                    </th>
                    <td>{m.tableId ? (code.get(m.tableId) ?? '—') : t.cageCounter}</td>
                    <Money field="amount" v={m.amount} currency={m.currency} />
                    <Money field="outstanding" v={m.outstanding} currency={m.currency} />
                    <td>{m.currency}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        </>
      )}
    </Section>
  );
}

function Drop({ range, version }: { range: Range; version: number }) {
  const t = useT(CAGE);
  const f = useFormat();
  const { data, error } = useLoad(() => get<DropLine[]>('/v1/reports/drop-reconciliation', { ...range }), [range.propertyId, range.from, range.to, version]);
  return (
    <Section id="cage-drop" title={t.drop}>
      <ErrorNote problem={error} />
      <Loading shown={!data && !error} />
      {data && data.length === 0 && <p data-testid="cage-drop-empty">{t.noDrop}</p>}
      {data && data.length > 0 && (
        <Scroll label={t.dropCaption}>
          <table class="figures">
            <caption class="sr-only">{t.dropCaption}</caption>
            <Head columns={t.dropColumns} />
            <tbody>
              {data.map((d) => (
                <tr key={d.tableId + d.gamingDay} data-row={`${d.tableId}:${d.gamingDay}`}>
                  <th scope="row">{d.tableCode}</th>
                  <td>{f.day(d.gamingDay)}</td>
                  <td>{d.currency}</td>
                  <Money field="cash" v={d.cash} currency={d.currency} />
                  <Money field="markers" v={d.markers} currency={d.currency} />
                  <Money field="chips" v={d.chips} currency={d.currency} />
                  <Money field="expectedDrop" v={d.expectedDrop} currency={d.currency} />
                  <Money field="countedDrop" v={d.countedDrop} currency={d.currency} />
                  <Money field="difference" v={d.difference} currency={d.currency} />
                  <td data-field="status" data-value={d.status} class={d.status === 'EXCEPTION' ? 'outside' : undefined}>
                    {t.dropStatus[d.status]}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
    </Section>
  );
}

function CashReports({ range, version, tables, timeZone }: { range: Range; version: number; tables: Table[]; timeZone: string }) {
  const t = useT(CAGE);
  const f = useFormat();
  const { data, error } = useLoad(() => get<CashReport>('/v1/compliance/cash-report', { ...range }), [range.propertyId, range.from, range.to, version]);
  const code = new Map(tables.map((x) => [x.id, x.code]));
  const cur = data?.thresholds.currency ?? 'USD';
  const patron = (p: string | null) => p ?? <span class="hint">{t.unnamed}</span>;
  const txRows = (txs: Tx[]) =>
    txs.map((x) => (
      <tr key={x.id} data-tx={x.id}>
        <td>{f.dateTime(x.at, timeZone)}</td>
        <td>{f.day(x.gamingDay)}</td>
        <th scope="row" data-field="patronId" data-value={x.patronId ?? ''}>
          {patron(x.patronId)}
        </th>
        <td data-field="kind" data-value={x.kind}>
          {t.txKinds[x.kind]}
        </td>
        <td data-field="direction" data-value={x.direction}>
          {t.directions[x.direction]}
        </td>
        <Money field="amount" v={x.amount} currency={x.currency} />
        <td>{x.currency}</td>
        <td>{x.tableId ? (code.get(x.tableId) ?? '—') : t.atCage}</td>
      </tr>
    ));
  const days = (rows: (PatronDay | Alert)[], label: string, testid: string, pattern: boolean) => (
    <Scroll label={label}>
      <table class="figures" data-testid={testid}>
        <caption class="sr-only">{label}</caption>
        <Head columns={pattern ? t.alertColumns : t.dayColumns} />
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.patronId}:${r.gamingDay}:${r.direction}:${'pattern' in r ? r.pattern : ''}`} data-row={`${r.patronId}:${r.gamingDay}:${r.direction}`}>
              <th scope="row">{r.patronId}</th>
              <td>{f.day(r.gamingDay)}</td>
              {pattern && (
                <td data-field="pattern" data-value={(r as Alert).pattern}>
                  {t.patterns[(r as Alert).pattern]}
                </td>
              )}
              <td data-field="direction" data-value={r.direction}>
                {t.directions[r.direction]}
              </td>
              <Money field="total" v={r.total} currency={cur} />
              <td class="num" data-field="transactions" data-value={r.transactions.map((x) => x.id).join(',')}>
                {f.integer(r.transactions.length)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
  return (
    <section aria-labelledby="cage-cash" data-testid="cage-cash">
      <h2 id="cage-cash">{t.cash}</h2>
      <ErrorNote problem={error} />
      <Loading shown={!data && !error} />
      {data && (
        <>
          <h3 class="sr-only">{t.thresholds}</h3>
          <dl class="facts thresholds" data-testid="cage-thresholds">
            <div>
              <dt>{t.mtlThreshold}</dt>
              <dd data-field="mtl" data-minor={String(data.thresholds.mtl)}>
                {f.currency(data.thresholds.mtl, cur)} {t.orMore}
              </dd>
            </div>
            <div>
              <dt>{t.ctrThreshold}</dt>
              <dd data-field="ctr" data-minor={String(data.thresholds.ctr)}>
                {f.currency(data.thresholds.ctr, cur)}
              </dd>
            </div>
            <div>
              <dt>{t.floor}</dt>
              <dd data-field="structuringFloorBps" data-value={String(data.thresholds.structuringFloorBps)}>
                {f.percent(percentOfBps(data.thresholds.structuringFloorBps))} × {f.currency(data.thresholds.ctr, cur)}
              </dd>
            </div>
          </dl>
          <Section sub id="cage-mtl" title={t.mtl} hint={t.mtlHint}>
            {data.multipleTransactionLog.length === 0 ? (
              <p>{t.noMtl}</p>
            ) : (
              <Scroll label={t.mtl}>
                <table class="figures" data-testid="cage-mtl-table">
                  <caption class="sr-only">{t.mtl}</caption>
                  <Head columns={t.txColumns} />
                  <tbody>{txRows(data.multipleTransactionLog)}</tbody>
                </table>
              </Scroll>
            )}
          </Section>
          <Section sub id="cage-ctr" title={t.ctr} hint={t.ctrHint}>
            {data.reportCandidates.length === 0 ? <p>{t.noCtr}</p> : days(data.reportCandidates, t.ctr, 'cage-ctr-table', false)}
          </Section>
          <Section sub id="cage-structuring" title={t.structuring} hint={t.structuringHint}>
            {data.structuring.length === 0 ? <p>{t.noStructuring}</p> : days(data.structuring, t.structuring, 'cage-structuring-table', true)}
          </Section>
          <Section sub id="cage-patron-days" title={t.patronDays} hint={t.patronDaysHint}>
            {data.patronDays.length === 0 ? <p>{t.noPatronDays}</p> : days(data.patronDays, t.patronDays, 'cage-patron-days-table', false)}
            {data.patronDays.length > 0 && (
              <Scroll label={t.transactions}>
                <table class="figures" data-testid="cage-transactions-table">
                  <caption>{t.transactions}</caption>
                  <Head columns={t.txColumns} />
                  <tbody>{txRows(data.patronDays.flatMap((d) => d.transactions).sort((a, b) => a.at.localeCompare(b.at)))}</tbody>
                </table>
              </Scroll>
            )}
          </Section>
        </>
      )}
    </section>
  );
}

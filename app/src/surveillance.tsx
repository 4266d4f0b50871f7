import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ScreenProps } from './screen';
import { ErrorNote, Problem } from './error-note';
import { get, post, Schemas } from './api';
import { mayCall, useCaller } from './caller';
import { Head, Money } from './cells';
import { useFormat } from './format';
import { problemOf, useLoad } from './hooks';
import { Lang, localeOf, useLang, useT, Words } from './i18n';
import { Scroll } from './scroll';
import { WORDS } from './words';

/**
 * The surveillance room (docs/domain.md §9): the alerts the detectors raised, gathered by patron,
 * dealer, table, shoe or seat, each with its evidence, acknowledged and closed from here by the
 * roles that may. Alerts are written by the surveillance worker after the coups (a shoe's close, or
 * a coup that repeats a run), on no stream a screen can follow: the screen reads them again every
 * REFRESH_MS while it is shown (and at once when the tab comes back into view).
 */
const REFRESH_MS = 10_000;

type Alert = Schemas['AlertDto'];
type OpenAlerts = Schemas['OpenAlertsDto'];
type Table = Schemas['TableDto'];
type Property = Schemas['PropertyDto'];

const SUBJECTS = ['PATRON', 'DEALER', 'TABLE', 'SHOE', 'SEAT'] as const;
type Subject = (typeof SUBJECTS)[number];
const STATES = ['ACTIVE', 'OPEN', 'ACKNOWLEDGED', 'CLOSED', 'ALL'] as const;
type StateFilter = (typeof STATES)[number];

const en = {
  title: 'Surveillance',
  checked: (t: string) => `Read at ${t}; read again every 10 seconds`,
  refresh: 'Read again',
  byTitle: 'Alerts not yet closed, gathered',
  by: 'Gather by',
  subjects: { PATRON: 'By patron', DEALER: 'By dealer', TABLE: 'By table', SHOE: 'By shoe', SEAT: 'By seat (unrated play)' } as Record<Subject, string>,
  subjectColumns: ['Subject', 'Open', 'Acknowledged', 'High', 'Smallest p-value', 'Detectors', 'First raised', 'Last raised', ''],
  byCaption: (by: string) => `Alerts not yet closed, ${by.toLowerCase()}`,
  noOpen: 'Nothing is open: no alert names such a subject.',
  showAlerts: (s: string) => `Show the alerts of ${s}`,
  show: 'Show',
  alertsTitle: 'Alerts',
  state: 'State',
  states: { ACTIVE: 'Not yet closed', OPEN: 'Open', ACKNOWLEDGED: 'Acknowledged', CLOSED: 'Closed', ALL: 'All' } as Record<StateFilter, string>,
  only: (s: string) => `Only the alerts of ${s}`,
  subjectNouns: { PATRON: 'patron', DEALER: 'dealer', TABLE: 'table', SHOE: 'shoe', SEAT: 'seat' } as Record<Subject, string>,
  clear: 'Show every subject',
  alertColumns: ['Raised', 'Detector', 'Severity', 'State', 'Names', 'Table', 'Gaming day', 'p-value', 'Alarm level'],
  alertsCaption: 'Integrity alerts, newest first',
  noAlerts: 'No alert in this state.',
  open: 'Open alert',
  back: 'All alerts',
  kinds: {
    COUNT_BETTING: 'Betting with the count',
    WINS_BEYOND_ODDS: 'Wins beyond the odds',
    MONEY_BEYOND_ODDS: 'Money beyond the odds',
    FIRST_CARD_KNOWLEDGE: 'Knew the first card',
    DEALER_PAIRING: 'A dealer and a patron together',
    REPEATED_RUN: 'A shoe seen before',
  } as Record<string, string>,
  severities: { HIGH: 'High', MEDIUM: 'Medium' } as Record<string, string>,
  statuses: { OPEN: 'Open', ACKNOWLEDGED: 'Acknowledged', CLOSED: 'Closed' } as Record<string, string>,
  patron: 'Patron',
  dealer: 'Dealer',
  seat: (n: string) => `Seat ${n}`,
  shoe: 'Shoe',
  table: 'Table',
  alert: 'Alert',
  summary: 'What was found',
  reasonNote: 'In the detector’s own words (English):',
  fields: {
    kind: 'Detector',
    severity: 'Severity',
    status: 'State',
    pValue: 'p-value (an honest record gets this far at most this often per shoe)',
    threshold: 'Alarm level (p-value)',
    eValue: 'Statistic (e-value)',
    alarmAt: 'Alarm level (statistic)',
    patronId: 'Patron',
    dealerId: 'Dealer',
    seat: 'Seat (unrated play)',
    tableId: 'Table',
    shoeId: 'Shoe',
    gamingDay: 'Gaming day',
    createdAt: 'Raised',
  } as Record<string, string>,
  evidence: 'Evidence',
  evidenceFields: {
    decisions: 'Decisions examined',
    wins: 'Decisions won',
    expectedWins: 'Wins the odds expected',
    bets: 'Counted bets placed',
    favourableBets: 'Of them where the cards left favoured the player',
    betTypes: 'Bets counted',
    shoesTested: 'Shoes tested',
    referenceShoes: 'Reference shoes a shoe',
    playerEdgeAtTheBets: 'Player’s edge at the bets',
    shoesCompared: 'Shoes compared',
    earlierShoe: 'The earlier shoe',
    earlierShoeId: 'The earlier shoe’s id',
    at: 'Where in this shoe (cards out)',
    earlierAt: 'Where in the earlier shoe (cards out)',
    length: 'Cards in the run',
    placesCompared: 'Places compared',
  } as Record<string, string>,
  money: 'Money',
  moneyColumns: ['', 'Currency', 'Amount'],
  moneyFields: {
    actual: 'Won by the patron',
    expected: 'Expected by the exact odds',
    worthOfTheFirstCard: 'What seeing the first card was worth',
    expectedWin: 'Expected win at the bets',
  } as Record<string, string>,
  runCards: 'The cards repeated, in order',
  coups: 'The coups that tell most',
  coupColumns: ['Table', 'Shoe', 'Coup', 'Cards', 'Dealer', 'Bet', 'Stake', 'Player’s edge', 'Result', 'First card', 'First card’s worth'],
  updates: 'Evidence added while open',
  updateColumns: ['When', 'Statistic (e-value)', 'p-value', 'Reason then'],
  noUpdates: 'No shoe the subject played has closed since.',
  steps: 'Steps taken',
  stepColumns: ['When', 'Step', 'Note', 'Key'],
  stepNames: { ACKNOWLEDGE: 'Acknowledged', CLOSE: 'Closed' } as Record<string, string>,
  noSteps: 'Nobody has acknowledged it yet.',
  acknowledgeTitle: 'Acknowledge: someone is looking into it',
  acknowledgeNote: 'Note (optional): what you are looking at',
  acknowledge: 'Acknowledge',
  closeTitle: 'Close: what was found and done',
  closeNote: 'Why it is closed (required)',
  close: 'Close the alert',
  sending: 'Sending…',
  closedNote: 'Closed: nothing more can be recorded on it.',
  notAllowedSteps: 'This key reads alerts; acknowledging and closing them is for surveillance staff and supervisors.',
  notAllowedClose: 'Closing an alert is for a supervisor.',
  act: 'Take a step on the alert',
  updatesTable: 'Each later look of the detector, oldest first',
  stepsTable: 'Steps taken on the alert, in order',
  moneyTable: 'The money, expected against actual, by currency',
  coupsTable: 'The coups that tell most, with the cards, the bet and its exact edge',
};

const SURVEILLANCE: Words<typeof en> = {
  en,
  'zh-Hant': {
    title: '監察',
    checked: (t) => `於 ${t} 讀取；每 10 秒重新讀取`,
    refresh: '重新讀取',
    byTitle: '未結案的警報，歸類',
    by: '歸類方式',
    subjects: { PATRON: '按客人', DEALER: '按荷官', TABLE: '按賭枱', SHOE: '按牌靴', SEAT: '按座位（無會員卡）' },
    subjectColumns: ['對象', '未處理', '跟進中', '高', '最小 p 值', '偵測項目', '最早發出', '最近發出', ''],
    byCaption: (by) => `未結案的警報，${by}`,
    noOpen: '沒有未結案的警報涉及此類對象。',
    showAlerts: (s) => `顯示 ${s} 的警報`,
    show: '顯示',
    alertsTitle: '警報',
    state: '狀態',
    states: { ACTIVE: '未結案', OPEN: '未處理', ACKNOWLEDGED: '跟進中', CLOSED: '已結案', ALL: '全部' },
    only: (s) => `只顯示${s}的警報`,
    subjectNouns: { PATRON: '客人', DEALER: '荷官', TABLE: '賭枱', SHOE: '牌靴', SEAT: '座位' },
    clear: '顯示所有對象',
    alertColumns: ['發出時間', '偵測項目', '嚴重程度', '狀態', '涉及', '賭枱', '博彩日', 'p 值', '警報門檻'],
    alertsCaption: '誠信警報，最新在前',
    noAlerts: '沒有此狀態的警報。',
    open: '打開警報',
    back: '所有警報',
    kinds: {
      COUNT_BETTING: '算牌下注',
      WINS_BEYOND_ODDS: '勝局超出機率',
      MONEY_BEYOND_ODDS: '贏款超出機率',
      FIRST_CARD_KNOWLEDGE: '預知首張牌',
      DEALER_PAIRING: '荷官與客人關聯',
      REPEATED_RUN: '牌序重複（舊牌靴）',
    },
    severities: { HIGH: '高', MEDIUM: '中' },
    statuses: { OPEN: '未處理', ACKNOWLEDGED: '跟進中', CLOSED: '已結案' },
    patron: '客人',
    dealer: '荷官',
    seat: (n) => `${n} 號位`,
    shoe: '牌靴',
    table: '賭枱',
    alert: '警報',
    summary: '發現',
    reasonNote: '偵測程式的原文（英文）：',
    fields: {
      kind: '偵測項目',
      severity: '嚴重程度',
      status: '狀態',
      pValue: 'p 值（誠實的紀錄每靴最多以此機率達到此程度）',
      threshold: '警報門檻（p 值）',
      eValue: '統計量（e 值）',
      alarmAt: '警報門檻（統計量）',
      patronId: '客人',
      dealerId: '荷官',
      seat: '座位（無會員卡）',
      tableId: '賭枱',
      shoeId: '牌靴',
      gamingDay: '博彩日',
      createdAt: '發出時間',
    },
    evidence: '證據',
    evidenceFields: {
      decisions: '檢查的局數',
      wins: '勝出局數',
      expectedWins: '按機率應勝局數',
      bets: '計算的投注',
      favourableBets: '其中剩餘牌對客人有利的',
      betTypes: '計算的注項',
      shoesTested: '檢驗的牌靴',
      referenceShoes: '每靴對照牌靴數',
      playerEdgeAtTheBets: '下注時客人的優勢',
      shoesCompared: '比較的牌靴',
      earlierShoe: '較早的牌靴',
      earlierShoeId: '較早牌靴的編號',
      at: '本靴位置（已出牌數）',
      earlierAt: '較早牌靴位置（已出牌數）',
      length: '重複牌數',
      placesCompared: '比較的位置',
    },
    money: '金額',
    moneyColumns: ['', '貨幣', '金額'],
    moneyFields: {
      actual: '客人實際贏款',
      expected: '按準確賠率預期',
      worthOfTheFirstCard: '看見首張牌的價值',
      expectedWin: '下注時的預期贏額',
    },
    runCards: '重複的牌，按次序',
    coups: '最具說明性的牌局',
    coupColumns: ['賭枱', '牌靴', '局', '牌', '荷官', '注項', '注碼', '客人優勢', '結果', '首張牌', '首張牌價值'],
    updates: '警報未結案期間加入的證據',
    updateColumns: ['時間', '統計量（e 值）', 'p 值', '當時原因'],
    noUpdates: '此後對象所玩的牌靴尚未收靴。',
    steps: '已採取的步驟',
    stepColumns: ['時間', '步驟', '備註', '金鑰'],
    stepNames: { ACKNOWLEDGE: '已確認跟進', CLOSE: '已結案' },
    noSteps: '尚未有人確認跟進。',
    acknowledgeTitle: '確認跟進：已有人調查',
    acknowledgeNote: '備註（可選）：正在調查甚麼',
    acknowledge: '確認跟進',
    closeTitle: '結案：發現了甚麼、採取了甚麼行動',
    closeNote: '結案原因（必填）',
    close: '結案',
    sending: '傳送中…',
    closedNote: '已結案：不能再記錄任何步驟。',
    notAllowedSteps: '此金鑰只能讀取警報；確認跟進及結案由監察人員及主管處理。',
    notAllowedClose: '結案須由主管處理。',
    act: '處理警報',
    updatesTable: '偵測程式其後每次的檢查，最早在前',
    stepsTable: '警報已採取的步驟，按次序',
    moneyTable: '預期與實際金額，按貨幣',
    coupsTable: '最具說明性的牌局，附牌、注項及當時的準確優勢',
  },
  'zh-Hans': {
    title: '监控',
    checked: (t) => `于 ${t} 读取；每 10 秒重新读取`,
    refresh: '重新读取',
    byTitle: '未结案的警报，归类',
    by: '归类方式',
    subjects: { PATRON: '按客人', DEALER: '按荷官', TABLE: '按赌台', SHOE: '按牌靴', SEAT: '按座位（无会员卡）' },
    subjectColumns: ['对象', '未处理', '跟进中', '高', '最小 p 值', '检测项目', '最早发出', '最近发出', ''],
    byCaption: (by) => `未结案的警报，${by}`,
    noOpen: '没有未结案的警报涉及此类对象。',
    showAlerts: (s) => `显示 ${s} 的警报`,
    show: '显示',
    alertsTitle: '警报',
    state: '状态',
    states: { ACTIVE: '未结案', OPEN: '未处理', ACKNOWLEDGED: '跟进中', CLOSED: '已结案', ALL: '全部' },
    only: (s) => `只显示${s}的警报`,
    subjectNouns: { PATRON: '客人', DEALER: '荷官', TABLE: '赌台', SHOE: '牌靴', SEAT: '座位' },
    clear: '显示所有对象',
    alertColumns: ['发出时间', '检测项目', '严重程度', '状态', '涉及', '赌台', '博彩日', 'p 值', '警报阈值'],
    alertsCaption: '诚信警报，最新在前',
    noAlerts: '没有此状态的警报。',
    open: '打开警报',
    back: '所有警报',
    kinds: {
      COUNT_BETTING: '算牌下注',
      WINS_BEYOND_ODDS: '胜局超出概率',
      MONEY_BEYOND_ODDS: '赢款超出概率',
      FIRST_CARD_KNOWLEDGE: '预知首张牌',
      DEALER_PAIRING: '荷官与客人关联',
      REPEATED_RUN: '牌序重复（旧牌靴）',
    },
    severities: { HIGH: '高', MEDIUM: '中' },
    statuses: { OPEN: '未处理', ACKNOWLEDGED: '跟进中', CLOSED: '已结案' },
    patron: '客人',
    dealer: '荷官',
    seat: (n) => `${n} 号位`,
    shoe: '牌靴',
    table: '赌台',
    alert: '警报',
    summary: '发现',
    reasonNote: '检测程序的原文（英文）：',
    fields: {
      kind: '检测项目',
      severity: '严重程度',
      status: '状态',
      pValue: 'p 值（诚实的记录每靴最多以此概率达到此程度）',
      threshold: '警报阈值（p 值）',
      eValue: '统计量（e 值）',
      alarmAt: '警报阈值（统计量）',
      patronId: '客人',
      dealerId: '荷官',
      seat: '座位（无会员卡）',
      tableId: '赌台',
      shoeId: '牌靴',
      gamingDay: '博彩日',
      createdAt: '发出时间',
    },
    evidence: '证据',
    evidenceFields: {
      decisions: '检查的局数',
      wins: '胜出局数',
      expectedWins: '按概率应胜局数',
      bets: '计算的投注',
      favourableBets: '其中剩余牌对客人有利的',
      betTypes: '计算的注项',
      shoesTested: '检验的牌靴',
      referenceShoes: '每靴对照牌靴数',
      playerEdgeAtTheBets: '下注时客人的优势',
      shoesCompared: '比较的牌靴',
      earlierShoe: '较早的牌靴',
      earlierShoeId: '较早牌靴的编号',
      at: '本靴位置（已出牌数）',
      earlierAt: '较早牌靴位置（已出牌数）',
      length: '重复牌数',
      placesCompared: '比较的位置',
    },
    money: '金额',
    moneyColumns: ['', '货币', '金额'],
    moneyFields: {
      actual: '客人实际赢款',
      expected: '按准确赔率预期',
      worthOfTheFirstCard: '看见首张牌的价值',
      expectedWin: '下注时的预期赢额',
    },
    runCards: '重复的牌，按次序',
    coups: '最具说明性的牌局',
    coupColumns: ['赌台', '牌靴', '局', '牌', '荷官', '注项', '注码', '客人优势', '结果', '首张牌', '首张牌价值'],
    updates: '警报未结案期间加入的证据',
    updateColumns: ['时间', '统计量（e 值）', 'p 值', '当时原因'],
    noUpdates: '此后对象所玩的牌靴尚未收靴。',
    steps: '已采取的步骤',
    stepColumns: ['时间', '步骤', '备注', '密钥'],
    stepNames: { ACKNOWLEDGE: '已确认跟进', CLOSE: '已结案' },
    noSteps: '尚未有人确认跟进。',
    acknowledgeTitle: '确认跟进：已有人调查',
    acknowledgeNote: '备注（可选）：正在调查什么',
    acknowledge: '确认跟进',
    closeTitle: '结案：发现了什么、采取了什么行动',
    closeNote: '结案原因（必填）',
    close: '结案',
    sending: '发送中…',
    closedNote: '已结案：不能再记录任何步骤。',
    notAllowedSteps: '此密钥只能读取警报；确认跟进及结案由监控人员及主管处理。',
    notAllowedClose: '结案须由主管处理。',
    act: '处理警报',
    updatesTable: '检测程序其后每次的检查，最早在前',
    stepsTable: '警报已采取的步骤，按次序',
    moneyTable: '预期与实际金额，按货币',
    coupsTable: '最具说明性的牌局，附牌、注项及当时的准确优势',
  },
};

/** A probability too small for a percentage (3.2 × 10⁻⁹), in the language's digits. */
function scientific(lang: Lang, p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '—';
  return new Intl.NumberFormat(localeOf(lang), { notation: 'scientific', maximumSignificantDigits: 3 }).format(p);
}

/** A piece of evidence as text (the reason is a string; anything else as its JSON). */
const text = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : JSON.stringify(v));

/** Reads again every REFRESH_MS while the tab is shown, and at once when it is shown again. */
function useRefresh(reload: () => void): void {
  useEffect(() => {
    const tick = () => document.visibilityState === 'visible' && reload();
    const timer = setInterval(tick, REFRESH_MS);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [reload]);
}

/** The tables' codes, for a key that may read them (every role that reads alerts may); read again once when an alert names a table not yet known. */
function useTableCodes(ids: string[]): Map<string, Table> {
  const caller = useCaller();
  const may = mayCall(caller, 'listTables');
  const { data, reload } = useLoad(() => (may ? get<Table[]>('/v1/tables') : Promise.resolve([])), [may]);
  const known = new Map((data ?? []).map((t) => [t.id, t]));
  const missing = may && data ? [...new Set(ids.filter((id) => !known.has(id)))].sort().join(',') : '';
  useEffect(() => {
    if (missing) reload();
  }, [missing]);
  return known;
}

/**
 * The time zone a moment of the floor is shown in (docs/glossary.md, Dates and times): its table's
 * property's, whatever the browser's. A moment of no one table (a patron's or a dealer's alerts) is
 * shown in the zone every property shares; only where properties differ, in the browser's.
 */
interface Zones {
  ofTable: (tableId: string) => string | undefined;
  ofTables: (tables: Table[]) => string | undefined;
}
function useZones(tables: Map<string, Table>): Zones {
  const caller = useCaller();
  const may = mayCall(caller, 'listProperties');
  const { data } = useLoad(() => (may ? get<Property[]>('/v1/properties') : Promise.resolve([])), [may]);
  const zone = new Map((data ?? []).map((p) => [p.id, p.timeZone]));
  const one = (zones: (string | undefined)[]) => {
    const set = new Set(zones);
    return set.size === 1 && !set.has(undefined) ? [...set][0] : undefined;
  };
  const every = one([...zone.values()]);
  const ofTables = (ts: Table[]) => (ts.length ? one(ts.map((x) => zone.get(x.propertyId))) : undefined) ?? every;
  const ofTable = (tableId: string) => {
    const table = tables.get(tableId);
    return ofTables(table ? [table] : []);
  };
  return { ofTable, ofTables };
}

function Checked({ at, reload }: { at: Date | null; reload: () => void }) {
  const t = useT(SURVEILLANCE);
  const lang = useLang();
  return (
    <p class="checked">
      <span data-testid="checked">{at ? t.checked(new Intl.DateTimeFormat(localeOf(lang), { timeStyle: 'medium' }).format(at)) : ''}</span>{' '}
      <button type="button" onClick={reload}>
        {t.refresh}
      </button>
    </p>
  );
}

export function Surveillance({ args }: ScreenProps) {
  return args[0] ? <AlertView key={args[0]} id={args[0]} /> : <AlertList />;
}

/** A subject's filter on the alert list, as the query of GET /v1/surveillance/alerts takes it (a seat: its table, then the seat here). */
interface SubjectFilter {
  by: Subject;
  subject: string;
  label: string;
}

function queryOf(f: SubjectFilter | null): Record<string, string> {
  if (!f) return {};
  if (f.by === 'PATRON') return { patronId: f.subject };
  if (f.by === 'DEALER') return { dealerId: f.subject };
  if (f.by === 'TABLE') return { tableId: f.subject };
  if (f.by === 'SHOE') return { shoeId: f.subject };
  return { tableId: f.subject.split(':')[0] };
}

async function loadAlerts(state: StateFilter, filter: SubjectFilter | null): Promise<Alert[]> {
  const q = queryOf(filter);
  const read = (status?: string) => get<Alert[]>('/v1/surveillance/alerts', { ...q, status });
  let alerts: Alert[];
  if (state === 'ACTIVE') {
    const [open, acknowledged] = await Promise.all([read('OPEN'), read('ACKNOWLEDGED')]);
    alerts = [...open, ...acknowledged].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
  } else alerts = await read(state === 'ALL' ? undefined : state);
  if (filter?.by === 'SEAT') alerts = alerts.filter((a) => a.seat === Number(filter.subject.split(':')[1]) && a.patronId === null);
  return alerts;
}

function AlertList() {
  const t = useT(SURVEILLANCE);
  const w = useT(WORDS);
  const [by, setBy] = useState<Subject>('PATRON');
  const [state, setState] = useState<StateFilter>('ACTIVE');
  const [filter, setFilter] = useState<SubjectFilter | null>(null);
  const [at, setAt] = useState<Date | null>(null);
  const view = useLoad(() => get<OpenAlerts[]>('/v1/surveillance/open-alerts', { by }), [by]);
  const alerts = useLoad(async () => {
    const a = await loadAlerts(state, filter);
    setAt(new Date());
    return a;
  }, [state, filter]);
  const tables = useTableCodes([...(alerts.data ?? []).map((a) => a.tableId), ...(by === 'SEAT' ? (view.data ?? []).map((v) => v.subject.split(':')[0]) : [])]);
  const zones = useZones(tables);
  // A subject's row: the zone of its table (by table, seat or shoe), else the one every property shares.
  const zoneOf = (v: OpenAlerts): string | undefined => {
    if (by === 'TABLE' || by === 'SEAT') return zones.ofTable(v.subject.split(':')[0]);
    if (by === 'SHOE') return zones.ofTables([...tables.values()].filter((x) => x.code === v.tableCode));
    return zones.ofTables([]);
  };
  const reload = () => {
    view.reload();
    alerts.reload();
  };
  useRefresh(alerts.reload);
  useRefresh(view.reload);
  const subjectLabel = (v: OpenAlerts): string => {
    if (by === 'TABLE') return v.tableCode ?? v.subject;
    if (by === 'SHOE') return `${v.tableCode ?? ''} ${t.shoe} #${v.shoeNumber ?? '?'}`;
    if (by === 'SEAT') return `${v.tableCode ?? tables.get(v.subject.split(':')[0])?.code ?? ''} · ${t.seat(v.subject.split(':')[1])}`;
    return v.subject;
  };
  return (
    <main class="surveillance">
      <div class="title">
        <h1>{t.title}</h1>
        <Checked at={at} reload={reload} />
      </div>

      <section aria-labelledby="open-by" data-testid="open-by">
        <div class="title">
          <h2 id="open-by">{t.byTitle}</h2>
          <label class="inline">
            {t.by}{' '}
            <select value={by} onChange={(e) => setBy(e.currentTarget.value as Subject)}>
              {SUBJECTS.map((s) => (
                <option key={s} value={s}>
                  {t.subjects[s]}
                </option>
              ))}
            </select>
          </label>
        </div>
        <ErrorNote problem={view.error} />
        {!view.data && !view.error && <p role="status">{w.loading}</p>}
        {view.data && view.data.length === 0 && <p data-testid="open-empty">{t.noOpen}</p>}
        {view.data && view.data.length > 0 && (
          <Scroll label={t.byCaption(t.subjects[by])}>
            <table class="figures">
              <caption class="sr-only">{t.byCaption(t.subjects[by])}</caption>
              <thead>
                <tr>
                  {t.subjectColumns.map((c, i) => (
                    <th key={i} scope="col">
                      {c || <span class="sr-only">{t.show}</span>}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {view.data.map((v) => (
                  <tr key={v.subject} data-subject={v.subject}>
                    <th scope="row">{subjectLabel(v)}</th>
                    <td class="num" data-field="open" data-value={v.open}>
                      {v.open}
                    </td>
                    <td class="num" data-field="acknowledged" data-value={v.acknowledged}>
                      {v.acknowledged}
                    </td>
                    <td class={v.high > 0 ? 'num high' : 'num'} data-field="high" data-value={v.high}>
                      {v.high}
                    </td>
                    <SciCell field="smallestPValue" p={v.smallestPValue} />
                    <td data-field="kinds" data-value={v.kinds.join(',')}>
                      {v.kinds.map((k) => t.kinds[k] ?? k).join('、')}
                    </td>
                    <DateCell iso={v.oldestAt} timeZone={zoneOf(v)} />
                    <DateCell iso={v.newestAt} timeZone={zoneOf(v)} />
                    <td>
                      <button
                        type="button"
                        aria-label={t.showAlerts(subjectLabel(v))}
                        onClick={() => setFilter({ by, subject: v.subject, label: subjectLabel(v) })}
                      >
                        {t.show}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      </section>

      <section aria-labelledby="alerts" data-testid="alerts">
        <div class="title">
          <h2 id="alerts">{t.alertsTitle}</h2>
          <label class="inline">
            {t.state}{' '}
            <select value={state} onChange={(e) => setState(e.currentTarget.value as StateFilter)}>
              {STATES.map((s) => (
                <option key={s} value={s}>
                  {t.states[s]}
                </option>
              ))}
            </select>
          </label>
        </div>
        {filter && (
          <p class="filter" data-testid="subject-filter">
            {t.only(`${t.subjectNouns[filter.by]} ${filter.label}`)}{' '}
            <button type="button" onClick={() => setFilter(null)}>
              {t.clear}
            </button>
          </p>
        )}
        <ErrorNote problem={alerts.error} />
        {!alerts.data && !alerts.error && <p role="status">{w.loading}</p>}
        {alerts.data && alerts.data.length === 0 && <p data-testid="alerts-empty">{t.noAlerts}</p>}
        {alerts.data && alerts.data.length > 0 && <AlertTable alerts={alerts.data} tables={tables} zones={zones} />}
      </section>
    </main>
  );
}

function SciCell({ field, p }: { field: string; p: number }) {
  const lang = useLang();
  return (
    <td class="num" data-field={field} data-value={String(p)}>
      {scientific(lang, p)}
    </td>
  );
}

function DateCell({ iso, timeZone }: { iso: string; timeZone: string | undefined }) {
  const f = useFormat();
  return <td data-value={iso}>{f.dateTime(iso, timeZone)}</td>;
}

function Names({ a }: { a: Alert }) {
  const t = useT(SURVEILLANCE);
  const caller = useCaller();
  const parts = [];
  if (a.patronId)
    parts.push(
      <span key="p" data-field="patronId" data-value={a.patronId}>
        {t.patron} {mayCall(caller, 'getPatron') ? <a href={`#/patrons/${encodeURIComponent(a.patronId)}`}>{a.patronId}</a> : a.patronId}
      </span>,
    );
  if (a.dealerId)
    parts.push(
      <span key="d" data-field="dealerId" data-value={a.dealerId}>
        {t.dealer} {a.dealerId}
      </span>,
    );
  if (a.seat !== null)
    parts.push(
      <span key="s" data-field="seat" data-value={a.seat}>
        {t.seat(String(a.seat))}
      </span>,
    );
  return <>{parts.length ? parts.map((p, i) => [i > 0 ? ' · ' : '', p]) : '—'}</>;
}

function AlertTable({ alerts, tables, zones }: { alerts: Alert[]; tables: Map<string, Table>; zones: Zones }) {
  const t = useT(SURVEILLANCE);
  const f = useFormat();
  return (
    <Scroll label={t.alertsCaption}>
      <table class="figures alerts">
        <caption class="sr-only">{t.alertsCaption}</caption>
        <Head columns={t.alertColumns} />
        <tbody>
          {alerts.map((a) => [
            <tr key={a.id} data-alert={a.id} class={a.severity === 'HIGH' ? 'high lead' : 'lead'}>
              <th scope="row" data-field="createdAt" data-value={a.createdAt}>
                <a href={`#/surveillance/${a.id}`} aria-label={`${t.open}: ${t.kinds[a.kind] ?? a.kind}, ${f.dateTime(a.createdAt, zones.ofTable(a.tableId))}`}>
                  {f.dateTime(a.createdAt, zones.ofTable(a.tableId))}
                </a>
              </th>
              <td data-field="kind" data-value={a.kind}>
                {t.kinds[a.kind] ?? a.kind}
              </td>
              <td data-field="severity" data-value={a.severity} class={a.severity === 'HIGH' ? 'high' : undefined}>
                {t.severities[a.severity] ?? a.severity}
              </td>
              <td data-field="status" data-value={a.status}>
                {t.statuses[a.status] ?? a.status}
              </td>
              <td class="wrap">
                <Names a={a} />
              </td>
              <td data-field="tableId" data-value={a.tableId}>
                {tables.get(a.tableId)?.code ?? '—'}
              </td>
              <td data-field="gamingDay" data-value={a.gamingDay}>
                {f.day(a.gamingDay)}
              </td>
              <SciCell field="pValue" p={a.pValue} />
              <SciCell field="threshold" p={a.threshold} />
            </tr>,
            // The detector's reason, in its own words, on a line of its own under the alert's figures.
            <tr key={`${a.id}-reason`} class="reason-row" data-reason={a.id}>
              <td colSpan={9} class="reason" lang="en">
                {text(a.evidence.reason)}
              </td>
            </tr>,
          ])}
        </tbody>
      </table>
    </Scroll>
  );
}

// ---------------------------------------------------------------------------------------------
// One alert: its figures, its evidence, what was done, and the steps a role may take.

type Sum = { currency: string | null; minor: number };
type CoupLine = {
  table: string | null;
  shoe: number | null;
  coup: number | null;
  cards: string | null;
  dealerId: string | null;
  bet: string;
  stake: { minor: number; currency: string | null };
  playerEdge: string | null;
  net: { minor: number; currency: string | null };
  firstCard?: number;
  worthOfTheFirstCard?: string;
};

const MONEY_KEYS = ['actual', 'expected', 'worthOfTheFirstCard', 'expectedWin'];
const SHOWN_APART = ['reason', 'eValue', 'alarmAt', 'coups', 'cards', ...MONEY_KEYS];

function AlertView({ id }: { id: string }) {
  const t = useT(SURVEILLANCE);
  const w = useT(WORDS);
  const caller = useCaller();
  const [at, setAt] = useState<Date | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const { data, error, reload } = useLoad(async () => {
    const a = await get<Alert>(`/v1/surveillance/alerts/${encodeURIComponent(id)}`);
    setAt(new Date());
    return a;
  }, [id]);
  const tables = useTableCodes(data ? [data.tableId] : []);
  const zones = useZones(tables);
  const timeZone = data ? zones.ofTable(data.tableId) : undefined;
  const shoe = useLoad(
    () => (data && mayCall(caller, 'getShoe') ? get<Schemas['ShoeDto']>(`/v1/shoes/${data.shoeId}`) : Promise.resolve(null)),
    [data?.shoeId],
  );
  useRefresh(reload);
  const step = async (kind: 'acknowledge' | 'close', note: string): Promise<boolean> => {
    setProblem(null);
    try {
      await post<Alert>(`/v1/surveillance/alerts/${encodeURIComponent(id)}/${kind}`, note.trim() || kind === 'close' ? { note } : {});
      reload();
      return true;
    } catch (e) {
      setProblem(problemOf(e));
      reload(); // someone else may have taken a step: show the alert as it is now
      return false;
    }
  };
  const may = { acknowledge: mayCall(caller, 'acknowledgeAlert'), close: mayCall(caller, 'closeAlert') };
  return (
    <main class="surveillance">
      <p>
        <a href="#/surveillance">← {t.back}</a>
      </p>
      <div class="title">
        <h1>
          {t.alert}
          {data ? `: ${t.kinds[data.kind] ?? data.kind}` : ''}
        </h1>
        <Checked at={at} reload={reload} />
      </div>
      <ErrorNote problem={error} />
      {!data && !error && <p role="status">{w.loading}</p>}
      {data && (
        <>
          <Summary a={data} tables={tables} shoe={shoe.data} timeZone={timeZone} />
          <Evidence a={data} />
          <Updates a={data} timeZone={timeZone} />
          <Steps a={data} timeZone={timeZone} />
          <section aria-labelledby="take-steps" data-testid="alert-steps-forms">
            <h2 id="take-steps" class="sr-only">
              {t.act}
            </h2>
            <ErrorNote problem={problem} />
            {data.status === 'CLOSED' ? (
              <p data-testid="closed-note">{t.closedNote}</p>
            ) : !may.acknowledge && !may.close ? (
              <p class="hint">{t.notAllowedSteps}</p>
            ) : (
              <div class="step-forms">
                {may.acknowledge && data.status === 'OPEN' && (
                  <StepForm kind="acknowledge" title={t.acknowledgeTitle} label={t.acknowledgeNote} button={t.acknowledge} required={false} onSend={step} />
                )}
                {may.close ? (
                  <StepForm kind="close" title={t.closeTitle} label={t.closeNote} button={t.close} required onSend={step} />
                ) : (
                  <p class="hint">{t.notAllowedClose}</p>
                )}
              </div>
            )}
          </section>
        </>
      )}
    </main>
  );
}

function StepForm({
  kind,
  title,
  label,
  button,
  required,
  onSend,
}: {
  kind: 'acknowledge' | 'close';
  title: string;
  label: string;
  button: string;
  required: boolean;
  onSend: (kind: 'acknowledge' | 'close', note: string) => Promise<boolean>;
}) {
  const t = useT(SURVEILLANCE);
  const [note, setNote] = useState('');
  const [sending, setSending] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setSending(true);
    if (await onSend(kind, note)) setNote('');
    setSending(false);
  };
  return (
    <form class="step-form" data-testid={`${kind}-form`} aria-labelledby={`${kind}-title`} onSubmit={(e) => void submit(e)}>
      <h3 id={`${kind}-title`}>{title}</h3>
      <label for={`${kind}-note`}>{label}</label>
      <textarea id={`${kind}-note`} rows={3} maxLength={2000} required={required} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
      <button type="submit" disabled={sending}>
        {sending ? t.sending : button}
      </button>
    </form>
  );
}

function Summary({ a, tables, shoe, timeZone }: { a: Alert; tables: Map<string, Table>; shoe: Schemas['ShoeDto'] | null; timeZone: string | undefined }) {
  const t = useT(SURVEILLANCE);
  const f = useFormat();
  const lang = useLang();
  const caller = useCaller();
  const ev = a.evidence as Record<string, unknown>;
  const rows: [string, string | number | null, ComponentChildren][] = [
    ['kind', a.kind, t.kinds[a.kind] ?? a.kind],
    ['severity', a.severity, t.severities[a.severity] ?? a.severity],
    ['status', a.status, t.statuses[a.status] ?? a.status],
    ['pValue', String(a.pValue), scientific(lang, a.pValue)],
    ['threshold', String(a.threshold), scientific(lang, a.threshold)],
  ];
  if (typeof ev.eValue === 'number' && a.kind !== 'REPEATED_RUN') rows.push(['eValue', String(ev.eValue), scientific(lang, ev.eValue)]);
  if (typeof ev.alarmAt === 'number') rows.push(['alarmAt', String(ev.alarmAt), f.integer(ev.alarmAt)]);
  if (a.patronId)
    rows.push(['patronId', a.patronId, mayCall(caller, 'getPatron') ? <a href={`#/patrons/${encodeURIComponent(a.patronId)}`}>{a.patronId}</a> : a.patronId]);
  if (a.dealerId) rows.push(['dealerId', a.dealerId, a.dealerId]);
  if (a.seat !== null) rows.push(['seat', a.seat, f.integer(a.seat)]);
  rows.push(['tableId', a.tableId, tables.get(a.tableId)?.code ?? a.tableId]);
  rows.push(['shoeId', a.shoeId, shoe ? `${tables.get(a.tableId)?.code ?? ''} #${shoe.number}` : a.shoeId]);
  rows.push(['gamingDay', a.gamingDay, f.day(a.gamingDay)]);
  rows.push(['createdAt', a.createdAt, f.dateTime(a.createdAt, timeZone)]);
  return (
    <section aria-labelledby="summary" data-testid="alert" data-alert={a.id}>
      <h2 id="summary">{t.summary}</h2>
      <p class="reason-note">{t.reasonNote}</p>
      <blockquote class="reason" lang="en" data-field="reason">
        {text(ev.reason)}
      </blockquote>
      <dl class="facts facts-grid">
        {rows.map(([field, value, shown]) => (
          <div key={field} data-field={field} data-value={value ?? undefined} class={field === 'severity' && a.severity === 'HIGH' ? 'high' : undefined}>
            <dt>{t.fields[field]}</dt>
            <dd>{shown}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

const isSums = (v: unknown): v is Sum[] =>
  Array.isArray(v) && v.every((s) => typeof s === 'object' && s !== null && 'minor' in s && 'currency' in (s as Record<string, unknown>));

function Evidence({ a }: { a: Alert }) {
  const t = useT(SURVEILLANCE);
  const f = useFormat();
  const ev = a.evidence as Record<string, unknown>;
  const facts = Object.entries(ev).filter(([k]) => !SHOWN_APART.includes(k));
  const money = MONEY_KEYS.filter((k) => isSums(ev[k]));
  const coups = Array.isArray(ev.coups) ? (ev.coups as CoupLine[]) : [];
  const cards = Array.isArray(ev.cards) ? (ev.cards as string[]) : [];
  const shown = (v: unknown): string => {
    if (typeof v === 'number') return Number.isInteger(v) ? f.integer(v) : new Intl.NumberFormat(f.locale, { maximumFractionDigits: 2 }).format(v);
    if (Array.isArray(v)) return v.map(shown).join(', ');
    if (v && typeof v === 'object')
      return Object.entries(v)
        .map(([k, x]) => `${k}: ${shown(x)}`)
        .join(', ');
    return v === null || v === undefined ? '—' : text(v);
  };
  return (
    <section aria-labelledby="evidence" data-testid="evidence">
      <h2 id="evidence">{t.evidence}</h2>
      {facts.length > 0 && (
        <dl class="facts facts-grid">
          {facts.map(([k, v]) => (
            <div key={k} data-field={k} data-value={typeof v === 'string' ? v : JSON.stringify(v)}>
              <dt>{t.evidenceFields[k] ?? k}</dt>
              <dd>{shown(v)}</dd>
            </div>
          ))}
        </dl>
      )}
      {money.length > 0 && (
        <Scroll label={t.moneyTable}>
          <table class="figures" data-testid="evidence-money">
            <caption class="sr-only">{t.moneyTable}</caption>
            <thead>
              <tr>
                {t.moneyColumns.map((c, i) => (
                  <th key={i} scope="col">
                    {c || <span class="sr-only">{t.money}</span>}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {money.flatMap((k) =>
                (ev[k] as Sum[]).map((s) => (
                  <tr key={`${k}-${s.currency}`} data-money={k} data-currency={s.currency ?? ''}>
                    <th scope="row">{t.moneyFields[k]}</th>
                    <td>{s.currency ?? '—'}</td>
                    <Money field={k} v={s.minor} currency={s.currency ?? 'USD'} />
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </Scroll>
      )}
      {cards.length > 0 && (
        <>
          <h3>{t.runCards}</h3>
          <p class="cards run" data-testid="run-cards" data-value={cards.join(' ')}>
            {cards.map((c, i) => (
              <CardFace key={i} card={c} />
            ))}
          </p>
        </>
      )}
      {coups.length > 0 && (
        <>
          <h3 id="telling">{t.coups}</h3>
          <Scroll label={t.coupsTable}>
            <table class="figures" data-testid="evidence-coups">
              <caption class="sr-only">{t.coupsTable}</caption>
              <Head columns={t.coupColumns} />
              <tbody>
                {coups.map((c, i) => (
                  <tr key={i} data-coup={i}>
                    <th scope="row" data-field="table">
                      {c.table ?? '—'}
                    </th>
                    <td class="num" data-field="shoe" data-value={c.shoe ?? undefined}>
                      {c.shoe ?? '—'}
                    </td>
                    <td class="num" data-field="coup" data-value={c.coup ?? undefined}>
                      {c.coup ?? '—'}
                    </td>
                    <td data-field="cards" data-value={c.cards ?? undefined}>
                      <span class="cards">{c.cards ?? '—'}</span>
                    </td>
                    <td data-field="dealerId">{c.dealerId ?? '—'}</td>
                    <td data-field="bet" data-value={c.bet}>
                      <BetName bet={c.bet} />
                    </td>
                    <Money field="stake" v={c.stake.minor} currency={c.stake.currency ?? 'USD'} />
                    <td class="num" data-field="playerEdge" data-value={c.playerEdge ?? undefined}>
                      {c.playerEdge ?? '—'}
                    </td>
                    <Money field="net" v={c.net.minor} currency={c.net.currency ?? 'USD'} />
                    <td class="num" data-field="firstCard" data-value={c.firstCard ?? undefined}>
                      {c.firstCard ?? '—'}
                    </td>
                    <td class="num" data-field="worthOfTheFirstCard" data-value={c.worthOfTheFirstCard ?? undefined}>
                      {c.worthOfTheFirstCard ?? '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        </>
      )}
    </section>
  );
}

/** A bet's name in the screen's language. */
function BetName({ bet }: { bet: string }) {
  const w = useT(WORDS);
  return <>{w.bets[bet] ?? bet}</>;
}

function CardFace({ card }: { card: string }) {
  const red = /[HD]$/.test(card);
  return (
    <span class={red ? 'card red' : 'card'} data-card={card}>
      {card.replace(/^T/, '10').replace(/S$/, '♠').replace(/H$/, '♥').replace(/D$/, '♦').replace(/C$/, '♣')}
    </span>
  );
}

function Updates({ a, timeZone }: { a: Alert; timeZone: string | undefined }) {
  const t = useT(SURVEILLANCE);
  const f = useFormat();
  const lang = useLang();
  if (a.kind === 'REPEATED_RUN') return null;
  return (
    <section aria-labelledby="updates" data-testid="updates">
      <h2 id="updates">{t.updates}</h2>
      {a.updates.length === 0 ? (
        <p>{t.noUpdates}</p>
      ) : (
        <Scroll label={t.updatesTable}>
          <table class="figures">
            <caption class="sr-only">{t.updatesTable}</caption>
            <Head columns={t.updateColumns} />
            <tbody>
              {a.updates.map((u, i) => (
                <tr key={i} data-update={i}>
                  <th scope="row" data-value={u.at}>
                    {f.dateTime(u.at, timeZone)}
                  </th>
                  <td class="num" data-field="eValue" data-value={String(u.eValue)}>
                    {scientific(lang, u.eValue)}
                  </td>
                  <SciCell field="pValue" p={u.pValue} />
                  <td class="reason" lang="en">
                    {text((u.evidence as Record<string, unknown>).reason)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
    </section>
  );
}

function Steps({ a, timeZone }: { a: Alert; timeZone: string | undefined }) {
  const t = useT(SURVEILLANCE);
  const f = useFormat();
  return (
    <section aria-labelledby="steps" data-testid="steps">
      <h2 id="steps">{t.steps}</h2>
      {a.steps.length === 0 ? (
        <p data-testid="no-steps">{t.noSteps}</p>
      ) : (
        <Scroll label={t.stepsTable}>
          <table class="figures">
            <caption class="sr-only">{t.stepsTable}</caption>
            <Head columns={t.stepColumns} />
            <tbody>
              {a.steps.map((s, i) => (
                <tr key={i} data-step={s.step}>
                  <th scope="row" data-value={s.at}>
                    {f.dateTime(s.at, timeZone)}
                  </th>
                  <td data-field="step" data-value={s.step}>
                    {t.stepNames[s.step] ?? s.step}
                  </td>
                  <td data-field="note" class="wrap">
                    {s.note ?? '—'}
                  </td>
                  <td data-field="keyId" data-value={s.keyId}>
                    <code>{s.keyId.slice(0, 8)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
    </section>
  );
}

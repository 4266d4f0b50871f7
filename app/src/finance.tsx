import { FinanceActs } from './finance-acts';
import { ErrorNote, Problem } from './error-note';
import { Range, RangeForm } from './range-form';
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { downloadCsv, get, Schemas } from './api';
import { problemOf, useLoad } from './hooks';
import { exponentOf, Format, useFormat } from './format';
import { gamingDayNow } from './gaming-day';
import { rememberProperty, startProperty } from './start-property';
import { LiveBadge, Money } from './cells';
import { follow } from './live';
import { Scroll } from './scroll';
import { localeOf, useLang, useT, Words } from './i18n';
import { WORDS } from './words';

type WinLoss = Schemas['WinLossDto'];
type Row = Schemas['WinLossRowDto'];
type Totals = Schemas['TotalsDto'];
type Property = Schemas['PropertyDto'];
type Table = Schemas['TableDto'];
type Quarterly = Schemas['QuarterlyDto'];
type Exceptions = Schemas['ExceptionsDto'];

const en = {
  title: 'Finance',
  period: 'Period',
  noProperty: 'There is no property yet: an administrator adds one (POST /v1/properties).',
  noPlay: 'No play recorded in this period',
  noPlayHint: 'No coup was settled at this property between these gaming days. Choose other days or another property.',
  groups: { gamingDay: 'By gaming day', table: 'By table', betType: 'By bet type' },
  keyColumn: { gamingDay: 'Gaming day', table: 'Table', betType: 'Bet type' },
  caption: (group: string) => `Win and loss, ${group.toLowerCase()}`,
  downloadCsv: 'Download CSV',
  columns: {
    currency: 'Currency',
    coups: 'Coups',
    handle: 'Handle',
    win: 'Win',
    holdPercent: 'Hold %',
    theoreticalWin: 'Theoretical win',
    winMinusTheoretical: 'Win − theoretical',
    theoreticalWinStdDev: 'Standard deviation (σ)',
    luck: 'Luck or a problem?',
    commissionCharged: 'Commission charged',
    commissionCollected: 'Commission collected',
    commissionOutstanding: 'Commission outstanding',
    revenue: 'Revenue',
  },
  total: 'Total',
  within: 'within ±2σ: luck',
  outside: 'outside ±2σ: look for a reason',
  chart: {
    label: 'Cumulative actual win against theoretical win and its band of two standard deviations, by gaming day',
    actual: 'Actual win (cumulative)',
    theoretical: 'Theoretical win (cumulative)',
    upper: 'Theoretical + 2σ',
    lower: 'Theoretical − 2σ',
    legend: 'Legend: the value of each line at the pointer',
    axis: (currency: string) => `Win, ${currency}`,
  },
  quarterly: (year: number, quarter: number) => `Quarterly statement, ${year} Q${quarter}`,
  quarterTotals: 'Quarter totals by currency',
  noPlayQuarter: 'No play recorded this quarter.',
  exceptions: {
    title: 'Exception report',
    intro:
      'Everything voided this quarter, the integrity alerts of its gaming days and the coups a pit terminal recorded offline: each with who, why and when.',
    none: 'No exceptions this quarter: nothing voided and no integrity alert.',
    lists: {
      voidedCoups: 'Voided coups',
      voidedSlips: 'Voided fill and credit slips',
      voidedBankCoups: 'Voided banker coups (player-banked games)',
      voidedBuyIns: 'Voided buy-ins',
      integrityAlerts: 'Integrity alerts',
      coupsRecordedOffline: 'Coups recorded offline at a pit terminal, sent later',
    },
    noneOf: 'None.',
    fields: {
      tableCode: 'Table',
      shoeNumber: 'Shoe',
      coupNumber: 'Coup',
      gamingDay: 'Gaming day',
      reason: 'Reason',
      voidedByKeyId: 'Voided by (key)',
      voidedByRole: 'Role',
      approvedByKeyId: 'Approved by (key)',
      voidedAt: 'Voided at',
      handle: 'Handle',
      kind: 'Kind',
      number: 'Slip number',
      year: 'Year',
      amount: 'Amount',
      bankerSeat: 'Banker seat',
      commission: 'Commission taken back',
      currency: 'Currency',
      patronId: 'Patron',
      severity: 'Severity',
      pValue: 'p-value',
      dealerId: 'Dealer',
      status: 'Status',
      raisedAt: 'Raised at',
      closingNote: 'What was found',
      recordedAt: 'Recorded at the terminal',
      arrivedAt: 'Arrived',
      delaySeconds: 'Delay (seconds)',
      voided: 'Voided since',
    },
    kinds: {
      FILL: 'Fill',
      CREDIT: 'Credit',
      CASH: 'Cash',
      CHIPS: 'Chips',
      MARKER: 'Marker',
      MEDIUM: 'Medium',
      HIGH: 'High',
      OPEN: 'Open',
      ACKNOWLEDGED: 'Acknowledged',
      CLOSED: 'Closed',
      SUPERVISOR: 'Supervisor',
      ADMIN: 'Administrator',
      FINANCE: 'Finance',
      AUDITOR: 'Auditor',
      CASHIER: 'Cashier',
      HOST: 'Host',
      COMPLIANCE: 'Compliance',
      SURVEILLANCE: 'Surveillance',
      TERMINAL: 'Table terminal',
      true: 'yes',
      false: 'no',
    } as Record<string, string>,
  },
};

const FINANCE: Words<typeof en> = {
  en,
  'zh-Hant': {
    title: '財務',
    period: '期間',
    noProperty: '尚未設立娛樂場：請管理員新增（POST /v1/properties）。',
    noPlay: '此期間沒有投注記錄',
    noPlayHint: '這些博彩日內本娛樂場沒有結算任何牌局。請選擇其他日期或娛樂場。',
    groups: { gamingDay: '按博彩日', table: '按賭枱', betType: '按投注類型' },
    keyColumn: { gamingDay: '博彩日', table: '賭枱', betType: '投注類型' },
    caption: (group) => `輸贏報表（${group}）`,
    downloadCsv: '下載 CSV',
    columns: {
      currency: '貨幣',
      coups: '局數',
      handle: '投注額',
      win: '贏額',
      holdPercent: '保留率 %',
      theoreticalWin: '理論贏額',
      winMinusTheoretical: '贏額 − 理論贏額',
      theoreticalWinStdDev: '標準差（σ）',
      luck: '運氣還是問題？',
      commissionCharged: '應收佣金',
      commissionCollected: '已收佣金',
      commissionOutstanding: '未收佣金',
      revenue: '收入',
    },
    total: '合計',
    within: '在 ±2σ 之內：屬運氣',
    outside: '超出 ±2σ：須查明原因',
    chart: {
      label: '按博彩日累計的實際贏額與理論贏額，及其兩個標準差的範圍',
      actual: '實際贏額（累計）',
      theoretical: '理論贏額（累計）',
      upper: '理論贏額 + 2σ',
      lower: '理論贏額 − 2σ',
      legend: '圖例：指標所在位置各線的數值',
      axis: (currency) => `贏額（${currency}）`,
    },
    quarterly: (year, quarter) => `${year} 年第 ${quarter} 季度報表`,
    quarterTotals: '本季按貨幣合計',
    noPlayQuarter: '本季沒有投注記錄。',
    exceptions: {
      title: '異常報告',
      intro: '本季所有作廢記錄、本季博彩日的誠信警示，以及賭枱終端離線時記錄的牌局：各附經手人、原因及時間。',
      none: '本季沒有異常：沒有作廢記錄，也沒有誠信警示。',
      lists: {
        voidedCoups: '已作廢牌局',
        voidedSlips: '已作廢加彩單及收彩單',
        voidedBankCoups: '已作廢坐莊牌局（玩家坐莊）',
        voidedBuyIns: '已作廢買碼',
        integrityAlerts: '誠信警示',
        coupsRecordedOffline: '賭枱終端離線時記錄、稍後送出的牌局',
      },
      noneOf: '沒有。',
      fields: {
        tableCode: '賭枱',
        shoeNumber: '牌靴',
        coupNumber: '局號',
        gamingDay: '博彩日',
        reason: '原因',
        voidedByKeyId: '作廢人（金鑰）',
        voidedByRole: '角色',
        approvedByKeyId: '批核人（金鑰）',
        voidedAt: '作廢時間',
        handle: '投注額',
        kind: '類別',
        number: '單號',
        year: '年份',
        amount: '金額',
        bankerSeat: '莊家座位',
        commission: '撥回佣金',
        currency: '貨幣',
        patronId: '客戶',
        severity: '嚴重程度',
        pValue: 'p 值',
        dealerId: '荷官',
        status: '狀態',
        raisedAt: '發出時間',
        closingNote: '調查結果',
        recordedAt: '終端記錄時間',
        arrivedAt: '送達時間',
        delaySeconds: '延遲（秒）',
        voided: '其後作廢',
      },
      kinds: {
        FILL: '加彩',
        CREDIT: '收彩',
        CASH: '現金',
        CHIPS: '籌碼',
        MARKER: '借據',
        MEDIUM: '中',
        HIGH: '高',
        OPEN: '未處理',
        ACKNOWLEDGED: '已確認',
        CLOSED: '已結案',
        SUPERVISOR: '主管',
        ADMIN: '管理員',
        FINANCE: '財務',
        AUDITOR: '審計',
        CASHIER: '賬房',
        HOST: '公關',
        COMPLIANCE: '合規',
        SURVEILLANCE: '監察',
        TERMINAL: '賭枱終端',
        true: '是',
        false: '否',
      },
    },
  },
  'zh-Hans': {
    title: '财务',
    period: '期间',
    noProperty: '尚未设立娱乐场：请管理员新增（POST /v1/properties）。',
    noPlay: '此期间没有投注记录',
    noPlayHint: '这些博彩日内本娱乐场没有结算任何牌局。请选择其他日期或娱乐场。',
    groups: { gamingDay: '按博彩日', table: '按赌台', betType: '按投注类型' },
    keyColumn: { gamingDay: '博彩日', table: '赌台', betType: '投注类型' },
    caption: (group) => `输赢报表（${group}）`,
    downloadCsv: '下载 CSV',
    columns: {
      currency: '货币',
      coups: '局数',
      handle: '投注额',
      win: '赢额',
      holdPercent: '保留率 %',
      theoreticalWin: '理论赢额',
      winMinusTheoretical: '赢额 − 理论赢额',
      theoreticalWinStdDev: '标准差（σ）',
      luck: '运气还是问题？',
      commissionCharged: '应收佣金',
      commissionCollected: '已收佣金',
      commissionOutstanding: '未收佣金',
      revenue: '收入',
    },
    total: '合计',
    within: '在 ±2σ 之内：属运气',
    outside: '超出 ±2σ：须查明原因',
    chart: {
      label: '按博彩日累计的实际赢额与理论赢额，及其两个标准差的范围',
      actual: '实际赢额（累计）',
      theoretical: '理论赢额（累计）',
      upper: '理论赢额 + 2σ',
      lower: '理论赢额 − 2σ',
      legend: '图例：指针所在位置各线的数值',
      axis: (currency) => `赢额（${currency}）`,
    },
    quarterly: (year, quarter) => `${year} 年第 ${quarter} 季度报表`,
    quarterTotals: '本季按货币合计',
    noPlayQuarter: '本季没有投注记录。',
    exceptions: {
      title: '异常报告',
      intro: '本季所有作废记录、本季博彩日的诚信警示，以及赌台终端离线时记录的牌局：各附经手人、原因及时间。',
      none: '本季没有异常：没有作废记录，也没有诚信警示。',
      lists: {
        voidedCoups: '已作废牌局',
        voidedSlips: '已作废加彩单及收彩单',
        voidedBankCoups: '已作废坐庄牌局（玩家坐庄）',
        voidedBuyIns: '已作废买码',
        integrityAlerts: '诚信警示',
        coupsRecordedOffline: '赌台终端离线时记录、稍后送出的牌局',
      },
      noneOf: '没有。',
      fields: {
        tableCode: '赌台',
        shoeNumber: '牌靴',
        coupNumber: '局号',
        gamingDay: '博彩日',
        reason: '原因',
        voidedByKeyId: '作废人（密钥）',
        voidedByRole: '角色',
        approvedByKeyId: '批核人（密钥）',
        voidedAt: '作废时间',
        handle: '投注额',
        kind: '类别',
        number: '单号',
        year: '年份',
        amount: '金额',
        bankerSeat: '庄家座位',
        commission: '拨回佣金',
        currency: '货币',
        patronId: '客户',
        severity: '严重程度',
        pValue: 'p 值',
        dealerId: '荷官',
        status: '状态',
        raisedAt: '发出时间',
        closingNote: '调查结果',
        recordedAt: '终端记录时间',
        arrivedAt: '送达时间',
        delaySeconds: '延迟（秒）',
        voided: '其后作废',
      },
      kinds: {
        FILL: '加彩',
        CREDIT: '收彩',
        CASH: '现金',
        CHIPS: '筹码',
        MARKER: '借据',
        MEDIUM: '中',
        HIGH: '高',
        OPEN: '未处理',
        ACKNOWLEDGED: '已确认',
        CLOSED: '已结案',
        SUPERVISOR: '主管',
        ADMIN: '管理员',
        FINANCE: '财务',
        AUDITOR: '审计',
        CASHIER: '账房',
        HOST: '公关',
        COMPLIANCE: '合规',
        SURVEILLANCE: '监控',
        TERMINAL: '赌台终端',
        true: '是',
        false: '否',
      },
    },
  },
};
type T = typeof en;

type GroupBy = 'gamingDay' | 'table' | 'betType';
const GROUPS: GroupBy[] = ['gamingDay', 'table', 'betType'];
/** A row's own value in its grouping (data-row: the API's, as the tests read it). */
const keyOf = (by: GroupBy, r: Row) => (by === 'gamingDay' ? r.group.gamingDay : by === 'table' ? r.group.tableCode : r.group.betType);

const DAY_MS = 86_400_000;

function quarterOf(day: string): { year: number; quarter: number; from: string } {
  const [y, m] = day.split('-').map(Number);
  const q = Math.floor((m - 1) / 3) + 1;
  return { year: y, quarter: q, from: `${y}-${String((q - 1) * 3 + 1).padStart(2, '0')}-01` };
}

/** The properties and their tables, and the property the screen opens on (startProperty). */
async function loadStart(): Promise<{ properties: Property[]; tables: Table[]; range: Range | null }> {
  const [properties, tables] = await Promise.all([get<Property[]>('/v1/properties'), get<Table[]>('/v1/tables')]);
  if (properties.length === 0) return { properties, tables, range: null };
  const p = (await startProperty('finance', properties, tables))!;
  const today = gamingDayNow(p.timeZone, p.gamingDayStartHour);
  return { properties, tables, range: { from: quarterOf(today).from, to: today, propertyId: p.id } };
}

/** At most this many tables on one stream (the service's MAX_STREAM_TABLES): a bigger floor is followed on several. */
const STREAM_TABLES = 100;
/** A live reload starts at most this often: a busy pit's coups between two reloads make one. */
const RELOAD_EVERY_MS = 1_000;

/**
 * Follows the coups of these tables (GET /v1/events?tables=…, as the pit overview does) and reloads
 * the figures: on (re)connect, and after events, no more than once a second (events in between
 * make one reload), and never two at once (useLoad runs one load at a time).
 */
function useLiveTables(ids: string[], reload: () => void): boolean {
  const [live, setLive] = useState(false);
  const key = ids.join(',');
  useEffect(() => {
    if (!key) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let last = 0;
    const soon = () => {
      if (timer) return;
      timer = setTimeout(
        () => {
          timer = null;
          last = Date.now();
          reload();
        },
        Math.max(0, last + RELOAD_EVERY_MS - Date.now()),
      );
    };
    const chunks: string[][] = [];
    for (let i = 0; i < ids.length; i += STREAM_TABLES) chunks.push(ids.slice(i, i + STREAM_TABLES));
    const up = chunks.map(() => false);
    const stops = chunks.map((chunk, i) =>
      follow(`/v1/events?tables=${chunk.join(',')}`, {
        onReady: soon,
        onEvent: soon,
        onState: (on) => {
          up[i] = on;
          setLive(up.every(Boolean));
        },
      }),
    );
    return () => {
      if (timer) clearTimeout(timer);
      stops.forEach((stop) => stop());
      setLive(false);
    };
  }, [key]);
  return live;
}

export function Finance() {
  const t = useT(FINANCE);
  const w = useT(WORDS);
  const start = useLoad(loadStart, []);
  const [range, setRange] = useState<Range | null>(null);
  useEffect(() => {
    if (start.data?.range && !range) setRange(start.data.range);
  }, [start.data]);
  const choose = (r: Range) => {
    if (r.propertyId !== range?.propertyId) rememberProperty('finance', r.propertyId);
    setRange(r);
  };
  const tables = start.data?.tables.filter((x) => x.propertyId === range?.propertyId) ?? [];
  const property = start.data?.properties.find((p) => p.id === range?.propertyId);
  return (
    <main class="finance">
      <h1>{t.title}</h1>
      <ErrorNote problem={start.error} />
      {!start.data && !start.error && <p role="status">{w.loading}</p>}
      {start.data && !start.data.range && <p>{t.noProperty}</p>}
      {range && start.data && (
        <>
          <RangeForm label={t.period} range={range} properties={start.data.properties} onChange={choose} />
          <Period key={JSON.stringify(range)} range={range} tables={tables} timeZone={property?.timeZone} />
          <FinanceActs
            key={`acts:${JSON.stringify(range)}`}
            range={range}
            currencies={[...new Set([...(property ? [property.cashCurrency] : []), ...tables.map((x) => x.currency)])]}
            timeZone={property?.timeZone}
          />
        </>
      )}
    </main>
  );
}

type Part<D> = { data: D; error: null } | { data: null; error: Problem };
const settle = <D,>(p: Promise<D>): Promise<Part<D>> =>
  p.then(
    (data) => ({ data, error: null }),
    (e) => ({ data: null, error: problemOf(e) }),
  );

/** The period's three win/loss reports and its quarter's statement, read together (one load, so one reload at a time). */
async function loadPeriod(range: Range) {
  const { year, quarter } = quarterOf(range.to);
  const [gamingDay, table, betType, quarterly] = await Promise.all([
    ...GROUPS.map((by) => settle(get<WinLoss>('/v1/reports/win-loss', { ...range, groupBy: by }))),
    settle(get<Quarterly>('/v1/reports/quarterly', { propertyId: range.propertyId, year, quarter })),
  ]);
  return { reports: { gamingDay, table, betType } as Record<GroupBy, Part<WinLoss>>, quarterly: quarterly as Part<Quarterly> };
}

function Period({ range, tables, timeZone }: { range: Range; tables: Table[]; timeZone: string | undefined }) {
  const t = useT(FINANCE);
  const w = useT(WORDS);
  const { data, error, reload } = useLoad(() => loadPeriod(range), []);
  const live = useLiveTables(
    tables.map((x) => x.id),
    reload,
  );
  const currencyOf = new Map(tables.map((x) => [x.code, x.currency]));
  const reports = data && GROUPS.map((by) => data.reports[by]);
  const empty = !!reports && reports.every((p) => p.data?.rows.length === 0);
  return (
    <>
      {tables.length > 0 && (
        <p class="live-line">
          <LiveBadge live={live} />
        </p>
      )}
      <ErrorNote problem={error} />
      {!data && !error && <p role="status">{w.loading}</p>}
      {empty && (
        <section class="empty" data-testid="no-play" aria-labelledby="no-play">
          <h2 id="no-play">{t.noPlay}</h2>
          <p>{t.noPlayHint}</p>
        </section>
      )}
      {data && !empty && GROUPS.map((by) => <Report key={by} range={range} by={by} part={data.reports[by]} />)}
      {data && <QuarterlySection range={range} part={data.quarterly} currencyOf={currencyOf} timeZone={timeZone} />}
    </>
  );
}

function Report({ range, by, part }: { range: Range; by: GroupBy; part: Part<WinLoss> }) {
  const t = useT(FINANCE);
  const w = useT(WORDS);
  const f = useFormat();
  const query = { ...range, groupBy: by };
  const id = `report-${by}`;
  const data = part.data;
  // The chart draws the currency with the most handle (a property's tables mostly share one).
  const chartCurrency = data?.totalsByCurrency.slice().sort((a, b) => Number(BigInt(b.handle) - BigInt(a.handle)))[0]?.currency;
  const label = (r: Row) => (by === 'gamingDay' ? f.day(r.group.gamingDay) : by === 'table' ? r.group.tableCode : (w.bets[r.group.betType] ?? r.group.betType));
  return (
    <section aria-labelledby={id} data-testid={id}>
      <div class="title">
        <h2 id={id}>{t.groups[by]}</h2>
        <button onClick={() => void downloadCsv('/v1/reports/win-loss', query, `win-loss-${by}-${range.from}-${range.to}.csv`)}>{t.downloadCsv}</button>
      </div>
      <ErrorNote problem={part.error} />
      {data && by === 'gamingDay' && chartCurrency && (
        <WinChart rows={data.rows.filter((r) => r.group.currency === chartCurrency)} range={range} currency={chartCurrency} />
      )}
      {data && <Figures by={by} data={data} label={label} />}
    </section>
  );
}

/**
 * How far the actual win lies from the theoretical, in standard deviations of the wagers' exact
 * odds: within ±2σ luck explains it (about 19 periods in 20); beyond, a reason should be found.
 */
function Luck({ row }: { row: Row | Totals }) {
  const t = useT(FINANCE);
  const f = useFormat();
  const sd = BigInt(row.theoreticalWinStdDev);
  if (sd === 0n) return <td data-field="z">—</td>;
  // z to one decimal, from integers: (win − theo) × 10 / σ, rounded half away from zero.
  const d = BigInt(row.winMinusTheoretical) * 20n;
  const tenths = (d + (d < 0n ? -sd : sd)) / (2n * sd);
  const abs = tenths < 0n ? -tenths : tenths;
  const outside = abs > 20n;
  const z = new Intl.NumberFormat(f.locale, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(
    `${tenths < 0n ? '-' : ''}${abs / 10n}.${abs % 10n}` as `${number}`,
  );
  return (
    <td class={outside ? 'num outside' : 'num'} data-field="z" data-value={tenths.toString()}>
      {`${z}σ`} {outside ? t.outside : t.within}
    </td>
  );
}

const FIGURE_COLUMNS = [
  'handle',
  'win',
  'holdPercent',
  'theoreticalWin',
  'winMinusTheoretical',
  'theoreticalWinStdDev',
  'luck',
  'commissionCharged',
  'commissionCollected',
  'commissionOutstanding',
] as const;

function FigureCells({ r, currency, f }: { r: Row | Totals; currency: string; f: Format }) {
  return (
    <>
      <td class="num" data-field="coups" data-value={r.coups ?? undefined}>
        {f.integer(r.coups)}
      </td>
      {FIGURE_COLUMNS.map((c) =>
        c === 'holdPercent' ? (
          <td key={c} class="num" data-field="holdPercent" data-value={r.holdPercent ?? undefined}>
            {f.percent(r.holdPercent)}
          </td>
        ) : c === 'luck' ? (
          <Luck key={c} row={r} />
        ) : (
          <Money key={c} field={c} v={r[c]} currency={currency} />
        ),
      )}
    </>
  );
}

function Figures({ by, data, label }: { by: GroupBy; data: WinLoss; label: (r: Row) => string }) {
  const t = useT(FINANCE);
  const f = useFormat();
  const caption = t.caption(t.groups[by]);
  return (
    <Scroll label={caption}>
      <table class="figures">
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.keyColumn[by]}</th>
            <th scope="col">{t.columns.currency}</th>
            <th scope="col">{t.columns.coups}</th>
            {FIGURE_COLUMNS.map((c) => (
              <th key={c} scope="col">
                {t.columns[c]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.rows.map((r) => (
            <tr key={keyOf(by, r) + r.group.currency} data-row={keyOf(by, r)} data-currency={r.group.currency}>
              <th scope="row">{label(r)}</th>
              <td>{r.group.currency}</td>
              <FigureCells r={r} currency={r.group.currency} f={f} />
            </tr>
          ))}
        </tbody>
        {data.rows.length > 0 && (
          <tfoot>
            {data.totalsByCurrency.map((tot) => (
              <tr key={tot.currency} data-row="total" data-currency={tot.currency}>
                <th scope="row">{t.total}</th>
                <td>{tot.currency}</td>
                <FigureCells r={tot} currency={tot.currency} f={f} />
              </tr>
            ))}
          </tfoot>
        )}
      </table>
    </Scroll>
  );
}

/** uPlot's internals the chart reads back for people and tests: the tick labels it drew and the room it gave them. */
type DrawnAxis = uPlot.Axis & { _values?: string[] | null; _size?: number; font?: [string, number] };

/**
 * Actual win against theoretical win, day by day, summed over the period (uPlot). Its axes are
 * written with Intl in the screen's language, and the value axis is as wide as its widest label
 * (uPlot's fixed 50 px cut the minus sign off a loss of thousands); the labels drawn are kept in
 * data-y-ticks / data-x-ticks, since a canvas cannot be read.
 */
function WinChart({ rows, range, currency }: { rows: Row[]; range: Range; currency: string }) {
  const t = useT(FINANCE);
  const lang = useLang();
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!el.current) return;
    const locale = localeOf(lang);
    const byDay = new Map(rows.map((r) => [r.group.gamingDay, r]));
    const days: number[] = [];
    const unit = 10 ** exponentOf(currency);
    let a = 0n;
    let th = 0n;
    const actual: number[] = [];
    const theo: number[] = [];
    const upper: number[] = [];
    const lower: number[] = [];
    let variance = 0; // of the cumulative win: the days' variances add (a picture: doubles are enough)
    for (let d = Date.parse(range.from); d <= Date.parse(range.to); d += DAY_MS) {
      days.push(d / 1000);
      const r = byDay.get(new Date(d).toISOString().slice(0, 10));
      a += BigInt(r?.win ?? 0);
      th += BigInt(r?.theoreticalWin ?? 0);
      variance += Number(r?.theoreticalWinStdDev ?? 0) ** 2;
      // Drawn in major units: a picture, not a figure (the tables hold the exact ones).
      actual.push(Number(a) / unit);
      theo.push(Number(th) / unit);
      upper.push((Number(th) + 2 * Math.sqrt(variance)) / unit);
      lower.push((Number(th) - 2 * Math.sqrt(variance)) / unit);
    }
    const amount = new Intl.NumberFormat(locale, { maximumFractionDigits: exponentOf(currency) });
    const date = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
    const fullDate = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
    const money = (_u: uPlot, v: number | null) => (v === null || v === undefined ? '—' : amount.format(v));
    const box = el.current;
    const plot = new uPlot(
      {
        width: Math.min((box.clientWidth || 816) - 16, 1100),
        height: 260,
        series: [
          { label: t.keyColumn.gamingDay, value: (_u, v) => (v === null || v === undefined ? '—' : fullDate.format(v * 1000)) },
          { label: t.chart.actual, stroke: '#ffd166', width: 2, value: money },
          { label: t.chart.theoretical, stroke: '#8ecae6', width: 2, dash: [6, 4], value: money },
          { label: t.chart.upper, stroke: '#9aa5b1', width: 1, dash: [2, 3], value: money },
          { label: t.chart.lower, stroke: '#9aa5b1', width: 1, dash: [2, 3], value: money },
        ],
        axes: [
          // Room for a day as the language writes it ("10月13日" is wider than "Oct 13").
          { stroke: '#ddd', grid: { stroke: '#333' }, space: 80, values: (_u, splits) => splits.map((s) => date.format(s * 1000)) },
          {
            stroke: '#ddd',
            grid: { stroke: '#333' },
            values: (_u, splits) => splits.map((s) => amount.format(s)),
            // As wide as the widest label (uPlot draws them right-aligned against the plot: a longer one ran off the canvas's left edge).
            size: (u, values, i) => {
              const axis = u.axes[i] as DrawnAxis;
              const pad = (axis.ticks?.size ?? 10) + (axis.gap ?? 5) + 4;
              if (!values?.length) return 50;
              u.ctx.save();
              u.ctx.font = axis.font?.[0] ?? u.ctx.font;
              const widest = Math.max(...values.map((v) => u.ctx.measureText(v).width)) / (window.devicePixelRatio || 1);
              u.ctx.restore();
              return Math.ceil(widest + pad);
            },
          },
        ],
        hooks: {
          draw: [
            (u) => {
              const [x, y] = u.axes as DrawnAxis[];
              box.dataset.yTicks = JSON.stringify(y._values ?? []);
              box.dataset.yAxisSize = String(y._size ?? '');
              box.dataset.yFont = y.font?.[0] ?? '';
              box.dataset.xTicks = JSON.stringify(x._values ?? []);
            },
          ],
        },
      },
      [days, actual, theo, upper, lower],
      box,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.min(box.clientWidth - 16, 1100), height: 260 }));
    resize.observe(box);
    const legend = plot.root.querySelector('table');
    if (legend) {
      const caption = legend.createCaption();
      caption.className = 'sr-only';
      caption.textContent = t.chart.legend;
    }
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [rows, range, currency, lang]);
  return <div ref={el} class="chart" role="img" aria-label={`${t.chart.label} (${t.chart.axis(currency)})`} data-currency={currency} />;
}

function QuarterlySection({
  range,
  part,
  currencyOf,
  timeZone,
}: {
  range: Range;
  part: Part<Quarterly>;
  currencyOf: Map<string, string>;
  timeZone: string | undefined;
}) {
  const t = useT(FINANCE);
  const f = useFormat();
  const { year, quarter } = quarterOf(range.to);
  const query = { propertyId: range.propertyId, year, quarter };
  const data = part.data;
  const columns = ['handle', 'win', 'holdPercent', 'commissionCharged', 'commissionCollected', 'commissionOutstanding', 'revenue', 'theoreticalWin'] as const;
  return (
    <section aria-labelledby="quarterly" data-testid="quarterly">
      <div class="title">
        <h2 id="quarterly">{t.quarterly(year, quarter)}</h2>
        <button onClick={() => void downloadCsv('/v1/reports/quarterly', query, `quarterly-${year}-Q${quarter}.csv`)}>{t.downloadCsv}</button>
      </div>
      <ErrorNote problem={part.error} />
      {data && data.totals.length > 0 && (
        <Scroll label={t.quarterTotals}>
          <table class="figures">
            <caption class="sr-only">{t.quarterTotals}</caption>
            <thead>
              <tr>
                <th scope="col">{t.columns.currency}</th>
                <th scope="col">{t.columns.coups}</th>
                {columns.map((c) => (
                  <th key={c} scope="col">
                    {t.columns[c]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.totals.map((tot) => (
                <tr key={tot.currency} data-row={tot.currency}>
                  <th scope="row">{tot.currency}</th>
                  <td class="num" data-field="coups" data-value={tot.coups ?? undefined}>
                    {f.integer(tot.coups)}
                  </td>
                  {columns.map((c) =>
                    c === 'holdPercent' ? (
                      <td key={c} class="num" data-field="holdPercent" data-value={tot.holdPercent ?? undefined}>
                        {f.percent(tot.holdPercent)}
                      </td>
                    ) : (
                      <Money key={c} field={c} v={tot[c]} currency={tot.currency} />
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      {data && data.totals.length === 0 && <p>{t.noPlayQuarter}</p>}
      {data && <ExceptionReport exceptions={data.exceptions} currencyOf={currencyOf} timeZone={timeZone} />}
    </section>
  );
}

type Kind = 'text' | 'int' | 'money' | 'day' | 'time' | 'enum' | 'key' | 'p';
type ListName = keyof Exceptions;
/** Each list of the exception report: its record's id field, and every other field of the API's record with how it reads. */
const LISTS: { name: ListName; id: string; fields: [field: keyof T['exceptions']['fields'], kind: Kind][] }[] = [
  {
    name: 'voidedCoups',
    id: 'coupId',
    fields: [
      ['tableCode', 'text'],
      ['shoeNumber', 'int'],
      ['coupNumber', 'int'],
      ['gamingDay', 'day'],
      ['handle', 'money'],
      ['reason', 'text'],
      ['voidedByKeyId', 'key'],
      ['voidedByRole', 'enum'],
      ['voidedAt', 'time'],
    ],
  },
  {
    name: 'voidedSlips',
    id: 'slipId',
    fields: [
      ['tableCode', 'text'],
      ['kind', 'enum'],
      ['number', 'int'],
      ['year', 'text'],
      ['gamingDay', 'day'],
      ['amount', 'money'],
      ['reason', 'text'],
      ['voidedByKeyId', 'key'],
      ['voidedAt', 'time'],
    ],
  },
  {
    name: 'voidedBankCoups',
    id: 'bankCoupId',
    fields: [
      ['tableCode', 'text'],
      ['shoeNumber', 'int'],
      ['coupNumber', 'int'],
      ['bankerSeat', 'int'],
      ['gamingDay', 'day'],
      ['commission', 'money'],
      ['reason', 'text'],
      ['voidedByKeyId', 'key'],
      ['approvedByKeyId', 'key'],
      ['voidedAt', 'time'],
    ],
  },
  {
    name: 'voidedBuyIns',
    id: 'buyInId',
    fields: [
      ['tableCode', 'text'],
      ['kind', 'enum'],
      ['amount', 'money'],
      ['currency', 'text'],
      ['patronId', 'text'],
      ['gamingDay', 'day'],
      ['reason', 'text'],
      ['voidedByKeyId', 'key'],
      ['approvedByKeyId', 'key'],
      ['voidedAt', 'time'],
    ],
  },
  {
    name: 'integrityAlerts',
    id: 'alertId',
    fields: [
      ['kind', 'text'],
      ['severity', 'enum'],
      ['pValue', 'p'],
      ['tableCode', 'text'],
      ['shoeNumber', 'int'],
      ['gamingDay', 'day'],
      ['patronId', 'text'],
      ['dealerId', 'text'],
      ['status', 'enum'],
      ['raisedAt', 'time'],
      ['closingNote', 'text'],
    ],
  },
  {
    name: 'coupsRecordedOffline',
    id: 'coupId',
    fields: [
      ['tableCode', 'text'],
      ['shoeNumber', 'int'],
      ['coupNumber', 'int'],
      ['gamingDay', 'day'],
      ['recordedAt', 'time'],
      ['arrivedAt', 'time'],
      ['delaySeconds', 'int'],
      ['voided', 'enum'],
    ],
  },
];

/**
 * The quarter's exceptions (QuarterlyDto.exceptions), a table a list, every field of each record (data-field, with data-value or data-minor as the API gave it);
 * moments in the property's time zone.
 */
function ExceptionReport({ exceptions, currencyOf, timeZone }: { exceptions: Exceptions; currencyOf: Map<string, string>; timeZone: string | undefined }) {
  const t = useT(FINANCE).exceptions;
  const f = useFormat();
  const none = LISTS.every((l) => exceptions[l.name].length === 0);
  const cell = (rec: Record<string, unknown>, field: string, kind: Kind) => {
    const raw = rec[field] as string | number | boolean | null;
    const v = typeof raw === 'boolean' ? String(raw) : raw;
    if (kind === 'money')
      return <Money key={field} field={field} v={v as number} currency={(rec.currency as string) ?? currencyOf.get(rec.tableCode as string) ?? 'USD'} />;
    const shown =
      v === null || v === undefined || v === ''
        ? '—'
        : kind === 'int'
          ? f.integer(v as number)
          : kind === 'day'
            ? f.day(v as string)
            : kind === 'time'
              ? f.dateTime(v as string, timeZone)
              : kind === 'enum'
                ? (t.kinds[v as string] ?? String(v))
                : kind === 'p'
                  ? new Intl.NumberFormat(f.locale, { maximumSignificantDigits: 3, notation: 'scientific' }).format(v as number)
                  : String(v);
    return (
      <td
        key={field}
        class={kind === 'int' || kind === 'p' ? 'num' : kind === 'key' ? 'key' : undefined}
        data-field={field}
        data-value={v === null ? '' : String(v)}
      >
        {shown}
      </td>
    );
  };
  return (
    <section aria-labelledby="exceptions" data-testid="exceptions" class="exceptions">
      <h3 id="exceptions">{t.title}</h3>
      <p class="hint">{t.intro}</p>
      {none && <p data-testid="no-exceptions">{t.none}</p>}
      {!none &&
        LISTS.map((l) => {
          const records = exceptions[l.name] as unknown as Record<string, unknown>[];
          return (
            <div key={l.name} data-list={l.name}>
              <h4 id={`exceptions-${l.name}`}>
                {t.lists[l.name]} ({f.integer(records.length)})
              </h4>
              {records.length === 0 ? (
                <p>{t.noneOf}</p>
              ) : (
                <Scroll label={t.lists[l.name]}>
                  <table class="figures">
                    <caption class="sr-only">{t.lists[l.name]}</caption>
                    <thead>
                      <tr>
                        {l.fields.map(([field]) => (
                          <th key={field} scope="col">
                            {t.fields[field]}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {records.map((rec) => (
                        <tr key={rec[l.id] as string} data-id={rec[l.id] as string}>
                          {l.fields.map(([field, kind]) => cell(rec, field, kind))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </Scroll>
              )}
            </div>
          );
        })}
    </section>
  );
}

import { ErrorNote } from './error-note';
import { Range, RangeForm } from './range-form';
import { useEffect, useState } from 'preact/hooks';
import { get, Schemas } from './api';
import { useLoad } from './hooks';
import { Format, useFormat } from './format';
import { gamingDayNow, shiftDay } from './gaming-day';
import { rememberProperty, startProperty } from './start-property';
import { Scroll } from './scroll';
import { Head, Money } from './cells';
import { useT, Words } from './i18n';
import { WORDS } from './words';

type Advice = Schemas['YieldAdviceDto'];
type Hour = Schemas['YieldHourDto'];
type Estimate = Schemas['YieldEstimateDto'];
type Evaluation = Schemas['YieldEvaluationDto'];
type Property = Schemas['PropertyDto'];

const en = {
  title: 'Yield advisor',
  hint: "From this property's own history: players seated per open table by hour of the week, and what a higher minimum kept of them. Theoretical win per hour; bands are ±2 standard errors over the weeks.",
  history: 'History',
  week: 'The week: advice against what was done',
  loadingAdvice: 'Loading the advice…',
  empty: 'No table played in this range: there is nothing to advise from.',
  adviceWeek: 'Advice, a week',
  doneWeek: 'Done, a week',
  gainWeek: 'Gain, a week',
  gridLabel: 'Advice by hour of the week',
  gridCaption: (weeks: string, tables: string, seats: string) =>
    `Each hour of the week (${weeks}, ${tables} of ${seats} seats): tables advised at each minimum, expected theoretical win per hour against what was done, and the gain`,
  weeks: (n: number, s: string) => `${s} ${n === 1 ? 'week' : 'weeks'}`,
  tables: (n: number, s: string) => `${s} ${n === 1 ? 'table' : 'tables'}`,
  hour: 'Hour',
  closed: 'closed',
  closeAll: 'close all',
  advice: 'advice',
  done: 'done',
  gain: 'gain',
  band: (m: string, low: string, high: string) => `${m} (${low} to ${high})`,
  range: (low: string, high: string) => `(${low} to ${high})`,
  levelsCaption: 'What the data says of each minimum',
  levelColumns: ['Minimum', 'Table-hours', 'Players per table', 'Average bet', 'Theo per seat-hour', 'Players kept'],
  notSeen: 'not seen beside the lowest',
  held: 'Would the advice have won more? The last weeks held back',
  heldWeeks: 'Weeks held back',
  loadingTest: 'Loading the test…',
  tested: (trainFrom: string, trainTo: string, heldFrom: string, heldTo: string) =>
    `Advice made from ${trainFrom} to ${trainTo}, tested on ${heldFrom} to ${heldTo}.`,
  advised: 'Advice, expected',
  actual: 'Done (theoretical win)',
  gainHeld: 'Gain',
};

const YIELD: Words<typeof en> = {
  en,
  'zh-Hant': {
    title: '收益建議',
    hint: '根據本娛樂場自身的歷史：每週各時段每張開放賭枱的入座人數，以及提高最低投注後留下的客人。以每小時理論贏額計；範圍為各週的 ±2 個標準誤差。',
    history: '歷史數據',
    week: '一週：建議與實際安排對比',
    loadingAdvice: '正在載入建議…',
    empty: '此期間沒有賭枱開局：沒有可供建議的數據。',
    adviceWeek: '建議（每週）',
    doneWeek: '實際（每週）',
    gainWeek: '增益（每週）',
    gridLabel: '按每週時段的建議',
    gridCaption: (weeks, tables, seats) =>
      `每週各時段（${weeks}，${tables}，每枱 ${seats} 個座位）：各最低投注額建議開放的賭枱數、預計每小時理論贏額與實際對比，以及增益`,
    weeks: (_n, s) => `${s} 週`,
    tables: (_n, s) => `${s} 張賭枱`,
    hour: '時段',
    closed: '休桌',
    closeAll: '全部休桌',
    advice: '建議',
    done: '實際',
    gain: '增益',
    band: (m, low, high) => `${m}（${low} 至 ${high}）`,
    range: (low, high) => `（${low} 至 ${high}）`,
    levelsCaption: '各最低投注額的數據表現',
    levelColumns: ['最低投注', '賭枱時數', '每枱人數', '平均投注', '每座位每小時理論贏額', '留客比率'],
    notSeen: '未見與最低一級同時開放',
    held: '建議能否贏得更多？保留最近數週作驗證',
    heldWeeks: '保留週數',
    loadingTest: '正在載入驗證…',
    tested: (trainFrom, trainTo, heldFrom, heldTo) => `建議根據 ${trainFrom} 至 ${trainTo} 的數據作出，並以 ${heldFrom} 至 ${heldTo} 驗證。`,
    advised: '建議（預計）',
    actual: '實際（理論贏額）',
    gainHeld: '增益',
  },
  'zh-Hans': {
    title: '收益建议',
    hint: '根据本娱乐场自身的历史：每周各时段每张开放赌台的入座人数，以及提高最低投注后留下的客人。以每小时理论赢额计；范围为各周的 ±2 个标准误差。',
    history: '历史数据',
    week: '一周：建议与实际安排对比',
    loadingAdvice: '正在加载建议…',
    empty: '此期间没有赌台开局：没有可供建议的数据。',
    adviceWeek: '建议（每周）',
    doneWeek: '实际（每周）',
    gainWeek: '增益（每周）',
    gridLabel: '按每周时段的建议',
    gridCaption: (weeks, tables, seats) =>
      `每周各时段（${weeks}，${tables}，每台 ${seats} 个座位）：各最低投注额建议开放的赌台数、预计每小时理论赢额与实际对比，以及增益`,
    weeks: (_n, s) => `${s} 周`,
    tables: (_n, s) => `${s} 张赌台`,
    hour: '时段',
    closed: '休桌',
    closeAll: '全部休桌',
    advice: '建议',
    done: '实际',
    gain: '增益',
    band: (m, low, high) => `${m}（${low} 至 ${high}）`,
    range: (low, high) => `（${low} 至 ${high}）`,
    levelsCaption: '各最低投注额的数据表现',
    levelColumns: ['最低投注', '赌台时数', '每台人数', '平均投注', '每座位每小时理论赢额', '留客比率'],
    notSeen: '未见与最低一级同时开放',
    held: '建议能否赢得更多？保留最近数周作验证',
    heldWeeks: '保留周数',
    loadingTest: '正在加载验证…',
    tested: (trainFrom, trainTo, heldFrom, heldTo) => `建议根据 ${trainFrom} 至 ${trainTo} 的数据作出，并以 ${heldFrom} 至 ${heldTo} 验证。`,
    advised: '建议（预计）',
    actual: '实际（理论赢额）',
    gainHeld: '增益',
  },
};

/** Monday to Sunday (hour of the week 0 is Monday 00:00), in the screen's language: 2024-01-01 was a Monday. */
const weekdays = (locale: string) =>
  Array.from({ length: 7 }, (_, d) => new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' }).format(Date.UTC(2024, 0, 1 + d)));
const hourOfDay = (locale: string, hour: number) =>
  new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }).format(Date.UTC(2024, 0, 1, hour));

/** An estimate with its band: "600.00 (80.00 to 560.00)", or without a band when there is none. */
function band(e: Estimate, currency: string, f: Format, t: typeof en): string {
  const m = f.money(e.theo, currency);
  return e.low === null || e.high === null ? m : t.band(m, f.money(e.low, currency), f.money(e.high, currency));
}
/** A gain with its sign ("+12.50", "-3.00"), through Intl. */
const signed = (v: number | bigint, currency: string, f: Format) => (BigInt(v) > 0n ? '+' : '') + f.money(v, currency);

/**
 * The pit revenue analyst's screen (/app/#/yield; docs/domain.md §15): for each hour of the week, the
 * advised tables at each minimum, the theoretical win per hour expected of the advice against what was
 * done, and the gain with its band; and the held-back test of the advice.
 */
export function Yield() {
  const t = useT(YIELD);
  const w = useT(WORDS);
  // The properties, and the one the screen opens on: as finance chooses it (start-property.ts).
  const props = useLoad(async () => {
    const [properties, tables] = await Promise.all([get<Property[]>('/v1/properties'), get<Schemas['TableDto'][]>('/v1/tables')]);
    return { properties, start: await startProperty('yield', properties, tables) };
  }, []);
  const [range, setRangeState] = useState<Range | null>(null);
  const setRange = (r: Range) => {
    if (r.propertyId !== range?.propertyId) rememberProperty('yield', r.propertyId);
    setRangeState(r);
  };
  useEffect(() => {
    const p = props.data?.start;
    if (p && !range) {
      const today = gamingDayNow(p.timeZone, p.gamingDayStartHour);
      setRangeState({ from: shiftDay(today, -7 * 12 + 1), to: today, propertyId: p.id });
    }
  }, [props.data]);
  return (
    <main class="yield">
      <h1>{t.title}</h1>
      <p class="hint">{t.hint}</p>
      <ErrorNote problem={props.error} />
      {!props.data && !props.error && <p role="status">{w.loading}</p>}
      {range && props.data && (
        <>
          <RangeForm label={t.history} range={range} properties={props.data.properties} onChange={setRange} />
          <WeekGrid key={JSON.stringify(range)} range={range} />
          <HeldBack key={'held' + JSON.stringify(range)} range={range} />
        </>
      )}
    </main>
  );
}

function WeekGrid({ range }: { range: Range }) {
  const t = useT(YIELD);
  const f = useFormat();
  const days = weekdays(f.locale);
  const { data, error } = useLoad(() => get<Advice>('/v1/reports/yield-advice', { ...range }), []);
  const currency = data?.currency ?? 'EUR';
  return (
    <section aria-labelledby="yield-week" data-testid="yield-week">
      <h2 id="yield-week">{t.week}</h2>
      <ErrorNote problem={error} />
      {!data && !error && <p role="status">{t.loadingAdvice}</p>}
      {data && data.levels.length === 0 && <p data-testid="yield-empty">{t.empty}</p>}
      {data && data.levels.length > 0 && (
        <>
          <dl class="facts" data-testid="yield-totals">
            <div>
              <dt>{t.adviceWeek}</dt>
              <dd data-field="expected" data-minor={String(data.totals.expected.theo)}>
                {band(data.totals.expected, currency, f, t)}
              </dd>
            </div>
            <div>
              <dt>{t.doneWeek}</dt>
              <dd data-field="actual" data-minor={String(data.totals.actual.theo)}>
                {band(data.totals.actual, currency, f, t)}
              </dd>
            </div>
            <div>
              <dt>{t.gainWeek}</dt>
              <dd data-field="gain" data-minor={String(data.totals.gain.theo)}>
                {band(data.totals.gain, currency, f, t)}
              </dd>
            </div>
          </dl>
          <Levels data={data} currency={currency} />
          <Scroll label={t.gridLabel}>
            <table class="figures yield-grid">
              <caption>
                {t.gridCaption(t.weeks(data.weeks, f.integer(data.weeks)), t.tables(data.tables, f.integer(data.tables)), f.integer(data.seatsPerTable))}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t.hour}</th>
                  {days.map((d) => (
                    <th scope="col" key={d}>
                      {d}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {Array.from({ length: 24 }, (_, hour) => (
                  <tr key={hour}>
                    <th scope="row">{hourOfDay(f.locale, hour)}</th>
                    {days.map((_d, day) => (
                      <Cell key={day} h={data.hours.find((x) => x.hourOfWeek === day * 24 + hour)} currency={currency} />
                    ))}
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

function Cell({ h, currency }: { h: Hour | undefined; currency: string }) {
  const t = useT(YIELD);
  const f = useFormat();
  if (!h) return <td>—</td>;
  if (h.advice.length === 0 && h.done.length === 0) return <td data-hour={h.hourOfWeek}>{t.closed}</td>;
  const list = new Intl.ListFormat(f.locale, { style: 'narrow', type: 'unit' });
  const tables = list.format(h.advice.map((a) => `${f.integer(a.tables)} × ${f.money(a.minBet, currency)}`)) || t.closeAll;
  const gain = BigInt(h.gain.theo);
  return (
    <td data-hour={h.hourOfWeek} class="yield-cell">
      <span data-field="advice">{tables}</span>
      <span data-field="expected" data-minor={String(h.expected.theo)}>
        {t.advice} {f.money(h.expected.theo, currency)}
      </span>
      <span data-field="actual" data-minor={String(h.actual.theo)}>
        {t.done} {f.money(h.actual.theo, currency)}
      </span>
      <span data-field="gain" data-minor={String(h.gain.theo)} class={gain < 0n ? 'negative' : undefined}>
        {t.gain} {signed(h.gain.theo, currency, f)}
        {h.gain.low !== null && h.gain.high !== null ? ` ${t.range(f.money(h.gain.low, currency), f.money(h.gain.high, currency))}` : ''}
      </span>
    </td>
  );
}

function Levels({ data, currency }: { data: Advice; currency: string }) {
  const t = useT(YIELD);
  const f = useFormat();
  const decimal = (v: string | null) =>
    v === null ? '—' : new Intl.NumberFormat(f.locale, { minimumFractionDigits: v.split('.')[1]?.length ?? 0 }).format(v as `${number}`);
  const kept = new Intl.NumberFormat(f.locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return (
    <Scroll label={t.levelsCaption}>
      <table class="figures" data-testid="yield-levels">
        <caption>{t.levelsCaption}</caption>
        <Head columns={t.levelColumns} />
        <tbody>
          {data.levels.map((l) => (
            <tr key={String(l.minBet)} data-row={String(l.minBet)}>
              <th scope="row" data-field="minBet" data-minor={String(l.minBet)}>
                {f.money(l.minBet, currency)}
              </th>
              <td class="num" data-field="tableHours" data-value={l.tableHours}>
                {decimal(l.tableHours)}
              </td>
              <td class="num" data-field="occupancy" data-value={l.occupancy ?? undefined}>
                {decimal(l.occupancy)}
              </td>
              <Money field="averageBet" v={l.averageBet} currency={currency} />
              <Money field="theoPerSeatHour" v={l.theoPerSeatHour} currency={currency} />
              <td class="num" data-field="retention" data-value={l.retention ?? undefined}>
                {l.retention === null ? t.notSeen : kept.format(l.retention as `${number}`)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}

function HeldBack({ range }: { range: Range }) {
  const t = useT(YIELD);
  const f = useFormat();
  const [weeks, setWeeks] = useState(4);
  const { data, error } = useLoad(() => get<Evaluation>('/v1/reports/yield-evaluation', { ...range, holdBackWeeks: weeks }), [weeks]);
  const currency = data?.advice.currency ?? 'EUR';
  return (
    <section aria-labelledby="yield-held" data-testid="yield-held">
      <h2 id="yield-held">{t.held}</h2>
      <label>
        {t.heldWeeks}
        <select value={weeks} onChange={(e) => setWeeks(Number(e.currentTarget.value))}>
          {[1, 2, 4, 8].map((n) => (
            <option key={n} value={n}>
              {f.integer(n)}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote problem={error} />
      {!data && !error && <p role="status">{t.loadingTest}</p>}
      {data && (
        <>
          <p>{t.tested(f.day(data.trainFrom), f.day(data.trainTo), f.day(data.heldFrom), f.day(data.heldTo))}</p>
          <dl class="facts">
            <div>
              <dt>{t.advised}</dt>
              <dd data-field="advised" data-minor={String(data.advised.theo)}>
                {band(data.advised, currency, f, t)}
              </dd>
            </div>
            <div>
              <dt>{t.actual}</dt>
              <dd data-field="actual" data-minor={String(data.actual)}>
                {f.money(data.actual, currency)}
              </dd>
            </div>
            <div>
              <dt>{t.gainHeld}</dt>
              <dd data-field="gain" data-minor={String(data.gain.theo)}>
                {band(data.gain, currency, f, t)}
              </dd>
            </div>
          </dl>
        </>
      )}
    </section>
  );
}

import { useEffect, useState } from 'preact/hooks';
import type { ScreenProps } from './screen';
import { ErrorNote, Problem } from './error-note';
import { get, Schemas } from './api';
import { mayCall, useCaller } from './caller';
import { Money } from './cells';
import { useFormat } from './format';
import { gamingDayNow, shiftDay } from './gaming-day';
import { problemOf, useLoad } from './hooks';
import { useT, Words } from './i18n';
import { Scroll } from './scroll';
import { WORDS } from './words';
import { Range, RangeForm } from './range-form';

/**
 * The host's view of patrons (docs/domain.md §10): the patrons of the most theoretical win over a
 * range of gaming days, and one patron's record, rating, visits and rolling-chip account. Every
 * read of a patron is an audit entry (`patron.read`), so the screen reads once per view: when a card
 * is looked up (on submit, never as it is typed) or the range changes, and again only when asked.
 * For the same reason it does not follow the tables live.
 */
type Patron = Schemas['PatronDto'];
type Rating = Schemas['RatingDto'];
type Figures = Schemas['RatingFiguresDto'];
type VisitsPage = Schemas['VisitsPageDto'];
type Visit = Schemas['VisitDto'];
type Top = Schemas['TopPatronDto'];
type Rolling = Schemas['RollingDto'];
type Table = Schemas['TableDto'];
type Property = Schemas['PropertyDto'];

const CARD = /^[A-Za-z0-9._-]{1,64}$/;

const en = {
  title: 'Patrons',
  range: 'Gaming days',
  property: 'Property',
  everyProperty: 'Every property',
  from: 'From',
  to: 'To',
  lookUp: 'Find a patron',
  card: 'Player card',
  cardHint: 'Letters, digits, . - and _',
  find: 'Look up',
  readAgain: 'Read again',
  audited: 'Every read of a patron is recorded in the audit log, with your key.',
  top: 'Top patrons by theoretical win',
  topCaption: (from: string, to: string) => `Patrons of the most theoretical win, ${from} to ${to}`,
  noPlay: 'No rated play in these gaming days.',
  rank: 'Rank',
  name: 'Name',
  tier: 'Tier',
  columns: [
    'Coups',
    'Handle',
    'Average bet',
    'Actual win',
    'Theoretical win',
    'Standard deviation (σ)',
    'Luck or a problem?',
    'Time played',
    'Decisions an hour',
    'Comps',
  ],
  within: 'within ±2σ: luck',
  outside: 'outside ±2σ: look for a reason',
  hours: (h: string, m: string) => `${h} h ${m} min`,
  amountsIn: (c: string) => `Amounts in ${c}.`,
  mixed: (cs: string) => `These tables play in ${cs}: the API sums the figures as minor units across them.`,
  noPatron: (card: string) => `No patron has the card ${card}.`,
  noPatronHint: 'Check the number on the card, or look it up again. Cards are registered at the player’s club.',
  badCard: 'A player card holds only letters, digits, . - and _ (up to 64).',
  record: 'Record',
  registeredAt: 'Registered',
  seatedNow: 'Card in now',
  notSeated: 'Not seated at any table.',
  seatAt: (table: string, seat: string, since: string) => `${table}, seat ${seat}, since ${since}`,
  rating: 'Rating',
  asOf: (t: string) => `Open visits counted up to ${t}.`,
  total: 'The whole range',
  visitCount: (n: string) => `${n} visits begun in the range`,
  byDay: 'By gaming day',
  day: 'Gaming day',
  byBet: 'By bet',
  bet: 'Bet',
  betColumns: ['Wagers', 'Handle', 'Actual win', 'Theoretical win'],
  visits: 'Visits',
  visitColumns: ['Card in', 'Card out', 'Table', 'Seat'],
  stillIn: 'still in',
  noVisits: 'No visit begun in the range.',
  more: 'More visits',
  rolling: 'Rolling-chip account',
  rollingColumns: [
    'Currency',
    'Purchased',
    'Returned',
    'Net purchased',
    'Rolled',
    'In hand',
    'Counts agree',
    'Wagers',
    'Handle',
    'Win',
    'Rolling win %',
    'Theoretical win',
    'Theoretical rolling win %',
  ],
  agrees: 'yes',
  differs: 'no: chips still in hand',
  noRolling: 'No dead chips bought or played in the range.',
  visitsTable: (card: string) => `Visits of ${card}, oldest first, with the play of each`,
  rollingTable: (card: string) => `Rolling-chip account of ${card}, by currency`,
  byBetTable: (card: string) => `Rated play of ${card} by bet`,
  byDayTable: (card: string) => `Rated play of ${card} by gaming day, and the whole range`,
  backwards: 'The range ends before it starts: choose a “To” day on or after the “From” day.',
};

const PATRONS: Words<typeof en> = {
  en,
  'zh-Hant': {
    title: '客戶',
    range: '博彩日',
    property: '娛樂場',
    everyProperty: '所有娛樂場',
    from: '由',
    to: '至',
    lookUp: '查找客人',
    card: '會員卡號',
    cardHint: '英文字母、數字、. - 及 _',
    find: '查找',
    readAgain: '重新讀取',
    audited: '每次讀取客人資料均會連同您的金鑰記錄在審計日誌中。',
    top: '理論贏額最高的客人',
    topCaption: (from, to) => `${from} 至 ${to} 理論贏額最高的客人`,
    noPlay: '此期間沒有評級記錄。',
    rank: '排名',
    name: '姓名',
    tier: '級別',
    columns: ['局數', '投注額', '平均注碼', '實際贏額', '理論贏額', '標準差 (σ)', '運氣還是問題？', '遊戲時間', '每小時局數', '回饋'],
    within: '在 ±2σ 之內：運氣',
    outside: '超出 ±2σ：須查明原因',
    hours: (h, m) => `${h} 小時 ${m} 分鐘`,
    amountsIn: (c) => `金額以 ${c} 計。`,
    mixed: (cs) => `這些賭枱以 ${cs} 計：API 把各貨幣的最小單位直接相加。`,
    noPatron: (card) => `沒有會員卡號為 ${card} 的客人。`,
    noPatronHint: '請核對卡上號碼，或重新查找。會員卡在會員中心登記。',
    badCard: '會員卡號只可包含英文字母、數字、. - 及 _（最多 64 個）。',
    record: '資料',
    registeredAt: '登記時間',
    seatedNow: '現時入座',
    notSeated: '現時沒有在任何賭枱入座。',
    seatAt: (table, seat, since) => `${table}，${seat} 號位，自 ${since}`,
    rating: '評級',
    asOf: (t) => `未完結的到訪計至 ${t}。`,
    total: '整個期間',
    visitCount: (n) => `期間內開始的到訪 ${n} 次`,
    byDay: '按博彩日',
    day: '博彩日',
    byBet: '按注項',
    bet: '注項',
    betColumns: ['注數', '投注額', '實際贏額', '理論贏額'],
    visits: '到訪',
    visitColumns: ['入座', '離座', '賭枱', '座位'],
    stillIn: '仍在座',
    noVisits: '期間內沒有到訪。',
    more: '更多到訪',
    rolling: '泥碼戶口',
    rollingColumns: [
      '貨幣',
      '購入',
      '退回',
      '淨購入',
      '轉碼',
      '手上泥碼',
      '兩種計法相符',
      '注數',
      '投注額',
      '贏額',
      '轉碼贏率 %',
      '理論贏額',
      '理論轉碼贏率 %',
    ],
    agrees: '相符',
    differs: '不符：手上仍有泥碼',
    noRolling: '期間內沒有購入或使用泥碼。',
    visitsTable: (card) => `${card} 的到訪，最早在前，附每次到訪的遊戲數字`,
    rollingTable: (card) => `${card} 的泥碼戶口，按貨幣`,
    byBetTable: (card) => `${card} 按注項的評級`,
    byDayTable: (card) => `${card} 按博彩日及整個期間的評級`,
    backwards: '結束日期早於開始日期：請選擇不早於「由」的「至」日期。',
  },
  'zh-Hans': {
    title: '客户',
    range: '博彩日',
    property: '娱乐场',
    everyProperty: '所有娱乐场',
    from: '从',
    to: '至',
    lookUp: '查找客人',
    card: '会员卡号',
    cardHint: '英文字母、数字、. - 及 _',
    find: '查找',
    readAgain: '重新读取',
    audited: '每次读取客人资料都会连同您的密钥记录在审计日志中。',
    top: '理论赢额最高的客人',
    topCaption: (from, to) => `${from} 至 ${to} 理论赢额最高的客人`,
    noPlay: '此期间没有评级记录。',
    rank: '排名',
    name: '姓名',
    tier: '级别',
    columns: ['局数', '投注额', '平均注码', '实际赢额', '理论赢额', '标准差 (σ)', '运气还是问题？', '游戏时间', '每小时局数', '回馈'],
    within: '在 ±2σ 之内：运气',
    outside: '超出 ±2σ：须查明原因',
    hours: (h, m) => `${h} 小时 ${m} 分钟`,
    amountsIn: (c) => `金额以 ${c} 计。`,
    mixed: (cs) => `这些赌台以 ${cs} 计：API 把各货币的最小单位直接相加。`,
    noPatron: (card) => `没有会员卡号为 ${card} 的客人。`,
    noPatronHint: '请核对卡上号码，或重新查找。会员卡在会员中心登记。',
    badCard: '会员卡号只可包含英文字母、数字、. - 及 _（最多 64 个）。',
    record: '资料',
    registeredAt: '登记时间',
    seatedNow: '当前入座',
    notSeated: '当前没有在任何赌台入座。',
    seatAt: (table, seat, since) => `${table}，${seat} 号位，自 ${since}`,
    rating: '评级',
    asOf: (t) => `未结束的到访计至 ${t}。`,
    total: '整个期间',
    visitCount: (n) => `期间内开始的到访 ${n} 次`,
    byDay: '按博彩日',
    day: '博彩日',
    byBet: '按注项',
    bet: '注项',
    betColumns: ['注数', '投注额', '实际赢额', '理论赢额'],
    visits: '到访',
    visitColumns: ['入座', '离座', '赌台', '座位'],
    stillIn: '仍在座',
    noVisits: '期间内没有到访。',
    more: '更多到访',
    rolling: '泥码账户',
    rollingColumns: [
      '货币',
      '购入',
      '退回',
      '净购入',
      '转码',
      '手上泥码',
      '两种计法相符',
      '注数',
      '投注额',
      '赢额',
      '转码赢率 %',
      '理论赢额',
      '理论转码赢率 %',
    ],
    agrees: '相符',
    differs: '不符：手上仍有泥码',
    noRolling: '期间内没有购入或使用泥码。',
    visitsTable: (card) => `${card} 的到访，最早在前，附每次到访的游戏数字`,
    rollingTable: (card) => `${card} 的泥码账户，按货币`,
    byBetTable: (card) => `${card} 按注项的评级`,
    byDayTable: (card) => `${card} 按博彩日及整个期间的评级`,
    backwards: '结束日期早于开始日期：请选择不早于“从”的“至”日期。',
  },
};

/** The currency the API's patron figures are in: the one the tables in question play in (the figures carry none). */
function currencyOf(tables: Table[]): { currency: string; mixed: string[] | null } {
  const cs = [...new Set(tables.map((t) => t.currency))].sort();
  return { currency: cs[0] ?? 'USD', mixed: cs.length > 1 ? cs : null };
}

/**
 * The time zone a moment is shown in (docs/glossary.md, Dates and times): at a table, its property's;
 * a moment of no table (a registration, a rating's as-of) in the property chosen, else the one zone
 * every property shares; only where properties differ and none is chosen, the browser's.
 */
interface Zones {
  ofTable: (tableId: string) => string | undefined;
  here: string | undefined;
}
function zonesOf(properties: Property[], tables: Table[], range: Range): Zones {
  const zone = new Map(properties.map((p) => [p.id, p.timeZone]));
  const all = [...new Set(properties.map((p) => p.timeZone))];
  const here = (range.propertyId ? zone.get(range.propertyId) : undefined) ?? (all.length === 1 ? all[0] : undefined);
  const ofTable = (tableId: string) => {
    const table = tables.find((x) => x.id === tableId);
    return (table && zone.get(table.propertyId)) ?? here;
  };
  return { ofTable, here };
}

export function Patrons({ args }: ScreenProps) {
  const t = useT(PATRONS);
  const w = useT(WORDS);
  const card = args[0] ? decodeURIComponent(args[0]) : null;
  const props = useLoad(() => get<Property[]>('/v1/properties'), []);
  const tables = useLoad(() => get<Table[]>('/v1/tables'), []);
  const [range, setRange] = useState<Range | null>(null);
  useEffect(() => {
    if (props.data && !range) {
      const p = props.data[0];
      const today = p ? gamingDayNow(p.timeZone, p.gamingDayStartHour) : new Date().toISOString().slice(0, 10);
      setRange({ from: shiftDay(today, -29), to: today, propertyId: '' });
    }
  }, [props.data]);
  return (
    <main class="patrons">
      <h1>{t.title}</h1>
      <CardSearch card={card} />
      <ErrorNote problem={props.error ?? tables.error} />
      {(!range || !tables.data) && !props.error && !tables.error && <p role="status">{w.loading}</p>}
      {range && props.data && tables.data && (
        <>
          <RangeForm label={t.range} range={range} properties={props.data} onChange={setRange} anyProperty={t.everyProperty} />
          <p class="hint">{t.audited}</p>
          {range.from > range.to ? (
            // Nothing is asked for a range that ends before it starts (a read of patrons is audited even when refused).
            <p role="status" data-testid="backwards">
              {t.backwards}
            </p>
          ) : card ? (
            <PatronView key={card} card={card} range={range} tables={tables.data} zones={zonesOf(props.data, tables.data, range)} />
          ) : (
            <TopPatrons range={range} tables={tables.data.filter((x) => !range.propertyId || x.propertyId === range.propertyId)} />
          )}
        </>
      )}
    </main>
  );
}

/** The card to look up: read when submitted (each read of a patron is audited), never as it is typed. */
function CardSearch({ card }: { card: string | null }) {
  const t = useT(PATRONS);
  const [value, setValue] = useState(card ?? '');
  useEffect(() => setValue(card ?? ''), [card]);
  return (
    <form
      class="range"
      role="search"
      aria-label={t.lookUp}
      onSubmit={(e) => {
        e.preventDefault();
        const v = value.trim();
        if (CARD.test(v)) location.hash = `#/patrons/${encodeURIComponent(v)}`;
      }}
    >
      <label for="patron-card">
        {t.card} <span class="hint">({t.cardHint})</span>
      </label>
      <input
        id="patron-card"
        type="search"
        autoComplete="off"
        spellcheck={false}
        required
        maxLength={64}
        pattern="[A-Za-z0-9._\-]{1,64}"
        title={t.badCard}
        value={value}
        onInput={(e) => setValue(e.currentTarget.value)}
      />
      <button type="submit">{t.find}</button>
    </form>
  );
}

const query = (r: Range) => ({ from: r.from, to: r.to, propertyId: r.propertyId || undefined });

function CurrencyNote({ c }: { c: { currency: string; mixed: string[] | null } }) {
  const t = useT(PATRONS);
  return (
    <p class="hint" data-testid="currency" data-value={c.currency}>
      {c.mixed ? t.mixed(c.mixed.join(', ')) : t.amountsIn(c.currency)}
    </p>
  );
}

function FigureHeads() {
  const t = useT(PATRONS);
  return (
    <>
      {t.columns.map((c) => (
        <th key={c} scope="col">
          {c}
        </th>
      ))}
    </>
  );
}

/** A rating's figures as cells: money with its exact minor units (data-minor), the rest with the API's value (data-value). */
function FigureCells({ r, currency }: { r: Figures; currency: string }) {
  const t = useT(PATRONS);
  const f = useFormat();
  const h = Math.floor(r.secondsPlayed / 3600);
  const m = Math.floor((r.secondsPlayed % 3600) / 60);
  return (
    <>
      <td class="num" data-field="coups" data-value={r.coups}>
        {f.integer(r.coups)}
      </td>
      <Money field="handle" v={r.handle} currency={currency} />
      <Money field="averageBet" v={r.averageBet} currency={currency} />
      <Money field="actualWin" v={r.actualWin} currency={currency} />
      <Money field="theoreticalWin" v={r.theoreticalWin} currency={currency} />
      <Money field="theoStdDev" v={r.theoStdDev} currency={currency} />
      <td class={r.withinTwoSigma ? '' : 'outside'} data-field="withinTwoSigma" data-value={String(r.withinTwoSigma)}>
        {r.withinTwoSigma ? t.within : t.outside}
      </td>
      <td class="num" data-field="secondsPlayed" data-value={r.secondsPlayed}>
        {t.hours(f.integer(h), f.integer(m))}
      </td>
      <td class="num" data-field="decisionsPerHour" data-value={r.decisionsPerHour ?? undefined}>
        {r.decisionsPerHour === null
          ? '—'
          : new Intl.NumberFormat(f.locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(r.decisionsPerHour as `${number}`)}
      </td>
      <Money field="comps" v={r.comps} currency={currency} />
    </>
  );
}

function TopPatrons({ range, tables }: { range: Range; tables: Table[] }) {
  const t = useT(PATRONS);
  const w = useT(WORDS);
  const f = useFormat();
  const { data, error } = useLoad(() => get<Top[]>('/v1/reports/top-patrons', { ...query(range), limit: 50 }), [range.from, range.to, range.propertyId]);
  const c = currencyOf(tables);
  const caption = t.topCaption(f.day(range.from), f.day(range.to));
  return (
    <section aria-labelledby="top" data-testid="top-patrons">
      <h2 id="top">{t.top}</h2>
      <ErrorNote problem={error} />
      {!data && !error && <p role="status">{w.loading}</p>}
      {data && data.length === 0 && <p data-testid="top-empty">{t.noPlay}</p>}
      {data && data.length > 0 && (
        <>
          <CurrencyNote c={c} />
          <Scroll label={caption}>
            <table class="figures">
              <caption class="sr-only">{caption}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.rank}</th>
                  <th scope="col">{t.card}</th>
                  <th scope="col">{t.name}</th>
                  <th scope="col">{t.tier}</th>
                  <FigureHeads />
                </tr>
              </thead>
              <tbody>
                {data.map((p) => (
                  <tr key={p.card} data-card={p.card}>
                    <td class="num" data-field="rank" data-value={p.rank}>
                      {f.integer(p.rank)}
                    </td>
                    <th scope="row">
                      <a href={`#/patrons/${encodeURIComponent(p.card)}`}>{p.card}</a>
                    </th>
                    <td data-field="name">{p.name ?? '—'}</td>
                    <td data-field="tier">{p.tier ?? '—'}</td>
                    <FigureCells r={p} currency={c.currency} />
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

/** One patron: the record first; only a card that exists is rated (an unknown card is said so, once). */
function PatronView({ card, range, tables, zones }: { card: string; range: Range; tables: Table[]; zones: Zones }) {
  const t = useT(PATRONS);
  const w = useT(WORDS);
  const f = useFormat();
  const [reads, setReads] = useState(0);
  // A card no patron could hold is not sent to the service (it would only refuse it).
  // Looked up (GET /v1/patrons?card=): an unknown card is an empty answer, not a refused request.
  const record = useLoad(
    async (): Promise<Patron | 'none' | null> => (CARD.test(card) ? ((await get<Patron[]>('/v1/patrons', { card }))[0] ?? 'none') : null),
    [card, reads],
  );
  if (!CARD.test(card))
    return (
      <section data-testid="no-patron">
        <p role="status">{t.badCard}</p>
      </section>
    );
  if (record.data === 'none')
    return (
      <section data-testid="no-patron" aria-labelledby="no-patron">
        <h2 id="no-patron">{t.noPatron(card)}</h2>
        <p>{t.noPatronHint}</p>
      </section>
    );
  const p = record.data;
  const code = (id: string) => tables.find((x) => x.id === id)?.code ?? id.slice(0, 8);
  return (
    <>
      <section aria-labelledby="record" data-testid="record" data-card={card}>
        <div class="title">
          <h2 id="record">
            {t.record}: {card}
          </h2>
          <button type="button" onClick={() => setReads((n) => n + 1)}>
            {t.readAgain}
          </button>
        </div>
        <ErrorNote problem={record.error} />
        {!p && !record.error && <p role="status">{w.loading}</p>}
        {p && (
          <dl class="facts facts-grid">
            <div data-field="card" data-value={p.card}>
              <dt>{t.card}</dt>
              <dd>{p.card}</dd>
            </div>
            <div data-field="name" data-value={p.name ?? ''}>
              <dt>{t.name}</dt>
              <dd>{p.name ?? '—'}</dd>
            </div>
            <div data-field="tier" data-value={p.tier ?? ''}>
              <dt>{t.tier}</dt>
              <dd>{p.tier ?? '—'}</dd>
            </div>
            <div data-field="registeredAt" data-value={p.registeredAt}>
              <dt>{t.registeredAt}</dt>
              <dd>{f.dateTime(p.registeredAt, zones.here)}</dd>
            </div>
            <div data-field="seated" data-value={p.seated.map((s) => `${s.tableId}:${s.seat}`).join(',')}>
              <dt>{t.seatedNow}</dt>
              <dd>
                {p.seated.length
                  ? p.seated.map((s) => t.seatAt(code(s.tableId), String(s.seat), f.dateTime(s.startedAt, zones.ofTable(s.tableId)))).join('; ')
                  : t.notSeated}
              </dd>
            </div>
          </dl>
        )}
      </section>
      {p && <Play key={reads} card={card} range={range} tables={tables} zones={zones} />}
    </>
  );
}

/** The rating, the visits and (where the role may read it) the rolling account: read once for the view. */
function Play({ card, range, tables, zones }: { card: string; range: Range; tables: Table[]; zones: Zones }) {
  const t = useT(PATRONS);
  const w = useT(WORDS);
  const f = useFormat();
  const caller = useCaller();
  const q = query(range);
  const deps = [card, range.from, range.to, range.propertyId];
  const rating = useLoad(() => get<Rating>(`/v1/patrons/${encodeURIComponent(card)}/rating`, q), deps);
  const [pages, setPages] = useState<VisitsPage[]>([]);
  const first = useLoad(() => get<VisitsPage>(`/v1/patrons/${encodeURIComponent(card)}/visits`, q), deps);
  const [more, setMore] = useState<{ error: Problem | null; busy: boolean }>({ error: null, busy: false });
  useEffect(() => setPages(first.data ? [first.data] : []), [first.data]);
  const visits: Visit[] = pages.flatMap((pg) => pg.visits);
  const next = pages.at(-1)?.next ?? null;
  const readMore = async () => {
    if (!next) return;
    setMore({ error: null, busy: true });
    try {
      const page = await get<VisitsPage>(`/v1/patrons/${encodeURIComponent(card)}/visits`, { ...q, after: next });
      setPages((ps) => [...ps, page]);
      setMore({ error: null, busy: false });
    } catch (e) {
      setMore({ error: problemOf(e), busy: false });
    }
  };
  const played = new Set(visits.map((v) => v.seating.tableId));
  const c = currencyOf(played.size ? tables.filter((x) => played.has(x.id)) : tables.filter((x) => !range.propertyId || x.propertyId === range.propertyId));
  const code = (id: string) => tables.find((x) => x.id === id)?.code ?? id.slice(0, 8);
  const r = rating.data;
  return (
    <>
      <section aria-labelledby="rating" data-testid="rating">
        <h2 id="rating">{t.rating}</h2>
        <ErrorNote problem={rating.error} />
        {!r && !rating.error && <p role="status">{w.loading}</p>}
        {r && (
          <>
            <p class="hint">
              {t.asOf(f.dateTime(r.asOf, zones.here))}{' '}
              <span data-field="visitCount" data-value={r.visitCount}>
                {t.visitCount(f.integer(r.visitCount))}
              </span>
            </p>
            <CurrencyNote c={c} />
            <Scroll label={t.byDayTable(card)}>
              <table class="figures" data-testid="rating-days">
                <caption class="sr-only">{t.byDayTable(card)}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t.day}</th>
                    <FigureHeads />
                  </tr>
                </thead>
                <tbody>
                  {r.days.map((d) => (
                    <tr key={d.gamingDay} data-day={d.gamingDay}>
                      <th scope="row">{f.day(d.gamingDay)}</th>
                      <FigureCells r={d} currency={c.currency} />
                    </tr>
                  ))}
                  {r.days.length === 0 && (
                    <tr>
                      <td colSpan={11}>{t.noPlay}</td>
                    </tr>
                  )}
                </tbody>
                <tfoot>
                  <tr data-day="total">
                    <th scope="row">{t.total}</th>
                    <FigureCells r={r.total} currency={c.currency} />
                  </tr>
                </tfoot>
              </table>
            </Scroll>
            {Object.keys(r.total.byBetType).length > 0 && (
              <>
                <h3>{t.byBet}</h3>
                <Scroll label={t.byBetTable(card)}>
                  <table class="figures" data-testid="rating-bets">
                    <caption class="sr-only">{t.byBetTable(card)}</caption>
                    <thead>
                      <tr>
                        <th scope="col">{t.bet}</th>
                        {t.betColumns.map((col) => (
                          <th key={col} scope="col">
                            {col}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {Object.entries(r.total.byBetType).map(([bet, b]) => (
                        <tr key={bet} data-bet={bet}>
                          <th scope="row">{w.bets[bet] ?? bet}</th>
                          <td class="num" data-field="wagers" data-value={b.wagers}>
                            {f.integer(b.wagers)}
                          </td>
                          <Money field="handle" v={b.handle} currency={c.currency} />
                          <Money field="actualWin" v={b.actualWin} currency={c.currency} />
                          <Money field="theoreticalWin" v={b.theoreticalWin} currency={c.currency} />
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </Scroll>
              </>
            )}
          </>
        )}
      </section>

      <section aria-labelledby="visits" data-testid="visits">
        <h2 id="visits">{t.visits}</h2>
        <ErrorNote problem={first.error} />
        {!first.data && !first.error && <p role="status">{w.loading}</p>}
        {first.data && visits.length === 0 && <p data-testid="visits-empty">{t.noVisits}</p>}
        {visits.length > 0 && (
          <Scroll label={t.visitsTable(card)}>
            <table class="figures">
              <caption class="sr-only">{t.visitsTable(card)}</caption>
              <thead>
                <tr>
                  {t.visitColumns.map((col) => (
                    <th key={col} scope="col">
                      {col}
                    </th>
                  ))}
                  <FigureHeads />
                </tr>
              </thead>
              <tbody>
                {visits.map((v) => (
                  <tr key={v.seating.id} data-visit={v.seating.id}>
                    <th scope="row" data-field="startedAt" data-value={v.seating.startedAt}>
                      {f.dateTime(v.seating.startedAt, zones.ofTable(v.seating.tableId))}
                    </th>
                    <td data-field="endedAt" data-value={v.seating.endedAt ?? ''}>
                      {v.seating.endedAt ? f.dateTime(v.seating.endedAt, zones.ofTable(v.seating.tableId)) : t.stillIn}
                    </td>
                    <td data-field="tableId" data-value={v.seating.tableId}>
                      {code(v.seating.tableId)}
                    </td>
                    <td class="num" data-field="seat" data-value={v.seating.seat}>
                      {v.seating.seat}
                    </td>
                    <FigureCells r={v} currency={c.currency} />
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
        <ErrorNote problem={more.error} />
        {next && (
          <button type="button" disabled={more.busy} onClick={() => void readMore()}>
            {t.more}
          </button>
        )}
      </section>

      {mayCall(caller, 'patronRolling') && <RollingAccount card={card} range={range} />}
    </>
  );
}

function RollingAccount({ card, range }: { card: string; range: Range }) {
  const t = useT(PATRONS);
  const w = useT(WORDS);
  const f = useFormat();
  const { data, error } = useLoad(
    () => get<Rolling>(`/v1/patrons/${encodeURIComponent(card)}/rolling`, query(range)),
    [card, range.from, range.to, range.propertyId],
  );
  return (
    <section aria-labelledby="rolling" data-testid="rolling">
      <h2 id="rolling">{t.rolling}</h2>
      <ErrorNote problem={error} />
      {!data && !error && <p role="status">{w.loading}</p>}
      {data && data.accounts.length === 0 && <p data-testid="rolling-empty">{t.noRolling}</p>}
      {data && data.accounts.length > 0 && (
        <Scroll label={t.rollingTable(card)}>
          <table class="figures">
            <caption class="sr-only">{t.rollingTable(card)}</caption>
            <thead>
              <tr>
                {t.rollingColumns.map((col) => (
                  <th key={col} scope="col">
                    {col}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.accounts.map((a) => (
                <tr key={a.currency} data-currency={a.currency}>
                  <th scope="row">{a.currency}</th>
                  <Money field="purchased" v={a.purchased} currency={a.currency} />
                  <Money field="returned" v={a.returned} currency={a.currency} />
                  <Money field="netPurchased" v={a.netPurchased} currency={a.currency} />
                  <Money field="rolled" v={a.rolled} currency={a.currency} />
                  <Money field="inHand" v={a.inHand} currency={a.currency} />
                  <td data-field="agrees" data-value={String(a.agrees)}>
                    {a.agrees ? t.agrees : t.differs}
                  </td>
                  <td class="num" data-field="wagers" data-value={a.wagers}>
                    {f.integer(a.wagers)}
                  </td>
                  <Money field="handle" v={a.handle} currency={a.currency} />
                  <Money field="win" v={a.win} currency={a.currency} />
                  <td class="num" data-field="rollingWinPercent" data-value={a.rollingWinPercent ?? undefined}>
                    {f.percent(a.rollingWinPercent)}
                  </td>
                  <Money field="theoreticalWin" v={a.theoreticalWin} currency={a.currency} />
                  <td class="num" data-field="theoreticalRollingWinPercent" data-value={a.theoreticalRollingWinPercent ?? undefined}>
                    {f.percent(a.theoreticalRollingWinPercent)}
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

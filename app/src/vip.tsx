import { JunketActs, NewJunket, RegisterPatron } from './vip-acts';
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { get, Schemas } from './api';
import { mayCall, useCaller } from './caller';
import { Head, Money } from './cells';
import { ErrorNote, Problem } from './error-note';
import { Format, useFormat } from './format';
import { gamingDayNow } from './gaming-day';
import { problemOf, useLoad } from './hooks';
import { useT, Words } from './i18n';
import { Scroll } from './scroll';
import { WORDS } from './words';
import { Range, RangeForm } from './range-form';
import { CardSearch } from './card-search';

/**
 * The VIP room: a property's junkets and, for the one chosen (#/vip/<junketId>), its members, its
 * account's entries, the statement of a period (by programme, by agent, by member, the totals, the
 * account from opening to closing balance and who owes, the digest the junket agrees to) and the
 * periods already agreed; and a patron's rolling-chip account looked up by card (docs/domain.md §14, §16).
 */
const en = {
  title: 'VIP room',
  period: 'Property and period',
  property: 'Property',
  from: 'From',
  to: 'To',
  readAgain: 'Read again',
  notLive:
    "Junket records are kept at the cage and by finance, not at the tables: the figures are read when the page opens, when the period changes, and when 'Read again' is pressed.",
  noProperty: 'No property is set up yet.',
  junkets: 'Junkets',
  junketsCaption: "The property's junket operators",
  noJunkets: 'This property has no junket.',
  junketColumns: ['Code', 'Name', 'Licence', 'Currency', 'Credit limit', 'Balance (+ the junket owes)'],
  choose: 'Choose a junket to see its members, account and statement.',
  statementOf: (code: string) => `Statement of ${code}`,
  status: { OPEN: 'Open: not yet agreed', AGREED: 'Agreed and locked' } as Record<string, string>,
  reproduced: 'The records still give the agreed figures.',
  notReproduced: 'The records no longer give the agreed figures: ask the auditor.',
  account: 'Account',
  accountRows: {
    opening: 'Opening balance',
    markers: 'Markers',
    repayments: 'Repayments',
    payouts: 'Payouts',
    credited: 'Credited (commission and allowance)',
    closing: 'Closing balance',
  } as Record<string, string>,
  due: { JUNKET_OWES: 'The junket owes the casino', CASINO_OWES: 'The casino owes the junket', SETTLED: 'Settled' } as Record<string, string>,
  whoOwes: 'Who owes',
  totals: 'Totals',
  totalRows: {
    purchased: 'Dead chips purchased',
    returned: 'Dead chips returned',
    netPurchased: 'Net purchased (rolling at the cage)',
    rolled: 'Rolled (rolling at the tables)',
    inHand: 'Dead chips in hand',
    handle: 'Handle',
    win: 'Win',
    theoreticalWin: 'Theoretical win',
    commission: 'Commission',
    allowance: 'Allowance',
    netWin: 'Net win',
  } as Record<string, string>,
  wagers: 'Dead-chip wagers',
  rollingWin: 'Rolling-chip win %',
  theoRollingWin: 'Theoretical rolling-chip win %',
  agrees: 'The two rolling counts agree',
  disagree: 'The two rolling counts differ: dead chips are still out',
  yes: 'yes',
  no: 'no',
  byProgramme: 'By programme',
  programmeColumns: ['Programme', 'Members', 'Rolled', 'Handle', 'Win', 'Commission', 'Allowance', 'Net win', 'Days outside'],
  byAgent: 'By agent',
  agentColumns: ['Agent', 'Name', 'Members', 'Rolled', 'Handle', 'Win', 'Commission', 'Allowance'],
  byMember: 'By member',
  memberColumns: [
    'Patron card',
    'Name',
    'Agents',
    'Programmes',
    'Purchased',
    'Returned',
    'Rolled',
    'Wagers',
    'Handle',
    'Win',
    'Rolling-chip win %',
    'Commission',
    'Allowance',
  ],
  noPlay: 'No member played rolling chips in this period.',
  playerCredit: 'Credit the junket gave its players (as it reports it)',
  creditColumns: ['Patron card', 'Advanced', 'Repaid', 'Outstanding'],
  noCredit: 'No player credit reported in this period.',
  digest: 'Digest (SHA-256 of the statement, as the junket agrees it)',
  members: 'Members',
  membersCaption: "The junket's memberships, each version as recorded",
  memberListColumns: ['Patron card', 'Agent', 'Programme', 'From gaming day', 'Recorded'],
  left: 'left the junket',
  noMembers: 'The junket has no member yet.',
  entries: 'Account entries in the period',
  entriesCaption: "The junket's account entries of the period, oldest first, with the balance after each",
  entryColumns: ['Gaming day', 'Time', 'Kind', 'Method', 'Amount', 'Balance after'],
  entryKinds: { MARKER: 'Marker', REPAYMENT: 'Repayment', PAYOUT: 'Payout', SETTLEMENT: 'Agreed statement credited' } as Record<string, string>,
  noEntries: 'No account entry in this period.',
  methods: { CASH: 'Cash', CHIPS: 'Chips', CHECK: 'Check', WIRE: 'Wire' } as Record<string, string>,
  agreed: 'Agreed statements',
  agreedCaption: 'The periods agreed with the junket and locked, oldest first',
  agreedColumns: ['From', 'To', 'Junket signatory', 'Agreed', 'Digest'],
  noAgreed: 'No period has been agreed yet.',
  rolling: "A patron's rolling account",
  rollingHint: 'Dead chips bought and returned, rolled and won, per currency, for the period above at this property.',
  card: 'Patron card',
  show: 'Show rolling account',
  rollingOf: (card: string) => `Rolling account of ${card}`,
  noRolling: (card: string) => `${card} played no rolling chips in this period.`,
  stdDev: 'Standard deviation of the theoretical win',
  figure: 'Figure',
  amount: 'Amount',
};

const VIP: Words<typeof en> = {
  en,
  'zh-Hant': {
    title: '貴賓廳',
    period: '場館及期間',
    property: '場館',
    from: '由',
    to: '至',
    readAgain: '重新讀取',
    notLive: '中介人的記錄由賬房及財務保存，並非來自賭桌：數字於開啟畫面、更改期間或按「重新讀取」時讀取。',
    noProperty: '尚未設立場館。',
    junkets: '博彩中介人',
    junketsCaption: '本場館的博彩中介人',
    noJunkets: '此場館沒有博彩中介人。',
    junketColumns: ['代號', '名稱', '牌照', '貨幣', '信貸額度', '結餘（正數：中介人欠賭場）'],
    choose: '請選擇中介人，以查看其成員、賬戶及結算單。',
    statementOf: (code) => `${code} 結算單`,
    status: { OPEN: '未確認', AGREED: '已確認並鎖定' },
    reproduced: '記錄仍得出已確認的數字。',
    notReproduced: '記錄已不能得出已確認的數字：請通知審計。',
    account: '賬戶',
    accountRows: {
      opening: '期初結餘',
      markers: '借據',
      repayments: '還款',
      payouts: '支付',
      credited: '入賬（佣金及津貼）',
      closing: '期末結餘',
    },
    due: { JUNKET_OWES: '中介人欠賭場', CASINO_OWES: '賭場欠中介人', SETTLED: '已結清' },
    whoOwes: '欠款方',
    totals: '合計',
    totalRows: {
      purchased: '購入泥碼',
      returned: '交回泥碼',
      netPurchased: '淨購入（賬房轉碼數）',
      rolled: '已轉碼（賭桌轉碼數）',
      inHand: '手上泥碼',
      handle: '投注額',
      win: '贏額',
      theoreticalWin: '理論贏額',
      commission: '佣金',
      allowance: '津貼',
      netWin: '淨贏額',
    },
    wagers: '泥碼投注次數',
    rollingWin: '轉碼贏率 %',
    theoRollingWin: '理論轉碼贏率 %',
    agrees: '兩種轉碼數相符',
    disagree: '兩種轉碼數不符：仍有泥碼未交回',
    yes: '是',
    no: '否',
    byProgramme: '按計劃',
    programmeColumns: ['計劃', '成員', '轉碼數', '投注額', '贏額', '佣金', '津貼', '淨贏額', '計劃外日子'],
    byAgent: '按代理人',
    agentColumns: ['代理人', '姓名', '成員', '轉碼數', '投注額', '贏額', '佣金', '津貼'],
    byMember: '按成員',
    memberColumns: ['客戶卡號', '姓名', '代理人', '計劃', '購入', '交回', '轉碼數', '投注次數', '投注額', '贏額', '轉碼贏率 %', '佣金', '津貼'],
    noPlay: '此期間沒有成員以泥碼投注。',
    playerCredit: '中介人借予客戶的信貸（按中介人申報）',
    creditColumns: ['客戶卡號', '借出', '已還', '尚欠'],
    noCredit: '此期間沒有申報客戶信貸。',
    digest: '摘要（結算單的 SHA-256，供中介人確認）',
    members: '成員',
    membersCaption: '中介人的成員記錄，每個版本照錄',
    memberListColumns: ['客戶卡號', '代理人', '計劃', '生效博彩日', '記錄時間'],
    left: '已退出',
    noMembers: '中介人尚未有成員。',
    entries: '期間內的賬戶記錄',
    entriesCaption: '中介人本期間的賬戶記錄，按時間先後，附每筆後的結餘',
    entryColumns: ['博彩日', '時間', '類別', '方式', '金額', '結餘'],
    entryKinds: { MARKER: '借據', REPAYMENT: '還款', PAYOUT: '支付', SETTLEMENT: '確認結算入賬' },
    noEntries: '此期間沒有賬戶記錄。',
    methods: { CASH: '現金', CHIPS: '籌碼', CHECK: '支票', WIRE: '電匯' },
    agreed: '已確認的結算單',
    agreedCaption: '已與中介人確認並鎖定的期間，按時間先後',
    agreedColumns: ['由', '至', '中介人簽署人', '確認時間', '摘要'],
    noAgreed: '尚未有確認的期間。',
    rolling: '客戶轉碼賬',
    rollingHint: '按貨幣列出上述期間在本場館購入及交回的泥碼、轉碼數及贏額。',
    card: '客戶卡號',
    show: '顯示轉碼賬',
    rollingOf: (card) => `${card} 的轉碼賬`,
    noRolling: (card) => `${card} 此期間沒有泥碼投注。`,
    stdDev: '理論贏額的標準差',
    figure: '項目',
    amount: '金額',
  },
  'zh-Hans': {
    title: '贵宾厅',
    period: '场馆及期间',
    property: '场馆',
    from: '从',
    to: '至',
    readAgain: '重新读取',
    notLive: '中介人的记录由账房及财务保存，并非来自赌桌：数字于打开画面、更改期间或按“重新读取”时读取。',
    noProperty: '尚未设立场馆。',
    junkets: '博彩中介人',
    junketsCaption: '本场馆的博彩中介人',
    noJunkets: '此场馆没有博彩中介人。',
    junketColumns: ['代号', '名称', '牌照', '货币', '信贷额度', '结余（正数：中介人欠赌场）'],
    choose: '请选择中介人，以查看其成员、账户及结算单。',
    statementOf: (code) => `${code} 结算单`,
    status: { OPEN: '未确认', AGREED: '已确认并锁定' },
    reproduced: '记录仍得出已确认的数字。',
    notReproduced: '记录已不能得出已确认的数字：请通知审计。',
    account: '账户',
    accountRows: {
      opening: '期初结余',
      markers: '借据',
      repayments: '还款',
      payouts: '支付',
      credited: '入账（佣金及津贴）',
      closing: '期末结余',
    },
    due: { JUNKET_OWES: '中介人欠赌场', CASINO_OWES: '赌场欠中介人', SETTLED: '已结清' },
    whoOwes: '欠款方',
    totals: '合计',
    totalRows: {
      purchased: '购入泥码',
      returned: '交回泥码',
      netPurchased: '净购入（账房转码数）',
      rolled: '已转码（赌桌转码数）',
      inHand: '手上泥码',
      handle: '投注额',
      win: '赢额',
      theoreticalWin: '理论赢额',
      commission: '佣金',
      allowance: '津贴',
      netWin: '净赢额',
    },
    wagers: '泥码投注次数',
    rollingWin: '转码赢率 %',
    theoRollingWin: '理论转码赢率 %',
    agrees: '两种转码数相符',
    disagree: '两种转码数不符：仍有泥码未交回',
    yes: '是',
    no: '否',
    byProgramme: '按计划',
    programmeColumns: ['计划', '成员', '转码数', '投注额', '赢额', '佣金', '津贴', '净赢额', '计划外日子'],
    byAgent: '按代理人',
    agentColumns: ['代理人', '姓名', '成员', '转码数', '投注额', '赢额', '佣金', '津贴'],
    byMember: '按成员',
    memberColumns: ['客户卡号', '姓名', '代理人', '计划', '购入', '交回', '转码数', '投注次数', '投注额', '赢额', '转码赢率 %', '佣金', '津贴'],
    noPlay: '此期间没有成员以泥码投注。',
    playerCredit: '中介人借予客户的信贷（按中介人申报）',
    creditColumns: ['客户卡号', '借出', '已还', '尚欠'],
    noCredit: '此期间没有申报客户信贷。',
    digest: '摘要（结算单的 SHA-256，供中介人确认）',
    members: '成员',
    membersCaption: '中介人的成员记录，每个版本照录',
    memberListColumns: ['客户卡号', '代理人', '计划', '生效博彩日', '记录时间'],
    left: '已退出',
    noMembers: '中介人尚未有成员。',
    entries: '期间内的账户记录',
    entriesCaption: '中介人本期间的账户记录，按时间先后，附每笔后的结余',
    entryColumns: ['博彩日', '时间', '类别', '方式', '金额', '结余'],
    entryKinds: { MARKER: '借据', REPAYMENT: '还款', PAYOUT: '支付', SETTLEMENT: '确认结算入账' },
    noEntries: '此期间没有账户记录。',
    methods: { CASH: '现金', CHIPS: '筹码', CHECK: '支票', WIRE: '电汇' },
    agreed: '已确认的结算单',
    agreedCaption: '已与中介人确认并锁定的期间，按时间先后',
    agreedColumns: ['从', '至', '中介人签署人', '确认时间', '摘要'],
    noAgreed: '尚未有确认的期间。',
    rolling: '客户转码账',
    rollingHint: '按货币列出上述期间在本场馆购入及交回的泥码、转码数及赢额。',
    card: '客户卡号',
    show: '显示转码账',
    rollingOf: (card) => `${card} 的转码账`,
    noRolling: (card) => `${card} 此期间没有泥码投注。`,
    stdDev: '理论赢额的标准差',
    figure: '项目',
    amount: '金额',
  },
};

type Property = Schemas['PropertyDto'];
type Junket = Schemas['JunketDto'];
type Membership = Schemas['MembershipDto'];
type Entry = Schemas['AccountEntryDto'];
type Statement = Schemas['StatementDto'];
type Agreed = Schemas['AgreedPeriodDto'];
type Rolling = Schemas['RollingDto'];
type Amount = number | bigint;

export function Vip({ args }: { args: string[] }) {
  const t = useT(VIP);
  const w = useT(WORDS);
  const caller = useCaller();
  const junketId = args[0] ?? null;
  const props = useLoad(() => get<Property[]>('/v1/properties'), []);
  const [range, setRange] = useState<Range | null>(null);
  const [version, setVersion] = useState(0);
  const [missing, setMissing] = useState<Problem | null>(null);
  useEffect(() => {
    if (!props.data?.length || range) return;
    void (async () => {
      // Opened at a junket's address: its property (a junket that is not there is said so); else the first.
      const owner = junketId
        ? await get<Junket>(`/v1/junkets/${junketId}`).then(
            (j) => j.propertyId,
            (e) => {
              setMissing(problemOf(e));
              return null;
            },
          )
        : null;
      const p = props.data!.find((x) => x.id === owner) ?? props.data![0];
      const today = gamingDayNow(p.timeZone, p.gamingDayStartHour);
      setRange({ propertyId: p.id, from: `${today.slice(0, 8)}01`, to: today });
    })();
  }, [props.data]);
  const f = useFormat();
  return (
    <main class="vip">
      <h1>{t.title}</h1>
      <ErrorNote problem={props.error} />
      {!props.data && !props.error && <p role="status">{w.loading}</p>}
      {props.data && props.data.length === 0 && <p>{t.noProperty}</p>}
      {range && props.data && (
        <RangeForm label={t.period} range={range} properties={props.data} onChange={setRange}>
          <button type="button" onClick={() => setVersion((v) => v + 1)}>
            {t.readAgain}
          </button>
        </RangeForm>
      )}
      {range && <p class="hint">{t.notLive}</p>}
      {range && (
        <Room
          key={range.propertyId}
          range={range}
          junketId={junketId}
          version={version}
          f={f}
          cashCurrency={props.data?.find((p) => p.id === range.propertyId)?.cashCurrency ?? ''}
          timeZone={props.data?.find((p) => p.id === range.propertyId)?.timeZone ?? 'UTC'}
          onDone={() => setVersion((v) => v + 1)}
        />
      )}
      <ErrorNote problem={missing} />
      {range && mayCall(caller, 'patronRolling') && <RollingLookup range={range} version={version} />}
      <RegisterPatron />
    </main>
  );
}

/** One property's junkets, and the one chosen (keyed by property: an answer for another property never stands for this one). */
function Room({
  range,
  junketId,
  version,
  f,
  cashCurrency,
  timeZone,
  onDone,
}: {
  range: Range;
  junketId: string | null;
  version: number;
  f: Format;
  cashCurrency: string;
  /** The property's time zone: every time on the desk is its wall clock. */
  timeZone: string;
  onDone: () => void;
}) {
  const t = useT(VIP);
  const w = useT(WORDS);
  const junkets = useLoad(() => get<Junket[]>(`/v1/properties/${range.propertyId}/junkets`), [version]);
  const chosen = junkets.data?.find((j) => j.id === junketId) ?? null;
  const [shown, setShown] = useState<{ junketId: string; status: string; digest: string } | null>(null);
  return (
    <>
      <section aria-labelledby="vip-junkets" data-testid="vip-junkets">
        <h2 id="vip-junkets">{t.junkets}</h2>
        <ErrorNote problem={junkets.error} />
        {!junkets.data && !junkets.error && <p role="status">{w.loading}</p>}
        {junkets.data && junkets.data.length === 0 && <p data-testid="vip-junkets-empty">{t.noJunkets}</p>}
        {junkets.data && junkets.data.length > 0 && (
          <Scroll label={t.junketsCaption}>
            <table class="figures">
              <caption class="sr-only">{t.junketsCaption}</caption>
              <Head columns={t.junketColumns} />
              <tbody>
                {junkets.data.map((j) => (
                  <tr key={j.id} data-junket={j.id}>
                    <th scope="row">
                      <a href={`#/vip/${j.id}`} aria-current={j.id === junketId ? 'true' : undefined}>
                        {j.code}
                      </a>
                    </th>
                    <td>{j.name}</td>
                    <td>{j.licence ?? '—'}</td>
                    <td>{j.currency}</td>
                    <Money field="creditLimit" v={j.creditLimit} currency={j.currency} />
                    <Money field="balance" v={j.balance} currency={j.currency} />
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
        {junkets.data && junkets.data.length > 0 && !chosen && <p class="hint">{t.choose}</p>}
        <NewJunket propertyId={range.propertyId} currency={cashCurrency} onDone={onDone} />
      </section>
      {chosen && (
        <JunketDesk key={`${chosen.id}:${range.from}:${range.to}:${version}`} junket={chosen} range={range} f={f} timeZone={timeZone} onStatement={setShown} />
      )}
      {/* Kept mounted while the desk above is read again after an act, so each form keeps what came of it. */}
      {chosen && (
        <JunketActs
          key={chosen.id}
          junket={chosen}
          period={shown && shown.junketId === chosen.id && shown.status === 'OPEN' ? { from: range.from, to: range.to, digest: shown.digest } : null}
          onDone={onDone}
        />
      )}
    </>
  );
}

/** A member's or an agent's share of the dues and their name (the statement's shares). */
const shareOf = (list: Statement['shares']['members'], id: string) => list.find((x) => x.id === id);

function Sub({ id, title, children }: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section data-testid={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

/** A figure per line: its name and its amount. */
function FactTable({ label, rows, currency, testid }: { label: string; rows: [string, string, Amount | null][]; currency: string; testid: string }) {
  const t = useT(VIP);
  return (
    <Scroll label={label}>
      <table class="figures facts-table" data-testid={testid}>
        <caption class="sr-only">{label}</caption>
        <thead>
          <tr>
            <th scope="col">{t.figure}</th>
            <th scope="col">{t.amount}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([field, name, v]) => (
            <tr key={field}>
              <th scope="row">{name}</th>
              <Money field={field} v={v} currency={currency} />
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}

function Percent({ field, v }: { field: string; v: string | null }) {
  const f = useFormat();
  return (
    <td class="num" data-field={field} data-value={v ?? ''}>
      {f.percent(v)}
    </td>
  );
}

function JunketDesk({
  junket,
  range,
  f,
  timeZone,
  onStatement,
}: {
  junket: Junket;
  range: Range;
  f: Format;
  timeZone: string;
  onStatement: (s: { junketId: string; status: string; digest: string } | null) => void;
}) {
  const t = useT(VIP);
  const w = useT(WORDS);
  const q = { from: range.from, to: range.to };
  const statement = useLoad(() => get<Statement>(`/v1/junkets/${junket.id}/statement`, q), [range.from, range.to]);
  const members = useLoad(() => get<Membership[]>(`/v1/junkets/${junket.id}/members`), []);
  const entries = useLoad(() => get<Entry[]>(`/v1/junkets/${junket.id}/account`, q), [range.from, range.to]);
  const agreed = useLoad(() => get<Agreed[]>(`/v1/junkets/${junket.id}/statements`), []);
  const cur = junket.currency;
  const s = statement.data;
  const fig = s?.figures;
  useEffect(() => onStatement(s ? { junketId: junket.id, status: s.status, digest: s.digest } : null), [s]);
  return (
    <>
      <section aria-labelledby="vip-statement" data-testid="vip-statement">
        <div class="title">
          <h2 id="vip-statement">
            {t.statementOf(junket.code)} · {f.day(range.from)} – {f.day(range.to)}
          </h2>
          {s && (
            <span class="badge" data-field="status" data-value={s.status}>
              {t.status[s.status]}
            </span>
          )}
        </div>
        <ErrorNote problem={statement.error} />
        {!s && !statement.error && <p role="status">{w.loading}</p>}
        {s && fig && (
          <>
            {s.status === 'AGREED' && (
              <p data-field="reproduced" data-value={String(s.reproduced)}>
                {s.reproduced ? t.reproduced : t.notReproduced}
              </p>
            )}
            <Sub id="vip-account" title={t.account}>
              <FactTable
                label={t.account}
                testid="vip-account-table"
                currency={cur}
                rows={(['opening', 'markers', 'repayments', 'payouts', 'credited', 'closing'] as const).map((k) => [k, t.accountRows[k], fig.account[k]])}
              />
              <p>
                {t.whoOwes}:{' '}
                <strong data-field="due" data-value={fig.account.due}>
                  {t.due[fig.account.due]}
                </strong>
              </p>
            </Sub>
            <Sub id="vip-totals" title={t.totals}>
              <FactTable
                label={t.totals}
                testid="vip-totals-table"
                currency={cur}
                rows={(
                  ['purchased', 'returned', 'netPurchased', 'rolled', 'inHand', 'handle', 'win', 'theoreticalWin', 'commission', 'allowance', 'netWin'] as const
                ).map((k) => [k, t.totalRows[k], fig.totals[k]])}
              />
              <dl class="facts" data-testid="vip-totals-facts">
                <div>
                  <dt>{t.wagers}</dt>
                  <dd data-field="wagers" data-value={String(fig.totals.wagers)}>
                    {f.integer(fig.totals.wagers)}
                  </dd>
                </div>
                <div>
                  <dt>{t.rollingWin}</dt>
                  <dd data-field="rollingWinPercent" data-value={fig.totals.rollingWinPercent ?? ''}>
                    {f.percent(fig.totals.rollingWinPercent)}
                  </dd>
                </div>
                <div>
                  <dt>{t.theoRollingWin}</dt>
                  <dd data-field="theoreticalRollingWinPercent" data-value={fig.totals.theoreticalRollingWinPercent ?? ''}>
                    {f.percent(fig.totals.theoreticalRollingWinPercent)}
                  </dd>
                </div>
                <div>
                  <dt>{t.agrees}</dt>
                  <dd data-field="agrees" data-value={String(fig.totals.agrees)}>
                    {fig.totals.agrees ? t.yes : `${t.no}: ${t.disagree}`}
                  </dd>
                </div>
              </dl>
            </Sub>
            <Sub id="vip-programmes" title={t.byProgramme}>
              {fig.programmes.length === 0 ? (
                <p>{t.noPlay}</p>
              ) : (
                <Scroll label={t.byProgramme}>
                  <table class="figures">
                    <caption class="sr-only">{t.byProgramme}</caption>
                    <Head columns={t.programmeColumns} />
                    <tbody>
                      {fig.programmes.map((p) => (
                        <tr key={p.code} data-row={p.code}>
                          <th scope="row">{p.code}</th>
                          <td class="num" data-field="members" data-value={String(p.members)}>
                            {f.integer(p.members)}
                          </td>
                          <Money field="rolled" v={p.rolled} currency={cur} />
                          <Money field="handle" v={p.handle} currency={cur} />
                          <Money field="win" v={p.win} currency={cur} />
                          <Money field="commission" v={p.commission} currency={cur} />
                          <Money field="allowance" v={p.allowance} currency={cur} />
                          <Money field="netWin" v={p.netWin} currency={cur} />
                          <td data-field="daysOutside" data-value={p.daysOutside.join(',')}>
                            {p.daysOutside.length ? p.daysOutside.map((d) => f.day(d)).join(', ') : '—'}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </Scroll>
              )}
            </Sub>
            <Sub id="vip-agents" title={t.byAgent}>
              {fig.agents.length === 0 ? (
                <p>{t.noPlay}</p>
              ) : (
                <Scroll label={t.byAgent}>
                  <table class="figures">
                    <caption class="sr-only">{t.byAgent}</caption>
                    <Head columns={t.agentColumns} />
                    <tbody>
                      {fig.agents.map((a) => (
                        <tr key={a.agent} data-row={a.agent}>
                          <th scope="row">{a.agent}</th>
                          <td data-field="name">{shareOf(s.shares.agents, a.agent)?.name ?? '—'}</td>
                          <td class="num" data-field="members" data-value={String(a.members)}>
                            {f.integer(a.members)}
                          </td>
                          <Money field="rolled" v={a.rolled} currency={cur} />
                          <Money field="handle" v={a.handle} currency={cur} />
                          <Money field="win" v={a.win} currency={cur} />
                          <Money field="commission" v={shareOf(s.shares.agents, a.agent)?.commission ?? null} currency={cur} />
                          <Money field="allowance" v={shareOf(s.shares.agents, a.agent)?.allowance ?? null} currency={cur} />
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </Scroll>
              )}
            </Sub>
            <Sub id="vip-members-play" title={t.byMember}>
              {fig.members.length === 0 ? (
                <p data-testid="vip-no-play">{t.noPlay}</p>
              ) : (
                <Scroll label={t.byMember}>
                  <table class="figures">
                    <caption class="sr-only">{t.byMember}</caption>
                    <Head columns={t.memberColumns} />
                    <tbody>
                      {fig.members.map((m) => (
                        <tr key={m.patronId} data-row={m.patronId}>
                          <th scope="row">{m.patronId}</th>
                          <td data-field="name">{shareOf(s.shares.members, m.patronId)?.name ?? '—'}</td>
                          <td data-field="agents" data-value={m.agents.join(',')}>
                            {m.agents.join(', ') || '—'}
                          </td>
                          <td data-field="programmes" data-value={m.programmes.join(',')}>
                            {m.programmes.join(', ') || '—'}
                          </td>
                          <Money field="purchased" v={m.purchased} currency={cur} />
                          <Money field="returned" v={m.returned} currency={cur} />
                          <Money field="rolled" v={m.rolled} currency={cur} />
                          <td class="num" data-field="wagers" data-value={String(m.wagers)}>
                            {f.integer(m.wagers)}
                          </td>
                          <Money field="handle" v={m.handle} currency={cur} />
                          <Money field="win" v={m.win} currency={cur} />
                          <Percent field="rollingWinPercent" v={m.rollingWinPercent} />
                          <Money field="commission" v={shareOf(s.shares.members, m.patronId)?.commission ?? null} currency={cur} />
                          <Money field="allowance" v={shareOf(s.shares.members, m.patronId)?.allowance ?? null} currency={cur} />
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </Scroll>
              )}
            </Sub>
            <Sub id="vip-player-credit" title={t.playerCredit}>
              {fig.playerCredit.length === 0 ? (
                <p>{t.noCredit}</p>
              ) : (
                <Scroll label={t.playerCredit}>
                  <table class="figures">
                    <caption class="sr-only">{t.playerCredit}</caption>
                    <Head columns={t.creditColumns} />
                    <tbody>
                      {fig.playerCredit.map((c) => (
                        <tr key={c.patronId} data-row={c.patronId}>
                          <th scope="row">{c.patronId}</th>
                          <Money field="advanced" v={c.advanced} currency={cur} />
                          <Money field="repaid" v={c.repaid} currency={cur} />
                          <Money field="outstanding" v={c.outstanding} currency={cur} />
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </Scroll>
              )}
            </Sub>
            <p class="digest">
              {t.digest}:{' '}
              <code data-field="digest" data-value={s.digest}>
                {s.digest}
              </code>
            </p>
          </>
        )}
      </section>
      <section aria-labelledby="vip-members" data-testid="vip-members">
        <h2 id="vip-members">{t.members}</h2>
        <ErrorNote problem={members.error} />
        {!members.data && !members.error && <p role="status">{w.loading}</p>}
        {members.data && members.data.length === 0 && <p>{t.noMembers}</p>}
        {members.data && members.data.length > 0 && (
          <Scroll label={t.membersCaption}>
            <table class="figures">
              <caption class="sr-only">{t.membersCaption}</caption>
              <Head columns={t.memberListColumns} />
              <tbody>
                {members.data.map((m) => (
                  <tr key={m.id} data-membership={m.id}>
                    <th scope="row">{m.patronId}</th>
                    <td data-field="agent" data-value={m.agent ?? ''}>
                      {m.junketId ? (m.agent ?? '—') : t.left}
                    </td>
                    <td data-field="programme" data-value={m.programme ?? ''}>
                      {m.programme ?? '—'}
                    </td>
                    <td data-field="effectiveFrom" data-value={m.effectiveFrom}>
                      {f.day(m.effectiveFrom)}
                    </td>
                    <td>{f.dateTime(m.recordedAt, timeZone)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      </section>
      <section aria-labelledby="vip-entries" data-testid="vip-entries">
        <h2 id="vip-entries">{t.entries}</h2>
        <ErrorNote problem={entries.error} />
        {!entries.data && !entries.error && <p role="status">{w.loading}</p>}
        {entries.data && entries.data.length === 0 && <p>{t.noEntries}</p>}
        {entries.data && entries.data.length > 0 && (
          <Scroll label={t.entriesCaption}>
            <table class="figures">
              <caption class="sr-only">{t.entriesCaption}</caption>
              <Head columns={t.entryColumns} />
              <tbody>
                {entries.data.map((e) => (
                  <tr key={e.id} data-entry={e.id}>
                    <td>{f.day(e.gamingDay)}</td>
                    <td>{f.dateTime(e.at, timeZone)}</td>
                    <th scope="row" data-field="kind" data-value={e.kind}>
                      {t.entryKinds[e.kind]}
                    </th>
                    <td>{e.method ? (t.methods[e.method] ?? e.method) : '—'}</td>
                    <Money field="amount" v={e.amount} currency={e.currency} />
                    <Money field="balance" v={e.balance} currency={e.currency} />
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      </section>
      <section aria-labelledby="vip-agreed" data-testid="vip-agreed">
        <h2 id="vip-agreed">{t.agreed}</h2>
        <ErrorNote problem={agreed.error} />
        {!agreed.data && !agreed.error && <p role="status">{w.loading}</p>}
        {agreed.data && agreed.data.length === 0 && <p data-testid="vip-agreed-empty">{t.noAgreed}</p>}
        {agreed.data && agreed.data.length > 0 && (
          <Scroll label={t.agreedCaption}>
            <table class="figures">
              <caption class="sr-only">{t.agreedCaption}</caption>
              <Head columns={t.agreedColumns} />
              <tbody>
                {agreed.data.map((a) => (
                  <tr key={a.id} data-agreed={a.id}>
                    <th scope="row">{f.day(a.from)}</th>
                    <td>{f.day(a.to)}</td>
                    <td>{a.junketSignatory}</td>
                    <td>{f.dateTime(a.agreedAt, timeZone)}</td>
                    <td>
                      <code data-field="digest" data-value={a.digest}>
                        {a.digest.slice(0, 16)}…
                      </code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Scroll>
        )}
      </section>
    </>
  );
}

function RollingLookup({ range, version }: { range: Range; version: number }) {
  const t = useT(VIP);
  const [card, setCard] = useState('');
  return (
    <section aria-labelledby="vip-rolling" data-testid="vip-rolling">
      <h2 id="vip-rolling">{t.rolling}</h2>
      <p class="hint">{t.rollingHint}</p>
      <CardSearch label={t.rolling} field={t.card} button={t.show} card={card} onSearch={setCard} />
      {card && <RollingOf key={`${card}:${range.propertyId}:${range.from}:${range.to}:${version}`} card={card} range={range} />}
    </section>
  );
}

/** A patron's rolling account over the period (reading it is an audit entry: read when asked for). */
function RollingOf({ card, range }: { card: string; range: Range }) {
  const t = useT(VIP);
  const w = useT(WORDS);
  const f = useFormat();
  const { data, error } = useLoad(() => get<Rolling>(`/v1/patrons/${encodeURIComponent(card)}/rolling`, { ...range }), []);
  return (
    <>
      <ErrorNote problem={error} />
      {!data && !error && <p role="status">{w.loading}</p>}
      {data && data.accounts.length === 0 && <p data-testid="vip-rolling-empty">{t.noRolling(card)}</p>}
      {data?.accounts.map((a) => (
        <div key={a.currency} data-currency={a.currency}>
          <FactTable
            label={`${t.rollingOf(card)} (${a.currency})`}
            testid={`vip-rolling-${a.currency}`}
            currency={a.currency}
            rows={[
              ...(['purchased', 'returned', 'netPurchased', 'rolled', 'inHand', 'handle', 'win', 'theoreticalWin'] as const).map(
                (k) => [k, t.totalRows[k], a[k]] as [string, string, Amount],
              ),
              ['theoreticalWinStdDev', t.stdDev, a.theoreticalWinStdDev],
            ]}
          />
          <dl class="facts">
            <div>
              <dt>{t.wagers}</dt>
              <dd data-field="wagers" data-value={String(a.wagers)}>
                {f.integer(a.wagers)}
              </dd>
            </div>
            <div>
              <dt>{t.rollingWin}</dt>
              <dd data-field="rollingWinPercent" data-value={a.rollingWinPercent ?? ''}>
                {f.percent(a.rollingWinPercent)}
              </dd>
            </div>
            <div>
              <dt>{t.theoRollingWin}</dt>
              <dd data-field="theoreticalRollingWinPercent" data-value={a.theoreticalRollingWinPercent ?? ''}>
                {f.percent(a.theoreticalRollingWinPercent)}
              </dd>
            </div>
            <div>
              <dt>{t.agrees}</dt>
              <dd data-field="agrees" data-value={String(a.agrees)}>
                {a.agrees ? t.yes : `${t.no}: ${t.disagree}`}
              </dd>
            </div>
          </dl>
        </div>
      ))}
    </>
  );
}

import { useState } from 'preact/hooks';
import { get, Schemas } from './api';
import { ActForm, ActPart, Field, Outcome, Text, useAct } from './act';
import { mayCall, useCaller } from './caller';
import { Head } from './cells';
import { ErrorNote, Problem } from './error-note';
import { useFormat } from './format';
import { problemOf, useLoad } from './hooks';
import { useT, Words } from './i18n';
import type { Range } from './range-form';
import { Scroll } from './scroll';
import { WORDS } from './words';

/**
 * What the finance screen records under its figures (issue 50): the pace the property expects of
 * each game (SUPERVISOR, ADMIN), the day's exchange rates its reports translate with (FINANCE,
 * ADMIN), and a signed checkpoint of the audit chain an auditor takes away (AUDITOR, ADMIN). Each
 * part is shown to the roles that may read it, its form to those that may write it.
 */
const en = {
  pace: 'Expected pace',
  paceCaption: 'Decisions an hour expected of each game',
  ratesCaption: 'Rates entered for the days shown',
  paceHint: 'Decisions an hour the property expects of a table of each game: the pace report compares each table with it.',
  paceColumns: ['Game', 'Decisions an hour', 'From'],
  sources: { PROPERTY: 'this property', DEFAULT: 'the usual figure' } as Record<string, string>,
  setPace: 'Set the expected pace',
  game: 'Game',
  perHour: 'Decisions an hour',
  paceDone: (game: string, n: string) => `${game}: ${n} decisions an hour from now.`,
  badCount: 'Write a whole number of decisions an hour (1 to 1,000).',
  rates: 'Exchange rates',
  ratesHint:
    "The rate a report in another currency translates a table currency with, as published for the day. A day without its own takes the latest earlier day's.",
  rateColumns: ['Day', 'From', 'Into', 'Rate', 'Entered', 'In force'],
  noRates: 'No rate entered for these days.',
  setRate: 'Enter a rate',
  day: 'Gaming day',
  from: 'From currency',
  into: 'Into currency',
  rate: 'Units of the second for one of the first',
  rateDone: (from: string, into: string, rate: string, day: string) => `1 ${from} = ${rate} ${into} from ${day}.`,
  yes: 'yes',
  corrected: 'corrected',
  audit: 'Audit checkpoint',
  auditHint:
    "The service verifies the whole audit chain and signs every stream's head with its key, kept outside the database. Keep the signed checkpoint outside the casino: a later rewrite of the records cannot match it.",
  latest: 'Latest checkpoint',
  readLatest: 'Show the latest checkpoint',
  none: 'None signed yet.',
  at: 'Signed at',
  streams: 'Streams',
  fingerprint: 'Key fingerprint',
  sign: 'Verify and sign a checkpoint now',
  signed: (at: string) => `The chain verified and a checkpoint was signed at ${at}.`,
  record: 'Record',
};

const FINANCE_ACTS: Words<typeof en> = {
  en,
  'zh-Hant': {
    ...en,
    pace: '預期速度',
    paceCaption: '每款遊戲的預期每小時局數',
    ratesCaption: '所示日子已輸入的匯率',
    paceHint: '場館預期每款遊戲的賭枱每小時決定局數：速度報告以此比較每張賭枱。',
    paceColumns: ['遊戲', '每小時局數', '來源'],
    sources: { PROPERTY: '本場館', DEFAULT: '一般數字' },
    setPace: '設定預期速度',
    game: '遊戲',
    perHour: '每小時局數',
    paceDone: (game, n) => `${game}：由現在起每小時 ${n} 局。`,
    badCount: '請填寫每小時局數的整數（1 至 1,000）。',
    rates: '匯率',
    ratesHint: '報告以另一貨幣表示時，按當日公佈的匯率換算賭枱貨幣。沒有當日匯率的日子沿用之前最近一日的匯率。',
    rateColumns: ['日期', '由', '至', '匯率', '輸入時間', '有效'],
    noRates: '這些日子沒有輸入匯率。',
    setRate: '輸入匯率',
    day: '博彩日',
    from: '原貨幣',
    into: '目標貨幣',
    rate: '一單位原貨幣兌目標貨幣',
    rateDone: (from, into, rate, day) => `由 ${day} 起 1 ${from} = ${rate} ${into}。`,
    yes: '是',
    corrected: '已更正',
    audit: '審計檢查點',
    auditHint: '系統核實整條審計鏈，並以存放於資料庫以外的金鑰簽署每條記錄流的最新位置。請將已簽署的檢查點存放於娛樂場以外：日後改寫紀錄將無法與之吻合。',
    latest: '最新檢查點',
    readLatest: '顯示最新檢查點',
    none: '尚未簽署。',
    at: '簽署時間',
    streams: '記錄流',
    fingerprint: '金鑰指紋',
    sign: '立即核實並簽署檢查點',
    signed: (at) => `審計鏈已核實，並於 ${at} 簽署檢查點。`,
    record: '記錄',
  },
  'zh-Hans': {
    ...en,
    pace: '预期速度',
    paceCaption: '每款游戏的预期每小时局数',
    ratesCaption: '所示日子已输入的汇率',
    paceHint: '场馆预期每款游戏的赌台每小时决定局数：速度报告以此比较每张赌台。',
    paceColumns: ['游戏', '每小时局数', '来源'],
    sources: { PROPERTY: '本场馆', DEFAULT: '一般数字' },
    setPace: '设定预期速度',
    game: '游戏',
    perHour: '每小时局数',
    paceDone: (game, n) => `${game}：由现在起每小时 ${n} 局。`,
    badCount: '请填写每小时局数的整数（1 至 1,000）。',
    rates: '汇率',
    ratesHint: '报告以另一货币表示时，按当日公布的汇率换算赌台货币。没有当日汇率的日子沿用之前最近一日的汇率。',
    rateColumns: ['日期', '由', '至', '汇率', '输入时间', '有效'],
    noRates: '这些日子没有输入汇率。',
    setRate: '输入汇率',
    day: '博彩日',
    from: '原货币',
    into: '目标货币',
    rate: '一单位原货币兑目标货币',
    rateDone: (from, into, rate, day) => `由 ${day} 起 1 ${from} = ${rate} ${into}。`,
    yes: '是',
    corrected: '已更正',
    audit: '审计检查点',
    auditHint: '系统核实整条审计链，并以存放于数据库以外的密钥签署每条记录流的最新位置。请将已签署的检查点存放于娱乐场以外：日后改写记录将无法与之吻合。',
    latest: '最新检查点',
    readLatest: '显示最新检查点',
    none: '尚未签署。',
    at: '签署时间',
    streams: '记录流',
    fingerprint: '密钥指纹',
    sign: '立即核实并签署检查点',
    signed: (at) => `审计链已核实，并于 ${at} 签署检查点。`,
    record: '记录',
  },
};

type Pace = Schemas['PaceTargetsDto'];
type Rate = Schemas['ExchangeRateDto'];
type Checkpoint = Schemas['SignedCheckpointDto'];

/** The finance screen's acts for the property and period shown. */
export function FinanceActs({ range, currencies, timeZone }: { range: Range; currencies: string[]; timeZone?: string }) {
  const caller = useCaller();
  return (
    <>
      {mayCall(caller, 'listPaceTargets') && <PaceTargets propertyId={range.propertyId} />}
      {mayCall(caller, 'listExchangeRates') && <ExchangeRates range={range} currencies={currencies} timeZone={timeZone} />}
      {mayCall(caller, 'latestAuditCheckpoint') && <AuditCheckpoint timeZone={timeZone} />}
    </>
  );
}

function PaceTargets({ propertyId }: { propertyId: string }) {
  const t = useT(FINANCE_ACTS);
  const w = useT(WORDS);
  const f = useFormat();
  const act = useAct();
  const [version, setVersion] = useState(0);
  const pace = useLoad(() => get<Pace>(`/v1/properties/${propertyId}/pace-targets`), [version]);
  const [variant, setVariant] = useState('');
  const [count, setCount] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const games = pace.data?.inForce.map((p) => p.variant) ?? [];
  const game = variant || games[0] || '';
  const send = async () => {
    setDone(null);
    const n = /^\d{1,4}$/.test(count.trim()) ? Number(count.trim()) : NaN;
    const ok = Number.isInteger(n) && n >= 1 && n <= 1000;
    setLocal(ok ? null : t.badCount);
    if (!ok) return;
    const answer = await act.send<Schemas['PaceTargetDto']>(`/v1/properties/${propertyId}/pace-targets`, { variant: game, decisionsPerHour: n });
    if (answer) {
      setDone(t.paceDone(w.variants[answer.variant] ?? answer.variant, f.integer(answer.decisionsPerHour)));
      setCount('');
      setVersion((v) => v + 1);
    }
  };
  return (
    <ActPart id="finance-pace" title={t.pace} hint={t.paceHint}>
      <ErrorNote problem={pace.error} />
      {pace.data && (
        <Scroll label={t.paceCaption}>
          <table class="figures">
            <caption class="sr-only">{t.pace}</caption>
            <Head columns={t.paceColumns} />
            <tbody>
              {pace.data.inForce.map((p) => (
                <tr key={p.variant} data-variant={p.variant}>
                  <th scope="row">{w.variants[p.variant] ?? p.variant}</th>
                  <td class="num" data-field="decisionsPerHour" data-value={String(p.decisionsPerHour)}>
                    {f.integer(p.decisionsPerHour)}
                  </td>
                  <td>{t.sources[p.source] ?? p.source}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      {mayCall(useCaller(), 'setPaceTarget') && games.length > 0 && (
        <ActForm label={t.setPace} busy={act.busy} button={t.record} onSubmit={() => void send()}>
          <Field label={t.game}>
            <select name="variant" value={game} onChange={(e) => setVariant(e.currentTarget.value)}>
              {games.map((g) => (
                <option key={g} value={g}>
                  {w.variants[g] ?? g}
                </option>
              ))}
            </select>
          </Field>
          <Field label={t.perHour}>
            <Text name="decisionsPerHour" mode="numeric" required value={count} onInput={setCount} />
          </Field>
        </ActForm>
      )}
      <Outcome local={local} problem={act.problem} done={done} testId="finance-pace-done" />
    </ActPart>
  );
}

function ExchangeRates({ range, currencies, timeZone }: { range: Range; currencies: string[]; timeZone?: string }) {
  const t = useT(FINANCE_ACTS);
  const f = useFormat();
  const act = useAct();
  const [version, setVersion] = useState(0);
  const rates = useLoad(() => get<Rate[]>('/v1/exchange-rates', { from: range.from, to: range.to }), [version]);
  const [v, setV] = useState({ day: range.to, from: currencies[1] ?? currencies[0] ?? '', into: currencies[0] ?? '', rate: '' });
  const [done, setDone] = useState<string | null>(null);
  const send = async () => {
    setDone(null);
    const answer = await act.send<Rate>('/v1/exchange-rates', {
      day: v.day,
      currency: v.from.trim().toUpperCase(),
      into: v.into.trim().toUpperCase(),
      rate: v.rate.trim(),
    });
    if (answer) {
      setDone(t.rateDone(answer.currency, answer.into, answer.rate, f.day(answer.day)));
      setV({ ...v, rate: '' });
      setVersion((n) => n + 1);
    }
  };
  return (
    <ActPart id="finance-rates" title={t.rates} hint={t.ratesHint}>
      <ErrorNote problem={rates.error} />
      {rates.data && rates.data.length === 0 && <p>{t.noRates}</p>}
      {rates.data && rates.data.length > 0 && (
        <Scroll label={t.ratesCaption}>
          <table class="figures">
            <caption class="sr-only">{t.rates}</caption>
            <Head columns={t.rateColumns} />
            <tbody>
              {rates.data.map((r) => (
                <tr key={r.id} data-rate={r.id}>
                  <th scope="row">{f.day(r.day)}</th>
                  <td>{r.currency}</td>
                  <td>{r.into}</td>
                  <td class="num" data-field="rate" data-value={r.rate}>
                    {r.rate}
                  </td>
                  <td>{f.dateTime(r.enteredAt, timeZone)}</td>
                  <td>{r.inForce ? t.yes : t.corrected}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      {mayCall(useCaller(), 'setExchangeRate') && (
        <ActForm label={t.setRate} busy={act.busy} button={t.record} onSubmit={() => void send()}>
          <Field label={t.day}>
            <Text name="day" type="date" required value={v.day} onInput={(x) => setV({ ...v, day: x })} />
          </Field>
          <Field label={t.from}>
            <Text name="currency" required value={v.from} onInput={(x) => setV({ ...v, from: x })} />
          </Field>
          <Field label={t.into}>
            <Text name="into" required value={v.into} onInput={(x) => setV({ ...v, into: x })} />
          </Field>
          <Field label={t.rate}>
            <Text name="rate" mode="decimal" required value={v.rate} onInput={(x) => setV({ ...v, rate: x })} />
          </Field>
        </ActForm>
      )}
      <Outcome problem={act.problem} done={done} testId="finance-rate-done" />
    </ActPart>
  );
}

function AuditCheckpoint({ timeZone }: { timeZone?: string }) {
  const t = useT(FINANCE_ACTS);
  const f = useFormat();
  const act = useAct();
  // Read when asked, not on opening: none signed yet answers 404, which a browser logs as an error.
  const [latest, setLatest] = useState<{ c: Checkpoint | null } | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const read = () => {
    setProblem(null);
    get<Checkpoint>('/v1/audit/checkpoints/latest').then(
      (c) => setLatest({ c }),
      (e: unknown) => {
        const p = problemOf(e);
        if (p.code === 'NOT_FOUND') setLatest({ c: null });
        else setProblem(p);
      },
    );
  };
  const [done, setDone] = useState<string | null>(null);
  const sign = async () => {
    setDone(null);
    const answer = await act.send<Checkpoint>('/v1/audit/checkpoints', {});
    if (answer) {
      setDone(t.signed(f.dateTime(answer.body.at, timeZone)));
      setLatest({ c: answer });
    }
  };
  const c = latest?.c ?? null;
  return (
    <ActPart id="finance-audit" title={t.audit} hint={t.auditHint}>
      <ErrorNote problem={problem} />
      {!latest && (
        <button type="button" class="link" onClick={read}>
          {t.readLatest}
        </button>
      )}
      {latest && !c && <p>{t.none}</p>}
      {c && (
        <dl class="facts" data-testid="finance-audit-latest">
          <div>
            <dt>{t.at}</dt>
            <dd data-field="at" data-value={c.body.at}>
              {f.dateTime(c.body.at, timeZone)}
            </dd>
          </div>
          <div>
            <dt>{t.streams}</dt>
            <dd>{f.integer(c.body.streams.length)}</dd>
          </div>
          <div>
            <dt>{t.fingerprint}</dt>
            <dd>
              <code>{c.keyFingerprint}</code>
            </dd>
          </div>
        </dl>
      )}
      {mayCall(useCaller(), 'signAuditCheckpoint') && (
        <button type="button" disabled={act.busy} onClick={() => void sign()}>
          {t.sign}
        </button>
      )}
      <Outcome problem={act.problem} done={done} testId="finance-audit-done" />
    </ActPart>
  );
}

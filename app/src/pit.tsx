import { ErrorNote } from './error-note';
import { get, Schemas } from './api';
import { Caller, mayCall, useCaller } from './caller';
import { Head, LiveBadge, Money } from './cells';
import { useLive, useLoad } from './hooks';
import { useFormat } from './format';
import { gamingDayNow } from './gaming-day';
import { useT, Words } from './i18n';
import { Scroll } from './scroll';
import { WORDS } from './words';

const en = {
  title: 'Pit overview',
  noTable: 'No table is open.',
  pit: (p: string) => `Pit ${p}`,
  caption: (p: string) => `Open tables of pit ${p}, this gaming day`,
  columns: [
    'Table',
    'Game',
    'Shoe',
    'Cards left',
    'Coups today',
    'Drop',
    'Estimated drop (buy-ins)',
    'Handle',
    'Win',
    'Hold % (win ÷ handle)',
    'Commission outstanding',
  ],
  total: (pit: string, currency: string) => `Pit ${pit} total, ${currency}`,
  noShoe: 'none open',
  noReports: "This key reads no reports: the day's figures are shown to supervisors and finance.",
  desk: 'Desk',
  deskOf: (code: string) => `Desk of table ${code}`,
};
const PIT: Words<typeof en> = {
  en,
  'zh-Hant': {
    title: '賭區總覽',
    noTable: '沒有開放的賭枱。',
    pit: (p) => `賭區 ${p}`,
    caption: (p) => `賭區 ${p} 本博彩日開放的賭枱`,
    columns: ['賭枱', '遊戲', '牌靴', '剩餘牌數', '今日局數', '錢箱', '預計錢箱（買碼）', '投注額', '贏額', '贏率 %（贏額 ÷ 投注額）', '未收佣金'],
    total: (pit, currency) => `賭區 ${pit} 合計（${currency}）`,
    noShoe: '未開靴',
    noReports: '此金鑰不能讀取報表：當日數字只向主管及財務顯示。',
    desk: '枱面',
    deskOf: (code) => `賭枱 ${code} 的枱面操作`,
  },
  'zh-Hans': {
    title: '赌区总览',
    noTable: '没有开放的赌台。',
    pit: (p) => `赌区 ${p}`,
    caption: (p) => `赌区 ${p} 本博彩日开放的赌台`,
    columns: ['赌台', '游戏', '牌靴', '剩余牌数', '今日局数', '钱箱', '预计钱箱（买码）', '投注额', '赢额', '赢率 %（赢额 ÷ 投注额）', '未收佣金'],
    total: (pit, currency) => `赌区 ${pit} 合计（${currency}）`,
    noShoe: '未开靴',
    noReports: '此密钥不能读取报表：当日数字只向主管及财务显示。',
    desk: '台面',
    deskOf: (code) => `赌台 ${code} 的台面操作`,
  },
};

type Table = Schemas['TableDto'];
type Shoe = Schemas['ShoeDto'];
type Row = Schemas['WinLossRowDto'];
type Accounting = Schemas['TableAccountingLineDto'];

/** A figures row's currency: every row of the win/loss report is split by currency. */
const currencyOf = (r: Row): string => (r.group as { currency: string }).currency;

interface PitRow {
  table: Table;
  day: string;
  shoe: Shoe | null;
  figures: Row | null;
  drop: Accounting['drop'] | null;
  /** What the drop box should hold so far: the day's cash and marker buy-ins (the drop reconciliation's expected drop). */
  estimated: Schemas['DropLineDto']['expectedDrop'] | null;
}

/** Every open table, by pit: its shoe, and this gaming day's coups, drop, win, hold and commission outstanding. */
async function loadPit(caller: Caller): Promise<{ rows: PitRow[]; reports: boolean; totals: Map<string, Row[]> }> {
  const [tables, properties] = await Promise.all([get<Table[]>('/v1/tables'), get<Schemas['PropertyDto'][]>('/v1/properties')]);
  const open = tables.filter((t) => t.status === 'OPEN');
  const dayOf = new Map(properties.map((p) => [p.id, gamingDayNow(p.timeZone, p.gamingDayStartHour)]));
  const shoes = await Promise.all(open.map((t) => get<Shoe[]>(`/v1/tables/${t.id}/shoes`)));
  // A key that may not read the reports (a terminal's) is not sent to them.
  const reports = mayCall(caller, 'winLossReport') && mayCall(caller, 'tableAccountingReport');
  const figures = new Map<string, Row>();
  const drops = new Map<string, Accounting['drop']>();
  const estimated = new Map<string, Schemas['DropLineDto']['expectedDrop']>();
  // Each pit's totals, one row a currency (the service never adds two currencies, nor does the screen).
  const totals = new Map<string, Row[]>();
  const buyIns = reports && mayCall(caller, 'dropReconciliation');
  for (const [propertyId, day] of dayOf) {
    if (!reports || !open.some((t) => t.propertyId === propertyId)) continue;
    const [wl, acc, pits, drop] = await Promise.all([
      get<Schemas['WinLossDto']>('/v1/reports/win-loss', { from: day, to: day, propertyId, groupBy: 'table' }),
      get<Accounting[]>('/v1/reports/table-accounting', { from: day, to: day, propertyId }),
      get<Schemas['WinLossDto']>('/v1/reports/win-loss', { from: day, to: day, propertyId, groupBy: 'pit' }),
      buyIns ? get<Schemas['DropLineDto'][]>('/v1/reports/drop-reconciliation', { from: day, to: day, propertyId }) : Promise.resolve([]),
    ]);
    for (const r of wl.rows) figures.set((r.group as { tableId: string }).tableId, r);
    for (const a of acc) if (a.sessions > 0) drops.set(a.tableId, a.drop);
    for (const r of pits.rows) {
      const pit = (r.group as { pit: string }).pit;
      totals.set(pit, [...(totals.get(pit) ?? []), r]);
    }
    for (const d of drop) estimated.set(d.tableId, d.expectedDrop);
  }
  const rows = open.map((table, i) => ({
    table,
    day: dayOf.get(table.propertyId) ?? '',
    shoe: shoes[i].find((s) => s.status === 'OPEN') ?? null,
    figures: figures.get(table.id) ?? null,
    drop: drops.get(table.id) ?? null,
    estimated: estimated.get(table.id) ?? (buyIns ? 0 : null),
  }));
  rows.sort((a, b) => a.table.pit.localeCompare(b.table.pit) || a.table.code.localeCompare(b.table.code));
  return { rows, reports, totals };
}

export function PitOverview() {
  const t = useT(PIT);
  const w = useT(WORDS);
  const f = useFormat();
  const caller = useCaller();
  const { data, error, reload } = useLoad(() => loadPit(caller), [caller]);
  const ids = data?.rows.map((r) => r.table.id).join(',') ?? '';
  const live = useLive(ids ? `/v1/events?tables=${ids}` : null, reload);
  const desk = mayCall(caller, 'recordCoup') || mayCall(caller, 'approveVoid');
  const pits = [...new Set(data?.rows.map((r) => r.table.pit) ?? [])];
  return (
    <main>
      <div class="title">
        <h1>{t.title}</h1>
        <LiveBadge live={live} />
      </div>
      <ErrorNote problem={error} />
      {!data && !error && <p role="status">{w.loading}</p>}
      {data && data.rows.length === 0 && <p>{t.noTable}</p>}
      {pits.map((pit) => (
        <section key={pit} aria-labelledby={`pit-${pit}`}>
          <h2 id={`pit-${pit}`}>{t.pit(pit)}</h2>
          <Scroll label={t.caption(pit)}>
            <table class="figures pit" data-testid={`pit-${pit}`}>
              <caption class="sr-only">{t.caption(pit)}</caption>
              <Head columns={t.columns} />
              <tbody>
                {data!.rows
                  .filter((r) => r.table.pit === pit)
                  .map((r) => (
                    <tr key={r.table.id} data-table={r.table.code}>
                      <th scope="row">
                        <a href={`#/tables/${r.table.id}`}>{r.table.code}</a>
                        {desk && (
                          <>
                            {' '}
                            <a class="desk-link" href={`#/desk/${r.table.id}`} aria-label={t.deskOf(r.table.code)}>
                              {t.desk}
                            </a>
                          </>
                        )}
                      </th>
                      <td>{w.variants[r.table.variant]}</td>
                      <td>{r.shoe ? `#${r.shoe.number}` : t.noShoe}</td>
                      <td class="num">{r.shoe ? f.integer(r.shoe.cardsLeft) : '—'}</td>
                      <td class="num" data-field="coups" data-value={r.figures ? r.figures.coups : data!.reports ? 0 : undefined}>
                        {r.figures ? f.integer(r.figures.coups) : data!.reports ? f.integer(0) : '—'}
                      </td>
                      <Money field="drop" v={r.drop} currency={r.table.currency} />
                      <Money field="estimatedDrop" v={r.estimated} currency={r.table.currency} />
                      <Money field="handle" v={r.figures?.handle ?? (data!.reports ? 0 : null)} currency={r.table.currency} />
                      <Money field="win" v={r.figures?.win ?? (data!.reports ? 0 : null)} currency={r.table.currency} />
                      <td class="num" data-field="holdPercent" data-value={r.figures?.holdPercent}>
                        {f.percent(r.figures?.holdPercent)}
                      </td>
                      <Money field="commissionOutstanding" v={r.figures?.commissionOutstanding ?? (data!.reports ? 0 : null)} currency={r.table.currency} />
                    </tr>
                  ))}
              </tbody>
              {(data!.totals.get(pit) ?? []).length > 0 && (
                <tfoot>
                  {data!.totals.get(pit)!.map((r) => (
                    <tr key={currencyOf(r)} data-total={currencyOf(r)}>
                      <th scope="row" colSpan={4}>
                        {t.total(pit, currencyOf(r))}
                      </th>
                      <td class="num" data-field="coups" data-value={r.coups}>
                        {f.integer(r.coups)}
                      </td>
                      <td />
                      <td />
                      <Money field="handle" v={r.handle} currency={currencyOf(r)} />
                      <Money field="win" v={r.win} currency={currencyOf(r)} />
                      <td class="num" data-field="holdPercent" data-value={r.holdPercent}>
                        {f.percent(r.holdPercent)}
                      </td>
                      <Money field="commissionOutstanding" v={r.commissionOutstanding} currency={currencyOf(r)} />
                    </tr>
                  ))}
                </tfoot>
              )}
            </table>
          </Scroll>
        </section>
      ))}
      {data && !data.reports && <p class="hint">{t.noReports}</p>}
    </main>
  );
}

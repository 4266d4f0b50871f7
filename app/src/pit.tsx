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
  columns: ['Table', 'Game', 'Shoe', 'Cards left', 'Coups today', 'Drop', 'Handle', 'Win', 'Hold % (win ÷ handle)', 'Commission outstanding'],
  noShoe: 'none open',
  noReports: "This key reads no reports: the day's figures are shown to supervisors and finance.",
  desk: 'Desk',
  deskOf: (code: string) => `Desk of table ${code}`,
};
const PIT: Words<typeof en> = {
  en,
  'zh-Hant': {
    title: '賭區總覽',
    noTable: '沒有開放的賭桌。',
    pit: (p) => `賭區 ${p}`,
    caption: (p) => `賭區 ${p} 本博彩日開放的賭桌`,
    columns: ['賭桌', '遊戲', '牌靴', '剩餘牌數', '今日局數', '投放額', '投注額', '贏額', '保留率 %（贏額 ÷ 投注額）', '未收佣金'],
    noShoe: '未開靴',
    noReports: '此金鑰不能讀取報表：當日數字只向主管及財務顯示。',
    desk: '枱面',
    deskOf: (code) => `賭枱 ${code} 的枱面操作`,
  },
  'zh-Hans': {
    title: '赌区总览',
    noTable: '没有开放的赌桌。',
    pit: (p) => `赌区 ${p}`,
    caption: (p) => `赌区 ${p} 本博彩日开放的赌桌`,
    columns: ['赌桌', '游戏', '牌靴', '剩余牌数', '今日局数', '投放额', '投注额', '赢额', '保留率 %（赢额 ÷ 投注额）', '未收佣金'],
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

interface PitRow {
  table: Table;
  day: string;
  shoe: Shoe | null;
  figures: Row | null;
  drop: Accounting['drop'] | null;
}

/** Every open table, by pit: its shoe, and this gaming day's coups, drop, win, hold and commission outstanding. */
async function loadPit(caller: Caller): Promise<{ rows: PitRow[]; reports: boolean }> {
  const [tables, properties] = await Promise.all([get<Table[]>('/v1/tables'), get<Schemas['PropertyDto'][]>('/v1/properties')]);
  const open = tables.filter((t) => t.status === 'OPEN');
  const dayOf = new Map(properties.map((p) => [p.id, gamingDayNow(p.timeZone, p.gamingDayStartHour)]));
  const shoes = await Promise.all(open.map((t) => get<Shoe[]>(`/v1/tables/${t.id}/shoes`)));
  // A key that may not read the reports (a terminal's) is not sent to them.
  const reports = mayCall(caller, 'winLossReport') && mayCall(caller, 'tableAccountingReport');
  const figures = new Map<string, Row>();
  const drops = new Map<string, Accounting['drop']>();
  for (const [propertyId, day] of dayOf) {
    if (!reports || !open.some((t) => t.propertyId === propertyId)) continue;
    const [wl, acc] = await Promise.all([
      get<Schemas['WinLossDto']>('/v1/reports/win-loss', { from: day, to: day, propertyId, groupBy: 'table' }),
      get<Accounting[]>('/v1/reports/table-accounting', { from: day, to: day, propertyId }),
    ]);
    for (const r of wl.rows) figures.set((r.group as { tableId: string }).tableId, r);
    for (const a of acc) if (a.sessions > 0) drops.set(a.tableId, a.drop);
  }
  const rows = open.map((table, i) => ({
    table,
    day: dayOf.get(table.propertyId) ?? '',
    shoe: shoes[i].find((s) => s.status === 'OPEN') ?? null,
    figures: figures.get(table.id) ?? null,
    drop: drops.get(table.id) ?? null,
  }));
  rows.sort((a, b) => a.table.pit.localeCompare(b.table.pit) || a.table.code.localeCompare(b.table.code));
  return { rows, reports };
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
                      <Money field="handle" v={r.figures?.handle ?? (data!.reports ? 0 : null)} currency={r.table.currency} />
                      <Money field="win" v={r.figures?.win ?? (data!.reports ? 0 : null)} currency={r.table.currency} />
                      <td class="num" data-field="holdPercent" data-value={r.figures?.holdPercent}>
                        {f.percent(r.figures?.holdPercent)}
                      </td>
                      <Money field="commissionOutstanding" v={r.figures?.commissionOutstanding ?? (data!.reports ? 0 : null)} currency={r.table.currency} />
                    </tr>
                  ))}
              </tbody>
            </table>
          </Scroll>
        </section>
      ))}
      {data && !data.reports && <p class="hint">{t.noReports}</p>}
    </main>
  );
}

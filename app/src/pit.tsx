import { ErrorNote } from './error-note';
import { get, Schemas } from './api';
import { useLive, useLoad } from './hooks';
import { money, percent } from './format';
import { gamingDayNow } from './gaming-day';
import { Scroll } from './scroll';

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
async function loadPit(): Promise<{ rows: PitRow[]; reports: boolean }> {
  const [tables, properties] = await Promise.all([get<Table[]>('/v1/tables'), get<Schemas['PropertyDto'][]>('/v1/properties')]);
  const open = tables.filter((t) => t.status === 'OPEN');
  const dayOf = new Map(properties.map((p) => [p.id, gamingDayNow(p.timeZone, p.gamingDayStartHour)]));
  const shoes = await Promise.all(open.map((t) => get<Shoe[]>(`/v1/tables/${t.id}/shoes`)));
  let reports = true;
  const figures = new Map<string, Row>();
  const drops = new Map<string, Accounting['drop']>();
  for (const [propertyId, day] of dayOf) {
    if (!open.some((t) => t.propertyId === propertyId)) continue;
    try {
      const [wl, acc] = await Promise.all([
        get<Schemas['WinLossDto']>('/v1/reports/win-loss', { from: day, to: day, propertyId, groupBy: 'table' }),
        get<Accounting[]>('/v1/reports/table-accounting', { from: day, to: day, propertyId }),
      ]);
      for (const r of wl.rows) figures.set((r.group as { tableId: string }).tableId, r);
      for (const a of acc) if (a.sessions > 0) drops.set(a.tableId, a.drop);
    } catch {
      reports = false; // a terminal's key reads no reports
    }
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
  const { data, error, reload } = useLoad(loadPit, []);
  const ids = data?.rows.map((r) => r.table.id).join(',') ?? '';
  const live = useLive(ids ? `/v1/events?tables=${ids}` : null, reload);
  const pits = [...new Set(data?.rows.map((r) => r.table.pit) ?? [])];
  return (
    <main>
      <div class="title">
        <h1>Pit overview</h1>
        <LiveBadge live={live} />
      </div>
      <ErrorNote message={error} />
      {data && data.rows.length === 0 && <p>No table is open.</p>}
      {pits.map((pit) => (
        <section key={pit} aria-labelledby={`pit-${pit}`}>
          <h2 id={`pit-${pit}`}>Pit {pit}</h2>
          <Scroll label={`Pit ${pit} tables`}>
            <table class="figures pit" data-testid={`pit-${pit}`}>
              <caption class="sr-only">Open tables of pit {pit}, this gaming day</caption>
              <thead>
                <tr>
                  <th scope="col">Table</th>
                  <th scope="col">Game</th>
                  <th scope="col">Shoe</th>
                  <th scope="col">Cards left</th>
                  <th scope="col">Coups today</th>
                  <th scope="col">Drop</th>
                  <th scope="col">Handle</th>
                  <th scope="col">Win</th>
                  <th scope="col">Hold % (win ÷ handle)</th>
                  <th scope="col">Commission outstanding</th>
                </tr>
              </thead>
              <tbody>
                {data!.rows
                  .filter((r) => r.table.pit === pit)
                  .map((r) => (
                    <tr key={r.table.id} data-table={r.table.code}>
                      <th scope="row">
                        <a href={`#/tables/${r.table.id}`}>{r.table.code}</a>
                      </th>
                      <td>{r.table.variant.replace(/_/g, ' ').toLowerCase()}</td>
                      <td>{r.shoe ? `#${r.shoe.number}` : 'none open'}</td>
                      <td class="num">{r.shoe ? r.shoe.cardsLeft : '—'}</td>
                      <td class="num" data-field="coups">
                        {r.figures ? r.figures.coups : data!.reports ? 0 : '—'}
                      </td>
                      <Money field="drop" v={r.drop} currency={r.table.currency} />
                      <Money field="handle" v={r.figures?.handle ?? (data!.reports ? 0 : null)} currency={r.table.currency} />
                      <Money field="win" v={r.figures?.win ?? (data!.reports ? 0 : null)} currency={r.table.currency} />
                      <td class="num" data-field="holdPercent" data-value={r.figures?.holdPercent}>
                        {percent(r.figures?.holdPercent)}
                      </td>
                      <Money field="commissionOutstanding" v={r.figures?.commissionOutstanding ?? (data!.reports ? 0 : null)} currency={r.table.currency} />
                    </tr>
                  ))}
              </tbody>
            </table>
          </Scroll>
        </section>
      ))}
      {data && !data.reports && <p class="hint">This key reads no reports: the day's figures are shown to supervisors and finance.</p>}
    </main>
  );
}

/** A money cell: the amount as read, and its exact minor units for machines (data-minor). */
export function Money({ v, currency, field }: { v: number | bigint | null | undefined; currency: string; field?: string }) {
  const cls = v !== null && v !== undefined && BigInt(v) < 0n ? 'num negative' : 'num';
  return (
    <td class={cls} data-field={field} data-minor={v === null || v === undefined ? undefined : String(v)}>
      {money(v, currency)}
    </td>
  );
}

export function LiveBadge({ live }: { live: boolean }) {
  return (
    <span class={live ? 'badge live' : 'badge'} role="status" aria-live="polite">
      {live ? 'Live' : 'Connecting…'}
    </span>
  );
}

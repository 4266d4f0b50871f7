import { ErrorNote } from './error-note';
import { Range, RangeForm } from './range-form';
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { downloadCsv, get, Schemas } from './api';
import { useLoad } from './hooks';
import { exponentOf, useFormat } from './format';
import { gamingDayNow } from './gaming-day';
import { Money } from './cells';
import { Scroll } from './scroll';

type WinLoss = Schemas['WinLossDto'];
type Row = Schemas['WinLossRowDto'];
type Property = Schemas['PropertyDto'];

const GROUPS = [
  { by: 'gamingDay', title: 'By gaming day', column: 'Gaming day', key: (g: Record<string, string>) => g.gamingDay },
  { by: 'table', title: 'By table', column: 'Table', key: (g: Record<string, string>) => g.tableCode },
  { by: 'betType', title: 'By bet type', column: 'Bet type', key: (g: Record<string, string>) => g.betType.toLowerCase().replace(/_/g, ' ') },
] as const;

function quarterOf(day: string): { year: number; quarter: number; from: string } {
  const [y, m] = day.split('-').map(Number);
  const q = Math.floor((m - 1) / 3) + 1;
  return { year: y, quarter: q, from: `${y}-${String((q - 1) * 3 + 1).padStart(2, '0')}-01` };
}

export function Finance() {
  const props = useLoad(() => get<Property[]>('/v1/properties'), []);
  const [range, setRange] = useState<Range | null>(null);
  useEffect(() => {
    const p = props.data?.[0];
    if (p && !range) {
      const today = gamingDayNow(p.timeZone, p.gamingDayStartHour);
      setRange({ from: quarterOf(today).from, to: today, propertyId: p.id });
    }
  }, [props.data]);
  return (
    <main class="finance">
      <h1>Finance</h1>
      <ErrorNote problem={props.error} />
      {range && props.data && (
        <>
          <RangeForm label="Period" range={range} properties={props.data} onChange={setRange} />
          {GROUPS.map((g) => (
            <Report key={g.by + JSON.stringify(range)} range={range} group={g} />
          ))}
          <Quarterly key={range.propertyId + range.to} range={range} />
        </>
      )}
    </main>
  );
}

function Report({ range, group }: { range: Range; group: (typeof GROUPS)[number] }) {
  const query = { ...range, groupBy: group.by };
  const { data, error } = useLoad(() => get<WinLoss>('/v1/reports/win-loss', query), []);
  const id = `report-${group.by}`;
  return (
    <section aria-labelledby={id} data-testid={id}>
      <div class="title">
        <h2 id={id}>{group.title}</h2>
        <button onClick={() => void downloadCsv('/v1/reports/win-loss', query, `win-loss-${group.by}-${range.from}-${range.to}.csv`)}>Download CSV</button>
      </div>
      <ErrorNote problem={error} />
      {data && group.by === 'gamingDay' && data.rows.length > 0 && (
        <WinChart rows={data.rows} range={range} currency={(data.rows[0].group as { currency: string }).currency} />
      )}
      {data && <Figures rows={data.rows} totals={data.totals as Row | null} label={group.title} column={group.column} keyOf={(r) => group.key(r.group)} />}
    </section>
  );
}

/**
 * How far the actual win lies from the theoretical, in standard deviations of the wagers' exact
 * odds: within ±2σ luck explains it (about 19 periods in 20); beyond, a reason should be found.
 */
function Luck({ row }: { row: Row }) {
  const sd = BigInt(row.theoreticalWinStdDev);
  if (sd === 0n) return <td data-field="z">—</td>;
  // z to one decimal, from integers: (win − theo) × 10 / σ, rounded half away from zero.
  const d = BigInt(row.winMinusTheoretical) * 20n;
  const tenths = (d + (d < 0n ? -sd : sd)) / (2n * sd);
  const abs = tenths < 0n ? -tenths : tenths;
  const outside = abs > 20n;
  return (
    <td class={outside ? 'num outside' : 'num'} data-field="z" data-value={tenths.toString()}>
      {`${tenths < 0n ? '−' : '+'}${abs / 10n}.${abs % 10n}σ`} {outside ? 'outside ±2σ: look for a reason' : 'within ±2σ: luck'}
    </td>
  );
}

function Figures({ rows, totals, label, column, keyOf }: { rows: Row[]; totals: Row | null; label: string; column: string; keyOf: (r: Row) => string }) {
  const f = useFormat();
  const line = (r: Row, name: string, currency: string) => (
    <tr key={name} data-row={name}>
      <th scope="row">{name}</th>
      <td class="num" data-field="coups">
        {r.coups ?? '—'}
      </td>
      <Money field="handle" v={r.handle} currency={currency} />
      <Money field="win" v={r.win} currency={currency} />
      <td class="num" data-field="holdPercent" data-value={r.holdPercent}>
        {f.percent(r.holdPercent)}
      </td>
      <Money field="theoreticalWin" v={r.theoreticalWin} currency={currency} />
      <Money field="winMinusTheoretical" v={r.winMinusTheoretical} currency={currency} />
      <Money field="theoreticalWinStdDev" v={r.theoreticalWinStdDev} currency={currency} />
      <Luck row={r} />
      <Money field="commissionOutstanding" v={r.commissionOutstanding} currency={currency} />
    </tr>
  );
  return (
    <Scroll label={`Win and loss ${label.toLowerCase()}`}>
      <table class="figures">
        <caption class="sr-only">Win and loss {label.toLowerCase()}</caption>
        <thead>
          <tr>
            <th scope="col">{column}</th>
            <th scope="col">Coups</th>
            <th scope="col">Handle</th>
            <th scope="col">Win</th>
            <th scope="col">Hold %</th>
            <th scope="col">Theoretical win</th>
            <th scope="col">Win − theoretical</th>
            <th scope="col">Standard deviation (σ)</th>
            <th scope="col">Luck or a problem?</th>
            <th scope="col">Commission outstanding</th>
          </tr>
        </thead>
        <tbody>{rows.map((r) => line(r, keyOf(r), (r.group as { currency: string }).currency))}</tbody>
        {totals && rows.length > 0 && <tfoot>{line(totals, 'Total', (totals as unknown as { currency: string }).currency ?? 'USD')}</tfoot>}
      </table>
    </Scroll>
  );
}

/** Actual win against theoretical win, day by day, summed over the period (uPlot). */
function WinChart({ rows, range, currency }: { rows: Row[]; range: Range; currency: string }) {
  const el = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!el.current) return;
    const byDay = new Map(rows.map((r) => [(r.group as { gamingDay: string }).gamingDay, r]));
    const days: number[] = [];
    const unit = 10 ** exponentOf(currency);
    let a = 0n;
    let t = 0n;
    const actual: number[] = [];
    const theo: number[] = [];
    const upper: number[] = [];
    const lower: number[] = [];
    let variance = 0; // of the cumulative win: the days' variances add (a picture: doubles are enough)
    for (let d = Date.parse(range.from); d <= Date.parse(range.to); d += 86_400_000) {
      days.push(d / 1000);
      const r = byDay.get(new Date(d).toISOString().slice(0, 10));
      a += BigInt(r?.win ?? 0);
      t += BigInt(r?.theoreticalWin ?? 0);
      variance += Number(r?.theoreticalWinStdDev ?? 0) ** 2;
      // Drawn in major units: a picture, not a figure (the table below holds the exact ones).
      actual.push(Number(a) / unit);
      theo.push(Number(t) / unit);
      upper.push((Number(t) + 2 * Math.sqrt(variance)) / unit);
      lower.push((Number(t) - 2 * Math.sqrt(variance)) / unit);
    }
    const plot = new uPlot(
      {
        width: Math.min((el.current.clientWidth || 816) - 16, 1100),
        height: 260,
        series: [
          {},
          { label: 'Actual win (cumulative)', stroke: '#ffd166', width: 2 },
          { label: 'Theoretical win (cumulative)', stroke: '#8ecae6', width: 2, dash: [6, 4] },
          { label: 'Theoretical + 2σ', stroke: '#9aa5b1', width: 1, dash: [2, 3] },
          { label: 'Theoretical − 2σ', stroke: '#9aa5b1', width: 1, dash: [2, 3] },
        ],
        axes: [
          { stroke: '#ddd', grid: { stroke: '#333' } },
          { stroke: '#ddd', grid: { stroke: '#333' } },
        ],
      },
      [days, actual, theo, upper, lower],
      el.current,
    );
    const box = el.current;
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.min(box.clientWidth - 16, 1100), height: 260 }));
    resize.observe(box);
    const legend = plot.root.querySelector('table');
    if (legend) {
      const caption = legend.createCaption();
      caption.className = 'sr-only';
      caption.textContent = 'Legend: the value of each line at the pointer';
    }
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [rows, range]);
  return (
    <div ref={el} class="chart" role="img" aria-label="Cumulative actual win against theoretical win and its band of two standard deviations, by gaming day" />
  );
}

function Quarterly({ range }: { range: Range }) {
  const { year, quarter } = quarterOf(range.to);
  const query = { propertyId: range.propertyId, year, quarter };
  const f = useFormat();
  const { data, error } = useLoad(() => get<Schemas['QuarterlyDto']>('/v1/reports/quarterly', query), []);
  return (
    <section aria-labelledby="quarterly" data-testid="quarterly">
      <div class="title">
        <h2 id="quarterly">
          Quarterly statement, {year} Q{quarter}
        </h2>
        <button onClick={() => void downloadCsv('/v1/reports/quarterly', query, `quarterly-${year}-Q${quarter}.csv`)}>Download CSV</button>
      </div>
      <ErrorNote problem={error} />
      {data && (
        <Scroll label="Quarter totals">
          <table class="figures">
            <caption class="sr-only">Quarter totals by currency</caption>
            <thead>
              <tr>
                <th scope="col">Currency</th>
                <th scope="col">Coups</th>
                <th scope="col">Handle</th>
                <th scope="col">Win</th>
                <th scope="col">Hold %</th>
                <th scope="col">Commission charged</th>
                <th scope="col">Revenue</th>
                <th scope="col">Theoretical win</th>
              </tr>
            </thead>
            <tbody>
              {data.totals.map((t) => (
                <tr key={t.currency} data-row={t.currency}>
                  <th scope="row">{t.currency}</th>
                  <td class="num">{t.coups}</td>
                  <Money field="handle" v={t.handle} currency={t.currency} />
                  <Money field="win" v={t.win} currency={t.currency} />
                  <td class="num">{f.percent(t.holdPercent)}</td>
                  <Money field="commissionCharged" v={t.commissionCharged} currency={t.currency} />
                  <Money field="revenue" v={t.revenue} currency={t.currency} />
                  <Money field="theoreticalWin" v={t.theoreticalWin} currency={t.currency} />
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      {data && data.totals.length === 0 && <p>No play recorded this quarter.</p>}
    </section>
  );
}

import { ErrorNote } from './error-note';
import { Range, RangeForm } from './range-form';
import { useEffect, useState } from 'preact/hooks';
import { get, Schemas } from './api';
import { useLoad } from './hooks';
import { formatter } from './format';
import { gamingDayNow } from './gaming-day';
import { Scroll } from './scroll';

// English until this screen's words are translated (issue 39).
const { money } = formatter('en');

type Advice = Schemas['YieldAdviceDto'];
type Hour = Schemas['YieldHourDto'];
type Estimate = Schemas['YieldEstimateDto'];
type Evaluation = Schemas['YieldEvaluationDto'];
type Property = Schemas['PropertyDto'];

const DAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const DAY_MS = 86_400_000;
const shift = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** An estimate with its band: "600.00 (80.00 to 560.00)", or without a band when there is none. */
function band(e: Estimate, currency: string): string {
  const m = money(e.theo, currency);
  return e.low === null || e.high === null ? m : `${m} (${money(e.low, currency)} to ${money(e.high, currency)})`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const signed = (v: number | bigint, currency: string) => (BigInt(v) > 0n ? '+' : '') + money(v, currency);

/**
 * The pit revenue analyst's screen (/app/#/yield; docs/domain.md §15): for each hour of the week, the
 * advised tables at each minimum, the theoretical win per hour expected of the advice against what was
 * done, and the gain with its band; and the held-back test of the advice.
 */
export function Yield() {
  const props = useLoad(() => get<Property[]>('/v1/properties'), []);
  const [range, setRange] = useState<Range | null>(null);
  useEffect(() => {
    const p = props.data?.[0];
    if (p && !range) {
      const today = gamingDayNow(p.timeZone, p.gamingDayStartHour);
      setRange({ from: shift(today, -7 * 12 + 1), to: today, propertyId: p.id });
    }
  }, [props.data]);
  return (
    <main class="yield">
      <h1>Yield advisor</h1>
      <p class="hint">
        From this property&apos;s own history: players seated per open table by hour of the week, and what a higher minimum kept of them. Theoretical win per
        hour; bands are ±2 standard errors over the weeks.
      </p>
      <ErrorNote problem={props.error} />
      {!props.data && !props.error && <p role="status">Loading…</p>}
      {range && props.data && (
        <>
          <RangeForm label="History" range={range} properties={props.data} onChange={setRange} />
          <WeekGrid key={JSON.stringify(range)} range={range} />
          <HeldBack key={'held' + JSON.stringify(range)} range={range} />
        </>
      )}
    </main>
  );
}

function WeekGrid({ range }: { range: Range }) {
  const { data, error } = useLoad(() => get<Advice>('/v1/reports/yield-advice', { ...range }), []);
  const currency = data?.currency ?? 'EUR';
  return (
    <section aria-labelledby="yield-week" data-testid="yield-week">
      <h2 id="yield-week">The week: advice against what was done</h2>
      <ErrorNote problem={error} />
      {!data && !error && <p role="status">Loading the advice…</p>}
      {data && data.levels.length === 0 && <p data-testid="yield-empty">No table played in this range: there is nothing to advise from.</p>}
      {data && data.levels.length > 0 && (
        <>
          <dl class="facts" data-testid="yield-totals">
            <div>
              <dt>Advice, a week</dt>
              <dd data-field="expected" data-minor={String(data.totals.expected.theo)}>
                {band(data.totals.expected, currency)}
              </dd>
            </div>
            <div>
              <dt>Done, a week</dt>
              <dd data-field="actual" data-minor={String(data.totals.actual.theo)}>
                {band(data.totals.actual, currency)}
              </dd>
            </div>
            <div>
              <dt>Gain, a week</dt>
              <dd data-field="gain" data-minor={String(data.totals.gain.theo)}>
                {band(data.totals.gain, currency)}
              </dd>
            </div>
          </dl>
          <Levels data={data} currency={currency} />
          <Scroll label="Advice by hour of the week">
            <table class="figures yield-grid">
              <caption>
                Each hour of the week ({plural(data.weeks, 'week')}, {plural(data.tables, 'table')} of {data.seatsPerTable} seats): tables advised at each
                minimum, expected theoretical win per hour against what was done, and the gain
              </caption>
              <thead>
                <tr>
                  <th scope="col">Hour</th>
                  {DAYS.map((d) => (
                    <th scope="col" key={d}>
                      {d}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {Array.from({ length: 24 }, (_, hour) => (
                  <tr key={hour}>
                    <th scope="row">{`${String(hour).padStart(2, '0')}:00`}</th>
                    {DAYS.map((_d, day) => (
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
  if (!h) return <td>—</td>;
  if (h.advice.length === 0 && h.done.length === 0) return <td data-hour={h.hourOfWeek}>closed</td>;
  const tables = h.advice.map((a) => `${a.tables} × ${money(a.minBet, currency)}`).join(', ') || 'close all';
  const gain = BigInt(h.gain.theo);
  return (
    <td data-hour={h.hourOfWeek} class="yield-cell">
      <span data-field="advice">{tables}</span>
      <span data-field="expected" data-minor={String(h.expected.theo)}>
        advice {money(h.expected.theo, currency)}
      </span>
      <span data-field="actual" data-minor={String(h.actual.theo)}>
        done {money(h.actual.theo, currency)}
      </span>
      <span data-field="gain" data-minor={String(h.gain.theo)} class={gain < 0n ? 'negative' : undefined}>
        gain {signed(h.gain.theo, currency)}
        {h.gain.low !== null && h.gain.high !== null ? ` (${money(h.gain.low, currency)} to ${money(h.gain.high, currency)})` : ''}
      </span>
    </td>
  );
}

function Levels({ data, currency }: { data: Advice; currency: string }) {
  return (
    <Scroll label="What the data says of each minimum">
      <table class="figures" data-testid="yield-levels">
        <caption>What the data says of each minimum</caption>
        <thead>
          <tr>
            <th scope="col">Minimum</th>
            <th scope="col">Table-hours</th>
            <th scope="col">Players per table</th>
            <th scope="col">Average bet</th>
            <th scope="col">Theo per seat-hour</th>
            <th scope="col">Players kept</th>
          </tr>
        </thead>
        <tbody>
          {data.levels.map((l) => (
            <tr key={String(l.minBet)} data-row={String(l.minBet)}>
              <th scope="row">{money(l.minBet, currency)}</th>
              <td class="num">{l.tableHours}</td>
              <td class="num">{l.occupancy ?? '—'}</td>
              <td class="num">{money(l.averageBet, currency)}</td>
              <td class="num">{money(l.theoPerSeatHour, currency)}</td>
              <td class="num" data-field="retention">
                {l.retention === null ? 'not seen beside the lowest' : `${(Number(l.retention) * 100).toFixed(1)} %`}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}

function HeldBack({ range }: { range: Range }) {
  const [weeks, setWeeks] = useState(4);
  const { data, error } = useLoad(() => get<Evaluation>('/v1/reports/yield-evaluation', { ...range, holdBackWeeks: weeks }), [weeks]);
  const currency = data?.advice.currency ?? 'EUR';
  return (
    <section aria-labelledby="yield-held" data-testid="yield-held">
      <h2 id="yield-held">Would the advice have won more? The last weeks held back</h2>
      <label>
        Weeks held back
        <select value={weeks} onChange={(e) => setWeeks(Number(e.currentTarget.value))}>
          {[1, 2, 4, 8].map((w) => (
            <option key={w} value={w}>
              {w}
            </option>
          ))}
        </select>
      </label>
      <ErrorNote problem={error} />
      {!data && !error && <p role="status">Loading the test…</p>}
      {data && (
        <>
          <p>
            Advice made from {data.trainFrom} to {data.trainTo}, tested on {data.heldFrom} to {data.heldTo}.
          </p>
          <dl class="facts">
            <div>
              <dt>Advice, expected</dt>
              <dd data-field="advised" data-minor={String(data.advised.theo)}>
                {band(data.advised, currency)}
              </dd>
            </div>
            <div>
              <dt>Done (theoretical win)</dt>
              <dd data-field="actual" data-minor={String(data.actual)}>
                {money(data.actual, currency)}
              </dd>
            </div>
            <div>
              <dt>Gain</dt>
              <dd data-field="gain" data-minor={String(data.gain.theo)}>
                {band(data.gain, currency)}
              </dd>
            </div>
          </dl>
        </>
      )}
    </section>
  );
}

import type { ComponentChildren } from 'preact';
import { Schemas } from './api';
import { daysAtProperty } from './gaming-day';
import { useT, Words } from './i18n';

const en = { property: 'Property', from: 'From', to: 'To' };
const RANGE: Words<typeof en> = {
  en,
  'zh-Hant': { property: '娛樂場', from: '由', to: '至' },
  'zh-Hans': { property: '娱乐场', from: '从', to: '至' },
};

/** A report's range: a property and its first and last gaming days. */
export interface Range {
  from: string;
  to: string;
  propertyId: string;
}

/**
 * The property and the days a screen covers (finance, yield, patrons, the cage, the VIP room), with
 * `anyProperty` the label of a first choice meaning every property (its id ''), and `children` the
 * screen's own controls after the dates (a "Read again" button).
 */
export function RangeForm({
  label,
  range,
  properties,
  onChange,
  anyProperty,
  children,
}: {
  label: string;
  range: Range;
  properties: Schemas['PropertyDto'][];
  onChange: (r: Range) => void;
  anyProperty?: string;
  children?: ComponentChildren;
}) {
  const t = useT(RANGE);
  const clock = (id: string) => properties.find((p) => p.id === id);
  /** Another property chosen: "today" follows it to its own gaming day; days chosen by hand stay. */
  const atProperty = (propertyId: string): Range => ({ ...range, ...daysAtProperty(range, clock(range.propertyId), clock(propertyId)), propertyId });
  return (
    <form class="range" onSubmit={(e) => e.preventDefault()} aria-label={label}>
      <label>
        {t.property}
        <select value={range.propertyId} onChange={(e) => onChange(atProperty(e.currentTarget.value))}>
          {anyProperty !== undefined && <option value="">{anyProperty}</option>}
          {properties.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t.from}
        <input type="date" value={range.from} onChange={(e) => e.currentTarget.value && onChange({ ...range, from: e.currentTarget.value })} />
      </label>
      <label>
        {t.to}
        <input type="date" value={range.to} onChange={(e) => e.currentTarget.value && onChange({ ...range, to: e.currentTarget.value })} />
      </label>
      {children}
    </form>
  );
}

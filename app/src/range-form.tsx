import { Schemas } from './api';

/** A report's range: a property and its first and last gaming days. */
export interface Range {
  from: string;
  to: string;
  propertyId: string;
}

/** The property and the days a report covers, as the finance and yield screens ask for them. */
export function RangeForm({
  label,
  range,
  properties,
  onChange,
}: {
  label: string;
  range: Range;
  properties: Schemas['PropertyDto'][];
  onChange: (r: Range) => void;
}) {
  return (
    <form class="range" onSubmit={(e) => e.preventDefault()} aria-label={label}>
      <label>
        Property
        <select value={range.propertyId} onChange={(e) => onChange({ ...range, propertyId: e.currentTarget.value })}>
          {properties.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        From
        <input type="date" value={range.from} onChange={(e) => e.currentTarget.value && onChange({ ...range, from: e.currentTarget.value })} />
      </label>
      <label>
        To
        <input type="date" value={range.to} onChange={(e) => e.currentTarget.value && onChange({ ...range, to: e.currentTarget.value })} />
      </label>
    </form>
  );
}

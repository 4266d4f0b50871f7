import { useFormat } from './format';
import { useT } from './i18n';
import { WORDS } from './words';

/** A money cell: the amount as read, and its exact minor units for machines (data-minor). */
export function Money({ v, currency, field }: { v: number | bigint | null | undefined; currency: string; field?: string }) {
  const f = useFormat();
  const cls = v !== null && v !== undefined && BigInt(v) < 0n ? 'num negative' : 'num';
  return (
    <td class={cls} data-field={field} data-minor={v === null || v === undefined ? undefined : String(v)}>
      {f.money(v, currency)}
    </td>
  );
}

export function LiveBadge({ live }: { live: boolean }) {
  const w = useT(WORDS);
  return (
    <span class={live ? 'badge live' : 'badge'} role="status" aria-live="polite" data-live={live}>
      {live ? w.live : w.connecting}
    </span>
  );
}

/** A table's header row: one column heading per word. */
export function Head({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}

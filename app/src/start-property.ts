import { get, Schemas } from './api';
import { gamingDayNow, shiftDay } from './gaming-day';

type Property = Schemas['PropertyDto'];
type Table = Schemas['TableDto'];

const keyOf = (screen: string) => `sabot.${screen}.property`;

/** Remembers the property chosen on a report screen (finance, yield), in this browser. */
export function rememberProperty(screen: string, id: string): void {
  try {
    localStorage.setItem(keyOf(screen), id);
  } catch {
    // private browsing: the choice lasts as long as the page
  }
}

/**
 * The property a report screen opens on: the one chosen last on it; else the one with play most
 * recently (one win/loss report by property and gaming day over the last quarter of days, from the
 * rollups: one cheap request); else the first with a table; else the first. Never the empty
 * "Default property" when another has play.
 */
export async function startProperty(screen: string, properties: Property[], tables: Table[]): Promise<Property | null> {
  if (properties.length === 0) return null;
  const byId = new Map(properties.map((p) => [p.id, p]));
  let remembered: string | null = null;
  try {
    remembered = localStorage.getItem(keyOf(screen));
  } catch {
    // private browsing
  }
  const chosen = byId.get(remembered ?? '');
  if (chosen) return chosen;
  if (tables.length === 0) return properties[0];
  const latest = properties
    .map((p) => gamingDayNow(p.timeZone, p.gamingDayStartHour))
    .sort()
    .at(-1)!;
  const recent = await get<Schemas['WinLossDto']>('/v1/reports/win-loss', { from: shiftDay(latest, -91), to: latest, groupBy: 'property,gamingDay' });
  let best: Schemas['WinLossRowDto'] | null = null;
  for (const r of recent.rows) {
    const g = r.group as { propertyId: string; gamingDay: string };
    if (!r.coups || !byId.has(g.propertyId)) continue;
    const b = best?.group as { gamingDay: string } | undefined;
    if (!best || !b || g.gamingDay > b.gamingDay || (g.gamingDay === b.gamingDay && r.coups > best.coups!)) best = r;
  }
  return (best && byId.get((best.group as { propertyId: string }).propertyId)) ?? byId.get(tables[0].propertyId) ?? properties[0];
}

/**
 * The punto banco tableau written straight from docs/domain.md §2, independently of the engine's
 * tables, so that specs can check the engine against it.
 */
export function referenceBankerDraws(bankerTotal: number, playerThird: number | null): boolean {
  const b = bankerTotal;
  const p = playerThird;
  if (p === null) return b <= 5;
  if (b <= 2) return true;
  if (b === 3) return p !== 8;
  if (b === 4) return p >= 2 && p <= 7;
  if (b === 5) return p >= 4 && p <= 7;
  if (b === 6) return p === 6 || p === 7;
  return false;
}

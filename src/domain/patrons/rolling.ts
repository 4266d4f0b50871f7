import { holdPercent, houseWin, theoreticalWin } from '../finance/accounting';
import { fractionToDecimal } from '../game/odds';
import { DomainError } from '../errors';
import { Money, roundMoney } from '../money/money';

/**
 * Rolling-chip play (docs/domain.md §14). A casino issues non-negotiable ("dead") chips to a patron
 * or a junket against front money, cash or a marker: they may be wagered but never cashed. A losing
 * wager of dead chips is *rolled* (the house takes the chips); a winning one is paid in cash chips,
 * and its dead chips stay with the player; a push leaves them too. The money of a dead-chip wager is
 * a cash wager's (its net, its commission); what differs is which chips move, and so the turnover
 * the premium market is measured by.
 */

/** The chips a wager is placed in. */
export type Chips = 'CASH' | 'DEAD';
export const CHIPS: readonly Chips[] = ['CASH', 'DEAD'];

export const chipsOf = (dead: boolean): Chips => (dead ? 'DEAD' : 'CASH');

/**
 * Dead chips are issued to a patron: a dead-chip wager must be someone's (named, or the card in at
 * its seat). Whether the patron still holds that many is not checked at the table (the chips are on
 * the layout); the rolling account shows any shortfall.
 */
export function admitChips(dead: boolean, patronId: string | null, seat: number): void {
  if (dead && patronId === null)
    throw new DomainError(
      'DEAD_CHIPS_NEED_PATRON',
      `Seat ${seat}: dead chips are issued to a patron: name the patron (patronId) or put their card in at the seat`,
      { seat },
    );
}

/** What a settled dead-chip wager did to the chips: rolled (taken by the house), or kept by the player. */
export function deadChipsRolled(stake: Money, result: 'WIN' | 'LOSE' | 'PUSH'): Money {
  return result === 'LOSE' ? stake : 0n;
}

/** A patron's (or a programme's) dead chips over a period, from the exchanges and the wagers. */
export interface RollingSums {
  /** Dead chips bought (against front money, cash, a marker, or cash chips converted). */
  readonly purchased: Money;
  /** Dead chips exchanged back. */
  readonly returned: Money;
  /** Σ stakes of the dead-chip wagers lost: the rolling turnover counted at the table. */
  readonly rolled: Money;
  /** Σ stakes of every dead-chip wager (settled). */
  readonly handle: Money;
  /** −Σ the customer's net on the dead-chip wagers (commission included). */
  readonly customerNet: Money;
  /** Σ stake × exact edge × 10^12 of the dead-chip wagers. */
  readonly theoE12: bigint;
  /** Σ dead stake × the exact probability the bet loses × 10^12: the rolling the edges expect. */
  readonly expectedRolledE12: bigint;
}

export interface RollingAccount {
  readonly purchased: Money;
  readonly returned: Money;
  /** Rolling turnover counted at the cage: purchased − returned. */
  readonly netPurchased: Money;
  /** Rolling turnover counted at the tables: the dead chips lost. */
  readonly rolled: Money;
  /** Dead chips the patron still holds: netPurchased − rolled (0 at the end of a trip: then the two counts agree). */
  readonly inHand: Money;
  /** The two counts of rolling agree (nothing left in hand). */
  readonly agrees: boolean;
  readonly handle: Money;
  readonly win: Money;
  /** Rolling-chip win %: win ÷ rolled, 4 decimals. */
  readonly rollingWinPercent: string | null;
  readonly theoreticalWin: Money;
  /** Theoretical rolling-chip win %: Σ stake × edge ÷ Σ stake × P(the bet loses), 4 decimals. */
  readonly theoreticalRollingWinPercent: string | null;
}

/** The rolling account over a period (docs/domain.md §14): each figure once. */
export function rollingAccount(s: RollingSums): RollingAccount {
  const netPurchased = s.purchased - s.returned;
  const inHand = netPurchased - s.rolled;
  const win = houseWin(s.customerNet);
  const theo = theoreticalWin(s.theoE12);
  return {
    purchased: s.purchased,
    returned: s.returned,
    netPurchased,
    rolled: s.rolled,
    inHand,
    agrees: inHand === 0n,
    handle: s.handle,
    win,
    rollingWinPercent: holdPercent(win, s.rolled),
    theoreticalWin: theo,
    theoreticalRollingWinPercent: s.expectedRolledE12 === 0n ? null : fractionToDecimal({ numerator: s.theoE12 * 100n, denominator: s.expectedRolledE12 }, 4),
  };
}

/** A version of a rolling-chip programme, effective from a gaming day (YYYY-MM-DD). */
export interface ProgrammeVersion {
  readonly basis: 'ROLLING' | 'WIN_LOSS';
  /** Commission to the patron or junket: basis points of the rolling, or of the house's win/loss. */
  readonly commissionBps: number;
  /** A trip allowance (room, travel): basis points of the rolling. */
  readonly allowanceBps: number;
  readonly effectiveFrom: string;
}

/** A gaming day's rolling and the house's win on it (the dead-chip wagers). */
export interface RollingDay {
  readonly day: string;
  readonly rolled: Money;
  readonly win: Money;
}

/**
 * The version in force on a gaming day (a programme's, a junket membership's): the latest effective
 * on or before it (none before the first).
 */
export function versionOn<V extends { readonly effectiveFrom: string }>(versions: readonly V[], day: string): V | null {
  let found: V | null = null;
  for (const v of versions) if (v.effectiveFrom <= day && (found === null || v.effectiveFrom > found.effectiveFrom)) found = v;
  return found;
}

/** What a programme owes over a period (docs/domain.md §14). */
export interface ProgrammeDue {
  /** Σ over the days of the basis × the day's rate; a share of a loss is negative (the junket shares it). */
  readonly commission: Money;
  readonly allowance: Money;
  /** The house's win after the programme: win − commission − allowance. */
  readonly netWin: Money;
  /** Days played before the programme's first version: nothing is due on them. */
  readonly daysOutside: readonly string[];
}

/**
 * Commission and allowance over a period: each day at the version in force on it, summed exactly
 * in 1/10,000 of the minor unit and rounded once, half away from zero, by the one rounding of money.
 */
export function programmeDue(versions: readonly ProgrammeVersion[], days: readonly RollingDay[], win: Money): ProgrammeDue {
  const daysOutside = days.filter((d) => !versionOn(versions, d.day)).map((d) => d.day);
  const exact = exactDueE4(versions, days);
  const c = roundBps(exact.commission);
  const a = roundBps(exact.allowance);
  return { commission: c, allowance: a, netWin: win - c - a, daysOutside: [...daysOutside].sort() };
}

/**
 * An amount × 10,000 (basis points applied) to the minor unit, half away from zero: money that
 * changes hands, so through THE rounding function (money.ts roundMoney), on its magnitude.
 */
function roundBps(v: bigint): Money {
  const magnitude = roundMoney(v < 0n ? -v : v, 1n, 10_000n, { mode: 'HALF_UP', unit: 1 });
  return v < 0n ? -magnitude : magnitude;
}

/**
 * A programme's dues shared among the players who earned them: each share's exact amount × 10,000
 * (its basis × the day's rate, summed over its days) and the programme's total as programmeDue
 * rounded it. Each share gets the whole minor units below its exact amount, and the units the
 * rounding left over go one each to the shares with the largest remainders (the earlier share on a
 * tie): the shares add up to the total exactly, and none is more than a minor unit from its own.
 */
export function apportionDue(total: Money, exactE4: readonly bigint[]): Money[] {
  const floors = exactE4.map((x) => (x >= 0n ? x / 10_000n : -((-x + 9_999n) / 10_000n)));
  let left = total - floors.reduce((a, b) => a + b, 0n);
  if (left < 0n || left > BigInt(exactE4.length))
    throw new RangeError(`A total of ${total} is not the rounding of shares adding up to ${exactE4.reduce((a, b) => a + b, 0n)} × 10^-4`);
  const order = exactE4.map((x, i) => ({ i, rest: x - floors[i] * 10_000n })).sort((a, b) => (a.rest === b.rest ? a.i - b.i : a.rest > b.rest ? -1 : 1));
  const shares = [...floors];
  for (const { i } of order) {
    if (left === 0n) break;
    shares[i] += 1n;
    left -= 1n;
  }
  return shares;
}

/** A share's exact dues × 10,000 over its days at the programme's versions: the sums programmeDue rounds. */
export function exactDueE4(versions: readonly ProgrammeVersion[], days: readonly RollingDay[]): { commission: bigint; allowance: bigint } {
  let commission = 0n;
  let allowance = 0n;
  for (const d of days) {
    const v = versionOn(versions, d.day);
    if (!v) continue;
    commission += (v.basis === 'ROLLING' ? d.rolled : d.win) * BigInt(v.commissionBps);
    allowance += d.rolled * BigInt(v.allowanceBps);
  }
  return { commission, allowance };
}

/** The most a programme may pay, basis points (the property's credit policy: docs/domain/credit.md). */
export interface ProgrammeCaps {
  /** On the rolling: commission on a ROLLING programme and every programme's allowance, together. */
  readonly rollingCommissionCapBps: number;
  /** On the house's win or loss: commission on a WIN_LOSS programme. */
  readonly winLossCommissionCapBps: number;
}

/** Basis points as a percentage with two decimals (150 → "1.50 %"), for a message. */
const percent = (bps: number) => `${Math.trunc(bps / 100)}.${String(bps % 100).padStart(2, '0')} %`;

/**
 * When a programme version may start (gaming days as YYYY-MM-DD): a new programme from today on, as
 * nobody has played under it yet; a new version of one on file only after its latest version and
 * after today, so that today's play keeps the terms it was played on. Asked for and recorded alike.
 */
export function admitProgrammeStart(code: string, effectiveFrom: string, today: string, latestDay: string | null): void {
  if (effectiveFrom < today)
    throw new DomainError('PROGRAMME_START', `A programme changes from a gaming day not yet begun: ${effectiveFrom} is before today, ${today}`);
  if (latestDay !== null && effectiveFrom <= latestDay)
    throw new DomainError('PROGRAMME_VERSION_ORDER', `Programme ${code} has a version from ${latestDay}: a new version starts after it`);
  if (latestDay !== null && effectiveFrom === today)
    throw new DomainError('PROGRAMME_START', `Programme ${code} is in force today: a new version starts from a gaming day not yet begun (after ${today})`);
}

/**
 * A programme's terms within the property's caps (docs/domain/rolling-chips.md). The allowance is
 * a share of the rolling paid back to the patron like commission, in kind rather than in chips (a
 * room, a flight): so it counts against the rolling cap, beside a ROLLING programme's commission
 * (their sum), and alone beside a WIN_LOSS programme's commission, which has its own cap. A cap of
 * commission alone would let the same money be paid as allowance instead.
 */
export function admitProgrammeTerms(t: Pick<ProgrammeVersion, 'basis' | 'commissionBps' | 'allowanceBps'>, caps: ProgrammeCaps): void {
  const details = { basis: t.basis, commissionBps: t.commissionBps, allowanceBps: t.allowanceBps, ...caps };
  if (t.basis === 'WIN_LOSS' && t.commissionBps > caps.winLossCommissionCapBps)
    throw new DomainError(
      'COMMISSION_OVER_CAP',
      `A commission of ${percent(t.commissionBps)} of the win/loss is over the property's cap of ${percent(caps.winLossCommissionCapBps)}: the credit policy sets the most a programme may pay`,
      details,
    );
  const onRolling = (t.basis === 'ROLLING' ? t.commissionBps : 0) + t.allowanceBps;
  if (onRolling > caps.rollingCommissionCapBps)
    throw new DomainError(
      'COMMISSION_OVER_CAP',
      t.basis === 'ROLLING'
        ? `A commission of ${percent(t.commissionBps)} and an allowance of ${percent(t.allowanceBps)} of the rolling pay ${percent(onRolling)} of it: over the property's cap of ${percent(caps.rollingCommissionCapBps)} on the rolling (commission and allowance together)`
        : `An allowance of ${percent(t.allowanceBps)} of the rolling is over the property's cap of ${percent(caps.rollingCommissionCapBps)} on the rolling`,
      details,
    );
}

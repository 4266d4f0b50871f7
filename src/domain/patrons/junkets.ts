import { DomainError } from '../errors';
import { Money } from '../money/money';
import { apportionDue, exactDueE4, programmeDue, ProgrammeVersion, RollingAccount, rollingAccount, RollingDay, versionOn } from './rolling';
import { holdPercent, houseWin } from '../finance/accounting';

/**
 * Junkets (docs/domain.md §16). A junket operator brings players to a property's VIP rooms under a
 * rolling-chip programme, on credit the casino extends to the operator (its markers). Its players'
 * dead-chip play, day by day under the membership in force, makes the operator's rolling and
 * win/loss; each period is settled by a statement, and once agreed the period is locked.
 */

/** A version of a patron's membership at a property, from a gaming day: the junket, agent and programme played under (null: none). */
export interface MembershipVersion {
  readonly effectiveFrom: string;
  readonly operatorId: string | null;
  readonly agentCode: string | null;
  readonly programmeCode: string | null;
}

/** A patron's dead-chip play on one gaming day (in the operator's currency): the sums of §14's rolling account. */
export interface MemberPlayDay {
  readonly patronId: string;
  readonly day: string;
  readonly wagers: number;
  readonly handle: Money;
  readonly customerNet: Money;
  readonly rolled: Money;
  readonly theoE12: bigint;
  readonly expectedRolledE12: bigint;
}

/** A patron's dead chips bought and returned on one gaming day. */
export interface MemberExchangeDay {
  readonly patronId: string;
  readonly day: string;
  readonly purchased: Money;
  readonly returned: Money;
}

export type AccountEntryKind = 'MARKER' | 'REPAYMENT' | 'PAYOUT' | 'SETTLEMENT';

/** An entry of the operator's account (a SETTLEMENT's amount is the credit it gave: commission + allowances, signed). */
export interface AccountEntry {
  readonly kind: AccountEntryKind;
  readonly amount: Money;
  readonly day: string;
}

/** Credit the junket reports it gave its player, or the player's repayment (outside the casino's books). */
export interface PlayerCreditEntry {
  readonly patronId: string;
  readonly kind: 'ADVANCE' | 'REPAYMENT';
  readonly amount: Money;
  readonly day: string;
}

/** What an entry does to the balance (positive: the operator owes the casino). */
export function balanceEffect(e: Pick<AccountEntry, 'kind' | 'amount'>): Money {
  return e.kind === 'MARKER' || e.kind === 'PAYOUT' ? e.amount : -e.amount;
}

/** The operator's balance from its entries (positive: it owes the casino; negative: the casino owes it). */
export function balanceOf(entries: readonly Pick<AccountEntry, 'kind' | 'amount'>[]): Money {
  return entries.reduce((b, e) => b + balanceEffect(e), 0n);
}

/**
 * A new entry of the account, checked against its balance: a marker only within the credit limit,
 * a repayment no more than the operator owes, a payout no more than the casino owes.
 */
export function admitEntry(kind: 'MARKER' | 'REPAYMENT' | 'PAYOUT', amount: Money, balance: Money, creditLimit: Money): void {
  if (kind === 'MARKER' && balance + amount > creditLimit)
    throw new DomainError(
      'JUNKET_CREDIT_LIMIT',
      `The junket owes ${balance} and may owe at most ${creditLimit} (minor units): a marker of ${amount} is over its credit limit`,
      { balance, creditLimit },
    );
  if (kind === 'REPAYMENT' && amount > (balance > 0n ? balance : 0n))
    throw new DomainError('JUNKET_OVERPAID', `The junket owes ${balance > 0n ? balance : 0n} (minor units): a repayment of ${amount} is more than that`, {
      balance,
    });
  if (kind === 'PAYOUT' && amount > (balance < 0n ? -balance : 0n))
    throw new DomainError(
      'JUNKET_OVERPAID',
      `The casino owes the junket ${balance < 0n ? -balance : 0n} (minor units): a payout of ${amount} is more than that`,
      { balance },
    );
}

export interface StatementInput {
  readonly operatorId: string;
  readonly from: string;
  readonly to: string;
  /** Every membership version at the property of each patron ever a member of the operator. */
  readonly memberships: ReadonlyMap<string, readonly MembershipVersion[]>;
  readonly play: readonly MemberPlayDay[];
  readonly exchanges: readonly MemberExchangeDay[];
  /** The property's programmes, every version, by code. */
  readonly programmes: ReadonlyMap<string, readonly ProgrammeVersion[]>;
  /** The balance at the start of the period: every entry before its first day. */
  readonly opening: Money;
  /** The entries of the period (a SETTLEMENT among them, the period's own credit, is not counted: the statement works it out). */
  readonly entries: readonly AccountEntry[];
  /** The junket's reports of credit to its players, up to the period's last day. */
  readonly playerCredit: readonly PlayerCreditEntry[];
}

export interface ProgrammeLine {
  readonly code: string;
  readonly members: number;
  readonly rolled: Money;
  readonly handle: Money;
  readonly win: Money;
  readonly commission: Money;
  readonly allowance: Money;
  readonly netWin: Money;
  /** Days played under the programme before its first version: nothing is due on them. */
  readonly daysOutside: readonly string[];
}

export interface MemberLine {
  readonly patronId: string;
  /** The agents and programmes the patron played under in the period. */
  readonly agents: readonly string[];
  readonly programmes: readonly string[];
  readonly purchased: Money;
  readonly returned: Money;
  readonly rolled: Money;
  readonly wagers: number;
  readonly handle: Money;
  readonly win: Money;
  readonly rollingWinPercent: string | null;
}

/** An agent's players' play in the period (the agent of the membership in force each day; '' for none). */
export interface AgentLine {
  readonly agent: string;
  readonly members: number;
  readonly rolled: Money;
  readonly handle: Money;
  readonly win: Money;
}

export interface PlayerCreditLine {
  readonly patronId: string;
  readonly advanced: Money;
  readonly repaid: Money;
  /** Advanced less repaid, from the first report to the period's last day. */
  readonly outstanding: Money;
}

export type Due = 'JUNKET_OWES' | 'CASINO_OWES' | 'SETTLED';

export interface JunketStatement {
  readonly programmes: readonly ProgrammeLine[];
  readonly members: readonly MemberLine[];
  readonly agents: readonly AgentLine[];
  /** §14's rolling account of the junket's play, and the programmes' dues. */
  readonly totals: RollingAccount & { readonly wagers: number; readonly commission: Money; readonly allowance: Money; readonly netWin: Money };
  readonly account: {
    readonly opening: Money;
    readonly markers: Money;
    readonly repayments: Money;
    readonly payouts: Money;
    /** Commission and allowances credited to the junket: the statement's own (signed: a share of a loss is owed by the junket). */
    readonly credited: Money;
    /** opening + markers − repayments + payouts − credited: the net due, either way. */
    readonly closing: Money;
    readonly due: Due;
  };
  readonly playerCredit: readonly PlayerCreditLine[];
  /**
   * The programmes' commission and allowance shared among the members who earned them, and among the
   * agents who brought those members (each day at the membership then in force): each programme's
   * total apportioned exactly (apportionDue), so members' and agents' shares add up to the totals.
   */
  readonly shares: { readonly members: readonly DueShare[]; readonly agents: readonly DueShare[] };
}

/** A member's or an agent's share of the programmes' dues (agent '' for members brought by none). */
export interface DueShare {
  readonly id: string;
  readonly commission: Money;
  readonly allowance: Money;
}

const sortText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A junket's statement for a period (docs/domain.md §16). A patron's play and exchanges on a day
 * count when the membership in force that day is the operator's, under that membership's programme;
 * each programme's dues are worked out day by day at its version in force (§14) and rounded once
 * over the period; the account runs from the opening balance through the period's markers,
 * repayments and payouts to the credit of the dues.
 */
export function junketStatement(s: StatementInput): JunketStatement {
  const membership = (patronId: string, day: string) => {
    const m = versionOn(s.memberships.get(patronId) ?? [], day);
    return m && m.operatorId === s.operatorId ? m : null;
  };
  type Member = { agents: Set<string>; programmes: Set<string>; purchased: Money; returned: Money; rolled: Money; wagers: number; handle: Money; net: Money };
  type Programme = { members: Set<string>; days: Map<string, { rolled: Money; net: Money }>; handle: Money; net: Money; rolled: Money };
  /** Each programme's play by member and agent, day by day: the shares its dues are apportioned by. */
  type Unit = { patronId: string; agent: string; days: Map<string, { rolled: Money; net: Money }> };
  const units = new Map<string, Map<string, Unit>>();
  const members = new Map<string, Member>();
  const programmes = new Map<string, Programme>();
  const agents = new Map<string, { members: Set<string>; rolled: Money; handle: Money; net: Money }>();
  const member = (id: string) => {
    let m = members.get(id);
    if (!m) members.set(id, (m = { agents: new Set(), programmes: new Set(), purchased: 0n, returned: 0n, rolled: 0n, wagers: 0, handle: 0n, net: 0n }));
    return m;
  };
  const totals = { purchased: 0n, returned: 0n, rolled: 0n, handle: 0n, customerNet: 0n, theoE12: 0n, expectedRolledE12: 0n, wagers: 0 };
  for (const p of s.play) {
    const m = membership(p.patronId, p.day);
    if (!m || p.day < s.from || p.day > s.to) continue;
    const code = m.programmeCode!;
    const line = member(p.patronId);
    if (m.agentCode) line.agents.add(m.agentCode);
    line.programmes.add(code);
    line.rolled += p.rolled;
    line.wagers += p.wagers;
    line.handle += p.handle;
    line.net += p.customerNet;
    let g = programmes.get(code);
    if (!g) programmes.set(code, (g = { members: new Set(), days: new Map(), handle: 0n, net: 0n, rolled: 0n }));
    g.members.add(p.patronId);
    const a = agents.get(m.agentCode ?? '') ?? { members: new Set<string>(), rolled: 0n, handle: 0n, net: 0n };
    a.members.add(p.patronId);
    agents.set(m.agentCode ?? '', { members: a.members, rolled: a.rolled + p.rolled, handle: a.handle + p.handle, net: a.net + p.customerNet });
    const d = g.days.get(p.day) ?? { rolled: 0n, net: 0n };
    g.days.set(p.day, { rolled: d.rolled + p.rolled, net: d.net + p.customerNet });
    const byUnit = units.get(code) ?? new Map<string, Unit>();
    units.set(code, byUnit);
    const unitKey = `${p.patronId}\u0000${m.agentCode ?? ''}`;
    const u: Unit = byUnit.get(unitKey) ?? { patronId: p.patronId, agent: m.agentCode ?? '', days: new Map() };
    byUnit.set(unitKey, u);
    const ud = u.days.get(p.day) ?? { rolled: 0n, net: 0n };
    u.days.set(p.day, { rolled: ud.rolled + p.rolled, net: ud.net + p.customerNet });
    g.handle += p.handle;
    g.net += p.customerNet;
    g.rolled += p.rolled;
    totals.rolled += p.rolled;
    totals.handle += p.handle;
    totals.customerNet += p.customerNet;
    totals.theoE12 += p.theoE12;
    totals.expectedRolledE12 += p.expectedRolledE12;
    totals.wagers += p.wagers;
  }
  for (const e of s.exchanges) {
    const m = membership(e.patronId, e.day);
    if (!m || e.day < s.from || e.day > s.to) continue;
    const line = member(e.patronId);
    if (m.agentCode) line.agents.add(m.agentCode);
    line.purchased += e.purchased;
    line.returned += e.returned;
    totals.purchased += e.purchased;
    totals.returned += e.returned;
  }
  const programmeLines: ProgrammeLine[] = [...programmes]
    .sort(([a], [b]) => sortText(a, b))
    .map(([code, g]) => {
      // A programme without versions (none is admitted so: membership names a programme that exists) owes nothing: every day is outside it.
      const versions = s.programmes.get(code) ?? [];
      const days: RollingDay[] = [...g.days].map(([day, d]) => ({ day, rolled: d.rolled, win: houseWin(d.net) }));
      const win = houseWin(g.net);
      const due = programmeDue(versions, days, win);
      return {
        code,
        members: g.members.size,
        rolled: g.rolled,
        handle: g.handle,
        win,
        commission: due.commission,
        allowance: due.allowance,
        netWin: due.netWin,
        daysOutside: due.daysOutside,
      };
    });
  const memberShares = new Map<string, { commission: Money; allowance: Money }>();
  const agentShares = new Map<string, { commission: Money; allowance: Money }>();
  for (const line of programmeLines) {
    const versions = s.programmes.get(line.code) ?? [];
    const us = [...(units.get(line.code) ?? new Map<string, Unit>()).values()].sort((a, b) => sortText(a.patronId, b.patronId) || sortText(a.agent, b.agent));
    const exact = us.map((u) =>
      exactDueE4(
        versions,
        [...u.days].map(([day, d]) => ({ day, rolled: d.rolled, win: houseWin(d.net) })),
      ),
    );
    const commissions = apportionDue(
      line.commission,
      exact.map((e) => e.commission),
    );
    const allowances = apportionDue(
      line.allowance,
      exact.map((e) => e.allowance),
    );
    us.forEach((u, i) => {
      for (const [map, id] of [
        [memberShares, u.patronId],
        [agentShares, u.agent],
      ] as const) {
        const was = map.get(id) ?? { commission: 0n, allowance: 0n };
        map.set(id, { commission: was.commission + commissions[i], allowance: was.allowance + allowances[i] });
      }
    });
  }
  const sharesOf = (m: Map<string, { commission: Money; allowance: Money }>): DueShare[] =>
    [...m].sort(([a], [b]) => sortText(a, b)).map(([id, x]) => ({ id, ...x }));
  const commission = programmeLines.reduce((a, p) => a + p.commission, 0n);
  const allowance = programmeLines.reduce((a, p) => a + p.allowance, 0n);
  const account = rollingAccount(totals);

  let markers = 0n;
  let repayments = 0n;
  let payouts = 0n;
  for (const e of s.entries) {
    if (e.kind === 'MARKER') markers += e.amount;
    else if (e.kind === 'REPAYMENT') repayments += e.amount;
    else if (e.kind === 'PAYOUT') payouts += e.amount;
  }
  const credited = commission + allowance;
  const closing = s.opening + markers - repayments + payouts - credited;

  const credit = new Map<string, { advanced: Money; repaid: Money; outstanding: Money }>();
  for (const c of s.playerCredit) {
    if (c.day > s.to) continue;
    const line = credit.get(c.patronId) ?? { advanced: 0n, repaid: 0n, outstanding: 0n };
    const signed = c.kind === 'ADVANCE' ? c.amount : -c.amount;
    line.outstanding += signed;
    if (c.day >= s.from) {
      if (c.kind === 'ADVANCE') line.advanced += c.amount;
      else line.repaid += c.amount;
    }
    credit.set(c.patronId, line);
  }

  return {
    programmes: programmeLines,
    members: [...members]
      .sort(([a], [b]) => sortText(a, b))
      .map(([patronId, m]) => {
        const win = houseWin(m.net);
        return {
          patronId,
          agents: [...m.agents].sort(sortText),
          programmes: [...m.programmes].sort(sortText),
          purchased: m.purchased,
          returned: m.returned,
          rolled: m.rolled,
          wagers: m.wagers,
          handle: m.handle,
          win,
          rollingWinPercent: holdPercent(win, m.rolled),
        };
      }),
    agents: [...agents]
      .sort(([a], [b]) => sortText(a, b))
      .map(([agent, a]) => ({ agent, members: a.members.size, rolled: a.rolled, handle: a.handle, win: houseWin(a.net) })),
    totals: { ...account, wagers: totals.wagers, commission, allowance, netWin: account.win - commission - allowance },
    account: {
      opening: s.opening,
      markers,
      repayments,
      payouts,
      credited,
      closing,
      due: closing > 0n ? 'JUNKET_OWES' : closing < 0n ? 'CASINO_OWES' : 'SETTLED',
    },
    playerCredit: [...credit].sort(([a], [b]) => sortText(a, b)).map(([patronId, c]) => ({ patronId, ...c })),
    shares: { members: sharesOf(memberShares), agents: sharesOf(agentShares) },
  };
}

/** The gaming day after `day` (YYYY-MM-DD). */
function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/**
 * Whether a period may be agreed now: it has ended (its last day is before today), no agreed period
 * of the operator overlaps it or starts after it (periods are agreed in order, so an agreed
 * statement's opening balance never moves), and it starts the day after the last one agreed (no day
 * is left out of every statement, its commission never credited and its coups never locked).
 */
export function admitLock(from: string, to: string, today: string, agreed: readonly { from: string; to: string }[]): void {
  if (to >= today) throw new DomainError('JUNKET_PERIOD_OPEN', `A period is agreed once it has ended: ${to} is not before today, ${today}`, { to, today });
  const last = agreed.reduce<{ from: string; to: string } | null>((a, b) => (a === null || b.to > a.to ? b : a), null);
  if (last && from > last.to && from !== nextDay(last.to))
    throw new DomainError(
      'JUNKET_PERIOD_LOCKED',
      `The junket's last agreed period ends ${last.to}: the next starts ${nextDay(last.to)}, so that no day is left out of every statement`,
      { from: last.from, to: last.to },
    );
  for (const a of agreed) {
    if (a.from <= to && from <= a.to)
      throw new DomainError('JUNKET_PERIOD_LOCKED', `The period ${a.from} to ${a.to} is already agreed: ${from} to ${to} overlaps it`, {
        from: a.from,
        to: a.to,
      });
    if (a.from > to)
      throw new DomainError('JUNKET_PERIOD_LOCKED', `The period ${a.from} to ${a.to} is agreed already: periods are agreed in order, not before one agreed`, {
        from: a.from,
        to: a.to,
      });
  }
}

/** A junket's play under one of its programmes on one gaming day. */
export interface JunketProgrammeDay extends RollingDay {
  readonly junketId: string;
  readonly currency: string;
  readonly code: string;
}

/**
 * What the junkets' programmes owe on a range's premium play, per currency: each junket's programme
 * worked out as its statement works it out (each day at the version in force, rounded once per
 * junket and programme), then summed. So the figure is the sum of the junkets' statements for the
 * same range.
 */
export function junketDues(
  days: readonly JunketProgrammeDay[],
  versionsOf: (junketId: string, code: string) => readonly ProgrammeVersion[],
): { currency: string; junkets: number; rolled: Money; commission: Money; allowance: Money }[] {
  const groups = new Map<string, { junketId: string; currency: string; code: string; days: RollingDay[] }>();
  for (const d of days) {
    const k = `${d.junketId}|${d.code}`;
    const g = groups.get(k) ?? { junketId: d.junketId, currency: d.currency, code: d.code, days: [] };
    g.days.push(d);
    groups.set(k, g);
  }
  const out = new Map<string, { junkets: Set<string>; rolled: Money; commission: Money; allowance: Money }>();
  for (const g of groups.values()) {
    const due = programmeDue(versionsOf(g.junketId, g.code), g.days, 0n);
    const c = out.get(g.currency) ?? { junkets: new Set<string>(), rolled: 0n, commission: 0n, allowance: 0n };
    c.junkets.add(g.junketId);
    out.set(g.currency, {
      junkets: c.junkets,
      rolled: c.rolled + g.days.reduce((a, d) => a + d.rolled, 0n),
      commission: c.commission + due.commission,
      allowance: c.allowance + due.allowance,
    });
  }
  return [...out]
    .sort(([a], [b]) => sortText(a, b))
    .map(([currency, c]) => ({ currency, junkets: c.junkets.size, rolled: c.rolled, commission: c.commission, allowance: c.allowance }));
}

/**
 * A junket's period is agreed only if its players, together, hold no fewer than no dead chips at its
 * end (docs/domain/junkets.md): every dead chip they bought under the junket up to its last day, less
 * those returned, less those lost at the tables. Fewer than none means chips were lost that the cage
 * never issued (a purchase missing from the records, or a wager keyed as dead chips that were cash):
 * the rolling the programmes pay commission on would include chips nobody bought.
 *
 * The junket's, not each member's: the chips drawn on its markers are the junket's, and its players
 * pass them to each other at its tables; one member losing chips another bought is the junket's
 * chips changing hands, not chips from nowhere. And at the period's end, not the period's own
 * inHand: chips bought before it and played in it (a trip over the month's end) were issued.
 *
 * `period` is the period's own account (its inHand may be negative); `atEnd` the chips in hand at
 * its end counted from the junket's first day.
 */
export function admitChipsInHand(junket: string, period: Pick<RollingAccount, 'purchased' | 'returned' | 'rolled' | 'inHand'>, atEnd: Money): void {
  if (atEnd >= 0n) return;
  const carriedIn = atEnd - period.inHand;
  throw new DomainError(
    'NEGATIVE_CHIPS_IN_HAND',
    `Junket ${junket}'s players lost ${-atEnd} (minor units) more dead chips than the cage issued to them: in the period they bought ${period.purchased}, returned ${period.returned} and lost ${period.rolled} at the tables, holding ${carriedIn} before it. A purchase of dead chips is missing from the records, or a wager was keyed as dead chips that were not: put the records right (record the purchase, or void the coup) before the statement is agreed`,
    { purchased: period.purchased, returned: period.returned, rolled: period.rolled, inHand: period.inHand, carriedIn, atEnd },
  );
}

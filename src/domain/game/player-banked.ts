import { DomainError } from '../errors';
import { Money, roundMoney, RoundingRule } from '../money/money';
import { BanqueOutcome, Winner } from './tableau';

/**
 * The money of the player-banked games (docs/domain.md §5): a player holds the bank, punters stake
 * against it, and the house only takes its commission on the banker's winnings.
 */

export interface HouseCommission {
  readonly commissionBps: number;
  readonly rounding: RoundingRule;
}

/** The house's commission on a banker's winnings, through the one rounding function. */
export function houseCommission(winnings: Money, house: HouseCommission): Money {
  if (winnings <= 0n || house.commissionBps === 0) return 0n;
  return roundMoney(winnings, BigInt(house.commissionBps), 10_000n, house.rounding);
}

/** Who sits where: occupied seats in the order the bank travels (counter-clockwise). */
export type Rotation = readonly number[];

/** The seat after `seat` in the rotation (skipping none). */
export function nextInRotation(rotation: Rotation, seat: number): number {
  const i = rotation.indexOf(seat);
  if (i === -1) throw new DomainError('INVALID_STAKES', `Seat ${seat} is not in the rotation`);
  return rotation[(i + 1) % rotation.length];
}

// ---------------------------------------------------------------------------------------------
// Chemin de fer

export interface ChemmyBank {
  readonly bankerSeat: number;
  /** The amount at stake this coup. */
  readonly bank: Money;
  /** A punter whose banco lost last coup has priority to banco again (banco suivi). */
  readonly bancoSuivi: number | null;
  /** The bank was a retired bank taken out of turn: the seat whose turn it was (see turnAfterLoss). */
  readonly outOfTurnFor?: number | null;
}

export interface ChemmyStake {
  readonly seat: number;
  readonly amount: Money;
  /** BANCO covers the whole bank alone; BANCO_SUIVI is a banco by last coup's losing banco. */
  readonly call?: 'BANCO' | 'BANCO_SUIVI';
  /** Someone standing behind the seats, allowed only when seated punters do not cover the bank. */
  readonly bystander?: boolean;
}

export interface ChemmyPunterResult {
  readonly seat: number;
  readonly stake: Money;
  /** The punter's result: +stake won, −stake lost, 0 on a tie (the stake stands). */
  readonly net: Money;
}

export interface ChemmyCoupResult {
  readonly covered: Money;
  /** The part of the bank no one covered: set aside by the croupier, kept for the banker whatever happens. */
  readonly setAside: Money;
  /** Who plays the punters' hand: the largest stake, first in rotation on equal stakes. */
  readonly handPlayer: number;
  readonly punters: readonly ChemmyPunterResult[];
  /** The banker's result on the covered part, before commission. */
  readonly bankerGross: Money;
  /** The house's commission on the banker's winnings. */
  readonly commission: Money;
  /** The bank at stake next coup, if the banker keeps it (won or tied): the banker may add, not withdraw. */
  readonly bankAfter: Money | null;
  /** Who holds the bank next: the same banker after a win or a tie, the next seat after a loss. */
  readonly nextBanker: number;
  readonly bankPasses: boolean;
  readonly bancoSuivi: number | null;
  /** A tie: every stake stands for the next coup. */
  readonly stakesStand: boolean;
}

/**
 * Settles a chemin de fer coup on the bank: checks the stakes (order, banco, bystanders, the bank's
 * limit), then moves the money for the winner decided by the cards.
 */
export function chemmyCoup(house: HouseCommission, bank: ChemmyBank, stakes: readonly ChemmyStake[], winner: Winner, rotation: Rotation): ChemmyCoupResult {
  if (stakes.length === 0) throw new DomainError('INVALID_STAKES', 'No one stakes against the bank');
  if (bank.bank <= 0n) throw new DomainError('INVALID_STAKES', 'The bank must hold money');
  const seen = new Set<number>();
  for (const s of stakes) {
    if (s.amount <= 0n) throw new DomainError('INVALID_STAKES', `Seat ${s.seat}: a stake must be positive`);
    if (s.seat === bank.bankerSeat) throw new DomainError('INVALID_STAKES', `Seat ${s.seat} holds the bank and cannot stake against it`);
    if (!s.bystander && !rotation.includes(s.seat))
      throw new DomainError('INVALID_STAKES', `Seat ${s.seat} is not seated at this game (seats: ${rotation.join(', ')})`);
    if (seen.has(s.seat)) throw new DomainError('INVALID_STAKES', `Seat ${s.seat} stakes twice`);
    seen.add(s.seat);
  }
  const calls = stakes.filter((s) => s.call);
  if (calls.length > 1) throw new DomainError('BANCO_CONFLICT', `Seats ${calls.map((s) => s.seat).join(' and ')} both called banco: one banco covers the bank`);
  const banco = calls[0];
  if (banco) {
    if (stakes.length > 1) throw new DomainError('BANCO_CONFLICT', `Seat ${banco.seat} called banco: a banco covers the whole bank alone`);
    if (banco.amount !== bank.bank) throw new DomainError('INVALID_STAKES', `A banco covers the whole bank of ${bank.bank}, not ${banco.amount}`);
    if (banco.call === 'BANCO_SUIVI' && banco.seat !== bank.bancoSuivi) {
      throw new DomainError('INVALID_STAKES', `Seat ${banco.seat} has no banco suivi: only the last losing banco may follow`);
    }
  }
  const seated = stakes.filter((s) => !s.bystander).reduce((t, s) => t + s.amount, 0n);
  if (stakes.some((s) => s.bystander) && seated >= bank.bank) {
    throw new DomainError('INVALID_STAKES', 'Bystanders may stake only what the seated punters leave uncovered');
  }
  const covered = stakes.reduce((t, s) => t + s.amount, 0n);
  if (covered > bank.bank) throw new DomainError('STAKES_EXCEED_BANK', `The stakes total ${covered}, more than the bank of ${bank.bank}`);
  const setAside = bank.bank - covered;
  // Bystanders stand behind the seats: on equal stakes, every seated punter comes first.
  const place = (seat: number) => (rotation.includes(seat) ? placeAfter(rotation, bank.bankerSeat, seat) : rotation.length + seat);
  const handPlayer = [...stakes].sort((a, b) => (a.amount === b.amount ? place(a.seat) - place(b.seat) : a.amount > b.amount ? -1 : 1))[0].seat;

  if (winner === 'TIE') {
    return {
      covered,
      setAside,
      handPlayer,
      punters: stakes.map((s) => ({ seat: s.seat, stake: s.amount, net: 0n })),
      bankerGross: 0n,
      commission: 0n,
      bankAfter: bank.bank,
      nextBanker: bank.bankerSeat,
      bankPasses: false,
      bancoSuivi: bank.bancoSuivi,
      stakesStand: true,
    };
  }
  if (winner === 'BANKER') {
    const commission = houseCommission(covered, house);
    return {
      covered,
      setAside,
      handPlayer,
      punters: stakes.map((s) => ({ seat: s.seat, stake: s.amount, net: -s.amount })),
      bankerGross: covered,
      commission,
      // The staked part doubles less the commission; what was set aside stays aside.
      bankAfter: covered * 2n - commission,
      nextBanker: bank.bankerSeat,
      bankPasses: false,
      bancoSuivi: banco ? banco.seat : null,
      stakesStand: false,
    };
  }
  return {
    covered,
    setAside,
    handPlayer,
    punters: stakes.map((s) => ({ seat: s.seat, stake: s.amount, net: s.amount })),
    bankerGross: -covered,
    commission: 0n,
    bankAfter: null,
    nextBanker: turnAfterLoss(rotation, bank.bankerSeat, bank.outOfTurnFor ?? null),
    bankPasses: true,
    bancoSuivi: null,
    stakesStand: false,
  };
}

/** A seat's place counted from the banker's right (1 = the first to stake), by the rotation. */
export function placeAfter(rotation: Rotation, bankerSeat: number, seat: number): number {
  const b = rotation.indexOf(bankerSeat);
  const i = rotation.indexOf(seat);
  if (b === -1 || i === -1) throw new DomainError('INVALID_STAKES', `Seat ${i === -1 ? seat : bankerSeat} is not in the rotation`);
  return (i - b + rotation.length) % rotation.length;
}

// ---------------------------------------------------------------------------------------------
// Baccarat banque

export interface BanqueStake {
  readonly seat: number;
  /** À cheval: half on each hand (the odd minor unit on the right). */
  readonly side: 'RIGHT' | 'LEFT' | 'A_CHEVAL';
  readonly amount: Money;
}

export interface BanqueStakeResult {
  readonly seat: number;
  readonly side: BanqueStake['side'];
  readonly stake: Money;
  /** What the punter won or lost; a winner the bank could not pay in full gets what was left. */
  readonly net: Money;
  /** What the bank owed this punter and could not pay (no claim, the stakes not having been accepted). */
  readonly unpaid: Money;
}

export interface BanqueCoupResult {
  readonly stakes: readonly BanqueStakeResult[];
  readonly collected: Money;
  readonly paid: Money;
  readonly commission: Money;
  readonly bankAfter: Money;
  /** The bank could not pay every winner. */
  readonly bankBroken: boolean;
}

/**
 * Settles a baccarat banque coup: each side against the banker on its own; the losers' stakes are
 * collected first, then the winners are paid in rotation order while the bank lasts (all of them,
 * whatever the bank, once the banker has declared the stakes accepted).
 */
export function banqueCoup(
  house: HouseCommission,
  bank: Money,
  stakes: readonly BanqueStake[],
  outcome: BanqueOutcome,
  stakesAccepted: boolean,
): BanqueCoupResult {
  const sideResult = (side: 'RIGHT' | 'LEFT') => (side === 'RIGHT' ? outcome.right.winner : outcome.left.winner);
  const parts = stakes.map((s) => {
    if (s.amount <= 0n) throw new DomainError('INVALID_STAKES', `Seat ${s.seat}: a stake must be positive`);
    const right = s.side === 'RIGHT' ? s.amount : s.side === 'LEFT' ? 0n : s.amount - s.amount / 2n;
    const left = s.amount - right;
    let wins = 0n;
    let losses = 0n;
    for (const [side, amt] of [
      ['RIGHT', right],
      ['LEFT', left],
    ] as const) {
      if (amt === 0n) continue;
      const w = sideResult(side);
      if (w === 'PUNTER') wins += amt;
      else if (w === 'BANKER') losses += amt;
    }
    return { s, wins, losses };
  });
  const collected = parts.reduce((t, p) => t + p.losses, 0n);
  let funds = bank + collected;
  let paid = 0n;
  const results = parts.map(({ s, wins, losses }) => {
    const pay = stakesAccepted ? wins : wins <= funds ? wins : funds > 0n ? funds : 0n;
    funds -= pay;
    paid += pay;
    return { seat: s.seat, side: s.side, stake: s.amount, net: pay - losses, unpaid: wins - pay };
  });
  const commission = houseCommission(collected - paid, house);
  return { stakes: results, collected, paid, commission, bankAfter: bank + collected - paid - commission, bankBroken: results.some((r) => r.unpaid > 0n) };
}

/** A stake as called at the banque table: an amount on a side, or a banco (amount implied by the bank). */
export interface BanqueCall {
  readonly seat: number;
  readonly side: BanqueStake['side'];
  readonly amount?: Money;
  readonly banco?: boolean;
}

/**
 * The stakes of a banque coup in the order the croupier pays them (rotation from the banker's
 * right). A banco covers the whole bank alone; two bancos from opposite sides go half shares each
 * (the odd minor unit on the right); nobody else stakes beside a banco.
 */
export function banqueStakes(bank: Money, bankerSeat: number, rotation: Rotation, calls: readonly BanqueCall[]): BanqueStake[] {
  if (calls.length === 0) throw new DomainError('INVALID_STAKES', 'No one stakes against the bank');
  const seen = new Set<number>();
  for (const c of calls) {
    if (c.seat === bankerSeat) throw new DomainError('INVALID_STAKES', `Seat ${c.seat} holds the bank and cannot stake against it`);
    if (!rotation.includes(c.seat)) throw new DomainError('INVALID_STAKES', `Seat ${c.seat} is not seated at this game (seats: ${rotation.join(', ')})`);
    if (seen.has(c.seat)) throw new DomainError('INVALID_STAKES', `Seat ${c.seat} stakes twice`);
    seen.add(c.seat);
    if (!c.banco && (c.amount === undefined || c.amount <= 0n)) throw new DomainError('INVALID_STAKES', `Seat ${c.seat}: a stake must be positive`);
  }
  const bancos = calls.filter((c) => c.banco);
  let stakes: BanqueStake[];
  if (bancos.length > 0) {
    if (bancos.some((b) => b.side === 'A_CHEVAL')) throw new DomainError('INVALID_STAKES', 'A banco is called on one side, not à cheval');
    const bySide = (side: 'RIGHT' | 'LEFT') => bancos.filter((b) => b.side === side);
    for (const side of ['RIGHT', 'LEFT'] as const) {
      if (bySide(side).length > 1)
        throw new DomainError(
          'BANCO_CONFLICT',
          `Seats ${bySide(side)
            .map((b) => b.seat)
            .join(' and ')} both called banco on the ${side.toLowerCase()}: one banco a side`,
        );
    }
    const others = calls.filter((c) => !c.banco);
    if (others.length > 0) throw new DomainError('BANCO_CONFLICT', `A banco covers the bank: seat ${others[0].seat} cannot stake beside it`);
    const shares = bancos.length === 2 ? { RIGHT: bank - bank / 2n, LEFT: bank / 2n } : { RIGHT: bank, LEFT: bank };
    for (const b of bancos) {
      const due = shares[b.side as 'RIGHT' | 'LEFT'];
      if (b.amount !== undefined && b.amount !== due) throw new DomainError('INVALID_STAKES', `Seat ${b.seat}'s banco covers ${due}, not ${b.amount}`);
    }
    stakes = bancos.map((b) => ({ seat: b.seat, side: b.side, amount: shares[b.side as 'RIGHT' | 'LEFT'] }));
  } else {
    stakes = calls.map((c) => ({ seat: c.seat, side: c.side, amount: c.amount! }));
  }
  return stakes.sort((a, b) => placeAfter(rotation, bankerSeat, a.seat) - placeAfter(rotation, bankerSeat, b.seat));
}

// ---------------------------------------------------------------------------------------------
// Who holds the bank next

/** The seat that must take the bank after `lastBanker`: the next in rotation that did not decline it. */
export function nextBankerAfter(rotation: Rotation, lastBanker: number, declined: readonly number[]): number {
  return firstWilling(rotation, nextInRotation(rotation, lastBanker), [...declined, lastBanker]);
}

/** The first seat from `due` (included), in rotation, that did not decline. */
function firstWilling(rotation: Rotation, due: number, declined: readonly number[]): number {
  const from = rotation.indexOf(due);
  if (from === -1) throw new DomainError('INVALID_STAKES', `Seat ${due} is not in the rotation`);
  for (let i = 0; i < rotation.length; i++) {
    const seat = rotation[(from + i) % rotation.length];
    if (!declined.includes(seat)) return seat;
  }
  throw new DomainError('WRONG_BANKER', 'Every seat has declined the bank');
}

/**
 * Whose turn to bank it is once a chemin de fer bank is lost: the seat after the banker; but a
 * retired bank taken out of turn (the seats before the taker declined it) does not move the
 * rotation, so the turn goes back to the first seat that declined, whose turn was never used.
 */
export function turnAfterLoss(rotation: Rotation, bankerSeat: number, outOfTurnFor: number | null): number {
  return outOfTurnFor ?? nextInRotation(rotation, bankerSeat);
}

/** The bank before the one being opened, as far as succession is concerned. */
export interface ChemmyBankBefore {
  readonly bankerSeat: number;
  readonly status: 'PASSED' | 'RETIRED';
  /** PASSED: the seat whose turn it is (turnAfterLoss). */
  readonly nextBanker: number | null;
  /** RETIRED: what the retiring banker would have had to stake next coup. */
  readonly offer: Money | null;
}

export interface BankClaim {
  readonly bankerSeat: number;
  readonly amount: Money;
  /** Seats that declined the bank before this banker took it, in any order. */
  readonly declined: readonly number[];
}

export interface ChemmySuccession {
  /** PASSED: after a lost bank; OFFER_TAKEN: a retired bank taken at its offer or more; NEW: a new bank after the offer went round unanswered. */
  readonly how: 'PASSED' | 'OFFER_TAKEN' | 'NEW';
  /** A retired bank taken out of turn: the seat whose turn it was (it banks next when this bank is lost). */
  readonly outOfTurnFor: number | null;
}

/**
 * Who may open the next chemin de fer bank, and on what terms (the rules of the game):
 * - after a lost bank, the seat whose turn it is (or, as seats decline, the next one) opens a bank
 *   at any amount within the table's limits;
 * - after a retirement the bank is offered in rotation from the retiring banker's right at what the
 *   retiring banker would have had to stake: the first seat that will takes it by putting up at
 *   least that amount (never less). If every other seat declines, the first seat after the
 *   retiring banker opens a new bank at any amount within the limits;
 * - a retired bank taken by a later seat because the seats before it declined is taken out of turn
 *   and does not move the rotation (turnAfterLoss).
 */
export function chemmySuccession(rotation: Rotation, last: ChemmyBankBefore, claim: BankClaim, limits: { min: Money; max: Money }): ChemmySuccession {
  for (const seat of claim.declined) {
    if (!rotation.includes(seat))
      throw new DomainError('INVALID_STAKES', `Seat ${seat} declined the bank but is not seated at this game (seats: ${rotation.join(', ')})`);
  }
  const within = () => {
    if (claim.amount < limits.min || claim.amount > limits.max)
      throw new DomainError('BET_LIMIT', `A new bank at this table is ${limits.min} to ${limits.max}, not ${claim.amount}`);
  };
  const wrong = (expected: number, why: string) => new DomainError('WRONG_BANKER', `The bank goes to seat ${expected} (${why}), not seat ${claim.bankerSeat}`);
  const declining = claim.declined.length ? `, seats ${claim.declined.join(', ')} declining` : '';

  if (last.status === 'PASSED') {
    const due = last.nextBanker ?? nextInRotation(rotation, last.bankerSeat);
    const expected = firstWilling(rotation, due, claim.declined);
    if (claim.bankerSeat !== expected) throw wrong(expected, `seat ${due}'s turn after seat ${last.bankerSeat} lost the bank${declining}`);
    within();
    return { how: 'PASSED', outOfTurnFor: null };
  }

  const first = nextInRotation(rotation, last.bankerSeat);
  const offer = last.offer ?? 0n;
  const others = rotation.filter((s) => s !== last.bankerSeat);
  if (others.every((s) => claim.declined.includes(s))) {
    // The offer went round and nobody took it: the first seat after the retiring banker starts anew.
    if (claim.bankerSeat !== first)
      throw wrong(first, `every seat declined the offer of ${offer}: the first after the retiring seat ${last.bankerSeat} opens a new bank`);
    within();
    return { how: 'NEW', outOfTurnFor: null };
  }
  const expected = firstWilling(rotation, first, [...claim.declined, last.bankerSeat]);
  if (claim.bankerSeat !== expected) throw wrong(expected, `the retired bank is offered in rotation from seat ${first}${declining}`);
  if (claim.amount < offer) {
    throw new DomainError(
      'BANK_BELOW_OFFER',
      `Seat ${claim.bankerSeat} may take the retired bank only by putting up at least ${offer}, not ${claim.amount}; ` +
        `if no seat will, list every seat as declining and seat ${first} opens a new bank at any amount within the limits`,
    );
  }
  if (claim.amount > (offer > limits.max ? offer : limits.max))
    throw new DomainError('BET_LIMIT', `The bank may be taken at ${offer} to ${offer > limits.max ? offer : limits.max}, not ${claim.amount}`);
  return { how: 'OFFER_TAKEN', outOfTurnFor: expected === first ? null : first };
}

/** A rotation: distinct seats, at least two (a banker and a punter). */
export function checkRotation(rotation: Rotation): void {
  if (rotation.length < 2) throw new DomainError('INVALID_STAKES', 'A player-banked game needs at least two seated players');
  if (new Set(rotation).size !== rotation.length) throw new DomainError('INVALID_STAKES', 'A seat appears twice in the rotation');
}

// ---------------------------------------------------------------------------------------------
// A bank's running state, coup after coup

/** A stake as called at the chemin de fer table: a banco may leave its amount out (it covers the bank). */
export interface ChemmyCall {
  readonly seat: number;
  readonly amount?: Money;
  readonly call?: 'BANCO' | 'BANCO_SUIVI';
  readonly bystander?: boolean;
}

/** A chemin de fer bank between two coups. */
export interface ChemmyBankState {
  readonly bankerSeat: number;
  readonly rotation: Rotation;
  /** The whole bank, at stake next coup. */
  readonly stake: Money;
  /** Uncovered amounts set aside for the banker so far. */
  readonly setAside: Money;
  /** The house's commission on this bank so far. */
  readonly commission: Money;
  readonly bancoSuivi: number | null;
  /** Stakes standing after a tie: the next coup plays them again. */
  readonly standing: readonly ChemmyStake[] | null;
  /** Taken out of turn after a retirement: the seat whose turn it was. */
  readonly outOfTurnFor?: number | null;
}

export interface ChemmyRound {
  readonly stakes: readonly ChemmyStake[];
  /** The bank at stake this coup (the bank plus what the banker added). */
  readonly bankBefore: Money;
  readonly result: ChemmyCoupResult;
  /** The bank after the coup; when `passed`, the banker lost and keeps only what was set aside. */
  readonly next: ChemmyBankState & { readonly passed: boolean };
}

/**
 * One chemin de fer coup on a bank. The banker may add to the bank before it (never withdraw, and
 * not while stakes stand); after a tie the same stakes stand, given again or left out. Then the
 * bank's next state: grown by the winnings less commission and kept by the banker (won), as it was
 * with the stakes standing (tie), or passed in rotation (lost).
 */
export function playChemmy(
  house: HouseCommission,
  state: ChemmyBankState,
  play: { calls: readonly ChemmyCall[] | null; bankerAdds: Money; winner: Winner },
): ChemmyRound {
  if (play.bankerAdds < 0n) throw new DomainError('INVALID_STAKES', 'A banker may add to the bank, never withdraw from it');
  const bankBefore = state.stake + play.bankerAdds;
  let stakes: readonly ChemmyStake[];
  if (state.standing) {
    const stood = state.standing;
    if (play.bankerAdds > 0n) throw new DomainError('STAKES_STAND', 'The stakes stand after the tie: the bank is played again as it was');
    const key = (s: ChemmyStake) => `${s.seat}:${s.amount}:${s.call ?? ''}:${s.bystander ?? false}`;
    const asked = play.calls?.map((c) => key({ ...c, amount: c.amount ?? bankBefore }));
    if (asked && asked.join(',') !== stood.map(key).join(',')) {
      throw new DomainError('STAKES_STAND', `After the tie the same stakes stand: ${stood.map((s) => `seat ${s.seat} ${s.amount}`).join(', ')}`);
    }
    stakes = stood;
  } else {
    if (!play.calls?.length) throw new DomainError('INVALID_STAKES', 'No one stakes against the bank');
    stakes = play.calls.map((c) => {
      if (c.amount === undefined && !c.call) throw new DomainError('INVALID_STAKES', `Seat ${c.seat}: a stake needs an amount (only a banco may leave it out)`);
      return { seat: c.seat, amount: c.amount ?? bankBefore, call: c.call, bystander: c.bystander };
    });
  }
  const result = chemmyCoup(
    house,
    { bankerSeat: state.bankerSeat, bank: bankBefore, bancoSuivi: state.bancoSuivi, outOfTurnFor: state.outOfTurnFor },
    stakes,
    play.winner,
    state.rotation,
  );
  const base = { bankerSeat: state.bankerSeat, rotation: state.rotation, outOfTurnFor: state.outOfTurnFor };
  const next =
    play.winner === 'BANKER'
      ? {
          ...base,
          stake: result.bankAfter!,
          setAside: state.setAside + result.setAside,
          commission: state.commission + result.commission,
          bancoSuivi: result.bancoSuivi,
          standing: null,
          passed: false,
        }
      : play.winner === 'TIE'
        ? { ...base, stake: bankBefore, setAside: state.setAside, commission: state.commission, bancoSuivi: state.bancoSuivi, standing: stakes, passed: false }
        : { ...base, stake: 0n, setAside: state.setAside + result.setAside, commission: state.commission, bancoSuivi: null, standing: null, passed: true };
  return { stakes, bankBefore, result, next };
}

/** A baccarat banque bank between two coups. */
export interface BanqueBankState {
  readonly bankerSeat: number;
  readonly rotation: Rotation;
  /** The funds in the bank (below zero only once the stakes were accepted: the banker paid the rest). */
  readonly stake: Money;
  readonly commission: Money;
  /** Declared by the banker: the bank pays every winner, whatever it holds, for the rest of the shoe. */
  readonly stakesAccepted: boolean;
}

export interface BanqueRound {
  readonly stakes: readonly BanqueStake[];
  readonly result: BanqueCoupResult;
  /** The bank after the coup; `broke` when it could not go on (emptied, stakes not accepted). */
  readonly next: BanqueBankState & { readonly broke: boolean };
  /** Who holds the bank next: the same banker, or the next seat when the bank broke. */
  readonly nextBanker: number;
}

/** One baccarat banque coup on a bank, the banker having declared the stakes accepted or not. */
export function playBanque(
  house: HouseCommission,
  state: BanqueBankState,
  play: { calls: readonly BanqueCall[]; outcome: BanqueOutcome; declareAccepted: boolean },
): BanqueRound {
  const stakes = banqueStakes(state.stake, state.bankerSeat, state.rotation, play.calls);
  const stakesAccepted = state.stakesAccepted || play.declareAccepted;
  const result = banqueCoup(house, state.stake, stakes, play.outcome, stakesAccepted);
  const broke = !stakesAccepted && result.bankAfter <= 0n;
  return {
    stakes,
    result,
    next: { ...state, stake: result.bankAfter, commission: state.commission + result.commission, stakesAccepted, broke },
    nextBanker: broke ? nextBankerAfter(state.rotation, state.bankerSeat, []) : state.bankerSeat,
  };
}

// ---------------------------------------------------------------------------------------------
// A bank's life: opening, retiring, what the banker takes home

export type BankStatus = 'ACTIVE' | 'PASSED' | 'RETIRED' | 'BROKE' | 'SHOE_CLOSED';

/** The shoe's previous bank, as the rules for the next one see it. */
export interface PreviousBank {
  /** The bank's number within the shoe. */
  readonly number: number;
  readonly bankerSeat: number;
  readonly status: BankStatus;
  readonly nextBanker: number | null;
  readonly offer: Money | null;
  readonly rotation: Rotation;
  readonly stakesAccepted: boolean;
}

export interface BankOpening {
  /** How the bank came to this seat: chemin de fer PASSED / OFFER_TAKEN / NEW; banque CONTINUED or as claimed (FIRST_LISTED by default). */
  readonly how: string;
  readonly rotation: Rotation;
  readonly outOfTurnFor: number | null;
  /** Banque: stakes accepted hold for the rest of the shoe, across a continued bank too. */
  readonly stakesAccepted: boolean;
}

/**
 * Whether a seat may open the shoe's next bank, and how: one bank at a time; the rotation is given
 * with the first bank and kept after; the banker is seated; chemin de fer follows the succession
 * rules (chemmySuccession); otherwise a new bank is within the table's limits, and a banque bank
 * retired at an offer is CONTINUED by another seat putting up exactly that offer.
 */
export function bankOpening(
  game: 'CHEMIN_DE_FER' | 'BANQUE',
  previous: PreviousBank | null,
  claim: BankClaim & { rotation?: Rotation; how?: string },
  limits: { min: Money; max: Money },
): BankOpening {
  if (previous?.status === 'ACTIVE') {
    throw new DomainError('BANK_ALREADY_ACTIVE', `Seat ${previous.bankerSeat} holds bank ${previous.number} of this shoe: it must retire or pass first`);
  }
  const rotation = claim.rotation ?? previous?.rotation;
  if (!rotation) throw new DomainError('INCOMPLETE', "rotation is required for the shoe's first bank: list the occupied seats in the order the bank travels");
  checkRotation(rotation);
  if (!rotation.includes(claim.bankerSeat)) {
    throw new DomainError('INVALID_STAKES', `Seat ${claim.bankerSeat} is not seated at this game (seats: ${rotation.join(', ')})`);
  }
  // A bank that ended with its shoe is not followed: the next shoe's first bank starts anew.
  const follows = previous && previous.status !== 'SHOE_CLOSED' ? previous : null;
  if (game === 'CHEMIN_DE_FER' && follows && (follows.status === 'PASSED' || follows.status === 'RETIRED')) {
    const { how, outOfTurnFor } = chemmySuccession(rotation, { ...follows, status: follows.status }, claim, limits);
    return { how, rotation, outOfTurnFor, stakesAccepted: false };
  }
  if (claim.amount < limits.min || claim.amount > limits.max) {
    throw new DomainError('BET_LIMIT', `A new bank at this table is ${limits.min} to ${limits.max}, not ${claim.amount}`);
  }
  if (game === 'CHEMIN_DE_FER') return { how: 'NEW', rotation, outOfTurnFor: null, stakesAccepted: false };
  const continued = previous?.status === 'RETIRED' && previous.offer === claim.amount && claim.bankerSeat !== previous.bankerSeat;
  return {
    how: continued ? 'CONTINUED' : (claim.how ?? 'FIRST_LISTED'),
    rotation,
    outOfTurnFor: null,
    stakesAccepted: continued && previous.stakesAccepted,
  };
}

/**
 * The offer a retiring banker leaves: in chemin de fer what they would have had to stake next coup
 * (not while stakes stand after a tie); in banque an amount the banker names, after at least one coup.
 */
export function retireOffer(bank: { game: 'CHEMIN_DE_FER' | 'BANQUE'; stake: Money; standing: unknown; coups: number }, amount: Money | undefined): Money {
  if (bank.game === 'CHEMIN_DE_FER') {
    if (bank.standing) throw new DomainError('BANK_NOT_RETIRABLE', 'The stakes stand after the tie: play that coup before the banker retires');
    if (amount !== undefined) throw new DomainError('INCOMPLETE', 'A chemin de fer bank is offered at what the banker would have staked: leave amount out');
    return bank.stake;
  }
  if (bank.coups < 1) throw new DomainError('BANK_NOT_RETIRABLE', 'A banque banker may retire only after at least one coup');
  if (amount === undefined) throw new DomainError('INCOMPLETE', 'amount is required: the amount at which another player may continue the bank');
  return amount;
}

/**
 * What the banker takes home when the bank ends: retiring (or the shoe ending) the bank and
 * everything set aside; a bank that passed or broke, only what was set aside. Null while it runs.
 */
export function bankerTakes(bank: { status: BankStatus; stake: Money; setAside: Money }): Money | null {
  if (bank.status === 'ACTIVE') return null;
  return bank.status === 'RETIRED' || bank.status === 'SHOE_CLOSED' ? bank.stake + bank.setAside : bank.setAside;
}

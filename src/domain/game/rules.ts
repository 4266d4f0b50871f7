import { MAX_DECKS, MIN_DECKS } from './cards';
import { DomainError } from '../errors';
import { DEFAULT_ROUNDING, Odds, odds, RoundingRule } from '../money/money';

export const VARIANTS = ['COMMISSION', 'SUPER_6', 'EZ', 'CHEMIN_DE_FER', 'BANQUE'] as const;
export type Variant = (typeof VARIANTS)[number];

/** Variants the casino banks (wagers against the house) and those a player banks. */
export const CASINO_BANKED: readonly Variant[] = ['COMMISSION', 'SUPER_6', 'EZ'];
export const PLAYER_BANKED: readonly Variant[] = ['CHEMIN_DE_FER', 'BANQUE'];

export const MAIN_BETS = ['PLAYER', 'BANKER', 'TIE'] as const;
export const SIDE_BETS = ['PLAYER_PAIR', 'BANKER_PAIR', 'EITHER_PAIR', 'PERFECT_PAIR', 'BIG', 'SMALL', 'SUPER_6', 'DRAGON_7', 'PANDA_8'] as const;
export const BET_TYPES = [...MAIN_BETS, ...SIDE_BETS] as const;
export type MainBet = (typeof MAIN_BETS)[number];
export type SideBet = (typeof SIDE_BETS)[number];
export type BetType = (typeof BET_TYPES)[number];

export const MAX_COMMISSION_BPS = 10_000;

/** A table's complete rule set. Every house difference is here, never in code. */
export interface RuleSet {
  readonly variant: Variant;
  readonly decks: number;
  /** Commission on a winning Banker bet (or on a player-banker's winnings), in basis points. */
  readonly commissionBps: number;
  /** Whether a Player/Banker bet that ties stays in place for the next coup (else it is returned). */
  readonly tieBetsStay: boolean;
  /** Side bets this table offers. */
  readonly sideBets: readonly SideBet[];
  /** The pay of every bet, on the "to 1" basis. Banker's base pay is 1 to 1 before commission. */
  readonly pays: Readonly<Record<BetType, Odds>>;
  /** Super 6 table: a Banker win with 6 pays this (default 1 to 2). */
  readonly bankerSixPays: Odds;
  /** Perfect Pair version 2: pay when both hands are perfect pairs; null = version 1 (one pay). */
  readonly perfectPairBothPays: Odds | null;
  readonly rounding: RoundingRule;
}

/** The usual pay tables of docs/domain.md §3. */
export const DEFAULT_PAYS: Readonly<Record<BetType, Odds>> = {
  PLAYER: odds(1),
  BANKER: odds(1),
  TIE: odds(8),
  PLAYER_PAIR: odds(11),
  BANKER_PAIR: odds(11),
  EITHER_PAIR: odds(5),
  PERFECT_PAIR: odds(25),
  BIG: odds(54, 100),
  SMALL: odds(3, 2),
  SUPER_6: odds(12),
  DRAGON_7: odds(40),
  PANDA_8: odds(25),
};

const DEFAULT_SIDE_BETS: Record<Variant, readonly SideBet[]> = {
  COMMISSION: ['PLAYER_PAIR', 'BANKER_PAIR'],
  SUPER_6: ['PLAYER_PAIR', 'BANKER_PAIR', 'SUPER_6'],
  EZ: ['PLAYER_PAIR', 'BANKER_PAIR', 'DRAGON_7', 'PANDA_8'],
  CHEMIN_DE_FER: [],
  BANQUE: [],
};

const DEFAULT_DECKS: Record<Variant, number> = {
  COMMISSION: 8,
  SUPER_6: 8,
  EZ: 8,
  CHEMIN_DE_FER: 6,
  BANQUE: 3,
};

/** Banker commission by variant: only commission tables and the player-banked games charge it. */
const DEFAULT_COMMISSION_BPS: Record<Variant, number> = {
  COMMISSION: 500,
  SUPER_6: 0,
  EZ: 0,
  CHEMIN_DE_FER: 500,
  BANQUE: 500,
};

/** Variants whose Banker bet pays without commission: the house takes its edge from one Banker win instead. */
const NO_COMMISSION: readonly Variant[] = ['SUPER_6', 'EZ'];

export interface RuleSetInput {
  variant: Variant;
  decks?: number;
  commissionBps?: number;
  tieBetsStay?: boolean;
  sideBets?: readonly SideBet[];
  pays?: Partial<Record<BetType, Odds>>;
  bankerSixPays?: Odds;
  perfectPairBothPays?: Odds | null;
  rounding?: RoundingRule;
}

/** Builds a complete, validated rule set from a variant and any house overrides. */
export function ruleSet(input: RuleSetInput): RuleSet {
  const { variant } = input;
  if (!VARIANTS.includes(variant)) {
    throw new DomainError('INVALID_RULES', `Unknown variant "${String(variant)}"; use one of ${VARIANTS.join(', ')}`);
  }
  const decks = input.decks ?? DEFAULT_DECKS[variant];
  if (!Number.isInteger(decks) || decks < MIN_DECKS || decks > MAX_DECKS) {
    throw new DomainError('INVALID_RULES', `A shoe holds ${MIN_DECKS} to ${MAX_DECKS} decks, not ${decks}`);
  }
  const commissionBps = input.commissionBps ?? DEFAULT_COMMISSION_BPS[variant];
  if (!Number.isInteger(commissionBps) || commissionBps < 0 || commissionBps > MAX_COMMISSION_BPS) {
    throw new DomainError('INVALID_RULES', `Commission is 0 to 10000 basis points, not ${commissionBps}`);
  }
  const sideBets = [...new Set(input.sideBets ?? DEFAULT_SIDE_BETS[variant])];
  for (const b of sideBets) {
    if (!SIDE_BETS.includes(b)) throw new DomainError('INVALID_RULES', `"${String(b)}" is not a side bet`);
  }
  if (PLAYER_BANKED.includes(variant) && sideBets.length > 0) {
    throw new DomainError('INVALID_RULES', `${variant} is banked by a player: the house offers no side bets`);
  }
  const rounding = input.rounding ?? DEFAULT_ROUNDING;
  if (!Number.isInteger(rounding.unit) || rounding.unit < 1 || rounding.unit > 1_000_000) {
    throw new DomainError('INVALID_RULES', `The rounding unit is a whole number of minor units from 1, not ${rounding.unit}`);
  }
  if (!['FLOOR', 'HALF_UP', 'CEILING'].includes(rounding.mode)) {
    throw new DomainError('INVALID_RULES', `Rounding is FLOOR, HALF_UP or CEILING, not ${String(rounding.mode)}`);
  }
  const pays = { ...DEFAULT_PAYS, ...(input.pays ?? {}) };
  return {
    variant,
    decks,
    commissionBps,
    tieBetsStay: input.tieBetsStay ?? false,
    sideBets,
    pays,
    bankerSixPays: input.bankerSixPays ?? odds(1, 2),
    perfectPairBothPays: input.perfectPairBothPays ?? null,
    rounding,
  };
}

/**
 * The rules of a table being opened (or of a what-if asked of the odds): a rule set, and none that
 * takes the house's edge twice or under another name. Super 6 and EZ take no commission (their edge
 * is the half pay on a six and the push on a three-card seven); no game pays Banker other than 1 to 1
 * before its commission (a "0.95 to 1" is a commission: say it as commissionBps). Tables opened before
 * these checks keep the rules they were opened with (ruleSet reads them as they are).
 */
export function newTableRules(input: RuleSetInput): RuleSet {
  const rules = ruleSet(input);
  if (NO_COMMISSION.includes(rules.variant) && rules.commissionBps !== 0) {
    throw new DomainError(
      'INVALID_RULES',
      `${rules.variant} takes no commission on Banker (its edge is ${rules.variant === 'SUPER_6' ? 'the half pay on a six' : 'the push on a three-card seven'}): leave commissionBps out or 0`,
    );
  }
  const banker = rules.pays.BANKER;
  if (banker.numerator !== banker.denominator) {
    throw new DomainError(
      'INVALID_RULES',
      `Banker pays 1 to 1 before its commission, not ${banker.numerator} to ${banker.denominator}: a lower pay is a commission, set as commissionBps${NO_COMMISSION.includes(rules.variant) ? ` (which ${rules.variant} does not take)` : ''}`,
    );
  }
  return rules;
}

export function isCasinoBanked(variant: Variant): boolean {
  return CASINO_BANKED.includes(variant);
}

/** Bets a customer may place against the house at this table. */
export function offeredBets(rules: RuleSet): BetType[] {
  if (!isCasinoBanked(rules.variant)) return [];
  return [...MAIN_BETS, ...SIDE_BETS.filter((b) => rules.sideBets.includes(b))];
}

export function isOffered(rules: RuleSet, betType: BetType): boolean {
  return offeredBets(rules).includes(betType);
}

/** The cases in which a bet does not pay its table pay (what a player reads beside the pay). */
export const PAY_CASES = ['BANKER_WINS_WITH_6', 'BANKER_WINS_WITH_THREE_CARD_7', 'BOTH_PERFECT_PAIRS', 'TIE'] as const;
export type PayCase = (typeof PAY_CASES)[number];

/** A bet's pay in full: its table pay, the commission taken from a win, and where it pays otherwise. */
export interface PayTerms {
  readonly pays: Odds;
  /** Commission taken from the bet's winnings, basis points (0: none). */
  readonly commissionBps: number;
  /**
   * How the commission and any fractional pay of the bet are rounded, where a player could not tell
   * the amount from the percentage and the pay alone: null where nothing of the bet is rounded, or
   * only down to the minor unit (never more commission, nor less pay, than said but a part of a cent).
   */
  readonly rounding: RoundingRule | null;
  /** The cases paid otherwise: a pay, or null where the bet pushes (its stake returned). */
  readonly except: readonly { readonly when: PayCase; readonly pays: Odds | null }[];
}

/**
 * What a bet pays at this table, said as the settlement settles it (settleWager is its one source:
 * this names the branches that pay other than `pays`, so the screens never show "1 to 1" for a
 * Banker bet that loses a commission or pays half on a six).
 */
export function payTermsOf(rules: RuleSet, betType: BetType): PayTerms {
  const except: { when: PayCase; pays: Odds | null }[] = [];
  let commissionBps = 0;
  if (betType === 'PLAYER' || betType === 'BANKER') {
    if (betType === 'BANKER') {
      commissionBps = rules.commissionBps;
      if (rules.variant === 'SUPER_6') except.push({ when: 'BANKER_WINS_WITH_6', pays: rules.bankerSixPays });
      if (rules.variant === 'EZ') except.push({ when: 'BANKER_WINS_WITH_THREE_CARD_7', pays: null });
    }
    except.push({ when: 'TIE', pays: null });
  }
  if (betType === 'PERFECT_PAIR' && rules.perfectPairBothPays) except.push({ when: 'BOTH_PERFECT_PAIRS', pays: rules.perfectPairBothPays });
  const pays = rules.pays[betType];
  const rounded = commissionBps > 0 || [pays, ...except.map((e) => e.pays)].some((p) => p !== null && p.denominator !== 1);
  const plain = rules.rounding.mode === 'FLOOR' && rules.rounding.unit === 1;
  return { pays, commissionBps, rounding: rounded && !plain ? rules.rounding : null, except };
}

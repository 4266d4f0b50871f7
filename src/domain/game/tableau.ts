import { Card, handTotal, pointOf, rankOf } from './cards';
import { DomainError } from '../errors';
import { Variant } from './rules';

/** What a hand must do: draw, stand, or (chemin de fer / banque) the holder's free choice. */
export type Draw = 'DRAW' | 'STAND' | 'OPTION';

export type Winner = 'PLAYER' | 'BANKER' | 'TIE';

/** Cards as dealt: each hand's first two cards, then its third if one was dealt. */
export interface DealtHands {
  readonly player: readonly Card[];
  readonly banker: readonly Card[];
}

/** Everything settlement and reporting need to know about a coup. */
export interface CoupOutcome {
  readonly winner: Winner;
  readonly playerTotal: number;
  readonly bankerTotal: number;
  readonly playerCards: number;
  readonly bankerCards: number;
  /** Cards dealt in the coup, 4 to 6. */
  readonly cardCount: number;
  /** Either hand had 8 or 9 on two cards. */
  readonly natural: boolean;
  readonly playerPair: boolean;
  readonly bankerPair: boolean;
  readonly playerPerfectPair: boolean;
  readonly bankerPerfectPair: boolean;
  /** Banker won with a total of 6 (Super 6); with how many cards. */
  readonly bankerWinWith6: boolean;
  readonly bankerWinWith6Cards: 2 | 3 | null;
  /** Banker won with a three-card 7 (EZ push; Dragon 7). */
  readonly dragon7: boolean;
  /** Player won with a three-card 8 (Panda 8). */
  readonly panda8: boolean;
}

// ---------------------------------------------------------------------------------------------
// Drawing rules. Totals and point values are 0–9; `playerThird` is the point value of Player's
// third card, or null when Player stood.

/** Punto banco (docs/domain.md §2), the same for every casino-banked variant: every draw is forced. */
export function puntoBancoPlayerDraw(playerTotal: number): Draw {
  return playerTotal <= 5 ? 'DRAW' : 'STAND';
}

export function puntoBancoBankerDraw(bankerTotal: number, playerThird: number | null): Draw {
  if (playerThird === null) return bankerTotal <= 5 ? 'DRAW' : 'STAND';
  return PUNTO_BANCO_BANKER[bankerTotal][playerThird];
}

/** Chemin de fer (docs/domain.md §5): the punter chooses at 5. */
export function chemmyPunterDraw(punterTotal: number): Draw {
  if (punterTotal <= 4) return 'DRAW';
  return punterTotal === 5 ? 'OPTION' : 'STAND';
}

export function chemmyBankerDraw(bankerTotal: number, punterThird: number | null): Draw {
  if (punterThird === null) return bankerTotal <= 5 ? 'DRAW' : 'STAND';
  return CHEMMY_BANKER[bankerTotal][punterThird];
}

const H: Draw = 'DRAW';
const S: Draw = 'STAND';
const O: Draw = 'OPTION';
const row = (cells: string): Draw[] => [...cells].map((c) => (c === 'H' ? H : c === 'S' ? S : O));

/** [bankerTotal][playerThird], totals 0–7 (8 and 9 are naturals or never reach a draw). */
const PUNTO_BANCO_BANKER: Draw[][] = [
  row('HHHHHHHHHH'), // 0
  row('HHHHHHHHHH'), // 1
  row('HHHHHHHHHH'), // 2
  row('HHHHHHHHSH'), // 3: draw unless p = 8
  row('SSHHHHHHSS'), // 4: draw on 2–7
  row('SSSSHHHHSS'), // 5: draw on 4–7
  row('SSSSSSHHSS'), // 6: draw on 6–7
  row('SSSSSSSSSS'), // 7
  row('SSSSSSSSSS'),
  row('SSSSSSSSSS'),
];

/** docs/domain.md §5 table; 0–2 draw, 7 stand. */
const CHEMMY_BANKER: Draw[][] = [
  row('HHHHHHHHHH'), // 0
  row('HHHHHHHHHH'), // 1
  row('HHHHHHHHHH'), // 2
  row('HHHHHHHHSO'), // 3
  row('SSHHHHHHSS'), // 4
  row('SSSSOHHHSS'), // 5
  row('SSSSSSHHSS'), // 6
  row('SSSSSSSSSS'), // 7
  row('SSSSSSSSSS'),
  row('SSSSSSSSSS'),
];

// ---------------------------------------------------------------------------------------------

/** A two-card 8 or 9 (judged on the first two cards, whatever else was recorded). */
const twoCardNatural = (cards: readonly Card[]) => handTotal(cards.slice(0, 2)) >= 8;
const isNatural = (cards: readonly Card[]) => cards.length === 2 && twoCardNatural(cards);

function checkHandSize(name: string, cards: readonly Card[]): void {
  if (cards.length < 2) {
    throw new DomainError('MISDEAL', `${name} has ${cards.length} card(s): every hand starts with two`);
  }
  if (cards.length > 3) {
    throw new DomainError('MISDEAL', `${name} has ${cards.length} cards: a hand holds at most three`);
  }
}

function checkDraw(name: string, decision: Draw, cards: readonly Card[], why: string): void {
  if (decision === 'DRAW' && cards.length !== 3) {
    throw new DomainError('MISDEAL', `${name} ${why} and must draw a third card, but none was recorded`);
  }
  if (decision === 'STAND' && cards.length !== 2) {
    throw new DomainError('MISDEAL', `${name} ${why} and must stand, but a third card was recorded`);
  }
}

function bankerSituation(bankerTotal: number, thirdPoint: number | null, other: string): string {
  return thirdPoint === null ? `has ${bankerTotal} and ${other} stood` : `has ${bankerTotal} and ${other}'s third card counts ${thirdPoint}`;
}

/**
 * Checks the cards of a coup against the variant's drawing rules and returns its outcome.
 * Punto banco family: every draw forced. Chemin de fer: the punter's choice at 5 and the
 * banker's optional cells are legal either way ("player" is the punters' hand). A sequence the
 * rules forbid is a MISDEAL naming the rule broken.
 */
export function evaluateCoup(variant: Variant, hands: DealtHands): CoupOutcome {
  if (variant === 'BANQUE') {
    throw new DomainError('MISDEAL', 'Baccarat banque deals three hands: record right, left and banker');
  }
  const chemmy = variant === 'CHEMIN_DE_FER';
  const [pName, bName] = chemmy ? ['Punter', 'Banker'] : ['Player', 'Banker'];
  const { player, banker } = hands;
  checkHandSize(pName, player);
  checkHandSize(bName, banker);

  const p2 = handTotal(player.slice(0, 2));
  const b2 = handTotal(banker.slice(0, 2));
  if (p2 >= 8 || b2 >= 8) {
    const who = p2 >= 8 ? `${pName} has a natural ${p2}` : `${bName} has a natural ${b2}`;
    if (player.length !== 2) throw new DomainError('MISDEAL', `${who}: both hands stand, but ${pName} was given a third card`);
    if (banker.length !== 2) throw new DomainError('MISDEAL', `${who}: both hands stand, but ${bName} was given a third card`);
  } else {
    checkDraw(pName, chemmy ? chemmyPunterDraw(p2) : puntoBancoPlayerDraw(p2), player, `has ${p2}`);
    const third = player.length === 3 ? pointOf(player[2]) : null;
    const decision = chemmy ? chemmyBankerDraw(b2, third) : puntoBancoBankerDraw(b2, third);
    checkDraw(bName, decision, banker, bankerSituation(b2, third, pName));
  }
  return outcomeOf(player, banker);
}

/** The outcome of two legal hands (no drawing check). */
export function outcomeOf(player: readonly Card[], banker: readonly Card[]): CoupOutcome {
  const pair = (h: readonly Card[]) => rankOf(h[0]) === rankOf(h[1]);
  return outcomeOfHands({
    playerTotal: handTotal(player),
    bankerTotal: handTotal(banker),
    playerCards: player.length,
    bankerCards: banker.length,
    natural: isNatural(player) || isNatural(banker),
    playerPair: pair(player),
    bankerPair: pair(banker),
    playerPerfectPair: player[0] === player[1],
    bankerPerfectPair: banker[0] === banker[1],
  });
}

/** What decides every bet of a coup, short of the winner and the special wins that follow from it. */
export type HandsSummary = Pick<
  CoupOutcome,
  'playerTotal' | 'bankerTotal' | 'playerCards' | 'bankerCards' | 'natural' | 'playerPair' | 'bankerPair' | 'playerPerfectPair' | 'bankerPerfectPair'
>;

/** The outcome of hands summed up: the winner, and the special wins (Banker with 6, Dragon 7, Panda 8). */
export function outcomeOfHands(h: HandsSummary): CoupOutcome {
  const { playerTotal, bankerTotal } = h;
  const winner: Winner = playerTotal > bankerTotal ? 'PLAYER' : bankerTotal > playerTotal ? 'BANKER' : 'TIE';
  const bankerWinWith6 = winner === 'BANKER' && bankerTotal === 6;
  return {
    winner,
    playerTotal,
    bankerTotal,
    playerCards: h.playerCards,
    bankerCards: h.bankerCards,
    cardCount: h.playerCards + h.bankerCards,
    natural: h.natural,
    playerPair: h.playerPair,
    bankerPair: h.bankerPair,
    playerPerfectPair: h.playerPerfectPair,
    bankerPerfectPair: h.bankerPerfectPair,
    bankerWinWith6,
    bankerWinWith6Cards: bankerWinWith6 ? (h.bankerCards as 2 | 3) : null,
    dragon7: winner === 'BANKER' && bankerTotal === 7 && h.bankerCards === 3,
    panda8: winner === 'PLAYER' && playerTotal === 8 && h.playerCards === 3,
  };
}

// ---------------------------------------------------------------------------------------------
// Baccarat banque: right and left punter hands against one banker hand.

export interface BanqueHands {
  readonly right: readonly Card[];
  readonly left: readonly Card[];
  readonly banker: readonly Card[];
}

/** One side's result against the banker. */
export interface BanqueSide {
  readonly winner: 'PUNTER' | 'BANKER' | 'TIE';
  readonly punterTotal: number;
  readonly natural: boolean;
}

export interface BanqueOutcome {
  readonly right: BanqueSide;
  readonly left: BanqueSide;
  readonly bankerTotal: number;
  readonly bankerNatural: boolean;
  readonly cardCount: number;
}

/**
 * Baccarat banque: a natural (8 or 9 on two cards) in any of the three hands ends the coup for
 * everyone: all hands are exposed and nobody draws. Otherwise punters draw as in chemin de fer
 * (choice at 5) and the banker's draw is free.
 */
export function evaluateBanqueCoup(hands: BanqueHands): BanqueOutcome {
  const { right, left, banker } = hands;
  const named = [
    ['Right hand', right],
    ['Left hand', left],
    ['Banker', banker],
  ] as const;
  for (const [name, h] of named) checkHandSize(name, h);
  const bankerNatural = twoCardNatural(banker);
  const naturals = named.filter(([, h]) => twoCardNatural(h));
  if (naturals.length > 0) {
    const who = (name: string) => (name === 'Banker' ? 'the banker' : `the ${name.toLowerCase()}`);
    const shown = naturals.map(([name, h]) => `${who(name)} a natural ${handTotal(h.slice(0, 2))}`).join(' and ');
    for (const [name, h] of named) {
      if (h.length !== 2)
        throw new DomainError('MISDEAL', `A natural ends the coup for everyone (${shown}): all hands stand, but ${who(name)} was given a third card`);
    }
  } else {
    for (const [name, h] of named.slice(0, 2)) checkDraw(name, chemmyPunterDraw(handTotal(h.slice(0, 2))), h, `has ${handTotal(h.slice(0, 2))}`);
  }
  const bankerTotal = handTotal(banker);
  const side = (h: readonly Card[]): BanqueSide => {
    const punterTotal = handTotal(h);
    return {
      winner: punterTotal > bankerTotal ? 'PUNTER' : bankerTotal > punterTotal ? 'BANKER' : 'TIE',
      punterTotal,
      natural: isNatural(h),
    };
  };
  return {
    right: side(right),
    left: side(left),
    bankerTotal,
    bankerNatural,
    cardCount: right.length + left.length + banker.length,
  };
}

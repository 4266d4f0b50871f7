import { ChemmyBankBefore, ChemmyBankState, chemmySuccession, evaluateCoup, HouseCommission, parseCards, playChemmy, Rotation } from '../../../src/domain';

/**
 * Who holds the chemin de fer bank, coup after coup, as the rules of the game say (docs/domain.md,
 * "Bank succession"). Each scenario is a whole sequence (open, coups decided by their cards,
 * retire, offers declined and taken, losses) with the next banker checked after every step.
 */
const house: HouseCommission = { commissionBps: 500, rounding: { mode: 'FLOOR', unit: 1 } };
const limits = { min: 1_000n, max: 100_000n };
const ROTATION: Rotation = [1, 2, 3, 4, 5, 6];

// Cards, from the rule book's tableau: who wins each coup.
const CARDS = {
  bankerNatural: { player: ['5C', '2D'], banker: ['8S', 'KD'] }, // the banker's natural 8 ends the coup (the punter's 7 draws nothing): bank wins
  punterNatural: { player: ['9C', 'KD'], banker: ['7H', 'KC'] }, // the punters' natural 9: bank loses
  bankerSeven: { player: ['2C', '3D'], banker: ['4H', '3S'] }, // punter stands on 5, banker 7 stands: bank wins
  punterDraws: { player: ['KC', '3D', '4H'], banker: ['6S', 'KD'] }, // punter 3 draws to 7; banker 6 on a 4 stands: bank loses
  tie: { player: ['7C', 'KD'], banker: ['7S', 'QH'] },
} as const;

type Step =
  | { open: number; amount: number; declined?: number[]; expect: { how: string; outOfTurnFor?: number | null } | { refused: string } }
  | { coup: keyof typeof CARDS; stake?: number; next: number }
  | { retire: true; offer: number; offeredFirstTo: number };

/** Plays the steps on the engine alone, checking each one; returns the banker after the last. */
function play(steps: Step[]): void {
  let state: ChemmyBankState | null = null;
  let last: ChemmyBankBefore | null = null;
  for (const [i, step] of steps.entries()) {
    const at = `step ${i + 1}`;
    if ('open' in step) {
      const claim = { bankerSeat: step.open, amount: BigInt(step.amount), declined: step.declined ?? [] };
      const decide = () => (last ? chemmySuccession(ROTATION, last, claim, limits) : { how: 'NEW' as const, outOfTurnFor: null });
      if ('refused' in step.expect) {
        expect({ at, code: codeOf(decide) }).toEqual({ at, code: step.expect.refused });
        continue;
      }
      const s = decide();
      expect({ at, how: s.how, outOfTurnFor: s.outOfTurnFor }).toEqual({ at, how: step.expect.how, outOfTurnFor: step.expect.outOfTurnFor ?? null });
      state = {
        bankerSeat: step.open,
        rotation: ROTATION,
        stake: claim.amount,
        setAside: 0n,
        commission: 0n,
        bancoSuivi: null,
        standing: null,
        outOfTurnFor: s.outOfTurnFor,
      };
      last = null;
    } else if ('coup' in step) {
      const s = state!;
      const winner = evaluateCoup('CHEMIN_DE_FER', {
        player: parseCards([...CARDS[step.coup].player]),
        banker: parseCards([...CARDS[step.coup].banker]),
      }).winner;
      const punter = ROTATION.find((seat) => seat !== s.bankerSeat)!;
      const round = playChemmy(house, s, {
        calls: s.standing ? null : [{ seat: punter, amount: BigInt(step.stake ?? Number(s.stake)) }],
        bankerAdds: 0n,
        winner,
      });
      expect({ at, next: round.result.nextBanker }).toEqual({ at, next: step.next });
      if (round.next.passed) {
        last = { bankerSeat: s.bankerSeat, status: 'PASSED', nextBanker: round.result.nextBanker, offer: null };
        state = null;
      } else state = round.next;
    } else {
      const s = state!;
      expect({ at, offer: Number(s.stake) }).toEqual({ at, offer: step.offer });
      last = { bankerSeat: s.bankerSeat, status: 'RETIRED', nextBanker: null, offer: s.stake };
      expect({ at, first: ROTATION[(ROTATION.indexOf(s.bankerSeat) + 1) % ROTATION.length] }).toEqual({ at, first: step.offeredFirstTo });
      state = null;
    }
  }
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'ACCEPTED';
  } catch (e) {
    return (e as { code: string }).code;
  }
}

describe('chemin de fer: bank succession', () => {
  it('a lost bank passes to the next seat; naturals on either side decide the coup at once', () => {
    play([
      { open: 1, amount: 10_000, expect: { how: 'NEW' } },
      { coup: 'bankerNatural', next: 1 }, // bank 10,000 + 10,000 − 500 = 19,500
      { coup: 'tie', next: 1 },
      { coup: 'bankerSeven', next: 1 }, // 19,500 staked and won: 39,000 − 975 = 38,025
      { coup: 'punterNatural', next: 2 },
      { open: 3, amount: 5_000, expect: { refused: 'WRONG_BANKER' } },
      { open: 2, amount: 500, expect: { refused: 'BET_LIMIT' } },
      { open: 2, amount: 5_000, expect: { how: 'PASSED' } },
      { coup: 'punterDraws', next: 3 },
      // Seat 3 declines its turn: seat 4 banks; a seat out of the rotation cannot decline.
      { open: 4, amount: 2_000, declined: [9], expect: { refused: 'INVALID_STAKES' } },
      { open: 4, amount: 2_000, declined: [3], expect: { how: 'PASSED' } },
      { coup: 'punterNatural', next: 5 },
    ]);
  });

  it('a retired bank is offered in rotation at what the banker would have staked; the next seat takes it in its own turn', () => {
    play([
      { open: 1, amount: 10_000, expect: { how: 'NEW' } },
      { coup: 'bankerSeven', next: 1 },
      { retire: true, offer: 19_500, offeredFirstTo: 2 },
      { open: 3, amount: 19_500, expect: { refused: 'WRONG_BANKER' } }, // seat 2 has not declined
      { open: 2, amount: 19_499, expect: { refused: 'BANK_BELOW_OFFER' } },
      { open: 2, amount: 19_500, expect: { how: 'OFFER_TAKEN', outOfTurnFor: null } },
      { coup: 'punterDraws', next: 3 }, // seat 2's own turn: the rotation moves on
    ]);
  });

  it('a retired bank taken out of turn does not move the rotation: when it is lost the turn goes back to the first seat that declined', () => {
    play([
      { open: 1, amount: 10_000, expect: { how: 'NEW' } },
      { coup: 'bankerNatural', next: 1 },
      { retire: true, offer: 19_500, offeredFirstTo: 2 },
      { open: 4, amount: 19_500, declined: [2], expect: { refused: 'WRONG_BANKER' } }, // seat 3 is next
      { open: 3, amount: 15_000, declined: [2], expect: { refused: 'BANK_BELOW_OFFER' } },
      { open: 3, amount: 20_000, declined: [2], expect: { how: 'OFFER_TAKEN', outOfTurnFor: 2 } },
      { coup: 'bankerSeven', next: 3 }, // seat 3 keeps the bank while it wins
      { coup: 'tie', next: 3 },
      { coup: 'punterNatural', next: 2 }, // lost: seat 2, who declined first, has the turn
      { open: 2, amount: 3_000, expect: { how: 'PASSED' } },
      { coup: 'punterDraws', next: 3 }, // and the rotation goes on from seat 2
    ]);
  });

  it('several seats decline before one takes the offer: the turn still goes back to the first of them', () => {
    play([
      { open: 5, amount: 8_000, expect: { how: 'NEW' } },
      { coup: 'bankerSeven', next: 5 },
      { retire: true, offer: 15_600, offeredFirstTo: 6 },
      { open: 2, amount: 15_600, declined: [1, 6], expect: { how: 'OFFER_TAKEN', outOfTurnFor: 6 } },
      { coup: 'punterDraws', next: 6 },
    ]);
  });

  it('if no seat will take the offer, the first seat after the retiring banker opens a new bank at any amount within the limits', () => {
    play([
      { open: 4, amount: 50_000, expect: { how: 'NEW' } },
      { coup: 'bankerSeven', next: 4 },
      { retire: true, offer: 97_500, offeredFirstTo: 5 },
      // Not everyone has declined yet: a lower amount is not a new bank but a refused take-over.
      { open: 5, amount: 2_000, expect: { refused: 'BANK_BELOW_OFFER' } },
      { open: 3, amount: 2_000, declined: [5, 6, 1, 2], expect: { refused: 'BANK_BELOW_OFFER' } },
      { open: 6, amount: 2_000, declined: [5, 6, 1, 2, 3], expect: { refused: 'WRONG_BANKER' } },
      { open: 5, amount: 200_000, declined: [5, 6, 1, 2, 3], expect: { refused: 'BET_LIMIT' } },
      { open: 5, amount: 2_000, declined: [5, 6, 1, 2, 3], expect: { how: 'NEW', outOfTurnFor: null } },
      { coup: 'punterNatural', next: 6 },
    ]);
  });

  it('a bank grown past the table maximum may still be taken at its offer', () => {
    play([
      { open: 1, amount: 100_000, expect: { how: 'NEW' } },
      { coup: 'bankerSeven', next: 1 },
      { retire: true, offer: 195_000, offeredFirstTo: 2 },
      { open: 2, amount: 195_001, expect: { refused: 'BET_LIMIT' } },
      { open: 2, amount: 195_000, expect: { how: 'OFFER_TAKEN', outOfTurnFor: null } },
    ]);
  });
});

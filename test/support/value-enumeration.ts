import { ALL_CARDS, BANKER_DRAWS, cardsIn, Composition, OddsCounts, pointOf } from '../../src/domain';

/**
 * The engine's first exact-odds enumeration, kept as an oracle for the faster one: every ordered
 * point value of the first four cards (10^4 leaves), then every third card the tableau calls for,
 * one at a time. Slow (1–2 ms for a full shoe) and plain enough to read against the tableau.
 * Pairs are not counted here (they depend on ranks and suits, not points).
 */
export function valueEnumeration(
  composition: Composition,
): Omit<OddsCounts, 'cards' | 'total' | 'playerPair' | 'bankerPair' | 'eitherPair' | 'perfectPairEither' | 'perfectPairBoth'> {
  const n = cardsIn(composition);
  const v = new Array<number>(10).fill(0);
  for (const card of ALL_CARDS) v[pointOf(card)] += composition[card];

  const f5 = n - 5;
  const f45 = (n - 4) * f5;
  let banker = 0,
    player = 0,
    tie = 0,
    natural = 0,
    four = 0,
    five = 0,
    six = 0;
  let b6two = 0,
    b6three = 0,
    d7 = 0,
    p8 = 0;

  const c = v;
  for (let p1 = 0; p1 < 10; p1++) {
    const w1 = c[p1];
    if (w1 === 0) continue;
    c[p1]--;
    for (let b1 = 0; b1 < 10; b1++) {
      const w2 = w1 * c[b1];
      if (w2 === 0) continue;
      c[b1]--;
      for (let p2 = 0; p2 < 10; p2++) {
        const w3 = w2 * c[p2];
        if (w3 === 0) continue;
        c[p2]--;
        const pt = (p1 + p2) % 10;
        for (let b2 = 0; b2 < 10; b2++) {
          const w4 = w3 * c[b2];
          if (w4 === 0) continue;
          c[b2]--;
          const bt = (b1 + b2) % 10;
          if (pt >= 8 || bt >= 8 || (pt >= 6 && bt >= 6)) {
            // Natural, or both stand on 6–7: four cards.
            const w = w4 * f45;
            four += w;
            if (pt >= 8 || bt >= 8) natural += w;
            if (bt > pt) {
              banker += w;
              if (bt === 6) b6two += w;
            } else if (pt > bt) player += w;
            else tie += w;
          } else if (pt >= 6) {
            // Player stands on 6–7, Banker (0–5) draws.
            for (let b3 = 0; b3 < 10; b3++) {
              const k = c[b3];
              if (k === 0) continue;
              const w = w4 * k * f5;
              five += w;
              const bf = (bt + b3) % 10;
              if (bf > pt) {
                banker += w;
                if (bf === 6) b6three += w;
                else if (bf === 7) d7 += w;
              } else if (pt > bf) player += w;
              else tie += w;
            }
          } else {
            // Player draws.
            for (let p3 = 0; p3 < 10; p3++) {
              const w5 = w4 * c[p3];
              if (w5 === 0) continue;
              const pf = (pt + p3) % 10;
              if (BANKER_DRAWS[bt * 10 + p3] === 1) {
                c[p3]--;
                for (let b3 = 0; b3 < 10; b3++) {
                  const w = w5 * c[b3];
                  if (w === 0) continue;
                  six += w;
                  const bf = (bt + b3) % 10;
                  if (bf > pf) {
                    banker += w;
                    if (bf === 6) b6three += w;
                    else if (bf === 7) d7 += w;
                  } else if (pf > bf) {
                    player += w;
                    if (pf === 8) p8 += w;
                  } else tie += w;
                }
                c[p3]++;
              } else {
                const w = w5 * f5;
                five += w;
                if (bt > pf) {
                  banker += w;
                  if (bt === 6) b6two += w;
                } else if (pf > bt) {
                  player += w;
                  if (pf === 8) p8 += w;
                } else tie += w;
              }
            }
          }
          c[b2]++;
        }
        c[p2]++;
      }
      c[b1]++;
    }
    c[p1]++;
  }

  return {
    banker: BigInt(banker),
    player: BigInt(player),
    tie: BigInt(tie),
    natural: BigInt(natural),
    fourCards: BigInt(four),
    fiveCards: BigInt(five),
    sixCards: BigInt(six),
    bankerWin6TwoCards: BigInt(b6two),
    bankerWin6ThreeCards: BigInt(b6three),
    bankerWin6: BigInt(b6two + b6three),
    dragon7: BigInt(d7),
    panda8: BigInt(p8),
  };
}

/**
 * npm run bench:odds — times the exact odds (every outcome and side-bet event, plus every bet's
 * house edge) for a full 8-deck shoe and for 100 random depleted shoes dealt from real shuffled
 * shoes; and what surveillance computes for every coup (coupOdds: the same, plus the odds given
 * each first card). Prints median and p95 per composition and writes bench/results/odds.json.
 */
import { performance } from 'node:perf_hooks';
import { betOdds, coupOdds, exactOdds, fullShoe, removeCards, ruleSet, seededRandom, shuffledShoe, SIDE_BETS } from '../src/domain';
import { machine, summarize, writeJson } from './stats';

const rules = ruleSet({ variant: 'EZ', sideBets: [...SIDE_BETS] });
const time = (comp: number[]) => {
  const t0 = performance.now();
  betOdds(rules, exactOdds(comp));
  return performance.now() - t0;
};

// Warm-up so the JIT has compiled the enumeration (a long-running service is always warm).
for (let i = 0; i < 20; i++) time(fullShoe(8));

const full: number[] = [];
for (let i = 0; i < 100; i++) full.push(time(fullShoe(8)));

const random = seededRandom(20261121);
const depleted: number[] = [];
const surveillance: number[] = [];
const sizes: number[] = [];
for (let i = 0; i < 100; i++) {
  const shoe = shuffledShoe(8, random);
  const seen = Math.floor(random() * (shoe.length - 6)); // anywhere from a fresh shoe to the last 6 cards
  const comp = removeCards(fullShoe(8), shoe.slice(0, seen));
  sizes.push(shoe.length - seen);
  depleted.push(time(comp));
  const t0 = performance.now();
  coupOdds(rules, comp);
  surveillance.push(performance.now() - t0);
}
// First-call (cold) cost, in a fresh shape of composition, for the record.
const fmt = (x: number) => x.toFixed(3);
const rows = [
  ['full 8-deck shoe (100 runs)', summarize(full)],
  ['100 random depleted 8-deck shoes', summarize(depleted)],
  ['the same, surveillance (coupOdds)', summarize(surveillance)],
] as const;
console.log('\nExact odds per composition (all outcomes, side-bet events and house edges), ms');
console.log('composition                          median    p95      max');
for (const [name, s] of rows) console.log(`${name.padEnd(36)} ${fmt(s.median).padStart(7)} ${fmt(s.p95).padStart(7)} ${fmt(s.max).padStart(8)}`);
console.log(`depleted shoes held ${Math.min(...sizes)}–${Math.max(...sizes)} cards`);
const file = writeJson('odds', {
  when: new Date().toISOString(),
  machine: machine(),
  fullShoe: summarize(full),
  depleted: summarize(depleted),
  surveillanceCoupOdds: summarize(surveillance),
  depletedSizes: { min: Math.min(...sizes), max: Math.max(...sizes) },
  targetMedianMs: 0.5,
});
console.log(`written ${file}`);

import { LRUCache } from 'lru-cache';
import {
  BetType,
  isCasinoBanked,
  Odds,
  parseOdds,
  quantisedCovariances,
  quantisedEdges,
  quantisedLossProbabilities,
  RuleSet,
  ruleSet,
  SideBet,
  TableLimits,
} from '../../domain';
import { CasinoTable } from '../../generated/prisma/client';

/**
 * A table's row read as the engine's terms: its rules, its limits and each offered bet's exact
 * edge. A table's rules are never edited, so each is computed once per process.
 */

/** The property every table belongs to unless told otherwise (made by the first migration). */
export const DEFAULT_PROPERTY_ID = '00000000-0000-4000-8000-000000000001';

export type BetLimits = Partial<Record<BetType, { min: number; max: number }>>;

/** What a table's rules are made of: the columns of its row that rulesOf reads. */
export type TableTerms = Pick<
  CasinoTable,
  'id' | 'variant' | 'decks' | 'commissionBps' | 'tieBetsStay' | 'sideBets' | 'pays' | 'perfectPairBothPays' | 'roundingMode' | 'roundingUnit'
>;

/** Tables whose rules, limits and figures are remembered (lru-cache: the least recently used goes first). */
const TABLES_REMEMBERED = 5_000;

/** A table row's rules as the engine's rule set. Table rules are never edited, so this is cached. */
const rulesCache = new LRUCache<string, RuleSet>({ max: TABLES_REMEMBERED });

export function rulesOf(table: TableTerms): RuleSet {
  let rules = rulesCache.get(table.id);
  if (!rules) {
    const pays = Object.fromEntries(Object.entries(table.pays as Record<string, string>).map(([b, p]) => [b, parseOdds(p)])) as Partial<Record<BetType, Odds>>;
    rules = ruleSet({
      variant: table.variant,
      decks: table.decks,
      commissionBps: table.commissionBps,
      tieBetsStay: table.tieBetsStay,
      sideBets: table.sideBets as SideBet[],
      pays,
      perfectPairBothPays: table.perfectPairBothPays ? parseOdds(table.perfectPairBothPays) : null,
      rounding: { mode: table.roundingMode as RuleSet['rounding']['mode'], unit: table.roundingUnit },
    });
    rulesCache.set(table.id, rules);
  }
  return rules;
}

/**
 * A figure worked out once per set of rules, not per table: a floor of 200 tables deals a handful of
 * rule sets, and a table's first coup (or a patron's first rating after a restart) should not wait
 * for the exact moments of rules already known.
 */
function perRules<T extends object>(compute: (rules: RuleSet) => T): (table: TableTerms) => T {
  const byTable = new LRUCache<string, T>({ max: TABLES_REMEMBERED });
  const byRules = new LRUCache<string, T>({ max: 500 });
  return (table) => {
    let v = byTable.get(table.id);
    if (v === undefined) {
      const rules = rulesOf(table);
      const key = JSON.stringify(rules);
      v = byRules.get(key);
      if (v === undefined) byRules.set(key, (v = compute(rules)));
      byTable.set(table.id, v);
    }
    return v;
  };
}

const edgesPerRules = perRules((rules) => (isCasinoBanked(rules.variant) ? quantisedEdges(rules) : {}));

/** Each offered bet's house edge × 10^12 under the table's rules (casino-banked tables only), cached. */
export function edgesOf(table: CasinoTable): Partial<Record<BetType, bigint>> {
  return edgesPerRules(table);
}

const covariancesPerRules = perRules((rules) => (isCasinoBanked(rules.variant) ? quantisedCovariances(rules) : new Map<BetType, Map<BetType, bigint>>()));

/**
 * The covariances of the offered bets' results per unit² × 10^12 under the table's rules, from a full
 * shoe (casino-banked tables only; player-banked: none), cached: a coup's variance is Σ S_b S_c cov_bc.
 */
export function covariancesOf(table: CasinoTable): Map<BetType, Map<BetType, bigint>> {
  return covariancesPerRules(table);
}

const lossesPerRules = perRules((rules) => (isCasinoBanked(rules.variant) ? quantisedLossProbabilities(rules) : {}));

/** Each offered bet's exact probability of losing × 10^12 under the table's rules (casino-banked tables only), cached. */
export function lossesOf(table: CasinoTable): Partial<Record<BetType, bigint>> {
  return lossesPerRules(table);
}

/**
 * What a table's theoretical win and its band are computed from: the edges and the covariances; and
 * each bet's probability of losing (the rolling the edges expect of dead chips).
 */
export function theoryOf(table: CasinoTable): Theory {
  return { edgesE12: edgesOf(table), covariancesE12: covariancesOf(table), lossesE12: lossesOf(table) };
}

export interface Theory {
  readonly edgesE12: Partial<Record<BetType, bigint>>;
  readonly covariancesE12: Map<BetType, Map<BetType, bigint>>;
  readonly lossesE12: Partial<Record<BetType, bigint>>;
}

const limitsCache = new LRUCache<string, TableLimits>({ max: TABLES_REMEMBERED });

/** Limits as stored (a table's opening limits, or a change of them): the minimum, maximum and each bet's own. */
export interface StoredLimits {
  readonly minBet: bigint | string;
  readonly maxBet: bigint | string;
  readonly betLimits: unknown;
}

function parseLimits(l: StoredLimits): TableLimits {
  const perBet = Object.fromEntries(
    Object.entries(l.betLimits as BetLimits).map(([b, x]) => [b, { min: BigInt(x.min), max: BigInt(x.max) }]),
  ) as TableLimits['perBet'];
  return { table: { min: BigInt(l.minBet), max: BigInt(l.maxBet) }, perBet };
}

/** A table row's opening limits as the engine's (the table's, and each bet's own), cached like its rules. */
export function limitsOf(table: CasinoTable): TableLimits {
  let limits = limitsCache.get(table.id);
  if (!limits) limitsCache.set(table.id, (limits = parseLimits(table)));
  return limits;
}

/** A change of a table's limits as stored (table_limits), as the read of a shoe answers it. */
export interface LimitsChange extends StoredLimits {
  readonly id: string;
}

const changesCache = new LRUCache<string, TableLimits>({ max: TABLES_REMEMBERED });

/**
 * The limits in force at a table: its change of limits in force (never edited, so cached by its
 * id), else its opening limits.
 */
export function limitsInForce(table: CasinoTable, change: LimitsChange | null): TableLimits {
  if (!change) return limitsOf(table);
  let limits = changesCache.get(change.id);
  if (!limits) changesCache.set(change.id, (limits = parseLimits(change)));
  return limits;
}

/** A table with its property's clock (time zone, start of the gaming day). */
export interface TableWithClock {
  readonly table: CasinoTable;
  readonly timeZone: string;
  readonly gamingDayStartHour: number;
}

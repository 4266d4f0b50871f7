import { Tx } from '../../platform/database/prisma.service';
import { prismaRunner } from '../../platform/database/sql';
import { LEDGER_SQL, RollupParams } from './ledger-sql';
import { BetType, coupPlayDeltas, coupVariances, stakeTheoE12, Winner } from '../../domain';

/**
 * Writes to the finance rollups. Called inside the settlement, void and collection transactions,
 * so the rollups always equal the sums over settled, unvoided wagers (the reconciliation endpoint
 * and its test check exactly that).
 */

export interface SettledWager {
  betType: BetType;
  amount: bigint;
  payout: bigint;
  commission: bigint;
  net: bigint;
  result: 'WIN' | 'LOSE' | 'PUSH';
  /** Its seat (the limit rollup counts the seats that bet on each coup). */
  seat: number;
  /** Whose the wager is, and in which visit (the patron rollups). */
  patronId: string | null;
  seatingId: string | null;
  /** Placed in dead (rolling) chips: premium play (docs/domain.md §14 "Premium and mass"). */
  dead: boolean;
}

interface Delta {
  wagers: bigint;
  handle: bigint;
  payouts: bigint;
  commission: bigint;
  net: bigint;
  wins: bigint;
  losses: bigint;
  pushes: bigint;
  theo: bigint;
  /** The variance of this bet type's result on the coup × 10^12: (its stakes)² × its variance per unit². */
  var: bigint;
  /** The premium (dead-chip) wagers' part: count, stakes, commission, the customer's net, theo × 10^12. */
  pWagers: bigint;
  pHandle: bigint;
  pCommission: bigint;
  pNet: bigint;
  pTheo: bigint;
}

/**
 * A table and its property: every rollup row is kept under both (the property is the distribution
 * key of a group's ledger, migration 20261202090000_property_on_ledgers).
 */
export interface TableKey {
  tableId: string;
  propertyId: string;
}

/** What a table's theoretical win and its band come from (pit/table-rules.ts theoryOf). */
export interface TheoryE12 {
  readonly edgesE12: Partial<Record<BetType, bigint>>;
  readonly covariancesE12: Map<BetType, Map<BetType, bigint>>;
  /** Each bet's exact probability of losing × 10^12: the rolling the edges expect of dead chips. */
  readonly lossesE12: Partial<Record<BetType, bigint>>;
}

/**
 * Adds (sign 1) or removes (sign −1, a void) one settled coup and its wagers, in one statement,
 * premium (dead-chip) play beside the totals at each table grain, at four grains: table × gaming day × bet type, table × month × bet type, table × gaming day, and
 * table × gaming day × the limits it was under; and its rated wagers to the patron rollups.
 */
export async function applyCoupToRollups(
  tx: Tx,
  coup: TableKey & { gamingDay: string; winner: Winner; natural: boolean; limitsId: string | null },
  wagers: readonly SettledWager[],
  theory: TheoryE12,
  sign: 1n | -1n,
): Promise<void> {
  await prismaRunner(tx).run(LEDGER_SQL.applyCoupRollups.bind(rollupParams(coup, wagers, theory, sign)));
}

/**
 * A settled coup's sums per bet type and in all, signed, as the rollup statement takes them. The
 * coup's variance in all is the quadratic form of its stakes per bet through the covariances (bets on
 * one coup are correlated); per bet type, that bet's own part (its stakes² × its variance).
 */
export function rollupParams(
  coup: TableKey & { gamingDay: string; winner: Winner; natural: boolean; limitsId: string | null },
  wagers: readonly SettledWager[],
  theory: TheoryE12,
  sign: 1n | -1n,
): RollupParams {
  const { edgesE12, covariancesE12 } = theory;
  const byBet = new Map<BetType, Delta>();
  for (const w of wagers) {
    const d = byBet.get(w.betType) ?? {
      wagers: 0n,
      handle: 0n,
      payouts: 0n,
      commission: 0n,
      net: 0n,
      wins: 0n,
      losses: 0n,
      pushes: 0n,
      theo: 0n,
      var: 0n,
      pWagers: 0n,
      pHandle: 0n,
      pCommission: 0n,
      pNet: 0n,
      pTheo: 0n,
    };
    const theo = stakeTheoE12(w.amount, edgesE12[w.betType] ?? 0n);
    d.wagers += 1n;
    d.handle += w.amount;
    d.payouts += w.payout;
    d.commission += w.commission;
    d.net += w.net;
    if (w.result === 'WIN') d.wins += 1n;
    else if (w.result === 'LOSE') d.losses += 1n;
    else d.pushes += 1n;
    d.theo += theo;
    if (w.dead) {
      d.pWagers += 1n;
      d.pHandle += w.amount;
      d.pCommission += w.commission;
      d.pNet += w.net;
      d.pTheo += theo;
    }
    byBet.set(w.betType, d);
  }
  const variances = coupVariances(new Map([...byBet].map(([b, d]) => [b, d.handle])), covariancesE12);
  for (const [b, d] of byBet) d.var = variances.own.get(b)!;
  const coupVar = variances.whole;
  const bets = [...byBet.keys()].sort();
  const col = (f: keyof Delta) => bets.map((b) => (byBet.get(b)![f] * sign).toString());
  const one = (cond: boolean) => (cond ? sign : 0n).toString();
  const total = (f: keyof Delta) => ([...byBet.values()].reduce((t, d) => t + d[f], 0n) * sign).toString();
  return {
    rollupTableId: coup.tableId,
    rollupPropertyId: coup.propertyId,
    rollupDay: coup.gamingDay,
    rollupMonth: `${coup.gamingDay.slice(0, 7)}-01`,
    rollupBetTypes: bets,
    rollupWagers: col('wagers'),
    rollupHandle: col('handle'),
    rollupPayouts: col('payouts'),
    rollupCommission: col('commission'),
    rollupNet: col('net'),
    rollupWins: col('wins'),
    rollupLosses: col('losses'),
    rollupPushes: col('pushes'),
    rollupTheo: col('theo'),
    rollupVar: col('var'),
    rollupPremiumWagers: col('pWagers'),
    rollupPremiumHandle: col('pHandle'),
    rollupPremiumCommission: col('pCommission'),
    rollupPremiumNet: col('pNet'),
    rollupPremiumTheo: col('pTheo'),
    rollupCoups: sign.toString(),
    rollupBankerWins: one(coup.winner === 'BANKER'),
    rollupPlayerWins: one(coup.winner === 'PLAYER'),
    rollupTies: one(coup.winner === 'TIE'),
    rollupNaturals: one(coup.natural),
    rollupTotalWagers: total('wagers'),
    rollupTotalHandle: total('handle'),
    rollupTotalPayouts: total('payouts'),
    rollupTotalCommission: total('commission'),
    rollupTotalNet: total('net'),
    rollupTotalTheo: total('theo'),
    rollupTotalVar: (coupVar * sign).toString(),
    rollupTotalPremiumWagers: total('pWagers'),
    rollupTotalPremiumHandle: total('pHandle'),
    rollupTotalPremiumCommission: total('pCommission'),
    rollupTotalPremiumNet: total('pNet'),
    rollupTotalPremiumTheo: total('pTheo'),
    rollupLimitsId: coup.limitsId,
    rollupPlayers: (BigInt(new Set(wagers.map((w) => w.seat)).size) * sign).toString(),
    ...patronParams(wagers, theory, sign),
  };
}

/** The patron rollups' share of the coup (domain/patrons/rating.ts coupPlayDeltas), signed, as the statement takes it. */
function patronParams(wagers: readonly SettledWager[], theory: TheoryE12, sign: 1n | -1n) {
  const { bets, coups } = coupPlayDeltas(wagers, theory);
  const n = (v: bigint | number) => (BigInt(v) * sign).toString();
  return {
    patronPatrons: bets.map((b) => b.patronId),
    patronVisits: bets.map((b) => b.visit),
    patronBets: bets.map((b) => b.betType),
    patronWagers: bets.map((b) => n(b.sums.wagers)),
    patronHandle: bets.map((b) => n(b.sums.handle)),
    patronNet: bets.map((b) => n(b.sums.net)),
    patronTheo: bets.map((b) => n(b.sums.theoE12)),
    patronDeadWagers: bets.map((b) => n(b.dead.wagers)),
    patronDeadHandle: bets.map((b) => n(b.dead.handle)),
    patronDeadNet: bets.map((b) => n(b.dead.net)),
    patronDeadRolled: bets.map((b) => n(b.dead.rolled)),
    patronDeadTheo: bets.map((b) => n(b.dead.theoE12)),
    patronDeadExpectedRolled: bets.map((b) => n(b.dead.expectedRolledE12)),
    patronCoupPatrons: coups.map((c) => c.patronId),
    patronCoupVisits: coups.map((c) => c.visit),
    patronCoupCoups: coups.map(() => n(1)),
    patronCoupVar: coups.map((c) => n(c.varE12)),
    patronCoupDeadVar: coups.map((c) => n(c.deadVarE12)),
  };
}

/** Collected commission, on the gaming day of the collection; commission is only charged on Banker bets. */
export async function addCollectedCommission(tx: Tx, at: TableKey, gamingDay: string, amount: bigint): Promise<void> {
  const month = `${gamingDay.slice(0, 7)}-01`;
  await prismaRunner(tx).run(LEDGER_SQL.addCollectedCommission.bind({ ...at, gamingDay, month, amount: amount.toString() }));
}

/**
 * Adds (sign 1) or removes (sign −1, a void) one player-banked coup and the house's commission on
 * it, on the coup's gaming day: the only house revenue of those games.
 */
export async function applyBankCoupToRollups(tx: Tx, at: TableKey, gamingDay: string, commission: bigint, sign: 1n | -1n): Promise<void> {
  await prismaRunner(tx).run(
    LEDGER_SQL.applyBankCoupRollups.bind({ ...at, gamingDay, coups: sign.toString(), houseCommission: (commission * sign).toString() }),
  );
}

/** A voided coup counted on its gaming day with its settled wagers (the void summary of reports). */
export async function recordVoidedCoup(tx: Tx, at: TableKey, gamingDay: string, settled: readonly { amount: bigint }[]): Promise<void> {
  const handle = settled.reduce((sum, w) => sum + w.amount, 0n);
  await prismaRunner(tx).run(LEDGER_SQL.recordVoidedCoup.bind({ ...at, gamingDay, wagers: settled.length.toString(), handle: handle.toString() }));
}

import { Tx } from '../database/prisma.service';
import { CteParts, prismaRunner, SqlStatement, standalone } from '../database/sql';
import { BetType, stakeTheoE12, Winner } from '../domain';

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
}

/**
 * Adds (sign 1) or removes (sign −1, a void) one settled coup and its wagers, in one statement,
 * at three grains: table × gaming day × bet type, table × month × bet type, table × gaming day.
 */
export async function applyCoupToRollups(
  tx: Tx,
  coup: { tableId: string; gamingDay: string; winner: Winner; natural: boolean },
  wagers: readonly SettledWager[],
  edgesE12: Partial<Record<BetType, bigint>>,
  sign: 1n | -1n,
): Promise<void> {
  await prismaRunner(tx).run(coupRollupStatement(coup, wagers, edgesE12, sign));
}

export function coupRollupStatement(
  coup: { tableId: string; gamingDay: string; winner: Winner; natural: boolean },
  wagers: readonly SettledWager[],
  edgesE12: Partial<Record<BetType, bigint>>,
  sign: 1n | -1n,
): SqlStatement {
  return rollupStatement(coupRollupParts(coup, wagers, edgesE12, sign));
}

/** Rollup parts as a statement of their own (one prepared name for the one text). */
export function rollupStatement(parts: CteParts): SqlStatement {
  return standalone('sabot-coup-rollups', parts);
}

export function coupRollupParts(
  coup: { tableId: string; gamingDay: string; winner: Winner; natural: boolean },
  wagers: readonly SettledWager[],
  edgesE12: Partial<Record<BetType, bigint>>,
  sign: 1n | -1n,
): CteParts {
  const byBet = new Map<BetType, Delta>();
  for (const w of wagers) {
    const d = byBet.get(w.betType) ?? { wagers: 0n, handle: 0n, payouts: 0n, commission: 0n, net: 0n, wins: 0n, losses: 0n, pushes: 0n, theo: 0n };
    d.wagers += 1n;
    d.handle += w.amount;
    d.payouts += w.payout;
    d.commission += w.commission;
    d.net += w.net;
    if (w.result === 'WIN') d.wins += 1n;
    else if (w.result === 'LOSE') d.losses += 1n;
    else d.pushes += 1n;
    d.theo += stakeTheoE12(w.amount, edgesE12[w.betType] ?? 0n);
    byBet.set(w.betType, d);
  }
  const bets = [...byBet.keys()].sort();
  const col = (f: keyof Delta) => bets.map((b) => (byBet.get(b)![f] * sign).toString());
  const one = (cond: boolean) => (cond ? sign : 0n).toString();
  const total = (f: keyof Delta) => ([...byBet.values()].reduce((t, d) => t + d[f], 0n) * sign).toString();
  const month = `${coup.gamingDay.slice(0, 7)}-01`;
  const sets = (t: string) =>
    `wagers = ${t}.wagers + EXCLUDED.wagers, handle = ${t}.handle + EXCLUDED.handle, payouts = ${t}.payouts + EXCLUDED.payouts,
     commission = ${t}.commission + EXCLUDED.commission, customer_net = ${t}.customer_net + EXCLUDED.customer_net, theo_e12 = ${t}.theo_e12 + EXCLUDED.theo_e12`;
  return {
    ctes: `
    rollup_bets AS (
      SELECT * FROM unnest($3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::numeric[])
             AS u(bet_type, wagers, handle, payouts, commission, net, wins, losses, pushes, theo)
    ), rollup_day AS (
      INSERT INTO wager_rollups AS r (table_id, gaming_day, bet_type, wagers, handle, payouts, commission, customer_net, wins, losses, pushes, theo_e12)
      SELECT $1::uuid, $2::date, u.bet_type::"BetType", u.wagers, u.handle, u.payouts, u.commission, u.net, u.wins, u.losses, u.pushes, u.theo FROM rollup_bets u, guard
      ON CONFLICT (table_id, gaming_day, bet_type) DO UPDATE SET ${sets('r')}, wins = r.wins + EXCLUDED.wins, losses = r.losses + EXCLUDED.losses, pushes = r.pushes + EXCLUDED.pushes
      RETURNING 1
    ), rollup_month AS (
      INSERT INTO month_rollups AS r (table_id, month, bet_type, wagers, handle, payouts, commission, customer_net, wins, losses, pushes, theo_e12)
      SELECT $1::uuid, $13::date, u.bet_type::"BetType", u.wagers, u.handle, u.payouts, u.commission, u.net, u.wins, u.losses, u.pushes, u.theo FROM rollup_bets u, guard
      ON CONFLICT (table_id, month, bet_type) DO UPDATE SET ${sets('r')}, wins = r.wins + EXCLUDED.wins, losses = r.losses + EXCLUDED.losses, pushes = r.pushes + EXCLUDED.pushes
      RETURNING 1
    ), rollup_table_day AS (
      INSERT INTO table_day_rollups AS c (table_id, gaming_day, coups, banker_wins, player_wins, ties, naturals, wagers, handle, payouts, commission, customer_net, theo_e12)
      SELECT $1::uuid, $2::date, $14::bigint, $15::bigint, $16::bigint, $17::bigint, $18::bigint, $19::bigint, $20::bigint, $21::bigint, $22::bigint, $23::bigint, $24::numeric FROM guard
      ON CONFLICT (table_id, gaming_day) DO UPDATE SET
        coups = c.coups + EXCLUDED.coups, banker_wins = c.banker_wins + EXCLUDED.banker_wins, player_wins = c.player_wins + EXCLUDED.player_wins,
        ties = c.ties + EXCLUDED.ties, naturals = c.naturals + EXCLUDED.naturals, ${sets('c')}
      RETURNING 1
    )`,
    values: [
      coup.tableId,
      coup.gamingDay,
      bets,
      col('wagers'),
      col('handle'),
      col('payouts'),
      col('commission'),
      col('net'),
      col('wins'),
      col('losses'),
      col('pushes'),
      col('theo'),
      month,
      sign.toString(),
      one(coup.winner === 'BANKER'),
      one(coup.winner === 'PLAYER'),
      one(coup.winner === 'TIE'),
      one(coup.natural),
      total('wagers'),
      total('handle'),
      total('payouts'),
      total('commission'),
      total('net'),
      total('theo'),
    ],
  };
}

/** Collected commission, on the gaming day of the collection; commission is only charged on Banker bets. */
export async function addCollectedCommission(tx: Tx, tableId: string, gamingDay: string, amount: bigint): Promise<void> {
  const month = `${gamingDay.slice(0, 7)}-01`;
  const a = amount.toString();
  await tx.$executeRaw`
    WITH by_day AS (
      INSERT INTO wager_rollups AS r (table_id, gaming_day, bet_type, commission_collected) VALUES (${tableId}::uuid, ${gamingDay}::date, 'BANKER', ${a}::bigint)
      ON CONFLICT (table_id, gaming_day, bet_type) DO UPDATE SET commission_collected = r.commission_collected + EXCLUDED.commission_collected
      RETURNING 1
    ), by_month AS (
      INSERT INTO month_rollups AS r (table_id, month, bet_type, commission_collected) VALUES (${tableId}::uuid, ${month}::date, 'BANKER', ${a}::bigint)
      ON CONFLICT (table_id, month, bet_type) DO UPDATE SET commission_collected = r.commission_collected + EXCLUDED.commission_collected
      RETURNING 1
    )
    INSERT INTO table_day_rollups AS c (table_id, gaming_day, commission_collected) VALUES (${tableId}::uuid, ${gamingDay}::date, ${a}::bigint)
    ON CONFLICT (table_id, gaming_day) DO UPDATE SET commission_collected = c.commission_collected + EXCLUDED.commission_collected`;
}

/**
 * Adds (sign 1) or removes (sign −1, a void) one player-banked coup and the house's commission on
 * it, on the coup's gaming day: the only house revenue of those games.
 */
export async function applyBankCoupToRollups(tx: Tx, tableId: string, gamingDay: string, commission: bigint, sign: 1n | -1n): Promise<void> {
  const c = (commission * sign).toString();
  await tx.$executeRaw`
    INSERT INTO table_day_rollups AS r (table_id, gaming_day, banked_coups, house_commission) VALUES (${tableId}::uuid, ${gamingDay}::date, ${Number(sign)}::bigint, ${c}::bigint)
    ON CONFLICT (table_id, gaming_day) DO UPDATE SET banked_coups = r.banked_coups + EXCLUDED.banked_coups, house_commission = r.house_commission + EXCLUDED.house_commission`;
}

import { Tx } from '../database/prisma.service';
import { BetType, Winner } from '../domain';

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
 * `gamingDay` is the coup's gaming day, YYYY-MM-DD.
 */
export async function applyCoupToRollups(
  tx: Tx,
  coup: { tableId: string; gamingDay: string; winner: Winner; natural: boolean },
  wagers: readonly SettledWager[],
  edgesE12: Partial<Record<BetType, bigint>>,
  sign: 1n | -1n,
): Promise<void> {
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
    d.theo += w.amount * (edgesE12[w.betType] ?? 0n);
    byBet.set(w.betType, d);
  }
  const bets = [...byBet.keys()].sort();
  const col = (f: keyof Delta) => bets.map((b) => (byBet.get(b)![f] * sign).toString());
  const one = (cond: boolean) => (cond ? sign : 0n).toString();
  const total = (f: keyof Delta) => ([...byBet.values()].reduce((t, d) => t + d[f], 0n) * sign).toString();
  const month = `${coup.gamingDay.slice(0, 7)}-01`;
  await tx.$executeRaw`
    WITH u AS (
      SELECT * FROM unnest(${bets}::text[], ${col('wagers')}::bigint[], ${col('handle')}::bigint[], ${col('payouts')}::bigint[], ${col('commission')}::bigint[],
                           ${col('net')}::bigint[], ${col('wins')}::bigint[], ${col('losses')}::bigint[], ${col('pushes')}::bigint[], ${col('theo')}::numeric[])
             AS u(bet_type, wagers, handle, payouts, commission, net, wins, losses, pushes, theo)
    ), by_day AS (
      INSERT INTO wager_rollups AS r (table_id, gaming_day, bet_type, wagers, handle, payouts, commission, customer_net, wins, losses, pushes, theo_e12)
      SELECT ${coup.tableId}::uuid, ${coup.gamingDay}::date, u.bet_type::"BetType", u.wagers, u.handle, u.payouts, u.commission, u.net, u.wins, u.losses, u.pushes, u.theo FROM u
      ON CONFLICT (table_id, gaming_day, bet_type) DO UPDATE SET
        wagers = r.wagers + EXCLUDED.wagers, handle = r.handle + EXCLUDED.handle, payouts = r.payouts + EXCLUDED.payouts,
        commission = r.commission + EXCLUDED.commission, customer_net = r.customer_net + EXCLUDED.customer_net,
        wins = r.wins + EXCLUDED.wins, losses = r.losses + EXCLUDED.losses, pushes = r.pushes + EXCLUDED.pushes, theo_e12 = r.theo_e12 + EXCLUDED.theo_e12
      RETURNING 1
    ), by_month AS (
      INSERT INTO month_rollups AS r (table_id, month, bet_type, wagers, handle, payouts, commission, customer_net, wins, losses, pushes, theo_e12)
      SELECT ${coup.tableId}::uuid, ${month}::date, u.bet_type::"BetType", u.wagers, u.handle, u.payouts, u.commission, u.net, u.wins, u.losses, u.pushes, u.theo FROM u
      ON CONFLICT (table_id, month, bet_type) DO UPDATE SET
        wagers = r.wagers + EXCLUDED.wagers, handle = r.handle + EXCLUDED.handle, payouts = r.payouts + EXCLUDED.payouts,
        commission = r.commission + EXCLUDED.commission, customer_net = r.customer_net + EXCLUDED.customer_net,
        wins = r.wins + EXCLUDED.wins, losses = r.losses + EXCLUDED.losses, pushes = r.pushes + EXCLUDED.pushes, theo_e12 = r.theo_e12 + EXCLUDED.theo_e12
      RETURNING 1
    )
    INSERT INTO table_day_rollups AS c (table_id, gaming_day, coups, banker_wins, player_wins, ties, naturals, wagers, handle, payouts, commission, customer_net, theo_e12)
    VALUES (${coup.tableId}::uuid, ${coup.gamingDay}::date, ${sign.toString()}::bigint, ${one(coup.winner === 'BANKER')}::bigint,
            ${one(coup.winner === 'PLAYER')}::bigint, ${one(coup.winner === 'TIE')}::bigint, ${one(coup.natural)}::bigint,
            ${total('wagers')}::bigint, ${total('handle')}::bigint, ${total('payouts')}::bigint, ${total('commission')}::bigint, ${total('net')}::bigint, ${total('theo')}::numeric)
    ON CONFLICT (table_id, gaming_day) DO UPDATE SET
      coups = c.coups + EXCLUDED.coups, banker_wins = c.banker_wins + EXCLUDED.banker_wins, player_wins = c.player_wins + EXCLUDED.player_wins,
      ties = c.ties + EXCLUDED.ties, naturals = c.naturals + EXCLUDED.naturals, wagers = c.wagers + EXCLUDED.wagers, handle = c.handle + EXCLUDED.handle,
      payouts = c.payouts + EXCLUDED.payouts, commission = c.commission + EXCLUDED.commission, customer_net = c.customer_net + EXCLUDED.customer_net,
      theo_e12 = c.theo_e12 + EXCLUDED.theo_e12`;
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

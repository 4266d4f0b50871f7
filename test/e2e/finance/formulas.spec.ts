import { Client } from 'pg';
import {
  commissionOutstanding,
  dropHoldPercent,
  expectedCount,
  holdPercent,
  houseWin,
  premiumAndMass,
  revenue,
  seededRandom,
  statisticalWin,
  theoreticalStdDev,
  theoreticalWin,
  totalRevenue,
} from '../../../src/domain';
import { figuresSql, PROBABILITIES, ROLLUP_FIGURES_SQL, tableAccountingFiguresSql } from '../../../src/finance/reports/report-figures';
import { cloneTestDatabase } from '../../support/database';

/**
 * Each accounting formula is defined once, in src/domain/finance/accounting.ts. The reports compute the same
 * figures in PostgreSQL for speed; here that SQL runs over random sums (negative, zero, huge and
 * tie-breaking values included) and must give exactly what the domain gives, to the minor unit and
 * the last decimal.
 */
jest.setTimeout(60_000);
let db: { url: string; drop(): Promise<void> };
let pg: Client;
beforeAll(async () => {
  db = await cloneTestDatabase();
  pg = new Client({ connectionString: db.url });
  await pg.connect();
});
afterAll(async () => {
  await pg.end();
  await db.drop();
});

const random = seededRandom(20261123);
/** A random integer in [−max, max] (or [0, max]), with zero and the extremes more often than chance. */
function int(max: bigint, signed = true): bigint {
  const r = random();
  if (r < 0.05) return 0n;
  if (r < 0.08) return max;
  if (signed && r < 0.11) return -max;
  const digits = 1 + Math.floor(random() * max.toString().length);
  let v = 0n;
  for (let i = 0; i < digits; i++) v = v * 10n + BigInt(Math.floor(random() * 10));
  if (v > max) v = max;
  return signed && random() < 0.5 ? -v : v;
}

const MONEY = 10n ** 15n; // sums of a quarter at a large property

/**
 * A variance × 10^12 as a quarter's rollups can hold it (up to (10^13 minor units)² × 10^12), and
 * often where the rounding of √ turns: (k ± ½)² × 10^12 and its neighbours, and squares.
 */
function varianceE12(i: number): bigint {
  const k = int(10n ** 12n, false);
  switch (i % 6) {
    case 0:
      return ((4n * k * k + 4n * k + 1n) * 10n ** 12n) / 4n; // (k + ½)²: the half, exactly
    case 1:
      return ((4n * k * k + 4n * k + 1n) * 10n ** 12n) / 4n - 1n;
    case 2:
      return k * k * 10n ** 12n;
    case 3:
      return k * k * 10n ** 12n - 1n;
    default:
      return int(10n ** 38n, false);
  }
}
const N = 400;

describe('report formulas: PostgreSQL against the domain', () => {
  it('every win/loss figure of a table-day rollup row, the expected outcome counts included', async () => {
    const rows = Array.from({ length: N }, (_, i) => {
      const handle = i % 7 === 0 ? 8n : int(MONEY, false); // a small handle makes hold % land on halves
      return {
        wagers: int(10n ** 9n, false),
        handle,
        payouts: int(MONEY, false),
        customer_net: i % 7 === 0 ? -int(8n, false) : int(MONEY),
        commission: int(MONEY / 20n, false),
        commission_collected: int(MONEY / 20n, false),
        // Σ stake × edge × 10^12, with exact halves of a minor unit now and then
        theo_e12: i % 5 === 0 ? int(10n ** 6n) * 10n ** 12n + 5n * 10n ** 11n : int(MONEY * 10n ** 12n),
        // Σ coup variances × 10^12: now and then a square and one below or above it (where a square root's rounding turns)
        var_e12: varianceE12(i),
        coups: int(10n ** 6n, false),
        banked_coups: int(10n ** 5n, false),
        house_commission: int(MONEY / 20n, false),
        banker_wins: int(10n ** 5n, false),
        player_wins: int(10n ** 5n, false),
        ties: int(10n ** 4n, false),
        naturals: int(10n ** 5n, false),
        decks: 1 + Math.floor(random() * 8),
        // Premium (dead-chip) play: any part of the totals, or none, or (as a property test may) more
        premium_wagers: int(10n ** 9n, false),
        premium_handle: i % 11 === 0 ? 8n : int(MONEY, false),
        premium_customer_net: i % 11 === 0 ? -int(8n, false) : int(MONEY),
        premium_commission: int(MONEY / 20n, false),
        premium_theo_e12: i % 3 === 0 ? int(10n ** 6n) * 10n ** 12n + 5n * 10n ** 11n : int(MONEY * 10n ** 12n),
      };
    });
    const cols = Object.keys(rows[0]);
    const values = rows.map(
      (r, i) =>
        `(${cols.map((c, j) => `$${i * cols.length + j + 1}::${c === 'decks' ? 'int' : c.endsWith('theo_e12') || c === 'var_e12' ? 'numeric' : 'bigint'}`).join(', ')})`,
    );
    const params = rows.flatMap((r) => cols.map((c) => String(r[c as keyof typeof r])));
    const { rows: out } = await pg.query<{ figures: string }>(
      `SELECT '{' || ${ROLLUP_FIGURES_SQL} || '}' AS figures FROM (VALUES ${values.join(', ')}) AS v(${cols.join(', ')})`,
      params,
    );
    expect(out).toHaveLength(N);
    out.forEach(({ figures }, i) => {
      const r = rows[i];
      const p = PROBABILITIES.find((x) => x.decks === r.decks)!;
      const win = houseWin(r.customer_net);
      const outstanding = commissionOutstanding(r.commission, r.commission_collected);
      const theo = theoreticalWin(r.theo_e12);
      const expected = {
        wagers: r.wagers,
        handle: r.handle,
        payouts: r.payouts,
        win,
        holdPercent: holdPercent(win, r.handle),
        commissionCharged: r.commission,
        commissionCollected: r.commission_collected,
        commissionOutstanding: outstanding,
        revenue: revenue(win, outstanding),
        theoreticalWin: theo,
        winMinusTheoretical: win - theo,
        theoreticalWinStdDev: theoreticalStdDev(r.var_e12),
        coups: r.coups,
        bankedCoups: r.banked_coups,
        houseCommission: r.house_commission,
        totalRevenue: totalRevenue(revenue(win, outstanding), r.house_commission),
        outcomes: { bankerWins: r.banker_wins, playerWins: r.player_wins, ties: r.ties, naturals: r.naturals },
        expectedOutcomes: {
          bankerWins: expectedCount(r.coups, p.banker),
          playerWins: expectedCount(r.coups, p.player),
          ties: expectedCount(r.coups, p.tie),
          naturals: expectedCount(r.coups, p.natural),
        },
        ...premiumAndMass(
          { wagers: r.wagers, handle: r.handle, customerNet: r.customer_net, commission: r.commission, theoE12: r.theo_e12 },
          {
            wagers: r.premium_wagers,
            handle: r.premium_handle,
            customerNet: r.premium_customer_net,
            commission: r.premium_commission,
            theoE12: r.premium_theo_e12,
          },
        ),
      };
      // Compared as text, digit for digit (bigints written as their digits).
      expect(figures).toBe(JSON.stringify(expected, (_k, v: unknown) => (typeof v === 'bigint' ? `#${v}#` : v)).replace(/"#(-?\d+)#"/g, '$1'));
    });
  });

  it('the same formulas over the sums of a report query', async () => {
    const rows = Array.from({ length: N }, () => ({
      wagers: int(10n ** 9n, false),
      handle: int(MONEY, false),
      payouts: int(MONEY, false),
      net: int(MONEY),
      commission: int(MONEY / 20n, false),
      collected: int(MONEY / 20n, false),
      theo: int(MONEY * 10n ** 12n),
      var: varianceE12(0),
      coups: int(10n ** 6n, false),
      banked_coups: int(10n ** 5n, false),
      house_commission: int(MONEY / 20n, false),
      banker: 0n,
      player: 0n,
      tie: 0n,
      naturals: 0n,
      exp_banker: 0n,
      exp_player: 0n,
      exp_tie: 0n,
      exp_nat: 0n,
      p_wagers: int(10n ** 9n, false),
      p_handle: int(MONEY, false),
      p_net: int(MONEY),
      p_commission: int(MONEY / 20n, false),
      p_theo: int(MONEY * 10n ** 12n),
    }));
    const cols = Object.keys(rows[0]);
    const values = rows.map(
      (r, i) =>
        `(${cols.map((c, j) => `$${i * cols.length + j + 1}::${c === 'theo' || c === 'p_theo' || c === 'var' || c.startsWith('exp_') ? 'numeric' : 'bigint'}`).join(', ')})`,
    );
    const params = rows.flatMap((r) => cols.map((c) => String(r[c as keyof typeof r])));
    const { rows: out } = await pg.query<Record<string, string | null>>(
      `SELECT ${figuresSql(true).replace(/::json/g, '::text')} FROM (VALUES ${values.join(', ')}) AS s(${cols.join(', ')})`,
      params,
    );
    out.forEach((f, i) => {
      const r = rows[i];
      const win = houseWin(r.net);
      const outstanding = commissionOutstanding(r.commission, r.collected);
      expect(f.win).toBe(String(win));
      expect(f.holdPercent).toBe(holdPercent(win, r.handle));
      expect(f.commissionOutstanding).toBe(String(outstanding));
      expect(f.revenue).toBe(String(revenue(win, outstanding)));
      expect(f.theoreticalWin).toBe(String(theoreticalWin(r.theo)));
      expect(f.winMinusTheoretical).toBe(String(win - theoreticalWin(r.theo)));
      expect(f.theoreticalWinStdDev).toBe(String(theoreticalStdDev(r.var)));
      expect(f.totalRevenue).toBe(String(totalRevenue(revenue(win, outstanding), r.house_commission)));
      const split = premiumAndMass(
        { wagers: r.wagers, handle: r.handle, customerNet: r.net, commission: r.commission, theoE12: r.theo },
        { wagers: r.p_wagers, handle: r.p_handle, customerNet: r.p_net, commission: r.p_commission, theoE12: r.p_theo },
      );
      expect(f.premium).toBe(JSON.stringify(split.premium, (_k, v: unknown) => (typeof v === 'bigint' ? `#${v}#` : v)).replace(/"#(-?\d+)#"/g, '$1'));
      expect(f.mass).toBe(JSON.stringify(split.mass, (_k, v: unknown) => (typeof v === 'bigint' ? `#${v}#` : v)).replace(/"#(-?\d+)#"/g, '$1'));
    });
  });

  it('statistical win and statistical hold of table accounting', async () => {
    const rows = Array.from({ length: N }, (_, i) => ({
      opener: int(10n ** 12n, false),
      closer: int(10n ** 12n, false),
      credits: int(10n ** 12n, false),
      fills: int(10n ** 12n, false),
      drop: i % 9 === 0 ? 16n : int(10n ** 12n, false),
      wagerWin: int(10n ** 12n),
    }));
    const cols = ['opener', 'closer', 'credits', 'fills', 'drop', 'wagerWin'] as const;
    const values = rows.map((r, i) => `(${cols.map((_c, j) => `$${i * cols.length + j + 1}::bigint`).join(', ')})`);
    const { rows: out } = await pg.query<{ statisticalWin: string; dropHoldPercent: string | null; difference: string }>(
      `SELECT ${tableAccountingFiguresSql('x')} FROM (VALUES ${values.join(', ')}) AS x(opener, closer, credits, fills, "drop", "wagerWin")`,
      rows.flatMap((r) => cols.map((c) => String(r[c]))),
    );
    out.forEach((f, i) => {
      const win = statisticalWin(rows[i]);
      expect(f.statisticalWin).toBe(String(win));
      expect(f.dropHoldPercent).toBe(dropHoldPercent(win, rows[i].drop));
      expect(f.difference).toBe(String(win - rows[i].wagerWin));
    });
  });
});

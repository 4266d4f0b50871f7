import { randomUUID } from 'node:crypto';
import { Client } from 'pg';

/**
 * A seeded quarter's junket (docs/domain.md §16), written beside the quarter's play: the Golden
 * Dragon at the property of the seeded tables, with two programmes from the quarter's first day
 * (JK-ROLL, 1.25 % of the rolling; JK-SHARE, 40 % of the win/loss and a 0.1 % allowance), two agents,
 * and three of the whales as members: W-01 and W-02 under JK-ROLL, W-03 under JK-SHARE; W-02 leaves
 * halfway through the quarter, W-04 never joins. The casino lends on a marker each month's first day
 * and the junket repays part of it each month's last day. Idempotent: a database that has the
 * junket already is left as it is (bench:premium adds it to a quarter kept from before).
 */
export async function seedJunkets(client: Client, o: { firstDay: string; days: number }): Promise<void> {
  const [table] = (await client.query<{ property_id: string }>("SELECT property_id FROM casino_tables WHERE code LIKE 'Q%' ORDER BY code LIMIT 1")).rows;
  if (!table) return;
  const propertyId = table.property_id;
  if ((await client.query("SELECT 1 FROM junket_operators WHERE property_id = $1 AND code = 'GOLDEN-DRAGON'", [propertyId])).rowCount) return;
  const dayAt = (n: number) => new Date(Date.parse(`${o.firstDay}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
  const at = `${o.firstDay}T06:00:00Z`;
  await client.query('BEGIN');
  for (const [code, name, basis, commission, allowance] of [
    ['JK-ROLL', 'Junket rolling 1.25 %', 'ROLLING', 125, 0],
    ['JK-SHARE', 'Junket win/loss 40 %', 'WIN_LOSS', 4_000, 10],
  ] as const)
    await client.query(
      `INSERT INTO rolling_programmes (id, property_id, code, name, basis, commission_bps, allowance_bps, effective_from, recorded_by_key_id, recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'seed', $9) ON CONFLICT DO NOTHING`,
      [randomUUID(), propertyId, code, name, basis, commission, allowance, o.firstDay, at],
    );
  const junket = randomUUID();
  await client.query(
    `INSERT INTO junket_operators (id, property_id, code, name, licence, currency, credit_limit, recorded_by_key_id, recorded_at)
     VALUES ($1, $2, 'GOLDEN-DRAGON', 'Golden Dragon VIP Club', 'J-0042', 'EUR', 100000000000, 'seed', $3)`,
    [junket, propertyId, at],
  );
  const agents = [randomUUID(), randomUUID()];
  for (const [i, id] of agents.entries())
    await client.query(`INSERT INTO junket_agents (id, operator_id, code, name, recorded_by_key_id, recorded_at) VALUES ($1, $2, $3, $4, 'seed', $5)`, [
      id,
      junket,
      `AG-${i + 1}`,
      `Agent ${i + 1}`,
      at,
    ]);
  const member = (patron: string, operator: string | null, agent: string | null, programme: string | null, from: string) =>
    client.query(
      `INSERT INTO junket_memberships (id, property_id, patron_id, operator_id, agent_id, programme_code, effective_from, recorded_by_key_id, recorded_at)
       SELECT $1, $2, $3, $4, $5, $6, $7, 'seed', $8 WHERE EXISTS (SELECT 1 FROM patrons WHERE card = $3)`,
      [randomUUID(), propertyId, patron, operator, agent, programme, from, at],
    );
  await member('W-01', junket, agents[0], 'JK-ROLL', o.firstDay);
  await member('W-02', junket, agents[0], 'JK-ROLL', o.firstDay);
  await member('W-03', junket, agents[1], 'JK-SHARE', o.firstDay);
  await member('W-02', null, null, null, dayAt(Math.floor(o.days / 2)));
  // A marker on each month's first day, a repayment of half of it on its last.
  for (let d = 0; d < o.days; d++) {
    const day = dayAt(d);
    if (day.endsWith('-01'))
      await client.query(
        `INSERT INTO junket_account_entries (id, operator_id, kind, amount, currency, gaming_day, at, recorded_by_key_id) VALUES ($1, $2, 'MARKER', 2000000000, 'EUR', $3, $4, 'seed')`,
        [randomUUID(), junket, day, `${day}T08:00:00Z`],
      );
    if (dayAt(d + 1).endsWith('-01'))
      await client.query(
        `INSERT INTO junket_account_entries (id, operator_id, kind, amount, currency, method, gaming_day, at, recorded_by_key_id) VALUES ($1, $2, 'REPAYMENT', 1000000000, 'EUR', 'WIRE', $3, $4, 'seed')`,
        [randomUUID(), junket, day, `${day}T20:00:00Z`],
      );
  }
  await client.query('COMMIT');
}

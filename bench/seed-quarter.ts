import { SYSTEM_CONTEXT } from '../src/platform/common/context';
/**
 * npm run seed:quarter -- [--wagers 10000000] [--tables 200] [--year 2026] [--quarter 3] [--max-minutes 20] [--patrons 5000]
 *
 * A realistic quarter: tables of every casino-banked variant across pits, one shoe per table and
 * gaming day, coups dealt from real shuffled 8-deck shoes and settled by the game engine, 8 wagers
 * a coup, commission accrued and collected at the end of each shoe, a table session per table and
 * day with fills and credits, dealers rotating every 20 minutes (12 dealers to a pit of 10 tables),
 * and the table closed at the end of each day's play and reopened the next morning (the `table.close`
 * and `table.reopen` entries of its audit stream, keyed and chained as the service writes them). Every
 * fourth table is the premium room: its minimum is raised from 25.00 to 50.00 halfway through the
 * quarter (after which 40 % of its seats are played, at twice the bets), and with rated play its whales play dead (rolling) chips there, bought each morning
 * against front money; three of them play for a junket, the Golden Dragon, under two programmes
 * (bench/seed-junkets.ts). Written in bulk with COPY; rollups are summed from the very rows
 * written. Target: DATABASE_URL (migrated first). Stops with an error if it would run past
 * --max-minutes.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { SingleBar } from 'cli-progress';
import { Client } from 'pg';
import { seedJunkets } from './seed-junkets';
import { from as copyFrom } from 'pg-copy-streams';
import { BetType, dealPuntoBanco, evaluateCoup, formatCard, isOffered, RuleSet, seededRandom, settleWager, shuffledShoe } from '../src/domain';
import { migrate } from '../src/platform/database/migrate';
import { PrismaService } from '../src/platform/database/prisma.service';
import { generateKeyPairSync } from 'node:crypto';
import { newAuditKeyText, parseAuditKeys } from '../src/platform/config/keyring';
import { AuditLog, auditParams } from '../src/foundation/ledger/audit-log';
import { chainHash } from '../src/integrity/audit/verification';
import { TablesService } from '../src/table-games/tables/tables.service';
import { PitChanges } from '../src/foundation/pit/pit-changes';
import { PitService } from '../src/foundation/pit/pit.service';
import { covariancesOf, edgesOf, lossesOf, rulesOf } from '../src/foundation/pit/table-rules';
import { rollupParams, SettledWager } from '../src/foundation/ledger/rollups';
import { RollupParams } from '../src/foundation/ledger/ledger-sql';

export interface SeedOptions {
  wagers: number;
  tables: number;
  year: number;
  quarter: number;
  maxMinutes: number;
  progress: boolean;
  /**
   * Rated play: this many regular patrons, and WHALES who play far more. Each seat of a table-day
   * is a visit of one patron (a seating from the first coup to the shoe's end) with probability
   * RATED_SHARE; the patron is a whale with probability WHALE_SHARE. Off (0) by default, so that the
   * reports' seeded data stay as they were.
   */
  patrons?: number;
}

const WHALES = 4;
const RATED_SHARE = 0.7;
const WHALE_SHARE = 0.02;

const WAGERS_PER_COUP = 8;
/** The share of seats still played at a premium table once its minimum is raised (its bets double): what the yield advisor has to find. */
const RAISED_RETENTION = 0.4;
const VARIANTS = ['COMMISSION', 'COMMISSION', 'COMMISSION', 'SUPER_6', 'EZ'] as const;
const BETS: Record<string, BetType[]> = {
  COMMISSION: ['BANKER', 'BANKER', 'PLAYER', 'PLAYER', 'TIE', 'PLAYER_PAIR', 'BANKER_PAIR', 'BANKER'],
  SUPER_6: ['BANKER', 'BANKER', 'PLAYER', 'PLAYER', 'TIE', 'SUPER_6', 'PLAYER_PAIR', 'BANKER'],
  EZ: ['BANKER', 'BANKER', 'PLAYER', 'PLAYER', 'TIE', 'DRAGON_7', 'PANDA_8', 'PLAYER'],
};

const esc = (v: string | number | bigint | boolean | null) => (v === null ? '\\N' : String(v));
const line = (cols: (string | number | bigint | boolean | null)[]) => cols.map(esc).join('\t') + '\n';

/** COPY rows (already formatted lines) into a table. */
async function copy(client: Client, table: string, columns: string[], lines: string[]): Promise<void> {
  if (lines.length === 0) return;
  const stream = client.query(copyFrom(`COPY ${table} (${columns.map((c) => `"${c}"`).join(', ')}) FROM STDIN`)) as unknown as Writable;
  await pipeline(Readable.from(chunked(lines)), stream);
}

function* chunked(lines: string[]): Generator<string> {
  for (let i = 0; i < lines.length; i += 2000) yield lines.slice(i, i + 2000).join('');
}

export async function seedQuarter(databaseUrl: string, o: SeedOptions): Promise<{ wagers: number; coups: number; seconds: number }> {
  const started = Date.now();
  const deadline = started + o.maxMinutes * 60_000;
  await migrate(databaseUrl);
  const prisma = new PrismaService(databaseUrl, 4);
  const keyring = parseAuditKeys(newAuditKeyText('seed'));
  const tablesService = new TablesService(
    prisma,
    new AuditLog({ keyring, signingKey: generateKeyPairSync('ed25519').privateKey, checkpointMinutes: 0 }),
    new PitChanges(new PitService(prisma)),
    new PitService(prisma),
  );
  const random = seededRandom(o.year * 10 + o.quarter);

  // Tables, through the same service the API uses (rules validated by the engine).
  const tables = [];
  for (let i = 0; i < o.tables; i++) {
    const variant = VARIANTS[i % VARIANTS.length];
    const dto = await tablesService.create(
      {
        code: `Q${o.year}${o.quarter}-${String(i + 1).padStart(3, '0')}`,
        pit: `Pit ${1 + Math.floor(i / 10)}`,
        variant,
        currency: 'EUR',
        minBet: 2500,
        maxBet: 1_000_000,
        sideBets: variant === 'COMMISSION' ? ['PLAYER_PAIR', 'BANKER_PAIR'] : variant === 'SUPER_6' ? ['PLAYER_PAIR', 'SUPER_6'] : ['DRAGON_7', 'PANDA_8'],
      },
      SYSTEM_CONTEXT,
    );
    tables.push(await tablesService.find(dto.id));
  }
  const properties = new Map(tables.map((t) => [t.id, t.propertyId]));
  const firstDayIso = new Date(Date.UTC(o.year, (o.quarter - 1) * 3, 1)).toISOString().slice(0, 10);
  // Limits over time: every fourth table (the premium room) raises its minimum from 25.00 to 50.00
  // halfway through the quarter, at 06:30 UTC of that day: coups on both sides of it (a change of
  // the table's limits, as the service writes one, but at that historical moment).
  const limitChanges = new Map<string, { id: string; day: number; at: string; minBet: bigint }>();
  const raiseDay = Math.floor(Math.round((Date.UTC(o.year, o.quarter * 3, 1) - Date.UTC(o.year, (o.quarter - 1) * 3, 1)) / 86_400_000) / 2);
  tables.forEach((t, i) => {
    if (i % 4 !== 0) return;
    const day = new Date(Date.parse(`${firstDayIso}T00:00:00Z`) + raiseDay * 86_400_000).toISOString().slice(0, 10);
    limitChanges.set(t.id, { id: randomUUID(), day: raiseDay, at: `${day}T06:30:00.000Z`, minBet: 5000n });
  });
  /** The property of a rollup's table (every ledger row carries it). */
  const propertyOf = (tableId: string) => properties.get(tableId)!;
  const firstDay = Date.UTC(o.year, (o.quarter - 1) * 3, 1);
  const days = Math.round((Date.UTC(o.year, o.quarter * 3, 1) - firstDay) / 86_400_000);
  const coupsPerTableDay = Math.max(1, Math.round(o.wagers / WAGERS_PER_COUP / (o.tables * days)));

  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('SET synchronous_commit = off'); // a bulk load of generated history, not live play
  // The quarter's months in the ledgers, as the service creates them ahead of live play.
  await client.query('SELECT sabot_ledger_months($1::date, $2::date)', [
    new Date(firstDay).toISOString().slice(0, 10),
    new Date(Date.UTC(o.year, o.quarter * 3 - 1, 1)).toISOString().slice(0, 10),
  ]);
  await copy(
    client,
    'table_limits',
    ['id', 'table_id', 'property_id', 'seq', 'min_bet', 'max_bet', 'bet_limits', 'reason', 'changed_by_key_id', 'effective_at'],
    [...limitChanges].map(([tableId, c]) =>
      line([c.id, tableId, propertyOf(tableId), 1, c.minBet, 1_000_000, '{}', 'premium room: minimum raised', 'seed', c.at]),
    ),
  );
  const regulars = Array.from({ length: o.patrons ?? 0 }, (_, i) => `S-${String(i + 1).padStart(6, '0')}`);
  const whales = o.patrons ? Array.from({ length: WHALES }, (_, i) => `W-${String(i + 1).padStart(2, '0')}`) : [];
  await copy(
    client,
    'patrons',
    ['card', 'tier', 'registered_by_key_id'],
    [...whales.map((c) => line([c, 'Black', 'seed'])), ...regulars.map((c) => line([c, null, 'seed']))],
  );
  const bar = o.progress
    ? new SingleBar({ format: 'seeding |{bar}| {percentage}% | {value}/{total} table-days | {wagers} wagers | {eta_formatted} left' })
    : null;
  bar?.start(o.tables * days, 0, { wagers: 0 });

  const rollups = new RollupSums();
  /** Each table's audit stream as the seed extends it. */
  const heads = new Map<string, { seq: number; hash: string }>();
  let totalWagers = 0;
  let totalCoups = 0;

  for (let d = 0; d < days; d++) {
    const day = new Date(firstDay + d * 86_400_000).toISOString().slice(0, 10);
    const shoes: string[] = [],
      coups: string[] = [],
      wagers: string[] = [],
      commissions: string[] = [],
      sessions: string[] = [],
      slips: string[] = [],
      seatings: string[] = [],
      shifts: string[] = [],
      entries: string[] = [];
    // Each whale's dead chips lost at each premium table today: bought against front money at that
    // table in the morning (so each day's rolling counted at the cage and at the tables agree).
    const rolledToday = new Map<string, bigint>();
    for (const [t, table] of tables.entries()) {
      if (Date.now() > deadline) throw new Error(`Seeding would run past --max-minutes ${o.maxMinutes}: stopped after ${totalWagers} wagers`);
      const rules: RuleSet = rulesOf(table);
      const edges = edgesOf(table);
      const theory = { edgesE12: edges, covariancesE12: covariancesOf(table), lossesE12: lossesOf(table) };
      const bets = BETS[rules.variant].filter((b) => isOffered(rules, b));
      const shoeId = randomUUID();
      const cards = shuffledShoe(8, random);
      const remaining = new Array<number>(52).fill(8);
      let pos = 0;
      let coupNumber = 0;
      const owed = new Map<number, bigint>();
      /** A row of the shoe's commission ledger, in the COPY's column order (below). */
      const commissionLine = (
        seat: number,
        patronId: string | null,
        kind: 'ACCRUAL' | 'COLLECTION',
        amount: bigint,
        at: { coupId: string | null; wagerId: string | null; at: string; day: string | null },
      ) => line([randomUUID(), shoeId, table.id, table.propertyId, seat, patronId, kind, amount, at.coupId, at.wagerId, 'seed', at.at, at.day]);
      let dayWin = 0n;
      // Who sits where today (rated play only): seat → patron and visit.
      const seated = new Map<number, { patronId: string; seatingId: string }>();
      if (regulars.length) {
        for (let seat = 1; seat <= WAGERS_PER_COUP; seat++) {
          if (random() >= RATED_SHARE) continue;
          const patronId = random() < WHALE_SHARE ? whales[Math.floor(random() * whales.length)] : regulars[Math.floor(random() * regulars.length)];
          seated.set(seat, { patronId, seatingId: randomUUID() });
        }
      }
      const change = limitChanges.get(table.id);
      for (let c = 0; c < coupsPerTableDay; c++) {
        const dealt = dealPuntoBanco(cards, pos);
        if (!dealt || pos > 400) break;
        pos += dealt.used;
        for (const card of [...dealt.player, ...dealt.banker]) remaining[card]--;
        const outcome = evaluateCoup(rules.variant, dealt);
        const coupId = randomUUID();
        coupNumber++;
        const settledAt = new Date(Date.parse(`${day}T06:00:00Z`) + coupNumber * 60_000).toISOString();
        // The coup's limits: the table's change once in force, else its opening limits (25.00).
        const limits = change && (d > change.day || (d === change.day && settledAt >= change.at)) ? change : null;
        const minBet = limits?.minBet ?? 2500n;
        coups.push(
          line([
            coupId,
            shoeId,
            table.id,
            table.propertyId,
            coupNumber,
            'SETTLED',
            `{${dealt.player.map(formatCard).join(',')}}`,
            `{${dealt.banker.map(formatCard).join(',')}}`,
            outcome.winner,
            outcome.playerTotal,
            outcome.bankerTotal,
            outcome.cardCount,
            outcome.natural,
            settledAt,
            settledAt,
            day,
            limits?.id ?? null,
          ]),
        );
        const settled: SettledWager[] = [];
        for (let i = 0; i < bets.length; i++) {
          // Demand answers the minimum: once a premium table's minimum is raised, each seat is played
          // only RAISED_RETENTION of the time (players leave for a lower minimum, or go home).
          if (limits && random() >= RAISED_RETENTION) continue;
          const betType = bets[i];
          const amount = minBet * BigInt(1 + Math.floor(random() * 40));
          const s = settleWager(rules, outcome, { betType, amount });
          const wagerId = randomUUID();
          const seat = i + 1;
          const who = seated.get(seat);
          // The VIP room: a whale at a premium table plays dead (rolling) chips.
          const dead = who !== undefined && change !== undefined && who.patronId.startsWith('W-');
          if (dead && s.result === 'LOSE') {
            const k = `${who.patronId}|${table.id}`;
            rolledToday.set(k, (rolledToday.get(k) ?? 0n) + amount);
          }
          settled.push({
            betType,
            amount,
            payout: s.payout,
            commission: s.commission,
            net: s.net,
            result: s.result,
            seat,
            patronId: who?.patronId ?? null,
            seatingId: who?.seatingId ?? null,
            dead,
          });
          wagers.push(
            line([
              wagerId,
              coupId,
              shoeId,
              table.propertyId,
              seat,
              betType,
              amount,
              who?.patronId ?? null,
              who?.seatingId ?? null,
              'SETTLED',
              s.result,
              s.payout,
              s.commission,
              s.net,
              null,
              settledAt,
              settledAt,
              day,
              dead ? true : null,
            ]),
          );
          if (s.commission > 0n) {
            commissions.push(commissionLine(seat, who?.patronId ?? null, 'ACCRUAL', s.commission, { coupId, wagerId, at: settledAt, day: null }));
            owed.set(seat, (owed.get(seat) ?? 0n) + s.commission);
          }
          dayWin -= s.net;
          totalWagers++;
        }
        // The coup's rollup deltas as the settlement itself computes them (ledger/rollups.ts).
        rollups.addCoup(
          rollupParams(
            { tableId: table.id, propertyId: table.propertyId, gamingDay: day, winner: outcome.winner, natural: outcome.natural, limitsId: limits?.id ?? null },
            settled,
            theory,
            1n,
          ),
        );
        totalCoups++;
      }
      // End of shoe: every seat pays its commission.
      const closedAt = new Date(Date.parse(`${day}T06:00:00Z`) + (coupNumber + 1) * 60_000).toISOString();
      // The day's dealers: from the table's opening, a rotation every 20 minutes of play; each of a
      // pit's 10 tables has another of its 12 dealers at any moment. The table closes after its shoe,
      // and reopens at the next day's opening.
      for (let slot = 0; slot * 20 <= coupNumber; slot++) {
        const dealer = `D-${1 + Math.floor(t / 10)}-${String((((t % 10) + slot + d) % 12) + 1).padStart(2, '0')}`;
        shifts.push(line([table.id, dealer, new Date(Date.parse(settledAtOf(day)) + slot * 20 * 60_000).toISOString(), 'seed']));
      }
      if (d > 0) entries.push(tableEntry(table.id, 'table.reopen', settledAtOf(day)));
      entries.push(tableEntry(table.id, 'table.close', closedAt));
      for (const [seat, { patronId, seatingId }] of seated) {
        seatings.push(line([seatingId, patronId, table.id, seat, day, settledAtOf(day), 'seed', closedAt, 'seed']));
      }
      for (const [seat, amount] of owed) {
        commissions.push(commissionLine(seat, seated.get(seat)?.patronId ?? null, 'COLLECTION', -amount, { coupId: null, wagerId: null, at: closedAt, day }));
        rollups.addCollection(table.id, day, amount);
      }
      shoes.push(
        line([
          shoeId,
          table.id,
          table.propertyId,
          d + 1,
          8,
          'CLOSED',
          '{}',
          16,
          `seed-${day}`,
          `{${remaining.join(',')}}`,
          pos,
          coupNumber,
          null,
          null,
          settledAtOf(day),
          closedAt,
          change && d >= change.day ? change.id : null,
        ]),
      );
      // Table session: statistical win = wager win ± a little (cash play the wagers don't see).
      const sessionId = randomUUID();
      const opener = 5_000_000n;
      const fills = random() < 0.5 ? 1_000_000n : 0n;
      const credits = random() < 0.3 ? 500_000n : 0n;
      const statWin = dayWin + BigInt(Math.round((random() - 0.5) * 20_000));
      let drop = BigInt(Math.round(random() * 3_000_000));
      let closer = opener + statWin + fills - credits - drop;
      if (closer < 0n) {
        drop += closer;
        closer = 0n;
      }
      if (drop < 0n) {
        closer -= drop;
        drop = 0n;
      }
      sessions.push(
        line([
          sessionId,
          table.id,
          day,
          '',
          'CLOSED',
          JSON.stringify([{ denomination: 10000, count: 500 }]),
          opener,
          JSON.stringify([{ denomination: 10000, count: Number(closer / 10000n) }]),
          closer,
          drop,
          'seed',
          'seed',
          settledAtOf(day),
          closedAt,
        ]),
      );
      if (fills) slips.push(slipLine(sessionId, table, 'FILL', fills, day));
      if (credits) slips.push(slipLine(sessionId, table, 'CREDIT', credits, day));
      bar?.increment(1, { wagers: totalWagers });
    }
    await copy(
      client,
      'shoes',
      [
        'id',
        'table_id',
        'property_id',
        'number',
        'decks',
        'status',
        'burn_cards',
        'cut_card_position',
        'shuffle_ref',
        'remaining',
        'cards_dealt',
        'coup_count',
        'open_coup_id',
        'last_coup_number',
        'opened_at',
        'closed_at',
        'limits_id',
      ],
      shoes,
    );
    await copy(client, 'dealer_shifts', ['table_id', 'dealer_id', 'started_at', 'recorded_by_key_id'], shifts);
    await copy(
      client,
      'audit_log',
      ['stream', 'seq', 'hash', 'payload', 'at', 'key_id', 'role', 'action', 'entity_type', 'entity_id', 'correlation_id', 'mac', 'mac_key'],
      entries,
    );
    await copy(
      client,
      'chip_exchanges',
      ['id', 'property_id', 'patron_id', 'kind', 'amount', 'currency', 'settled_in', 'table_id', 'gaming_day', 'at', 'recorded_by_key_id'],
      [...rolledToday].map(([k, amount]) => {
        const [patronId, tableId] = k.split('|');
        return line([randomUUID(), propertyOf(tableId), patronId, 'PURCHASE', amount, 'EUR', 'FRONT_MONEY', tableId, day, settledAtOf(day), 'seed']);
      }),
    );
    await copy(
      client,
      'seatings',
      ['id', 'patron_id', 'table_id', 'seat', 'gaming_day', 'started_at', 'started_by_key_id', 'ended_at', 'ended_by_key_id'],
      seatings,
    );
    await copy(
      client,
      'coups',
      [
        'id',
        'shoe_id',
        'table_id',
        'property_id',
        'number',
        'status',
        'player_cards',
        'banker_cards',
        'winner',
        'player_total',
        'banker_total',
        'card_count',
        'natural',
        'opened_at',
        'settled_at',
        'gaming_day',
        'limits_id',
      ],
      coups,
    );
    await copy(
      client,
      'wagers',
      [
        'id',
        'coup_id',
        'shoe_id',
        'property_id',
        'seat',
        'bet_type',
        'amount',
        'patron_id',
        'seating_id',
        'status',
        'result',
        'payout',
        'commission',
        'net',
        'carried_from_id',
        'placed_at',
        'settled_at',
        'gaming_day',
        'dead_chips',
      ],
      wagers,
    );
    await copy(
      client,
      'commission_entries',
      [
        'id',
        'shoe_id',
        'table_id',
        'property_id',
        'seat',
        'patron_id',
        'kind',
        'amount',
        'coup_id',
        'wager_id',
        'created_by_key_id',
        'created_at',
        'gaming_day',
      ],
      commissions,
    );
    await copy(
      client,
      'patron_rollups',
      ['patron_id', 'table_id', 'seating_key', 'bet_type', ...PATRON_SUMS, 'gaming_day', 'property_id'],
      [...rollups.patronBets].map(([k, r]) => line([...k.split('|'), ...r, day, propertyOf(k.split('|')[1])])),
    );
    await copy(
      client,
      'patron_coup_rollups',
      ['patron_id', 'table_id', 'seating_key', 'coups', 'var_e12', 'dead_var_e12', 'gaming_day', 'property_id'],
      [...rollups.patronCoups].map(([k, r]) => line([...k.split('|'), ...r, day, propertyOf(k.split('|')[1])])),
    );
    rollups.patronBets.clear();
    rollups.patronCoups.clear();
    await copy(
      client,
      'table_sessions',
      [
        'id',
        'table_id',
        'gaming_day',
        'shift',
        'status',
        'opener',
        'opener_total',
        'closer',
        'closer_total',
        'drop_amount',
        'opened_by_key_id',
        'closed_by_key_id',
        'opened_at',
        'closed_at',
      ],
      sessions,
    );
    await copy(
      client,
      'table_slips',
      ['id', 'session_id', 'table_id', 'property_id', 'kind', 'year', 'number', 'chips', 'amount', 'gaming_day', 'created_by_key_id', 'created_at'],
      slips,
    );
  }
  bar?.stop();
  await copy(
    client,
    'wager_rollups',
    ['table_id', 'gaming_day', 'bet_type', ...BET_SUMS, 'property_id'],
    [...rollups.bets].map(([k, r]) => line([...k.split('|'), ...r, propertyOf(k.split('|')[0])])),
  );
  await copy(
    client,
    'table_day_rollups',
    ['table_id', 'gaming_day', ...DAY_SUMS, 'property_id'],
    [...rollups.days].map(([k, r]) => line([...k.split('|'), ...r, propertyOf(k.split('|')[0])])),
  );
  // The month grain summed from the day grain, as the settlement adds each coup to both.
  const byMonth = new Map<string, bigint[]>();
  for (const [k, r] of rollups.bets) {
    const [tableId, day, bet] = k.split('|');
    const mk = `${tableId}|${day.slice(0, 7)}-01|${bet}`;
    const m = byMonth.get(mk) ?? new Array<bigint>(BET_SUMS.length).fill(0n);
    r.forEach((v, i) => (m[i] += v));
    byMonth.set(mk, m);
  }
  await copy(
    client,
    'month_rollups',
    ['table_id', 'month', 'bet_type', ...BET_SUMS, 'property_id'],
    [...byMonth].map(([k, r]) => line([...k.split('|'), ...r, propertyOf(k.split('|')[0])])),
  );
  await copy(
    client,
    'limit_rollups',
    ['table_id', 'gaming_day', 'limits_seq', ...LIMIT_SUMS, 'property_id'],
    [...rollups.limits].map(([k, r]) => line([...k.split('|'), ...r, propertyOf(k.split('|')[0])])),
  );
  await copy(
    client,
    'audit_heads',
    ['stream', 'seq', 'hash'],
    [...heads].map(([stream, h]) => line([stream, h.seq, h.hash])),
  );
  if (whales.length) await seedJunkets(client, { firstDay: firstDayIso, days });
  await client.query('ANALYZE');
  await client.end();
  await prisma.$disconnect();
  return { wagers: totalWagers, coups: totalCoups, seconds: (Date.now() - started) / 1000 };

  function settledAtOf(day: string) {
    return `${day}T06:00:00Z`;
  }

  /** A table's audit entry at a moment of the generated history, chained after the stream's last (COPY line). */
  function tableEntry(tableId: string, action: 'table.close' | 'table.reopen', at: string): string {
    const p = auditParams(
      SYSTEM_CONTEXT,
      { stream: tableId, action, entityType: 'table', entityId: tableId, data: { status: action === 'table.close' ? 'CLOSED' : 'OPEN' } },
      keyring,
      new Date(at),
    );
    const head = heads.get(tableId);
    const next = { seq: (head?.seq ?? 0) + 1, hash: chainHash(head?.hash ?? '', p.auditPayload) };
    heads.set(tableId, next);
    return line([
      p.auditStream,
      next.seq,
      next.hash,
      p.auditPayload,
      p.auditAt,
      p.auditKeyId,
      p.auditRole,
      p.auditAction,
      p.auditEntityType,
      p.auditEntityId,
      p.auditCorrelationId,
      p.auditMac,
      p.auditMacKey,
    ]);
  }
}

/** Premium (dead-chip) play beside the totals, at each table grain. */
const PREMIUM_SUMS = ['premium_wagers', 'premium_handle', 'premium_commission', 'premium_customer_net', 'premium_theo_e12'] as const;
/** A patron's bet sums, and their dead-chip wagers' part. */
const PATRON_SUMS = [
  'wagers',
  'handle',
  'customer_net',
  'theo_e12',
  'dead_wagers',
  'dead_handle',
  'dead_customer_net',
  'dead_rolled',
  'dead_theo_e12',
  'dead_expected_rolled_e12',
] as const;
const BET_SUMS = [
  'wagers',
  'handle',
  'payouts',
  'commission',
  'commission_collected',
  'customer_net',
  'wins',
  'losses',
  'pushes',
  'theo_e12',
  'var_e12',
  ...PREMIUM_SUMS,
] as const;
const DAY_SUMS = [
  'coups',
  'banker_wins',
  'player_wins',
  'ties',
  'naturals',
  'wagers',
  'handle',
  'payouts',
  'commission',
  'commission_collected',
  'customer_net',
  'theo_e12',
  'var_e12',
  ...PREMIUM_SUMS,
] as const;

const LIMIT_SUMS = ['coups', 'players', 'wagers', 'handle', 'customer_net', 'commission', 'theo_e12'] as const;

/**
 * The rollups of the seeded coups, summed from each coup's deltas as the settlement computes them
 * (ledger/rollups.ts rollupParams): the seed's rollups are what the service would have written, so
 * the reconciliation of a seeded range is clean.
 */
class RollupSums {
  /** table|day|bet → BET_SUMS. */
  readonly bets = new Map<string, bigint[]>();
  /** table|day → DAY_SUMS. */
  readonly days = new Map<string, bigint[]>();
  /** The day's patron rollups: patron|table|visit|bet → PATRON_SUMS; patron|table|visit → coups, var, dead var. */
  readonly patronBets = new Map<string, bigint[]>();
  readonly patronCoups = new Map<string, bigint[]>();
  /** table|day|limits seq → LIMIT_SUMS (the seed's changes are each its table's first: seq 1). */
  readonly limits = new Map<string, bigint[]>();

  addCoup(p: RollupParams): void {
    const n = BigInt;
    p.rollupBetTypes.forEach((bet, i) => {
      const k = `${p.rollupTableId}|${p.rollupDay}|${bet}`;
      const r = this.bets.get(k) ?? new Array<bigint>(BET_SUMS.length).fill(0n);
      const add = [
        p.rollupWagers,
        p.rollupHandle,
        p.rollupPayouts,
        p.rollupCommission,
        null,
        p.rollupNet,
        p.rollupWins,
        p.rollupLosses,
        p.rollupPushes,
        p.rollupTheo,
        p.rollupVar,
        p.rollupPremiumWagers,
        p.rollupPremiumHandle,
        p.rollupPremiumCommission,
        p.rollupPremiumNet,
        p.rollupPremiumTheo,
      ];
      add.forEach((col, j) => col && (r[j] += n(col[i])));
      this.bets.set(k, r);
    });
    const dk = `${p.rollupTableId}|${p.rollupDay}`;
    const d = this.days.get(dk) ?? new Array<bigint>(DAY_SUMS.length).fill(0n);
    [
      p.rollupCoups,
      p.rollupBankerWins,
      p.rollupPlayerWins,
      p.rollupTies,
      p.rollupNaturals,
      p.rollupTotalWagers,
      p.rollupTotalHandle,
      p.rollupTotalPayouts,
      p.rollupTotalCommission,
      null,
      p.rollupTotalNet,
      p.rollupTotalTheo,
      p.rollupTotalVar,
      p.rollupTotalPremiumWagers,
      p.rollupTotalPremiumHandle,
      p.rollupTotalPremiumCommission,
      p.rollupTotalPremiumNet,
      p.rollupTotalPremiumTheo,
    ].forEach((v, j) => v !== null && (d[j] += n(v)));
    this.days.set(dk, d);
    const lk = `${p.rollupTableId}|${p.rollupDay}|${p.rollupLimitsId === null ? 0 : 1}`;
    const l = this.limits.get(lk) ?? new Array<bigint>(LIMIT_SUMS.length).fill(0n);
    [p.rollupCoups, p.rollupPlayers, p.rollupTotalWagers, p.rollupTotalHandle, p.rollupTotalNet, p.rollupTotalCommission, p.rollupTotalTheo].forEach(
      (v, j) => (l[j] += n(v)),
    );
    this.limits.set(lk, l);
    p.patronPatrons.forEach((patron, i) => {
      const k = `${patron}|${p.rollupTableId}|${p.patronVisits[i]}|${p.patronBets[i]}`;
      const r = this.patronBets.get(k) ?? new Array<bigint>(PATRON_SUMS.length).fill(0n);
      [
        p.patronWagers,
        p.patronHandle,
        p.patronNet,
        p.patronTheo,
        p.patronDeadWagers,
        p.patronDeadHandle,
        p.patronDeadNet,
        p.patronDeadRolled,
        p.patronDeadTheo,
        p.patronDeadExpectedRolled,
      ].forEach((col, j) => (r[j] += n(col[i])));
      this.patronBets.set(k, r);
    });
    p.patronCoupPatrons.forEach((patron, i) => {
      const k = `${patron}|${p.rollupTableId}|${p.patronCoupVisits[i]}`;
      const r = this.patronCoups.get(k) ?? [0n, 0n, 0n];
      r[0] += n(p.patronCoupCoups[i]);
      r[1] += n(p.patronCoupVar[i]);
      r[2] += n(p.patronCoupDeadVar[i]);
      this.patronCoups.set(k, r);
    });
  }

  /** A shoe's commission collected at its end: the Banker bet's and the day's. */
  addCollection(tableId: string, day: string, amount: bigint): void {
    const k = `${tableId}|${day}|BANKER`;
    const r = this.bets.get(k) ?? new Array<bigint>(BET_SUMS.length).fill(0n);
    r[BET_SUMS.indexOf('commission_collected')] += amount;
    this.bets.set(k, r);
    const d = this.days.get(`${tableId}|${day}`) ?? new Array<bigint>(DAY_SUMS.length).fill(0n);
    d[DAY_SUMS.indexOf('commission_collected')] += amount;
    this.days.set(`${tableId}|${day}`, d);
  }
}

const slipNumbers = new Map<string, number>();
function slipLine(sessionId: string, table: { id: string; propertyId: string }, kind: 'FILL' | 'CREDIT', amount: bigint, day: string): string {
  const year = Number(day.slice(0, 4));
  const key = `${table.propertyId}|${year}|${kind}`;
  const number = (slipNumbers.get(key) ?? 0) + 1;
  slipNumbers.set(key, number);
  return line([
    randomUUID(),
    sessionId,
    table.id,
    table.propertyId,
    kind,
    year,
    number,
    JSON.stringify([{ denomination: 10000, count: Number(amount / 10000n) }]),
    amount,
    day,
    'seed',
    `${day}T12:00:00Z`,
  ]);
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i === -1) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} takes a positive whole number`);
  return v;
}

if (require.main === module) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('Set DATABASE_URL to the (empty) database to seed');
    process.exit(1);
  }
  const o: SeedOptions = {
    wagers: arg('wagers', 10_000_000),
    tables: arg('tables', 200),
    year: arg('year', 2026),
    quarter: arg('quarter', 3),
    maxMinutes: arg('max-minutes', 20),
    // Rated play (the patrons, the whales, their dead chips and the junket): off unless asked for.
    ...(process.argv.includes('--patrons') ? { patrons: arg('patrons', 5_000) } : {}),
    progress: true,
  };
  if (o.quarter > 4) throw new Error('--quarter is 1 to 4');
  seedQuarter(url, o)
    .then((r) => console.log(`Seeded ${r.coups} coups, ${r.wagers} wagers in ${r.seconds.toFixed(1)} s`))
    .catch((e: Error) => {
      console.error(e.message);
      process.exit(1);
    });
}

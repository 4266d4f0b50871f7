import { code as currencyCode } from 'currency-codes';
import type { ClientBase } from 'pg';
import { SYSTEM_CONTEXT } from '../../platform/common/context';
import type { AuditKeyring } from '../../platform/config/keyring';
import { pgRunner, SqlRunner } from '../../platform/database/sql';
import {
  BetType,
  Card,
  Composition,
  coupOdds,
  CoupOdds,
  DealtShoe,
  detectorKey,
  extendRun,
  Finding,
  fullShoe,
  isCasinoBanked,
  parseCards,
  PACKED_ODDS_LENGTH,
  packOdds,
  PlayedCoup,
  pointOf,
  RECENT_SHOES,
  RecordKind,
  removeCards,
  RepeatedRun,
  repeatedRunFinding,
  RuleSet,
  RUN_WINDOW,
  runKeys,
  StepMemo,
  surveyRecord,
  unpackOdds,
} from '../../domain';
import { appendWithSeals, auditParams } from '../../foundation/ledger/audit-log';
import {
  cursorHolds,
  cursorMac,
  cursorMacs,
  IMAGE_SETTINGS,
  RowDigest,
  ShoeRecord,
  SurveyedTable,
  SURVEYOR_ENTITY,
  SurveyRecord,
} from '../../foundation/ledger/progress';
import { seal } from '../../foundation/ledger/seals';
import { rulesOf, TableTerms } from '../../foundation/pit/table-rules';
import { SURVEILLANCE_SQL as SQL } from './surveillance-sql';

/** The audit stream of alerts and what people do with them (not a table's: pit screens never see it). */
export const SURVEILLANCE_STREAM = 'surveillance';

/** Where the surveyor says what it did: an alert raised, a pass that failed. */
export type SurveyorNote = (level: 'log' | 'warn', message: string) => void;

interface Entry {
  stream: string;
  seq: string;
  action: string;
  entity_id: string;
}
interface CoupRow {
  id: string;
  shoe_id: string;
  table_id: string;
  number: number;
  status: string;
  player_cards: string[];
  banker_cards: string[];
  gaming_day: string | null;
  voided: boolean;
  decks: number;
  burn_cards: string[];
  property_id: string;
  dealer_id: string | null;
}
interface RecordRow {
  coup_id: string;
  shoe_id: string;
  table_id: string;
  dealer_id: string | null;
  first_value: number;
  coup_number: number;
  shoe_number: number;
  table_code: string;
  currency: string;
  player_cards: string[];
  banker_cards: string[];
  settled_ms: number;
  wagers: { betType: BetType; stake: string; result: string; net: string }[];
}
/** Whose record: a patron's at the property, or a seat's unrated play at one table. */
type Subject = { patronId: string; tableId: null; seat: null } | { patronId: null; tableId: string; seat: number };

/** What the surveyor is told at its start. */
export interface SurveyorOptions {
  /** How many gaming days of a patron's (or seat's) play the detectors read. */
  readonly recordDays: number;
}
/** A settled coup as surveyed: the shoe's cards through it, where its own begin, the odds it was played at. */
interface Surveyed {
  coup: CoupRow;
  cards: Card[];
  start: number;
  odds: CoupOdds;
}

/** A coup's cards in dealing order: Player, Banker, Player, Banker, then Player's third and Banker's. */
function dealingOrder(player: readonly Card[], banker: readonly Card[]): Card[] {
  const out = [player[0], banker[0], player[1], banker[1]];
  if (player[2] !== undefined) out.push(player[2]);
  if (banker[2] !== undefined) out.push(banker[2]);
  return out;
}

/** Rows written before the odds were packed: JSON keeps no NaN (an impossible first card), it comes back as null and is NaN again here. */
function oddsFromJson(odds: CoupOdds): CoupOdds {
  const nan = (xs: readonly (number | null)[]) => xs.map((x) => (x === null ? NaN : x));
  return { ...odds, meanGivenFirst: { PLAYER: nan(odds.meanGivenFirst.PLAYER), BANKER: nan(odds.meanGivenFirst.BANKER), TIE: nan(odds.meanGivenFirst.TIE) } };
}

/**
 * Integrity surveillance (docs/domain.md §9), one pass at a time on a connection of its own: it
 * follows the audit log (the outbox) with its own cursors. For each settled coup it keeps the exact
 * odds the coup was played at, its first card and its dealer, and looks its cards up in the run
 * index of the property's earlier shoes; when a shoe closes, it examines the record of every patron
 * who played it. Alerts and their audit entries are written in the same transaction as the cursors
 * move past the entries, so each entry is surveyed once.
 *
 * It runs on the surveillance thread (survey-thread.ts), never on the pit's event loop.
 */
export class Surveyor {
  private readonly db: SqlRunner;
  private readonly rules = new Map<string, RuleSet | null>();
  /**
   * Each shoe's cards as dealt up to the last coup surveyed, so that the next coup of the shoe adds
   * its own cards instead of reading the shoe again (dropped after a void, or a failed pass).
   */
  private readonly dealtSoFar = new Map<string, { upTo: number; cards: Card[]; coupStarts: Map<number, number> }>();

  /** Per-shoe e-values and reference shuffles already worked out (pure functions of their inputs: a cache, bounded). */
  private memo: StepMemo = new Map();
  /**
   * The odds of the coups surveyed lately, as worked out (so that a patron's record at a shoe's
   * close does not read and parse them again): bounded, the oldest dropped first.
   */
  private readonly odds = new Map<string, CoupOdds>();
  /** Shoes as dealt, for the count detector (dropped with dealtSoFar). */
  private readonly shoes = new Map<string, DealtShoe>();
  /** Whether the state found at the first start is recorded (survey.adopt): looked up once. */
  private adopted = false;
  /** Cursors whose MAC was found to hold (`stream:seq:mac`): checked once each. */
  private readonly trusted = new Set<string>();
  /** The rows the pass in hand wrote, per shoe and working copy: recorded with its progress. */
  private written = new Map<string, { c: RowDigest; r: RowDigest }>();

  constructor(
    private readonly client: ClientBase,
    private readonly keyring: AuditKeyring,
    private readonly note: SurveyorNote,
    private readonly options: SurveyorOptions = { recordDays: 30 },
  ) {
    this.db = pgRunner(client);
  }

  /** Whether this connection is the one surveyor (another instance's may be). Held until it closes. */
  async claim(): Promise<boolean> {
    const [{ mine }] = await this.db.query<{ mine: boolean }>(SQL.claimSurveyor.bind({}));
    return mine;
  }

  /**
   * One pass: the pending entries read and every settled coup's odds worked out first, then one
   * short transaction writes what they found and moves the cursors past them. A void changes what
   * its shoe dealt: a pass ends with the first void it meets, and the next reads the shoes afresh.
   * Returns how many entries it surveyed.
   */
  async passOnce(): Promise<number> {
    if (!this.adopted) await this.adopt();
    await this.checkCursors();
    let entries = await this.db.query<Entry>(SQL.pendingEntries.bind({ perStream: 100, batch: 200 }));
    if (entries.length === 0) return 0;
    const firstVoid = entries.findIndex((e) => e.action === 'coup.void');
    if (firstVoid >= 0) entries = entries.slice(0, firstVoid + 1);
    try {
      const surveyed = await this.surveyedCoups(entries.filter((e) => e.action === 'coup.settle').map((e) => e.entity_id));
      await this.client.query('BEGIN');
      try {
        await this.client.query(IMAGE_SETTINGS);
        await this.write(entries, surveyed);
        await this.client.query('COMMIT');
      } catch (e) {
        await this.client.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    } catch (e) {
      this.forget(); // what this pass cached did not reach the database
      throw e;
    }
    if (firstVoid >= 0) this.forget();
    return entries.length;
  }

  /**
   * The entries in chain order: coups are recorded in batches; a closed shoe (whose patrons' records
   * need its coups) or a void first records the coups before it. Then the cursors move.
   */
  private async write(entries: Entry[], surveyed: Map<string, Surveyed>): Promise<void> {
    const last = new Map<string, string>();
    const from = new Map<string, string>();
    this.written = new Map();
    let batch: Surveyed[] = [];
    for (const e of entries) {
      if (!from.has(e.stream)) from.set(e.stream, (BigInt(e.seq) - 1n).toString());
      last.set(e.stream, e.seq);
      const coup = e.action === 'coup.settle' ? surveyed.get(e.entity_id) : undefined;
      if (coup) batch.push(coup);
      else if (e.action === 'shoe.close' || e.action === 'coup.void') {
        await this.recordCoups(batch);
        batch = [];
        if (e.action === 'shoe.close') {
          await this.finishRuns(e.entity_id);
          await this.surveyShoe(e.entity_id);
        }
      }
    }
    await this.recordCoups(batch);
    const streams = [...last.keys()];
    const seqs = [...last.values()];
    await this.db.run(SQL.advanceCursors.bind({ streams, seqs, ...cursorMacs(this.keyring, 'surveillance_cursors', streams, seqs) }));
    // What this pass read and wrote, under the audit key, in the same transaction: the record the
    // verification holds the cursors and the working copies to (src/foundation/ledger/progress.ts).
    const shoes: Record<string, ShoeRecord> = {};
    for (const [shoeId, d] of this.written) shoes[shoeId] = { ...(d.c.count ? { c: d.c.recorded() } : {}), ...(d.r.count ? { r: d.r.recorded() } : {}) };
    const record: SurveyRecord = { k: this.keyring.currentId, read: Object.fromEntries(streams.map((s) => [s, [from.get(s)!, last.get(s)!]])), shoes };
    await this.record('survey.pass', 'pass', record);
  }

  /** An entry of the surveyor's keyed record (survey.pass, survey.adopt), in the surveillance stream. */
  private async record(action: string, entityId: string, data: SurveyRecord): Promise<void> {
    const entry = { stream: SURVEILLANCE_STREAM, action, entityType: SURVEYOR_ENTITY, entityId, data: { ...data } };
    await appendWithSeals(this.db, this.keyring, auditParams(SYSTEM_CONTEXT, entry, this.keyring), entry);
  }

  /** Rows this pass wrote to a working copy, as the insert returned them. */
  private wrote(table: SurveyedTable, rows: { shoe_id: string; image: string }[]): void {
    const secret = this.keyring.keys.get(this.keyring.currentId)!;
    for (const r of rows) {
      let d = this.written.get(r.shoe_id);
      if (!d) this.written.set(r.shoe_id, (d = { c: new RowDigest(secret, 'coup_surveillance'), r: new RowDigest(secret, 'shoe_runs') }));
      (table === 'coup_surveillance' ? d.c : d.r).add(r.image);
    }
  }

  /**
   * At the first start after the surveyor's progress became a record (20261214153720_progress_keyed),
   * what it finds is recorded, once (survey.adopt): its cursors, keyed, and per shoe the rows of its
   * working copies. From then on each pass records what it read and wrote.
   */
  private async adopt(): Promise<void> {
    if ((await this.db.query(SQL.surveyorAdopted.bind({}))).length) {
      this.adopted = true;
      return;
    }
    const secret = this.keyring.keys.get(this.keyring.currentId)!;
    let cursors: { stream: string; seq: string }[] = [];
    let ids: string[] = [];
    await this.client.query('BEGIN');
    try {
      await this.client.query(IMAGE_SETTINGS);
      cursors = await this.db.query<{ stream: string; seq: string }>(SQL.surveyorCursors.bind({}));
      const streams = cursors.map((c) => c.stream);
      await this.db.run(
        SQL.keySurveyorCursors.bind({
          streams,
          ...cursorMacs(
            this.keyring,
            'surveillance_cursors',
            streams,
            cursors.map((c) => c.seq),
          ),
        }),
      );
      ids = (await this.db.query<{ shoe_id: string }>(SQL.surveyedShoes.bind({}))).map((r) => r.shoe_id);
      for (let i = 0; i === 0 || i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        const shoes: Record<string, ShoeRecord> = {};
        const digests = new Map(chunk.map((id) => [id, { c: new RowDigest(secret, 'coup_surveillance'), r: new RowDigest(secret, 'shoe_runs') }]));
        if (chunk.length)
          for (const r of await this.db.query<{ tab: SurveyedTable; shoe_id: string; image: string }>(SQL.surveyedImages.bind({ shoeIds: chunk })))
            (r.tab === 'coup_surveillance' ? digests.get(r.shoe_id)!.c : digests.get(r.shoe_id)!.r).add(r.image);
        for (const [id, d] of digests) shoes[id] = { ...(d.c.count ? { c: d.c.recorded() } : {}), ...(d.r.count ? { r: d.r.recorded() } : {}) };
        const read = i === 0 ? Object.fromEntries(cursors.map((c): [string, [string, string]] => [c.stream, [c.seq, c.seq]])) : undefined;
        await this.record('survey.adopt', 'adopt', { k: this.keyring.currentId, ...(read ? { read } : {}), shoes });
      }
      await this.client.query('COMMIT');
    } catch (e) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
    this.adopted = true;
    this.note('log', `Recorded the surveillance state found at the first start: ${ids.length} shoes, ${cursors.length} cursors (survey.adopt)`);
  }

  /**
   * Every cursor's MAC, before a pass reads from it: one that does not hold (moved by hand past
   * entries never surveyed) is set back to where the keyed record says the surveyor read, so what it
   * skipped is surveyed now; said in the log. The verification names it either way.
   */
  private async checkCursors(): Promise<void> {
    if (this.trusted.size > 10_000) this.trusted.clear();
    for (const c of await this.db.query<{ stream: string; seq: string; mac: string | null; mac_key: string | null }>(SQL.surveyorCursors.bind({}))) {
      const known = `${c.stream}:${c.seq}:${c.mac}`;
      if (this.trusted.has(known)) continue;
      if (cursorHolds(this.keyring, 'surveillance_cursors', c)) {
        this.trusted.add(known);
        continue;
      }
      const [latest] = await this.db.query<{ payload: string }>(SQL.lastRead.bind({ quoted: JSON.stringify(c.stream) }));
      const read = latest ? (JSON.parse(latest.payload) as { data: SurveyRecord }).data.read?.[c.stream] : undefined;
      const seq = read?.[1] ?? '0';
      const secret = this.keyring.keys.get(this.keyring.currentId)!;
      await this.client.query('BEGIN');
      try {
        await this.db.run(
          SQL.resetSurveyorCursor.bind({
            stream: c.stream,
            seq,
            mac: cursorMac(secret, 'surveillance_cursors', c.stream, seq),
            macKey: this.keyring.currentId,
          }),
        );
        await this.record('survey.reset', 'reset', { k: this.keyring.currentId, reset: { [c.stream]: [c.seq, seq] } });
        await this.client.query('COMMIT');
      } catch (e) {
        await this.client.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
      this.note(
        'warn',
        `The surveillance cursor of stream ${c.stream} was at ${c.seq} without a MAC that holds: set back to ${seq}, where the surveyor read to`,
      );
    }
  }

  /** A void changes what its shoe dealt: the shoes read so far are read afresh. */
  private forget(): void {
    this.dealtSoFar.clear();
    this.shoes.clear();
  }

  /** Each settled coup surveillance measures (casino-banked, standing) with the odds it was played at. */
  private async surveyedCoups(coupIds: string[]): Promise<Map<string, Surveyed>> {
    const out = new Map<string, Surveyed>();
    if (coupIds.length === 0) return out;
    const rows = new Map((await this.db.query<CoupRow>(SQL.coupsToSurvey.bind({ coupIds }))).map((r) => [r.id, r]));
    for (const id of coupIds) {
      const coup = rows.get(id);
      if (!coup || coup.status !== 'SETTLED' || coup.voided || coup.gaming_day === null) continue;
      const rules = await this.rulesFor(coup.table_id);
      if (rules === null) continue; // a player-banked game: no house odds to measure against
      const { cards, start } = await this.dealtThrough(coup);
      let composition: Composition;
      try {
        composition = removeCards(fullShoe(coup.decks), cards.slice(0, start));
      } catch (e) {
        // Cards the shoe cannot hold (written around the service's checks): there are no odds to
        // measure against. Said, and passed over, so that one bad row never stops surveillance.
        this.note('warn', `Coup ${id} not surveyed: its shoe's record cannot hold its cards (${(e as Error).message})`);
        continue;
      }
      out.set(id, { coup, cards, start, odds: coupOdds(rules, composition) });
    }
    return out;
  }

  private async rulesFor(tableId: string): Promise<RuleSet | null> {
    if (!this.rules.has(tableId)) {
      const [table] = await this.db.query<TableTerms>(SQL.tableTerms.bind({ tableId }));
      this.rules.set(tableId, isCasinoBanked(table.variant) ? rulesOf(table) : null);
    }
    return this.rules.get(tableId)!;
  }

  /** A shoe's cards as dealt so far: its recorded burn, then each standing coup's cards in dealing order. */
  private async dealt(shoeId: string, burn: readonly string[], upTo: number): Promise<{ cards: Card[]; coupStarts: Map<number, number> }> {
    const cards: Card[] = parseCards(burn);
    const coupStarts = new Map<number, number>();
    for (const c of await this.db.query<{ number: number; player_cards: string[]; banker_cards: string[] }>(SQL.shoeCoups.bind({ shoeId, upTo }))) {
      coupStarts.set(c.number, cards.length);
      cards.push(...dealingOrder(parseCards(c.player_cards), parseCards(c.banker_cards)));
    }
    return { cards, coupStarts };
  }

  /** The shoe's cards up to and including this coup, and where the coup's own begin: from the cache when it reaches the coup before. */
  private async dealtThrough(coup: CoupRow): Promise<{ cards: Card[]; start: number }> {
    let known = this.dealtSoFar.get(coup.shoe_id);
    if (known && known.upTo === coup.number - 1) {
      known.coupStarts.set(coup.number, known.cards.length);
      known.cards.push(...dealingOrder(parseCards(coup.player_cards), parseCards(coup.banker_cards)));
      known.upTo = coup.number;
    } else if (!known || known.upTo < coup.number) {
      if (this.dealtSoFar.size > 1_000) this.dealtSoFar.clear();
      known = { upTo: coup.number, ...(await this.dealt(coup.shoe_id, coup.burn_cards, coup.number)) };
      this.dealtSoFar.set(coup.shoe_id, known);
    }
    const start = known.coupStarts.get(coup.number)!;
    return { cards: known.cards.slice(0, known.coupStarts.get(coup.number + 1) ?? known.cards.length), start };
  }

  /**
   * Settled coups, in order: the odds each was played at, its first card and dealer (one insert for
   * all); then the windows of 8 cards each completed, looked up in the run index of the property's
   * earlier shoes (one query for all) and added to it (one insert).
   */
  private async recordCoups(surveyed: Surveyed[]): Promise<void> {
    if (surveyed.length === 0) return;
    for (const x of surveyed) this.keepOdds(x.coup.id, x.odds);
    const written = await this.db.query<{ shoe_id: string; image: string }>(
      SQL.insertCoupSurveys.bind({
        coupIds: surveyed.map((x) => x.coup.id),
        tableIds: surveyed.map((x) => x.coup.table_id),
        shoeIds: surveyed.map((x) => x.coup.shoe_id),
        gamingDays: surveyed.map((x) => x.coup.gaming_day!),
        dealerIds: surveyed.map((x) => x.coup.dealer_id),
        firstValues: surveyed.map((x) => pointOf(x.cards[x.start])),
        odds: surveyed.flatMap((x) => packOdds(x.odds)),
        oddsLength: PACKED_ODDS_LENGTH,
      }),
    );
    this.wrote('coup_surveillance', written);
    await this.lookForRuns(surveyed);
  }

  /**
   * The windows these coups completed, looked up among the property's earlier shoes; then indexed.
   * A run still matching at the last card dealt may go on at the next coup: it is raised when it
   * ends, or when its shoe closes (finishRuns), at its full length.
   */
  private async lookForRuns(surveyed: Surveyed[]): Promise<void> {
    const windows: { coup: CoupRow; cards: Card[]; key: number; at: number }[] = [];
    for (const { coup, cards, start } of surveyed) {
      // From one window before the coup's own: a run that ended with the coup before is seen to end here.
      const from = Math.max(0, start - RUN_WINDOW);
      runKeys(cards.slice(from)).forEach((key, i) => windows.push({ coup, cards, key, at: from + i }));
    }
    if (windows.length === 0) return;
    // Each window is matched against the most its shoe has dealt in this batch, so that a run is
    // extended as far as it goes; one that reaches the last card dealt may go on at the next coup.
    const latest = new Map<string, Card[]>();
    for (const w of windows) if ((latest.get(w.coup.shoe_id)?.length ?? -1) < w.cards.length) latest.set(w.coup.shoe_id, w.cards);
    for (const w of windows) w.cards = latest.get(w.coup.shoe_id)!;
    await this.matchWindows(windows, (shoeId, run) => run.at + run.length < latest.get(shoeId)!.length);
    const indexed = await this.db.query<{ shoe_id: string; image: string }>(
      SQL.insertRuns.bind({ keys: windows.map((w) => String(w.key)), shoeIds: windows.map((w) => w.coup.shoe_id), positions: windows.map((w) => w.at) }),
    );
    this.wrote('shoe_runs', indexed);
  }

  /** A shoe closed: every run it shares with an earlier shoe is raised at its full length (once: the alert's key names it). */
  private async finishRuns(shoeId: string): Promise<void> {
    const [coup] = await this.db.query<CoupRow>(SQL.lastCoupToSurvey.bind({ shoeId }));
    if (!coup || coup.gaming_day === null || (await this.rulesFor(coup.table_id)) === null) return;
    const { cards } = await this.dealt(shoeId, coup.burn_cards, 2 ** 31 - 1);
    const windows = runKeys(cards).map((key, at) => ({ coup, cards, key, at }));
    await this.matchWindows(windows, () => true);
  }

  /** Windows looked up in the run index; each hit extended to its whole run and, if `complete`, raised when luck cannot explain it. */
  private async matchWindows(
    windows: { coup: CoupRow; cards: Card[]; key: number; at: number }[],
    complete: (shoeId: string, run: RepeatedRun) => boolean,
  ): Promise<void> {
    if (windows.length === 0) return;
    const hits = await this.db.query<{ key: string; shoe_id: string; position: number; property_id: string }>(
      SQL.runHits.bind({ keys: [...new Set(windows.map((w) => String(w.key)))] }),
    );
    const byKey = new Map<number, typeof hits>();
    for (const h of hits) byKey.set(Number(h.key), [...(byKey.get(Number(h.key)) ?? []), h]);
    const earlierCards = new Map<string, Card[]>();
    const places = new Map<string, number>();
    const recent = new Map<string, { ids: Set<string>; places: number }>();
    const seen = new Set<string>();
    for (const w of windows) {
      for (const hit of byKey.get(w.key) ?? []) {
        if (hit.shoe_id === w.coup.shoe_id || hit.property_id !== w.coup.property_id) continue;
        if (!earlierCards.has(hit.shoe_id)) {
          const [shoe] = await this.db.query<{ burn_cards: string[] }>(SQL.shoeOf.bind({ shoeId: hit.shoe_id }));
          earlierCards.set(hit.shoe_id, (await this.dealt(hit.shoe_id, shoe.burn_cards, 2 ** 31 - 1)).cards);
        }
        const run = extendRun(w.cards, earlierCards.get(hit.shoe_id)!, w.at, hit.position);
        const key = `${w.coup.shoe_id}:${hit.shoe_id}:${run.earlierAt - run.at}:${run.at}`;
        if (seen.has(key) || !complete(w.coup.shoe_id, run)) continue;
        seen.add(key);
        if (!places.has(w.coup.property_id)) {
          const [{ places: n }] = await this.db.query<{ places: string }>(SQL.indexedPlaces.bind({ propertyId: w.coup.property_id }));
          places.set(w.coup.property_id, Number(n));
        }
        if (!recent.has(w.coup.shoe_id)) {
          const rows = await this.db.query<{ id: string; places: number }>(
            SQL.recentShoes.bind({ tableId: w.coup.table_id, shoeId: w.coup.shoe_id, limit: RECENT_SHOES }),
          );
          recent.set(w.coup.shoe_id, { ids: new Set(rows.map((r) => r.id)), places: rows.reduce((n, r) => n + r.places, 0) });
        }
        const mine = recent.get(w.coup.shoe_id)!;
        const finding = repeatedRunFinding(w.cards, run, { shoeId: hit.shoe_id, recent: mine.ids.has(hit.shoe_id) }, w.coup.decks, {
          recent: mine.places,
          indexed: places.get(w.coup.property_id)!,
        });
        await this.raise(finding, {
          tableId: w.coup.table_id,
          shoeId: w.coup.shoe_id,
          patronId: null,
          dealerId: null,
          seat: null,
          gamingDay: w.coup.gaming_day!,
          dedupeKey: `REPEATED_RUN:${w.coup.shoe_id}:${hit.shoe_id}:${run.earlierAt - run.at}`,
        });
      }
    }
  }

  /**
   * A shoe closed: every patron who played it, and every seat where it was played without a player
   * card, on their record at the property over the last recordDays gaming days (each detector from
   * the close of its last alert on). A detector past its alarm level raises an alert, unless one of
   * its alerts on the subject is still open: then that alert's evidence grows (an `alert.evidence`
   * entry), so that one cheat makes one alert.
   */
  private async surveyShoe(shoeId: string): Promise<void> {
    const [shoe] = await this.db.query<{ table_id: string }>(SQL.shoeOf.bind({ shoeId }));
    if (!shoe) return;
    const subjects: { subject: Subject; gamingDay: string; propertyId: string }[] = [];
    const patrons = await this.db.query<{ patron_id: string; gaming_day: string; property_id: string }>(SQL.patronsOfShoe.bind({ shoeId }));
    for (const p of patrons)
      subjects.push({ subject: { patronId: p.patron_id, tableId: null, seat: null }, gamingDay: p.gaming_day, propertyId: p.property_id });
    for (const s of await this.db.query<{ seat: number; gaming_day: string }>(SQL.seatsOfShoe.bind({ shoeId }))) {
      const propertyId = patrons[0]?.property_id ?? (await this.propertyOf(shoe.table_id));
      subjects.push({ subject: { patronId: null, tableId: shoe.table_id, seat: s.seat }, gamingDay: s.gaming_day, propertyId });
    }
    // A shoe that ran past the gaming day's end lists a subject once for each day: read each once, to its last day.
    const latest = new Map<string, (typeof subjects)[number]>();
    for (const x of subjects) {
      const key = x.subject.patronId ?? `seat:${x.subject.seat}`;
      if (!latest.has(key) || latest.get(key)!.gamingDay < x.gamingDay) latest.set(key, x);
    }
    for (const { subject, gamingDay, propertyId } of latest.values()) {
      const fromDay = new Date(Date.parse(`${gamingDay}T00:00:00Z`) - (this.options.recordDays - 1) * 86_400_000).toISOString().slice(0, 10);
      const rows = await this.db.query<RecordRow>(SQL.subjectRecord.bind({ ...subject, propertyId, fromDay, toDay: gamingDay }));
      if (rows.length === 0) continue;
      await this.loadOdds(rows.map((r) => r.coup_id));
      // Each shoe of the record read once, to its last coup the record holds.
      const lastCoup = new Map<string, { tableId: string; coup: number }>();
      for (const r of rows) if ((lastCoup.get(r.shoe_id)?.coup ?? -1) < r.coup_number) lastCoup.set(r.shoe_id, { tableId: r.table_id, coup: r.coup_number });
      const shoesOfRecord = new Map<string, Awaited<ReturnType<typeof this.dealtShoe>>>();
      for (const [id, last] of lastCoup) shoesOfRecord.set(id, await this.dealtShoe(id, last.tableId, last.coup));
      const record: PlayedCoup[] = [];
      for (const r of rows) {
        const shoeOfCoup = shoesOfRecord.get(r.shoe_id);
        const position = shoeOfCoup?.coupNumbers.get(r.coup_number);
        const odds = this.odds.get(r.coup_id);
        if (!shoeOfCoup || position === undefined || !odds) continue;
        record.push({
          coupId: r.coup_id,
          shoeId: r.shoe_id,
          dealerId: r.dealer_id,
          odds,
          firstValue: r.first_value,
          position,
          at: r.settled_ms,
          roundingUnit: shoeOfCoup.rules.rounding.unit,
          wagers: r.wagers.map((w) => ({ betType: w.betType, stake: BigInt(w.stake), paid: w.result === 'WIN', net: BigInt(w.net) })),
          label: {
            table: r.table_code,
            shoe: r.shoe_number,
            coup: r.coup_number,
            cards: `P ${r.player_cards.join(' ')} · B ${r.banker_cards.join(' ')}`,
            currency: r.currency,
            digits: currencyCode(r.currency)?.digits ?? 2,
          },
        });
      }
      if (record.length === 0) continue;
      const alerts = await this.db.query<{ id: string; kind: RecordKind; dealer_id: string | null; closed_ms: number | null }>(SQL.subjectAlerts.bind(subject));
      const restart = new Map<string, number>();
      const open = new Map<string, string>();
      for (const a of alerts) {
        const key = detectorKey(a.kind, a.dealer_id);
        if (a.closed_ms === null) open.set(key, a.id);
        else restart.set(key, Math.max(restart.get(key) ?? 0, a.closed_ms));
      }
      // The per-shoe e-values of closed shoes never change: keep the last 50,000 (a few MB), the oldest
      // fifth dropped at a time, so that a floor of regulars is not worked out again from cold.
      if (this.memo.size > 50_000) for (const k of [...this.memo.keys()].slice(0, 10_000)) this.memo.delete(k);
      const name = subject.patronId ?? `seat:${subject.tableId}:${subject.seat}`;
      let findings: Finding[];
      try {
        findings = surveyRecord(
          name,
          record,
          new Map([...shoesOfRecord].filter((e): e is [string, DealtShoe & { coupNumbers: Map<number, number> }] => e[1] !== null)),
          restart,
          this.memo,
        );
      } catch (e) {
        // A record the detectors cannot read (written around the service's checks) is said and
        // passed over: one bad record never stops surveillance of the others.
        this.note('warn', `The record of ${name} not surveyed at the close of shoe ${shoeId}: ${(e as Error).message}`);
        continue;
      }
      for (const finding of findings) {
        const dealerId = finding.kind === 'DEALER_PAIRING' ? ((finding.evidence.dealerId as string | null) ?? null) : null;
        const key = detectorKey(finding.kind as RecordKind, dealerId);
        const about = { tableId: shoe.table_id, shoeId, patronId: subject.patronId, dealerId, seat: subject.seat, gamingDay };
        const openId = open.get(key);
        if (openId !== undefined) await this.growEvidence(openId, finding);
        else await this.raise(finding, { ...about, dedupeKey: `${key}:${name}:${shoeId}` });
      }
    }
  }

  private keepOdds(coupId: string, odds: CoupOdds): void {
    if (this.odds.size >= 10_000) for (const k of [...this.odds.keys()].slice(0, 2_000)) this.odds.delete(k);
    this.odds.set(coupId, odds);
  }

  /** The odds of these coups into the cache, read for those it does not hold. */
  private async loadOdds(coupIds: string[]): Promise<void> {
    const missing = coupIds.filter((id) => !this.odds.has(id));
    if (missing.length === 0) return;
    for (const r of await this.db.query<{ coup_id: string; odds: CoupOdds | null; odds_packed: number[] | null }>(SQL.oddsOf.bind({ coupIds: missing }))) {
      this.keepOdds(r.coup_id, r.odds_packed ? unpackOdds(r.odds_packed) : oddsFromJson(r.odds!));
    }
  }

  private readonly properties = new Map<string, string>();
  private async propertyOf(tableId: string): Promise<string> {
    if (!this.properties.has(tableId)) {
      const [row] = await this.db.query<{ property_id: string }>(SQL.tablePropertyOf.bind({ tableId }));
      this.properties.set(tableId, row.property_id);
    }
    return this.properties.get(tableId)!;
  }

  /**
   * A shoe as dealt, with where each coup began (by coup number), for the count detector; complete
   * once it is closed (the per-shoe detectors test it then, once). One read of the shoe's row a pass
   * for a shoe still open, so that one closed since is seen complete.
   */
  private async dealtShoe(shoeId: string, tableId: string, coupNumber: number): Promise<(DealtShoe & { coupNumbers: Map<number, number> }) | null> {
    const known = this.shoes.get(shoeId) as (DealtShoe & { coupNumbers: Map<number, number> }) | undefined;
    if (known?.complete) return known;
    const rules = await this.rulesFor(tableId);
    const [row] = await this.db.query<{ table_id: string; burn_cards: string[]; status: string }>(SQL.shoeOf.bind({ shoeId }));
    if (!rules || !row) return null;
    const complete = row.status === 'CLOSED';
    if (known && !complete && known.coupNumbers.has(coupNumber)) return known;
    const { cards, coupStarts } = await this.dealt(shoeId, row.burn_cards, 2 ** 31 - 1);
    if (this.shoes.size > 200) this.shoes.clear();
    const shoe = { id: shoeId, cards, coupStarts: [...coupStarts.values()], rules, complete, coupNumbers: coupStarts };
    this.shoes.set(shoeId, shoe);
    return shoe;
  }

  /**
   * An alert (once per dedupe key), with its audit entry in the surveillance stream. Written in the
   * pass's transaction: in a savepoint, so that an alert that cannot be written leaves the pass's
   * other work standing.
   */
  private async raise(
    f: Finding,
    about: { tableId: string; shoeId: string; patronId: string | null; dealerId: string | null; seat: number | null; gamingDay: string; dedupeKey: string },
  ): Promise<void> {
    if (!f.alert) return;
    const [row] = await this.db.query<{ id: string }>(
      SQL.raiseAlert.bind({ kind: f.kind, severity: f.severity!, pValue: f.pValue, threshold: f.threshold, evidence: JSON.stringify(f.evidence), ...about }),
    );
    if (!row) return;
    const entry = {
      stream: SURVEILLANCE_STREAM,
      action: 'alert.raise',
      entityType: 'alert',
      entityId: row.id,
      data: { kind: f.kind, severity: f.severity, pValue: f.pValue.toExponential(3), ...about },
      seals: [seal('surveillance_alerts', row.id)],
    };
    await appendWithSeals(this.db, this.keyring, auditParams(SYSTEM_CONTEXT, entry, this.keyring), entry);
    this.note(
      'warn',
      `Alert ${f.kind} (${f.severity}, p = ${f.pValue.toExponential(2)}) at table ${about.tableId}${about.patronId ? `, patron ${about.patronId}` : about.seat !== null ? `, seat ${about.seat}` : ''}`,
    );
  }

  /** An open alert's detector looked again at a grown record: what it found now, as an audit entry on the alert (never an edit). */
  private async growEvidence(alertId: string, f: Finding): Promise<void> {
    const entry = {
      stream: SURVEILLANCE_STREAM,
      action: 'alert.evidence',
      entityType: 'alert',
      entityId: alertId,
      data: { eValue: f.eValue.toExponential(3), pValue: f.pValue.toExponential(3), evidence: f.evidence },
    };
    await appendWithSeals(this.db, this.keyring, auditParams(SYSTEM_CONTEXT, entry, this.keyring), entry);
  }
}

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { SYSTEM_CONTEXT } from '../common/context';
import { Rest } from '../common/rest';
import { PrismaService, Tx } from '../database/prisma.service';
import { prismaRunner, SqlRunner } from '../database/sql';
import {
  BetType,
  Card,
  Composition,
  CoupOdds,
  extendRun,
  Finding,
  fullShoe,
  isCasinoBanked,
  parseCards,
  PlayedCoup,
  pointOf,
  removeCards,
  repeatedRunFinding,
  RuleSet,
  RUN_WINDOW,
  runKeys,
} from '../domain';
import { AuditLog } from '../ledger/audit-log';
import { rulesOf } from '../pit/table-rules';
import { SURVEILLANCE_SQL as SQL } from './surveillance-sql';
import { SurveyThread } from './survey-thread-client';

export interface SurveillanceConfig {
  readonly enabled: boolean;
  /** How often the worker looks for new coups and closed shoes when it has found none. */
  readonly pollMs: number;
  /**
   * The most of the time the worker may keep the event loop and the database busy (0–1): after a
   * pass it rests long enough that its own work (its queries and what it does with their answers,
   * not the arithmetic, which has a low-priority thread of its own) takes at most this share of the
   * time, so the pit's requests come first; it catches up when the pit is quiet.
   */
  readonly share: number;
}
export const SURVEILLANCE_CONFIG = 'sabot:surveillance-config';

/**
 * The longest rest after one pass. A pass that found the caches cold (a shift's first coups: each
 * table's rules and shoe read once) may work for a second or two; resting nine times that would
 * leave the log unread for most of a minute. Alerts are due within seconds: the rest is capped.
 */
export const MAX_REST_MS = 1_000;

/** The audit stream of alerts and what people do with them (not a table's: pit screens never see it). */
export const SURVEILLANCE_STREAM = 'surveillance';

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
  odds: CoupOdds;
  wagers: { betType: BetType; stake: string; result: string; net: string }[];
}

/** A coup's cards in dealing order: Player, Banker, Player, Banker, then Player's third and Banker's. */
function dealingOrder(player: readonly Card[], banker: readonly Card[]): Card[] {
  const out = [player[0], banker[0], player[1], banker[1]];
  if (player[2] !== undefined) out.push(player[2]);
  if (banker[2] !== undefined) out.push(banker[2]);
  return out;
}

/** What a coup's odds depend on: the table's rules and the cards left in the shoe. */
const oddsKey = (tableId: string, composition: Composition) => `${tableId}:${composition.join(',')}`;

/** JSON keeps no NaN (an impossible first card): it comes back as null, and is NaN again here. */
function oddsFromJson(odds: CoupOdds): CoupOdds {
  const nan = (xs: readonly (number | null)[]) => xs.map((x) => (x === null ? NaN : x));
  return { ...odds, meanGivenFirst: { PLAYER: nan(odds.meanGivenFirst.PLAYER), BANKER: nan(odds.meanGivenFirst.BANKER), TIE: nan(odds.meanGivenFirst.TIE) } };
}

/**
 * Integrity surveillance off the pit's path (docs/domain.md §9): follows the audit log (the
 * outbox) with its own cursors. For each settled coup it keeps the exact odds the coup was played
 * at, its first card and its dealer, and looks its cards up in the run index of the property's
 * earlier shoes; when a shoe closes, it examines the record of every patron who played it. Alerts
 * and their audit entries are written in the same transaction as the cursor moves past the entry,
 * so each entry is surveyed once. One instance's worker at a time (an advisory lock per pass).
 */
@Injectable()
export class SurveillanceWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SurveillanceWorker.name);
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly rest = new Rest();
  private readonly rules = new Map<string, RuleSet | null>();
  /**
   * Each shoe's cards as dealt up to the last coup surveyed, so that the next coup of the shoe adds
   * its own cards instead of reading the shoe again (dropped on any void, or a failed pass).
   */
  private readonly dealtSoFar = new Map<string, { upTo: number; cards: Card[]; coupStarts: Map<number, number> }>();
  /** The arithmetic (odds, detectors) on its own low-priority thread. */
  private readonly thread = new SurveyThread();
  /** Time this pass spent waiting for the thread: not the pit's to count against the share. */
  private waited = 0;

  constructor(
    private readonly prisma: PrismaService,
    private readonly audit: AuditLog,
    @Inject(SURVEILLANCE_CONFIG) private readonly config: SurveillanceConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.enabled) return;
    this.running = true;
    this.loop = this.run();
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    this.rest.stop();
    await this.loop;
    await this.thread.stop();
  }

  private async run(): Promise<void> {
    let failing = false;
    while (this.running) {
      try {
        const began = performance.now();
        this.waited = 0;
        const done = await this.passOnce();
        if (failing) this.logger.log('Surveying again');
        failing = false;
        // Rest so that the pass's own work stays within its share of the time until the next begins.
        const worked = performance.now() - began - this.waited;
        const resting = Math.min(MAX_REST_MS, worked / this.config.share - worked);
        if (done === 0) await this.rest.for(this.config.pollMs);
        else if (resting > 0) await this.rest.for(resting);
      } catch (e) {
        if (!this.running) break;
        if (!failing) this.logger.warn(`Surveillance pass failed, retrying: ${(e as Error).message}`);
        failing = true;
        await this.rest.for(1_000);
      }
    }
  }

  /**
   * One pass: the pending entries surveyed in one transaction, which also moves the cursors past
   * them, so each entry is surveyed once. Alerts go to the surveillance stream, whose head this
   * transaction may lock: never a table's, so the pit never waits for it. Returns how many it read.
   */
  async passOnce(): Promise<number> {
    const ahead = await this.oddsAhead();
    return this.prisma
      .$transaction(
        async (tx) => {
          const db = prismaRunner(tx);
          const [lock] = await db.query<{ mine: boolean }>(SQL.onePass.bind({}));
          if (!lock.mine) return 0; // another instance is surveying
          const entries = await db.query<Entry>(SQL.pendingEntries.bind({ perStream: 100, batch: 200 }));
          if (entries.length === 0) return 0;
          const last = new Map<string, string>();
          // Coups are surveyed in batches; a closed shoe (whose patrons' records need its coups) or a
          // void (which changes what a shoe dealt) first surveys the coups before it.
          let coups: string[] = [];
          for (const e of entries) {
            last.set(e.stream, e.seq);
            if (e.action === 'coup.settle') coups.push(e.entity_id);
            else if (e.action === 'shoe.close' || e.action === 'coup.void') {
              await this.surveyCoups(tx, db, coups, ahead);
              coups = [];
              if (e.action === 'shoe.close') await this.surveyShoe(tx, db, e.entity_id);
              else this.dealtSoFar.clear();
            }
          }
          await this.surveyCoups(tx, db, coups, ahead);
          await db.run(SQL.advanceCursors.bind({ streams: [...last.keys()], seqs: [...last.values()] }));
          return entries.length;
        },
        { maxWait: 5_000, timeout: 60_000 },
      )
      .catch((e: unknown) => {
        this.dealtSoFar.clear(); // what this pass cached was rolled back with it
        throw e;
      });
  }

  /**
   * The odds of the coups waiting to be surveyed, worked out on the thread before the pass's
   * transaction opens, so that the transaction (and the pool connection it holds) never waits for
   * a thread that yields to the pit. Keyed by what they depend on: a void meanwhile changes the
   * composition, and the pass then works those out itself.
   */
  private async oddsAhead(): Promise<Map<string, CoupOdds>> {
    const db = prismaRunner(this.prisma);
    const entries = await db.query<Entry>(SQL.pendingEntries.bind({ perStream: 100, batch: 200 }));
    const ahead = new Map<string, CoupOdds>();
    if (entries.some((e) => e.action === 'coup.void')) return ahead;
    const ids = entries.filter((e) => e.action === 'coup.settle').map((e) => e.entity_id);
    const jobs = await this.oddsJobs(db, ids);
    const odds = await this.onThread(Promise.all(jobs.map((j) => this.thread.coupOdds(j.rules, j.composition))));
    jobs.forEach((j, i) => ahead.set(j.key, odds[i]));
    return ahead;
  }

  /** What each coup's odds are worked out from (coups the worker does not survey left out). */
  private async oddsJobs(db: SqlRunner, coupIds: string[]) {
    if (coupIds.length === 0) return [];
    const rows = new Map((await db.query<CoupRow>(SQL.coupsToSurvey.bind({ coupIds }))).map((r) => [r.id, r]));
    const jobs: { coup: CoupRow; rules: RuleSet; cards: Card[]; start: number; composition: Composition; key: string }[] = [];
    for (const id of coupIds) {
      const coup = rows.get(id);
      if (!coup || coup.status !== 'SETTLED' || coup.voided || coup.gaming_day === null) continue;
      const rules = await this.rulesFor(coup.table_id);
      if (rules === null) continue; // a player-banked game: no house odds to measure against
      const { cards, start } = await this.dealtThrough(db, coup);
      const composition = removeCards(fullShoe(coup.decks), cards.slice(0, start));
      jobs.push({ coup, rules, cards, start, composition, key: oddsKey(coup.table_id, composition) });
    }
    return jobs;
  }

  private async onThread<T>(work: Promise<T>): Promise<T> {
    const began = performance.now();
    try {
      return await work;
    } finally {
      this.waited += performance.now() - began;
    }
  }

  private async rulesFor(tableId: string): Promise<RuleSet | null> {
    if (!this.rules.has(tableId)) {
      const table = await this.prisma.casinoTable.findUniqueOrThrow({ where: { id: tableId } });
      this.rules.set(tableId, isCasinoBanked(table.variant) ? rulesOf(table) : null);
    }
    return this.rules.get(tableId)!;
  }

  /** A shoe's cards as dealt so far: its recorded burn, then each standing coup's cards in dealing order. */
  private async dealt(db: SqlRunner, shoeId: string, burn: readonly string[], upTo: number): Promise<{ cards: Card[]; coupStarts: Map<number, number> }> {
    const cards: Card[] = parseCards(burn);
    const coupStarts = new Map<number, number>();
    for (const c of await db.query<{ number: number; player_cards: string[]; banker_cards: string[] }>(SQL.shoeCoups.bind({ shoeId, upTo }))) {
      coupStarts.set(c.number, cards.length);
      cards.push(...dealingOrder(parseCards(c.player_cards), parseCards(c.banker_cards)));
    }
    return { cards, coupStarts };
  }

  /**
   * The shoe's cards up to and including this coup, and where the coup's own begin: from the cache
   * when it reaches the coup before (or this one: the odds worked out ahead put it there).
   */
  private async dealtThrough(db: SqlRunner, coup: CoupRow): Promise<{ cards: Card[]; start: number }> {
    let known = this.dealtSoFar.get(coup.shoe_id);
    if (known && known.upTo === coup.number - 1) {
      known.coupStarts.set(coup.number, known.cards.length);
      known.cards.push(...dealingOrder(parseCards(coup.player_cards), parseCards(coup.banker_cards)));
      known.upTo = coup.number;
    } else if (!known || known.upTo < coup.number) {
      if (this.dealtSoFar.size > 1_000) this.dealtSoFar.clear();
      known = { upTo: coup.number, ...(await this.dealt(db, coup.shoe_id, coup.burn_cards, coup.number)) };
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
  private async surveyCoups(tx: Tx, db: SqlRunner, coupIds: string[], ahead: Map<string, CoupOdds>): Promise<void> {
    const jobs = await this.oddsJobs(db, coupIds);
    if (jobs.length === 0) return;
    const odds = await this.onThread(
      Promise.all(jobs.map((j) => (ahead.has(j.key) ? Promise.resolve(ahead.get(j.key)!) : this.thread.coupOdds(j.rules, j.composition)))),
    );
    const surveyed = jobs.map(({ coup, cards, start }, i) => ({ coup, cards, start, firstValue: pointOf(cards[start]), odds: odds[i] }));
    await db.run(
      SQL.insertCoupSurveys.bind({
        coupIds: surveyed.map((x) => x.coup.id),
        tableIds: surveyed.map((x) => x.coup.table_id),
        shoeIds: surveyed.map((x) => x.coup.shoe_id),
        gamingDays: surveyed.map((x) => x.coup.gaming_day!),
        dealerIds: surveyed.map((x) => x.coup.dealer_id),
        firstValues: surveyed.map((x) => x.firstValue),
        odds: surveyed.map((x) => JSON.stringify(x.odds)),
      }),
    );
    await this.lookForRuns(tx, db, surveyed);
  }

  /** The windows these coups completed, looked up among the property's earlier shoes; then indexed. */
  private async lookForRuns(tx: Tx, db: SqlRunner, surveyed: { coup: CoupRow; cards: Card[]; start: number }[]): Promise<void> {
    const windows: { coup: CoupRow; cards: Card[]; key: number; at: number }[] = [];
    for (const { coup, cards, start } of surveyed) {
      const from = Math.max(0, start - (RUN_WINDOW - 1));
      runKeys(cards.slice(from)).forEach((key, i) => windows.push({ coup, cards, key, at: from + i }));
    }
    if (windows.length === 0) return;
    const hits = await db.query<{ key: string; shoe_id: string; position: number; property_id: string }>(
      SQL.runHits.bind({ keys: [...new Set(windows.map((w) => String(w.key)))] }),
    );
    const byKey = new Map<number, typeof hits>();
    for (const h of hits) byKey.set(Number(h.key), [...(byKey.get(Number(h.key)) ?? []), h]);
    const earlierCards = new Map<string, Card[]>();
    const places = new Map<string, number>();
    for (const w of windows) {
      for (const hit of byKey.get(w.key) ?? []) {
        if (hit.shoe_id === w.coup.shoe_id || hit.property_id !== w.coup.property_id) continue;
        if (!earlierCards.has(hit.shoe_id)) {
          const shoe = await tx.shoe.findUniqueOrThrow({ where: { id: hit.shoe_id }, select: { burnCards: true } });
          earlierCards.set(hit.shoe_id, (await this.dealt(db, hit.shoe_id, shoe.burnCards, 2 ** 31 - 1)).cards);
        }
        if (!places.has(w.coup.property_id)) {
          const [{ places: n }] = await db.query<{ places: string }>(SQL.indexedPlaces.bind({ propertyId: w.coup.property_id }));
          places.set(w.coup.property_id, Number(n));
        }
        const run = extendRun(w.cards, earlierCards.get(hit.shoe_id)!, w.at, hit.position);
        const finding = repeatedRunFinding(w.cards, run, hit.shoe_id, w.coup.decks, w.cards.length * places.get(w.coup.property_id)!);
        await this.raise(tx, db, finding, {
          tableId: w.coup.table_id,
          shoeId: w.coup.shoe_id,
          patronId: null,
          dealerId: null,
          gamingDay: w.coup.gaming_day!,
          dedupeKey: `REPEATED_RUN:${w.coup.shoe_id}:${hit.shoe_id}:${run.earlierAt - run.at}`,
        });
      }
    }
    await db.run(
      SQL.insertRuns.bind({ keys: windows.map((w) => String(w.key)), shoeIds: windows.map((w) => w.coup.shoe_id), positions: windows.map((w) => w.at) }),
    );
  }

  /** A shoe closed: every patron who played it, on their record of that gaming day at the property. */
  private async surveyShoe(tx: Tx, db: SqlRunner, shoeId: string): Promise<void> {
    const shoe = await tx.shoe.findUnique({ where: { id: shoeId }, select: { tableId: true } });
    if (!shoe) return;
    for (const p of await db.query<{ patron_id: string; gaming_day: string; property_id: string }>(SQL.patronsOfShoe.bind({ shoeId }))) {
      const rows = await db.query<RecordRow>(SQL.patronRecord.bind({ patronId: p.patron_id, propertyId: p.property_id, gamingDay: p.gaming_day }));
      const record: PlayedCoup[] = rows.map((r) => ({
        coupId: r.coup_id,
        shoeId: r.shoe_id,
        dealerId: r.dealer_id,
        odds: oddsFromJson(r.odds),
        firstValue: r.first_value,
        wagers: r.wagers.map((w) => ({ betType: w.betType, stake: BigInt(w.stake), paid: w.result === 'WIN', net: BigInt(w.net) })),
      }));
      if (record.length === 0) continue;
      for (const finding of await this.onThread(this.thread.surveyRecord(record))) {
        await this.raise(tx, db, finding, {
          tableId: shoe.tableId,
          shoeId,
          patronId: p.patron_id,
          dealerId: finding.kind === 'DEALER_PAIRING' ? ((finding.evidence.dealerId as string | null) ?? null) : null,
          gamingDay: p.gaming_day,
          dedupeKey: `${finding.kind}:${p.patron_id}:${p.gaming_day}:${shoeId}`,
        });
      }
    }
  }

  /** An alert (once per dedupe key), with its audit entry in the surveillance stream. */
  private async raise(
    tx: Tx,
    db: SqlRunner,
    f: Finding,
    about: { tableId: string; shoeId: string; patronId: string | null; dealerId: string | null; gamingDay: string; dedupeKey: string },
  ): Promise<void> {
    if (!f.alert) return;
    const [row] = await db.query<{ id: string }>(
      SQL.raiseAlert.bind({ kind: f.kind, severity: f.severity!, pValue: f.pValue, threshold: f.threshold, evidence: JSON.stringify(f.evidence), ...about }),
    );
    if (!row) return;
    await this.audit.append(tx, SYSTEM_CONTEXT, {
      stream: SURVEILLANCE_STREAM,
      action: 'alert.raise',
      entityType: 'alert',
      entityId: row.id,
      data: { kind: f.kind, severity: f.severity, pValue: f.pValue.toExponential(3), ...about },
    });
    this.logger.warn(
      `Alert ${f.kind} (${f.severity}, p = ${f.pValue.toExponential(2)}) at table ${about.tableId}${about.patronId ? `, patron ${about.patronId}` : ''}`,
    );
  }
}

import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AUDIT_SECRETS, AuditSecrets } from '../../foundation/ledger/audit-log';
import { STOP, SurveyThreadData, SurveyThreadNote } from './survey-thread';

export interface SurveillanceConfig {
  readonly enabled: boolean;
  /** The database the surveillance thread connects to (a connection of its own, not the pool's). */
  readonly databaseUrl: string;
  /** How often the worker looks for new coups and closed shoes when it has found none. */
  readonly pollMs: number;
  /**
   * The most of the time the surveillance thread may be at work (0–1): after a pass it rests long
   * enough that its work takes at most this share of the time, so the pit's queries come first; it
   * catches up when the pit is quiet.
   */
  readonly share: number;
  /** How many gaming days of a patron's play the detectors read (SURVEILLANCE_RECORD_DAYS). */
  readonly recordDays: number;
}
export const SURVEILLANCE_CONFIG = 'sabot:surveillance-config';

/** How long a stopping service waits for the thread to finish its pass in hand before ending it. */
const STOP_WAIT_MS = 10_000;

/**
 * The compiled thread. Under Jest the service runs from its TypeScript sources, which a thread
 * cannot load: it takes the build's copy (`npm test` builds first).
 */
function threadScript(): string {
  const here = path.join(__dirname, 'survey-thread.js');
  if (fs.existsSync(here)) return here;
  const built = path.resolve(__dirname, '..', '..', '..', 'dist', 'src', 'integrity', 'surveillance', 'survey-thread.js');
  if (fs.existsSync(built)) return built;
  throw new Error(`The surveillance thread is not built (no ${here} or ${built}): run npm run build`);
}

/**
 * Integrity surveillance off the pit's path (docs/domain.md §9): starts the surveillance thread
 * (survey-thread.ts, the Surveyor) with the service and stops it with the service; its notes go to
 * the service's log. A thread that dies is started again a second later.
 */
@Injectable()
export class SurveillanceWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SurveillanceWorker.name);
  private running = false;
  private thread: Worker | null = null;
  private stopped: Promise<void> = Promise.resolve();

  constructor(
    @Inject(SURVEILLANCE_CONFIG) private readonly config: SurveillanceConfig,
    @Inject(AUDIT_SECRETS) private readonly secrets: AuditSecrets,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.enabled) return;
    this.running = true;
    this.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    const thread = this.thread;
    if (!thread) return;
    thread.postMessage(STOP);
    const timer = setTimeout(() => void thread.terminate(), STOP_WAIT_MS);
    await this.stopped;
    clearTimeout(timer);
  }

  private start(): void {
    const data: SurveyThreadData = {
      kind: 'sabot:surveillance',
      databaseUrl: this.config.databaseUrl,
      pollMs: this.config.pollMs,
      share: this.config.share,
      recordDays: this.config.recordDays,
      keyring: this.secrets.keyring,
    };
    const thread = new Worker(threadScript(), { workerData: data });
    this.thread = thread;
    this.stopped = new Promise((resolve) => thread.once('exit', () => resolve()));
    thread.on('message', (n: SurveyThreadNote) => (n.level === 'warn' ? this.logger.warn(n.message) : this.logger.log(n.message)));
    thread.on('error', (e) => this.logger.error(`The surveillance thread failed: ${e.message}`));
    thread.on('exit', (code) => {
      if (this.thread === thread) this.thread = null;
      if (!this.running) return;
      this.logger.warn(`The surveillance thread stopped (exit code ${code}); starting it again`);
      setTimeout(() => this.running && !this.thread && this.start(), 1_000).unref();
    });
  }
}

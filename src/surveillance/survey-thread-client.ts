import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CoupOdds, Finding, PlayedCoup, RuleSet, Composition } from '../domain';
import type { SurveyJob, SurveyReply } from './survey-thread';

/**
 * The compiled thread. Under Jest the service runs from its TypeScript sources, which a thread
 * cannot load: it takes the build's copy (`npm test` builds first).
 */
function threadScript(): string {
  const here = path.join(__dirname, 'survey-thread.js');
  if (fs.existsSync(here)) return here;
  const built = path.resolve(__dirname, '..', '..', 'dist', 'src', 'surveillance', 'survey-thread.js');
  if (fs.existsSync(built)) return built;
  throw new Error(`The surveillance thread is not built (no ${here} or ${built}): run npm run build`);
}

/**
 * The surveillance worker's way to its thread (survey-thread.ts): jobs go in order, answers come
 * back by id. A thread that dies fails what it had in hand and is started again at the next job.
 */
export class SurveyThread {
  private worker: Worker | null = null;
  private next = 0;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  coupOdds(rules: RuleSet, composition: Composition): Promise<CoupOdds> {
    return this.run({ kind: 'coupOdds', rules, composition }) as Promise<CoupOdds>;
  }

  surveyRecord(record: PlayedCoup[]): Promise<Finding[]> {
    return this.run({ kind: 'surveyRecord', record }) as Promise<Finding[]>;
  }

  async stop(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  private run(job: SurveyJob): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      const w = this.thread();
      w.ref(); // work in hand keeps the process alive until it is answered
      w.postMessage({ id, job });
    });
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(threadScript());
    w.on('message', ({ id, result, error }: SurveyReply) => {
      const waiter = this.waiting.get(id);
      this.waiting.delete(id);
      if (error !== undefined) waiter?.reject(new Error(error));
      else waiter?.resolve(result);
      if (this.waiting.size === 0) w.unref();
    });
    const fail = (e: Error) => {
      if (this.worker === w) this.worker = null;
      for (const waiter of this.waiting.values()) waiter.reject(e);
      this.waiting.clear();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`The surveillance thread stopped (exit code ${code})`)));
    // An idle thread does not keep a stopping service alive.
    w.unref();
    this.worker = w;
    return w;
  }
}

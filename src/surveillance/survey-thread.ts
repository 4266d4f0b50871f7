import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { Composition, coupOdds, PlayedCoup, RuleSet, surveyRecord } from '../domain';

/**
 * The surveillance's arithmetic, on a thread of its own at the lowest priority: the exact odds of
 * each coup as it was played and the detectors over a patron's record (both pure, docs/domain.md
 * §9). The pit's requests never wait behind it, on the event loop or for a processor: on Linux a
 * thread's nice value is its own, so only this thread yields to everything else.
 */
export type SurveyJob = { kind: 'coupOdds'; rules: RuleSet; composition: Composition } | { kind: 'surveyRecord'; record: PlayedCoup[] };

export interface SurveyRequest {
  readonly id: number;
  readonly job: SurveyJob;
}
export interface SurveyReply {
  readonly id: number;
  readonly result?: unknown;
  readonly error?: string;
}

function run(job: SurveyJob): unknown {
  switch (job.kind) {
    case 'coupOdds':
      return coupOdds(job.rules, job.composition);
    case 'surveyRecord':
      return surveyRecord(job.record);
  }
}

if (parentPort) {
  const port = parentPort;
  try {
    setPriority(19);
  } catch {
    // Where a thread cannot lower its own priority it still keeps the event loop free.
  }
  port.on('message', ({ id, job }: SurveyRequest) => {
    let reply: SurveyReply;
    try {
      reply = { id, result: run(job) };
    } catch (e) {
      reply = { id, error: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage(reply);
  });
}

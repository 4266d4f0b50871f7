import { DBSchema, IDBPDatabase, openDB } from 'idb';
import { ApiError, post, Schemas } from './api';
import type { Problem } from './error-note';

/**
 * The pit desk's outbox (issue 50): coups a terminal recorded while the service could not be reached,
 * kept in this browser's IndexedDB (through `idb`, a small, well-kept wrapper of it) until the service
 * confirms them, one by one, in the order they were recorded. Each keeps the Idempotency-Key and the
 * exact request it was first sent with, so a coup whose answer was lost is answered, not recorded
 * twice; and its number, so two terminals that recorded the same coup end with one coup and a clear
 * refusal (COUP_NUMBER_TAKEN) for the other. The outbox never settles anything: the settlement is the
 * service's answer. The last desk read is kept too, so the desk opens with the service out of reach.
 */

/** A coup's request as the desk sends it (POST /v1/shoes/{id}/coups). */
export type CoupRequest = Schemas['RecordCoupDto'] & { number: number; recordedAt: string };

export interface PendingCoup {
  /** The coup's Idempotency-Key: the outbox's key. */
  key: string;
  /** The signed-in key it was recorded under: an Idempotency-Key is its key's own, so only that key sends it. */
  keyId: string;
  tableId: string;
  shoeId: string;
  /** Its place in the order recorded at this terminal. */
  seq: number;
  request: CoupRequest;
  /** The service's refusal when it was sent, if it refused it: the queue waits for a person. */
  refused: Problem | null;
}

interface PitDb extends DBSchema {
  coups: { key: string; value: PendingCoup; indexes: { shoe: string } };
  desks: { key: string; value: { tableId: string; data: unknown } };
}

let db: Promise<IDBPDatabase<PitDb>> | null = null;
const open = () =>
  (db ??= openDB<PitDb>('sabot-pit', 1, {
    upgrade(d) {
      d.createObjectStore('coups', { keyPath: 'key' }).createIndex('shoe', 'shoeId');
      d.createObjectStore('desks', { keyPath: 'tableId' });
    },
  }));

/** The coups of a shoe recorded here and not yet confirmed, in the order recorded. */
export async function pendingOf(shoeId: string): Promise<PendingCoup[]> {
  const all = await (await open()).getAllFromIndex('coups', 'shoe', shoeId);
  return all.sort((a, b) => a.seq - b.seq);
}

let counter = 0;
/** A place after every coup recorded here so far. */
export const nextSeq = (): number => Date.now() * 1000 + (counter++ % 1000);

export async function keep(coup: PendingCoup): Promise<void> {
  await (await open()).put('coups', coup);
}

export async function discard(key: string): Promise<void> {
  await (await open()).delete('coups', key);
}

/**
 * Sends a shoe's waiting coups in order, one at a time, each with its own key and request: each
 * confirmed is taken out and handed to `confirmed`; the first refused stays, marked, and stops the
 * rest (they would be numbered after it); no answer stops too, to try again later. Answers whether
 * any is still waiting.
 */
export async function flush(shoeId: string, keyId: string, confirmed: (c: PendingCoup, answer: Schemas['CoupDto']) => void): Promise<boolean> {
  // One sender a shoe at a time: another would find the same first coup in flight.
  if (flushing.has(shoeId)) return true;
  flushing.add(shoeId);
  try {
    return await sendInOrder(shoeId, keyId, confirmed);
  } finally {
    flushing.delete(shoeId);
  }
}
const flushing = new Set<string>();

async function sendInOrder(shoeId: string, keyId: string, confirmed: (c: PendingCoup, answer: Schemas['CoupDto']) => void): Promise<boolean> {
  for (const c of await pendingOf(shoeId)) {
    // Refused, or recorded under another sign-in (whose key alone may send it): a person decides.
    if (c.refused || c.keyId !== keyId) return true;
    try {
      const answer = await post<Schemas['CoupDto']>(`/v1/shoes/${c.shoeId}/coups`, c.request, c.key);
      await discard(c.key);
      confirmed(c, answer);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status >= 500 || e.status === 429 || e.code === 'IDEMPOTENCY_IN_PROGRESS') return true;
      await keep({ ...c, refused: { code: e.code, message: e.message } });
      return true;
    }
  }
  return (await pendingOf(shoeId)).length > 0;
}

/** The desk as last read from the service, for opening it while the service cannot be reached. */
export async function rememberDesk(tableId: string, data: unknown): Promise<void> {
  await (await open()).put('desks', { tableId, data });
}

export async function lastDesk<T>(tableId: string): Promise<T | null> {
  return ((await (await open()).get('desks', tableId))?.data as T | undefined) ?? null;
}

import { Client } from 'pg';

/**
 * Every statement the service sends to PostgreSQL while `fn` runs, with its values: each client's
 * query is watched and passed on unchanged, so the statements still run on PostgreSQL. Tests read
 * their plans (EXPLAIN) with the values the service really sent.
 */
export async function statementsDuring(fn: () => Promise<unknown>): Promise<{ text: string; values: unknown[] }[]> {
  const seen: { text: string; values: unknown[] }[] = [];
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be applied to each client as `this`
  const original = Client.prototype.query;
  Client.prototype.query = function (this: Client, ...args: unknown[]) {
    const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown];
    if (typeof first === 'string') seen.push({ text: first, values: Array.isArray(second) ? second : [] });
    else if (first && typeof first === 'object' && 'text' in first) seen.push({ text: first.text, values: first.values ?? [] });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof Client.prototype.query;
  try {
    await fn();
  } finally {
    Client.prototype.query = original;
  }
  return seen;
}

import { parse } from 'lossless-json';
import type { components } from './generated/api';

/** The API's schemas, as generated from the service's OpenAPI document (openapi.json). */
export type Schemas = components['schemas'];
/** An amount: integer minor units, a number while it is safe, a bigint past 2^53 (never rounded). */
export type Amount = number | bigint;

const KEY = 'sabot.apiKey';

/** The event the app hears when the service no longer takes the key (revoked or expired): it shows the sign-in form. */
export const SIGNED_OUT = 'sabot:signed-out';

const WHO = 'sabot.caller';

export const session = {
  key: (): string | null => sessionStorage.getItem(KEY),
  signIn: (key: string) => sessionStorage.setItem(KEY, key),
  signOut: () => {
    sessionStorage.removeItem(KEY);
    sessionStorage.removeItem(WHO);
  },
  /** Who the key is, as the service last said (GET /v1/api-keys/me): kept with the key, for opening a screen with the service out of reach. */
  remember: (caller: unknown) => sessionStorage.setItem(WHO, JSON.stringify(caller)),
  remembered: <T>(): T | null => {
    const v = sessionStorage.getItem(WHO);
    return v ? (JSON.parse(v) as T) : null;
  },
  /** The service refused the key (401, or a stream's `end`): forget it and tell the app. */
  refused: (): void => {
    if (sessionStorage.getItem(KEY) === null) return;
    sessionStorage.removeItem(KEY);
    sessionStorage.removeItem(WHO);
    dispatchEvent(new Event(SIGNED_OUT));
  },
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Amounts are exact JSON integers of any size: parse them as the service writes them. */
export function parseExact<T>(text: string): T {
  return parse(text, null, (n: string) => {
    if (/^-?\d+$/.test(n)) {
      const v = Number(n);
      return Number.isSafeInteger(v) ? v : BigInt(n);
    }
    return Number(n);
  }) as T;
}

function headers(extra: Record<string, string> = {}): Record<string, string> {
  const key = session.key();
  return { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...extra };
}

/**
 * How far the service's clock is ahead of this browser's, in ms, from the last answer's `Date`
 * header (to the second): a terminal whose clock runs slow or fast still says when a coup was
 * recorded in the service's time. 0 until the service has answered.
 */
let clockOffset = 0;
function heardClock(res: Response): void {
  const date = res.headers.get('Date');
  const at = date ? Date.parse(date) : NaN;
  // The header is whole seconds, the answer a moment old: the offset is good to about a second.
  if (Number.isFinite(at)) clockOffset = at + 500 - Date.now();
}
/** Now, as the service's clock has it (as last heard). */
export const serviceNow = (): Date => new Date(Date.now() + clockOffset);

async function fail(res: Response): Promise<never> {
  let code = 'HTTP_' + res.status;
  let message = res.statusText;
  try {
    const body = (await res.json()) as { code?: string; message?: string };
    code = body.code ?? code;
    message = body.message ?? message;
  } catch {
    // not JSON: keep the status
  }
  if (res.status === 401) session.refused();
  throw new ApiError(res.status, code, message);
}

type Query = Record<string, string | number | undefined>;

function url(path: string, query?: Query): string {
  const q = Object.entries(query ?? {}).filter(([, v]) => v !== undefined && v !== '');
  return q.length ? `${path}?${new URLSearchParams(q.map(([k, v]) => [k, String(v)])).toString()}` : path;
}

export async function get<T>(path: string, query?: Query): Promise<T> {
  const res = await fetch(url(path, query), { headers: headers({ Accept: 'application/json' }) });
  heardClock(res);
  if (!res.ok) return fail(res);
  return parseExact<T>(await res.text());
}

/**
 * A write. `idempotencyKey`: the key the screen made when the act was filled in, sent again with
 * the same body when the service did not answer, so a retry never records the act twice.
 */
export async function post<T>(path: string, body: unknown, idempotencyKey?: string): Promise<T> {
  const extra: Record<string, string> = { 'Content-Type': 'application/json' };
  if (idempotencyKey) extra['Idempotency-Key'] = idempotencyKey;
  const res = await fetch(path, { method: 'POST', headers: headers(extra), body: JSON.stringify(body) });
  heardClock(res);
  if (!res.ok) return fail(res);
  return parseExact<T>(await res.text());
}

/** A report as CSV (the API's own, `Accept: text/csv`), saved as a file. */
export async function downloadCsv(path: string, query: Query, filename: string): Promise<void> {
  const res = await fetch(url(path, query), { headers: headers({ Accept: 'text/csv' }) });
  if (!res.ok) return fail(res);
  const blob = await res.blob();
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

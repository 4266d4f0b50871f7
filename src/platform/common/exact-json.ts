import type { NextFunction, Request, Response } from 'express';
import { isInteger, isSafeNumber, parse, stringify } from 'lossless-json';

/**
 * The one wire model for money: an amount is an integer of minor units (cents), written as a JSON
 * number with every digit. Amounts up to 2^53 − 1 (9,007,199,254,740,991) travel as JavaScript
 * numbers; a larger one (a report's sum over years, a chemin de fer bank doubled many times) stays
 * a bigint and is written with all its digits by the service's JSON writer (writeJson) — never
 * rounded, never a string. Clients read money as a 64-bit integer (the document says `int64`).
 */
export type MinorUnits = number | bigint;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A stored amount (bigint) for an answer: a number while it is a safe integer, else the bigint itself. */
export function minorUnits(v: bigint): MinorUnits {
  return v <= MAX_SAFE && v >= -MAX_SAFE ? Number(v) : v;
}

/** minorUnits for a column that may be empty. */
export function minorUnitsOrNull(v: bigint | null): MinorUnits | null {
  return v === null ? null : minorUnits(v);
}

/**
 * JSON with exact money. PostgreSQL writes sums of minor units as exact integers, and a sum past
 * 2^53 (9×10^15) has digits a JavaScript number cannot hold, which JSON.parse would silently round.
 * Such integers are read as bigint and written back as the same digits (lossless-json); every other
 * number stays a number. Text without a run of 16 digits holds no such integer (15 digits are always
 * safe) and takes the built-in parser, several times faster.
 */
export function parseExact<T>(text: string): T {
  if (!/\d{16}/.test(text)) return JSON.parse(text) as T;
  return parse(text, undefined, (n) => (isInteger(n) && !isSafeNumber(n) ? BigInt(n) : Number(n))) as T;
}

/** A value as JSON text, bigints as their digits (the built-in writer when there are none). */
export function stringifyExact(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e; // "Do not know how to serialize a BigInt"
  }
  const text = stringify(value);
  if (text === undefined) throw new Error('nothing to write as JSON');
  return text;
}

/**
 * Every JSON answer of the service goes through here (installed on Express's res.json in createApp),
 * so that money past 2^53 keeps its digits whichever room answers.
 */
export function exactJsonResponses(_req: Request, res: Response, next: NextFunction): void {
  res.json = function json(body?: unknown) {
    if (!res.get('Content-Type')) res.set('Content-Type', 'application/json');
    return res.send(stringifyExact(body));
  };
  next();
}

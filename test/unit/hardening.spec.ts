import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../../src/platform/common/errors';
import { checkBodyShape, checkQueryText } from '../../src/platform/common/hardening';

/** What a middleware passes to next for a request: nothing (go on), or its refusal. */
function run(middleware: (req: Request, res: Response, next: NextFunction) => void, req: Partial<Request>): AppError | undefined {
  const calls: unknown[] = [];
  middleware(req as Request, {} as Response, (e?: unknown) => calls.push(e));
  expect(calls).toHaveLength(1);
  const [passed] = calls;
  if (passed !== undefined && !(passed instanceof AppError)) throw new Error('next was given something other than an AppError');
  return passed;
}

const body = (json: string) => run(checkBodyShape, { body: JSON.parse(json) as unknown });
const query = (q: Record<string, unknown>) => run(checkQueryText, { query: q as Request['query'] });

describe('the body, before anything reads it', () => {
  it('a number past the double range (JSON.parse makes it Infinity) is refused naming the field', () => {
    expect(body('{"wagers":[{"seat":1,"amount":1e999}]}')).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'wagers[0].amount is a number too large for any field of this service (past 1.8e308)',
      details: [{ field: 'wagers[0].amount', problems: ['wagers[0].amount is a number too large for any field of this service (past 1.8e308)'] }],
    });
    expect(body('{"amount":-1e999}')?.message).toBe('amount is a number too large for any field of this service (past 1.8e308)');
    expect(body('[1e999]')?.message).toBe('[0] is a number too large for any field of this service (past 1.8e308)');
  });

  it('a NUL character in any text, or in a field name, is refused naming where', () => {
    expect(body('{"reason":"misdeal\\u0000"}')?.message).toBe('reason holds a NUL character (\\u0000), which no text may contain: remove it and send again');
    expect(body('{"opener":[{"note":"a\\u0000b"}]}')?.message).toMatch(/^opener\[0\]\.note holds a NUL character/);
    expect(body('{"a\\u0000":1}')?.message).toMatch(/^a field name holds a NUL character/);
  });

  it('what is well-formed passes: large but finite numbers (the fields say what they take), text, nesting', () => {
    expect(body('{"amount":1e308,"seat":9223372036854775808,"reason":"Misdeal: 9♥ seen","wagers":[{"a":[1,2]}]}')).toBeUndefined();
  });
});

describe('the query string', () => {
  it('a NUL character in a value or a name is refused naming the parameter', () => {
    expect(query({ patronId: 'P-1\u0000' })?.message).toBe('patronId holds a NUL character (\\u0000), which no text may contain: remove it and send again');
    expect(query({ from: ['2026-07-01', '\u0000'] })?.message).toMatch(/^from holds a NUL character/);
    expect(query({ 'a\u0000': 'x' })?.message).toMatch(/^a query parameter's name holds a NUL character/);
    expect(query({ x: '\ud800' })?.message).toMatch(/^x holds text that is not well-formed Unicode/);
  });

  it('ordinary queries pass', () => {
    expect(query({ from: '2026-07-01', to: '2026-07-31', groupBy: 'table,betType' })).toBeUndefined();
    expect(query({})).toBeUndefined();
  });
});

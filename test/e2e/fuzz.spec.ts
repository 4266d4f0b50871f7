import fc from 'fast-check';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ADMIN_KEY, listening, startTestApp, TestContext } from '../support/app';
import { givenCreditLine, givenKey, givenPatrons, givenPit, givenVoid, givenAdministrators } from '../support/builders';

/**
 * Zero 5xx from anything a client sends, as a property over the OpenAPI document: every operation
 * of openapi.json is called with the right role's key and with requests generated from its own
 * schema (path ids of real seeded records, query parameters, headers and bodies), hostile values
 * mixed in: NUL and lone surrogates, numbers past the double range and past 2^63, null, dates from
 * year 0 to 9999, huge strings and lists, wrong types, unknown fields. No answer may be a 5xx, and a
 * refused request (4xx) may change no row: the content of every table (rows and an md5 of them) is
 * compared before and after each one. fast-check draws the requests with a fixed seed and a bounded
 * number of runs per operation, so a run is the same on every machine and takes seconds.
 */

/** The seed and the random requests per operation (FUZZ_SEED and FUZZ_RUNS override them, for a longer hunt on a developer's machine). */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_207);
const RUNS = Number(process.env.FUZZ_RUNS ?? 16);

// ---------------------------------------------------------------------------------------------
// The document

type Schema = {
  $ref?: string;
  allOf?: Schema[];
  type?: string;
  format?: string;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  example?: unknown;
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  method: 'get' | 'post';
  path: string;
  operationId: string;
  parameters?: Parameter[];
  description?: string;
  requestBody?: { content: Record<string, { schema: Schema; examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const doc = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'openapi.json'), 'utf8')) as Doc;

function resolve(s: Schema): Schema {
  let cur = s;
  for (let i = 0; i < 10; i++) {
    if (cur.$ref) cur = { ...doc.components.schemas[cur.$ref.split('/').pop()!], ...(cur.example === undefined ? {} : { example: cur.example }) };
    else if (cur.allOf?.length === 1) {
      const { allOf, ...rest } = cur;
      cur = { ...resolve(allOf[0]), ...rest };
    } else return cur;
  }
  return cur;
}

/** Who may call, as the operation's description says it (`**Who may call:** TERMINAL (…), SUPERVISOR.`). */
function rolesOf(op: Operation): string[] {
  const who = /\*\*Who may call:\*\* ([^\n]*)/.exec(op.description ?? '')?.[1] ?? '';
  return [...who.matchAll(/\b([A-Z]{4,})\b/g)].map((m) => m[1]);
}

const isStream = (op: Operation) => Object.values(op.responses).some((r) => r.content && 'text/event-stream' in r.content);

/**
 * Every operation, reads first, then writes, then the writes that end or undo something (close,
 * void, retire, revoke…), so that a table closed early does not leave the rest refusing everything.
 */
const FINISHING = /close|void|retire|revoke|end|approve|reject|withdraw|acknowledge/i;
const operations = Object.entries(doc.paths)
  .flatMap(([p, item]) => Object.entries(item).map(([method, op]) => ({ ...op, method: method as 'get' | 'post', path: p })))
  .sort((a, b) => rank(a) - rank(b));
function rank(op: Operation): number {
  if (op.method === 'get') return 0;
  return FINISHING.test(op.operationId) ? 2 : 1;
}

// ---------------------------------------------------------------------------------------------
// The world the requests act on

let ctx: TestContext;
let base: string;
const keys: Record<string, string[]> = {};
/** Real ids by the collection that names them in a path (`tables`, `shoes`, …). */
const ids: Record<string, string[]> = {};
const cards: string[] = ['P-1', 'P-2'];
let today = '2026-11-23';

beforeAll(async () => {
  ctx = await startTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' });
  base = await listening(ctx.app);
  await givenPatrons(ctx, ...cards);
  const pit = await givenPit(ctx, { code: 'FUZZ-1', minBet: 100, maxBet: 100_000 });
  const chemmy = await givenPit(ctx, { code: 'FUZZ-2', variant: 'CHEMIN_DE_FER' });
  const spare = await givenPit(ctx, { code: 'FUZZ-3' });
  const supervisor2 = await givenKey(ctx, 'SUPERVISOR');
  keys.TERMINAL = [pit.terminal, chemmy.terminal, spare.terminal];
  keys.SUPERVISOR = [pit.supervisor];
  keys.ADMIN = [ADMIN_KEY];
  // A table-side display's key is bound to its table, as a terminal's is.
  keys.DISPLAY = [await givenKey(ctx, 'DISPLAY', pit.table.id), await givenKey(ctx, 'DISPLAY', chemmy.table.id)];
  const named = new Set(operations.flatMap(rolesOf));
  for (const role of named) keys[role] ??= [await givenKey(ctx, role)];
  const t = (key: string) => ctx.as(key);
  const ok = <T extends { status: number; body: unknown }>(what: string, res: T): T['body'] & Record<string, string> => {
    if (res.status >= 300) throw new Error(`seeding ${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Record<string, string>;
  };
  const settled = ok(
    'a coup',
    await t(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, {
      cards: { player: ['9S', 'KD'], banker: ['8H', 'KC'] },
      wagers: [
        { seat: 1, betType: 'BANKER', amount: 1000, patronId: 'P-1' },
        { seat: 2, betType: 'TIE', amount: 500 },
      ],
    }),
  );
  today = settled.gamingDay ?? today;
  const tied = ok('a tie', await t(spare.terminal).post(`/v1/shoes/${spare.shoe.id}/coups`, { cards: { player: ['8S', 'QD'], banker: ['8D', 'JC'] } }));
  const betting = ok('a betting coup', await t(pit.terminal).post(`/v1/shoes/${pit.shoe.id}/coups`, { wagers: [{ seat: 3, betType: 'TIE', amount: 500 }] }));
  const voidRequest = ok('a void request', await t(pit.supervisor).post(`/v1/coups/${settled.id}/void`, { reason: 'pending for the fuzzer' }));
  const session = ok('a session', await t(pit.supervisor).post(`/v1/tables/${pit.table.id}/sessions`, { opener: [{ denomination: 100, count: 10 }] }));
  const slip = ok('a fill', await t(pit.supervisor).post(`/v1/table-sessions/${session.id}/slips`, { kind: 'FILL', chips: [{ denomination: 100, count: 5 }] }));
  const bank = ok('a bank', await t(chemmy.terminal).post(`/v1/shoes/${chemmy.shoe.id}/banks`, { bankerSeat: 1, amount: 10_000, rotation: [1, 2, 3] }));
  const bankCoup = ok(
    'a bank coup',
    await t(chemmy.terminal).post(`/v1/banks/${bank.id}/coups`, {
      cards: { player: ['KS', '5D'], banker: ['7H', 'KC'] },
      stakes: [{ seat: 2, amount: 1_000 }],
    }),
  );
  const seating = ok('a seating', await t(pit.terminal).post(`/v1/tables/${pit.table.id}/seatings`, { patronId: 'P-2', seat: 4 }));
  await givenCreditLine(ctx, pit.table.propertyId, { patronId: 'P-1', currency: pit.table.currency }, 50_000);
  const marker = ok('a marker', await t(pit.terminal).post(`/v1/tables/${pit.table.id}/buy-ins`, { kind: 'MARKER', amount: 50_000, patronId: 'P-1' }));
  const buyIn = ok('a buy-in', await t(pit.terminal).post(`/v1/tables/${pit.table.id}/buy-ins`, { kind: 'CASH', amount: 20_000, patronId: 'P-2' }));
  ok('a dealer', await t(pit.terminal).post(`/v1/tables/${pit.table.id}/dealers`, { dealerId: 'D-1' }));
  ok('a rate', await t(keys.FINANCE[0]).post('/v1/exchange-rates', { day: today, currency: 'EUR', into: 'USD', rate: '1.08' }));
  const property = pit.table.propertyId;
  ok('a cage transaction', await t(keys.CASHIER[0]).post(`/v1/properties/${property}/cash-transactions`, { kind: 'CHIP_REDEMPTION', amount: 1000 }));
  // A key of no use to the fuzzer, to revoke; and a staff change waiting for its second administrator.
  const spareKey = await givenKey(ctx, 'AUDITOR');
  const listed = ok('the keys', await ctx.admin.get('/v1/api-keys')) as unknown as { id: string; keyPrefix: string }[];
  const spareKeyId = listed.find((k) => spareKey.startsWith(k.keyPrefix))!.id;
  keys.CLAIMABLE = [
    ok('a key to claim', await ctx.admin.post('/v1/api-keys', { name: 'claimed by the fuzzer', role: 'TERMINAL', tableId: spare.table.id })).key,
  ];
  const staffChange = ok(
    'a staff change',
    await ctx
      .as((await givenAdministrators(ctx)).first)
      .post('/v1/staff', { staffId: 'E-FUZZ-1', name: 'Proposed by the fuzzer', roles: ['HOST'], reason: 'waits for approval' }),
  );
  const [alert] = await ctx.prisma.$queryRaw<{ id: string }[]>`
    INSERT INTO surveillance_alerts (kind, severity, p_value, threshold, table_id, shoe_id, patron_id, gaming_day, evidence, dedupe_key)
    VALUES ('REPEATED_RUN', 'HIGH', 0.0001, 0.001, ${pit.table.id}::uuid, ${pit.shoe.id}::uuid, 'P-1', ${today}::date, '{}'::jsonb, 'fuzz-1')
    RETURNING id::text`;
  // A second, already decided void request: approving or rejecting it again must be a 409.
  await givenVoid(ctx, 'coups', tied.id, 'decided before the fuzzer', spare.supervisor, supervisor2);
  Object.assign(ids, {
    'api-keys': [spareKeyId],
    changes: [staffChange.id],
    properties: [property],
    tables: [pit.table.id, chemmy.table.id, spare.table.id],
    shoes: [pit.shoe.id, chemmy.shoe.id, spare.shoe.id],
    coups: [settled.id, betting.id, tied.id],
    wagers: (settled.wagers as unknown as { id: string }[]).map((w) => w.id),
    banks: [bank.id],
    'bank-coups': [bankCoup.id],
    'table-sessions': [session.id],
    slips: [slip.id],
    seatings: [seating.id],
    markers: [marker.markerId],
    'buy-ins': [buyIn.id, marker.id],
    'void-requests': [voidRequest.voidRequestId],
    alerts: [alert.id],
  });
  digestQuery = await buildDigestQuery();
  last = await digest();
}, 60_000);
afterAll(async () => {
  agent.destroy();
  printSummary();
  await ctx?.close();
});

// ---------------------------------------------------------------------------------------------
// What a request is, and how it is sent

/** A JSON number written as this text, as a client may send it: 1e999, 9223372036854775808, -0. */
class Raw {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}
const DELETE = Symbol('delete');

function toJson(v: unknown): string {
  if (v instanceof Raw) return v.text;
  if (Array.isArray(v)) return `[${v.map((x) => (x === undefined ? 'null' : toJson(x))).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

interface Req {
  op: string;
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  stream: boolean;
}
interface Res {
  status: number;
  body: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request on a raw socket: the body's bytes exactly as generated; a stream is read up to its status. */
function send(r: Req): Promise<Res> {
  return new Promise((done, fail) => {
    const req = http.request(`${base}${r.url}`, { method: r.method, headers: r.headers, agent }, (res) => {
      if (r.stream && res.statusCode === 200) {
        res.destroy();
        return done({ status: 200, body: '(an event stream)' });
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(r.body);
  });
}

/** Percent-encoding that can also carry what encodeURIComponent refuses (a lone surrogate, as its CESU-8 bytes). */
function enc(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...s]
      .map((ch) => {
        try {
          return encodeURIComponent(ch);
        } catch {
          const c = ch.charCodeAt(0);
          return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
        }
      })
      .join('');
  }
}

// ---------------------------------------------------------------------------------------------
// Values: valid ones from each schema, hostile ones of each kind and of any

const SQL = "'; DROP TABLE coups; --";
const HOSTILE_TEXT = [
  '\u0000',
  'P-1\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\udfff\ud800',
  '',
  ' ',
  '\t\n',
  SQL,
  '<script>alert(1)</script>',
  '😀',
  '\u202eEUR',
  'null',
  'undefined',
  'NaN',
  '1e999',
  '-0',
  '9223372036854775808',
  '99999999999999999999999999',
  '../../etc/passwd',
  '%00',
  '__proto__',
  'x'.repeat(5_000),
];
const HOSTILE_NUMBERS: unknown[] = [
  new Raw('1e999'),
  new Raw('-1e999'),
  new Raw('1e308'),
  new Raw('2e308'),
  new Raw('9223372036854775807'),
  new Raw('9223372036854775808'),
  new Raw('-9223372036854775809'),
  new Raw('18446744073709551616'),
  new Raw('123456789012345678901234567890'),
  new Raw('1e-400'),
  new Raw('-0'),
  new Raw('0.1'),
  new Raw('1.0'),
  new Raw('1E2'),
  2 ** 53,
  2 ** 53 + 2,
  2 ** 31,
  -(2 ** 31) - 1,
  -1,
  0,
  1.5,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
];
const HOSTILE_DATES = [
  '0000-01-01',
  '0001-01-01',
  '9999-12-31',
  '1999-12-31',
  '2101-01-01',
  '1970-01-01',
  '2026-02-29',
  '2026-02-30',
  '2026-13-01',
  '2026-7-1',
  '+275760-09-13',
  '-000001-01-01',
  '275760-09-13',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '2026-07-01T24:00:00Z',
  '2026-07-01T00:00:00+23:59',
  '2026-07-01T00:00:00-23:59',
  '2026-07-01T00:00:00.123456789Z',
  '20260701',
];

/** A date (or date-time) of any year from 0 to 9999. */
const anyYearDate = fc
  .record({ y: fc.integer({ min: 0, max: 9999 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 31 }), time: fc.boolean() })
  .map(({ y, m, d, time }) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}${time ? 'T06:00:00Z' : ''}`);

let nested: unknown = 1;
for (let i = 0; i < 15; i++) nested = { a: nested };

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 3, arbitrary: fc.oneof(fc.constantFrom(...HOSTILE_DATES), anyYearDate) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(
      null,
      true,
      false,
      {},
      [],
      [null],
      { $ne: null },
      ['\u0000'],
      [new Raw('1e999')],
      nested,
      JSON.parse('{"__proto__":{"admin":true}}'),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      Array.from({ length: 5_000 }, () => 1),
      Array.from({ length: 300 }, () => ({ seat: 1 })),
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
);

const allIds = () => Object.values(ids).flat();

function dayNear(): fc.Arbitrary<string> {
  return fc.integer({ min: -3, max: 3 }).map((n) => {
    const d = new Date(`${today}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + n);
    return d.toISOString().slice(0, 10);
  });
}

/** The kind of value a schema asks for, as far as hostile values go. */
type Kind = 'text' | 'pattern' | 'uuid' | 'date' | 'dateTime' | 'integer' | 'boolean' | 'enum' | 'array' | 'object' | 'any';
function kindOf(s0: Schema): Kind {
  const s = resolve(s0);
  if (s.enum) return 'enum';
  if (s.format === 'uuid') return 'uuid';
  if (s.format === 'date') return 'date';
  if (s.format === 'date-time' || s.pattern?.startsWith('^(\\d{4}-')) return 'dateTime';
  if (s.type === 'string') return s.pattern ? 'pattern' : 'text';
  if (s.type === 'integer' || s.type === 'number') return 'integer';
  if (s.type === 'boolean') return 'boolean';
  if (s.type === 'array') return 'array';
  if (s.type === 'object' || s.properties) return 'object';
  return 'any';
}

/** A few hostile values for each kind of field, every one of them sent to every field of its kind (the sweep). */
const SWEEP: Record<Kind, unknown[]> = {
  text: ['Ann\u0000', '\ud800', 'x'.repeat(5_000), null, new Raw('1e999')],
  pattern: ['P-1\u0000', '\udc00', null, new Raw('1e999')],
  uuid: ['\u0000', null, new Raw('9223372036854775808')],
  date: ['0000-01-01', '9999-12-31', '2026-02-30', null],
  dateTime: ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '0000-01-01', null],
  integer: [new Raw('1e999'), new Raw('-1e999'), new Raw('9223372036854775808'), null, '1'],
  boolean: [null, 'true'],
  enum: [null, '\u0000', ['PLAYER']],
  array: [null, Array.from({ length: 5_000 }, () => 1), ['\u0000'], [new Raw('1e999')]],
  object: [null, new Raw('1e999'), []],
  any: [null, '\u0000', new Raw('1e999')],
};
/** The same for a query or path parameter: text only. */
const SWEEP_PARAM: Record<Kind, string[]> = {
  text: ['\u0000', 'x'.repeat(3_000), '\ud800'],
  pattern: ['\u0000', '9223372036854775808', '\ud800'],
  uuid: ['\u0000', '9223372036854775808'],
  date: ['0000-01-01', '9999-12-31', '\u0000'],
  dateTime: ['0000-01-01T00:00:00Z', '9999-12-31', '\u0000'],
  integer: ['1e999', '9223372036854775808', '\u0000'],
  boolean: ['\u0000'],
  enum: ['\u0000', 'x'.repeat(3_000)],
  array: ['\u0000'],
  object: ['\u0000'],
  any: ['\u0000', '9223372036854775808'],
};

/** Hostile values for a field of this kind, and hostile values of any kind. */
function hostileFor(s: Schema): fc.Arbitrary<unknown> {
  const kind = kindOf(s);
  const own: fc.Arbitrary<unknown> =
    kind === 'date' || kind === 'dateTime'
      ? fc.oneof(fc.constantFrom(...HOSTILE_DATES), anyYearDate)
      : kind === 'integer'
        ? fc.constantFrom(...HOSTILE_NUMBERS)
        : kind === 'text' || kind === 'pattern' || kind === 'uuid' || kind === 'enum'
          ? fc.oneof(
              fc.constantFrom(...HOSTILE_TEXT),
              valid(s, '').map((v) => (typeof v === 'string' ? `${v}\u0000` : v)),
            )
          : fc.constantFrom(...SWEEP[kind]);
  return fc.oneof(
    { weight: 3, arbitrary: own },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, ...SWEEP[kind]) },
    { weight: 1, arbitrary: hostileValue },
  );
}

/** A value the schema allows: in range, of the pattern, a real id where the field names one. */
function valid(s0: Schema, name: string, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(s0);
  if (s.enum) return fc.constantFrom(...s.enum);
  const example = s.example === undefined ? [] : [fc.constant(s.example)];
  switch (kindOf(s)) {
    case 'uuid': {
      const own = ids[`${name.replace(/Id$/, '')}s`];
      return fc.oneof(fc.constantFrom(...(own?.length ? own : allIds())), fc.uuid());
    }
    case 'date':
      return dayNear();
    case 'dateTime':
      return fc.oneof(
        dayNear().map((d) => `${d}T06:00:00Z`),
        dayNear(),
      );
    case 'pattern':
      if (/patron|card/i.test(name)) return fc.constantFrom(...cards);
      if (s.pattern === '^[A-Z]{3}$') return fc.constantFrom('EUR', 'USD', 'JPY');
      return fc.oneof(
        ...example,
        fc.stringMatching(new RegExp(s.pattern!), { size: 'xsmall' }).filter((x) => x.length >= (s.minLength ?? 0) && x.length <= (s.maxLength ?? Infinity)),
      );
    case 'text':
      return fc.oneof(...example, fc.string({ minLength: Math.max(s.minLength ?? 1, 1), maxLength: Math.min(s.maxLength ?? 20, 20), unit: 'grapheme-ascii' }));
    case 'integer': {
      const min = s.minimum ?? 0;
      const max = Math.min(s.maximum ?? 1_000_000, 1_000_000_000);
      return fc.oneof(...example, fc.integer({ min, max: Math.max(min, max) }), fc.constantFrom(min, s.maximum ?? max));
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      if (depth > 5 || !s.items) return fc.constant([]);
      return fc.oneof(
        ...example,
        fc.array(valid(s.items, name, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 3, 3)) }),
      );
    case 'object': {
      if (depth > 5) return fc.constant({});
      if (!s.properties) {
        const value = typeof s.additionalProperties === 'object' ? valid(s.additionalProperties, name, depth + 1) : fc.integer({ min: 0, max: 8 });
        return fc.dictionary(fc.stringMatching(/^[A2-9TJQK][SHDC]$/), value, { maxKeys: 4 });
      }
      const props = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, valid(v, k, depth + 1)]));
      return fc.record(props, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
    }
    default:
      return fc.oneof(fc.constant('x'), fc.integer());
  }
}

/** One valid value, the same on every run (the sweep's base). */
function canonical(s: Schema, name: string, seed: number): unknown {
  const r = resolve(s);
  if (r.example !== undefined && kindOf(r) !== 'uuid') return r.example;
  return fc.sample(valid(s, name), { seed, numRuns: 1 })[0];
}

/** Every place in a body's schema a value can go: its fields, nested fields, the first item of each list, an unknown field. */
function fieldPaths(s0: Schema, at: (string | number)[] = [], depth = 0): { path: (string | number)[]; schema: Schema }[] {
  const s = resolve(s0);
  if (depth > 5) return [];
  const here = at.length ? [{ path: at, schema: s }] : [];
  if (s.properties)
    return [...here, ...Object.entries(s.properties).flatMap(([k, v]) => fieldPaths(v, [...at, k], depth + 1)), { path: [...at, 'unknownField'], schema: {} }];
  if (s.type === 'array' && s.items) return [...here, ...fieldPaths(s.items, [...at, 0], depth + 1)];
  return here;
}

function clone<T>(v: T): T {
  if (v instanceof Raw || v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(clone) as T;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)])) as T;
}

function setAt(root: unknown, p: (string | number)[], value: unknown): unknown {
  if (p.length === 0) return value === DELETE ? undefined : value;
  const [head, ...rest] = p;
  const container = (root !== null && typeof root === 'object' && !(root instanceof Raw) ? root : typeof head === 'number' ? [] : {}) as Record<
    string | number,
    unknown
  >;
  if (rest.length === 0 && value === DELETE) {
    if (Array.isArray(container)) container.splice(Number(head), 1);
    else delete container[head];
  } else container[head] = setAt(container[head], rest, value);
  return container;
}

// ---------------------------------------------------------------------------------------------
// Requests of one operation

/** The parts of a request before it is written out: the key, the path's values, the query, the body, the headers. */
interface Parts {
  key: string;
  path: string[];
  query: Record<string, string | string[] | undefined>;
  body: unknown;
  idempotencyKey?: string;
  readFrom?: string;
  lastEventId?: string;
  accept?: string;
  contentType?: string;
}

class OperationFuzz {
  readonly roles: string[];
  readonly pathParams: Parameter[];
  readonly queryParams: Parameter[];
  readonly bodySchema?: Schema;
  readonly examples: unknown[];
  readonly seed: number;

  constructor(readonly op: Operation) {
    this.roles = rolesOf(op);
    const params = op.parameters ?? [];
    this.pathParams = params.filter((p) => p.in === 'path');
    this.queryParams = params.filter((p) => p.in === 'query');
    const json = op.requestBody?.content['application/json'];
    this.bodySchema = json?.schema;
    this.examples = Object.values(json?.examples ?? {}).map((e) => e.value);
    this.seed = seedOf(op.operationId);
  }

  private has(header: string) {
    return (this.op.parameters ?? []).some((p) => p.in === 'header' && p.name === header);
  }

  /** Real ids for a path parameter: the seeded records of the collection that names it. */
  private realPathValues(p: Parameter): string[] {
    if (p.name === 'card') return cards;
    const m = new RegExp(`/([a-z-]+)/\\{${p.name}\\}`).exec(this.op.path);
    return (m && ids[m[1]]) || [];
  }

  /**
   * The keys that may call the operation: one of each role it names. A key claimed gets a new secret
   * and its old one stops: claims are made with a key kept for them, never one the fuzzer goes on with.
   */
  private rightKeys(): string[] {
    if (this.op.operationId === 'claimApiKey') return keys.CLAIMABLE;
    return (this.roles.length ? this.roles : ['AUDITOR']).flatMap((r) => keys[r]);
  }

  /** The sweep: every field, parameter and path value given each hostile value of its kind, the rest valid. */
  sweep(): Parts[] {
    const baseQuery = Object.fromEntries(this.queryParams.filter((p) => p.required).map((p) => [p.name, String(canonical(p.schema, p.name, this.seed))]));
    const basePath = this.pathParams.map((p) => this.realPathValues(p)[0] ?? '00000000-0000-4000-8000-000000000000');
    const baseBody = this.bodySchema ? (this.examples[0] ?? canonical(this.bodySchema, 'body', this.seed)) : undefined;
    const base = (): Parts => ({
      key: this.rightKeys()[0],
      path: [...basePath],
      query: { ...baseQuery },
      body: clone(baseBody),
      idempotencyKey: this.op.method === 'post' ? 'sweep' : undefined,
    });
    const out: Parts[] = [];
    this.pathParams.forEach((p, i) => {
      for (const v of SWEEP_PARAM[p.name === 'card' ? 'pattern' : 'uuid']) {
        const r = base();
        r.path[i] = v;
        out.push(r);
      }
    });
    for (const p of this.queryParams)
      for (const v of SWEEP_PARAM[kindOf(p.schema)]) {
        const r = base();
        r.query[p.name] = v;
        out.push(r);
      }
    if (this.bodySchema)
      for (const { path: at, schema } of fieldPaths(this.bodySchema))
        for (const v of SWEEP[kindOf(schema)]) {
          const r = base();
          r.body = setAt(r.body, at, v);
          out.push(r);
        }
    // Each request with a key of its own: a retry of an earlier one would be a replay, not a new request.
    return out.map((r, i) => ({ ...r, idempotencyKey: r.idempotencyKey && `sweep-${this.op.operationId}-${i}` }));
  }

  /** Random requests: mostly the right key and a valid request with one to three hostile values, sometimes anything. */
  random(): fc.Arbitrary<Parts> {
    const pathValue = (p: Parameter): fc.Arbitrary<string> => {
      const real = this.realPathValues(p);
      return fc.oneof(
        { weight: 8, arbitrary: real.length ? fc.constantFrom(...real) : fc.uuid() },
        { weight: 1, arbitrary: fc.oneof(fc.uuid(), fc.constantFrom(...allIds())) },
        {
          weight: 2,
          arbitrary: fc.constantFrom('00000000-0000-0000-0000-000000000000', 'not-a-uuid', SQL, '1e999', '..', ...SWEEP_PARAM.any, ...SWEEP_PARAM.text),
        },
      );
    };
    const queryValue = (p: Parameter): fc.Arbitrary<string | string[] | undefined> =>
      fc.oneof(
        { weight: p.required ? 1 : 4, arbitrary: fc.constant(undefined) },
        { weight: 6, arbitrary: valid(p.schema, p.name).map(String) },
        {
          weight: 3,
          arbitrary: fc.oneof(
            hostileFor(p.schema).map((v) => (typeof v === 'string' ? v : toJson(v))),
            fc.string({ unit: 'binary', maxLength: 8 }),
          ),
        },
        { weight: 1, arbitrary: fc.tuple(valid(p.schema, p.name), fc.constantFrom('x', '\u0000')).map(([a, b]) => [String(a), b]) },
      );
    const paths = this.bodySchema ? fieldPaths(this.bodySchema) : [];
    const mutation = fc
      .constantFrom(...(paths.length ? paths : [{ path: ['x'], schema: {} }]))
      .chain(({ path: at, schema }) =>
        fc.tuple(
          fc.constant(at),
          fc.oneof(
            { weight: 4, arbitrary: hostileFor(schema) },
            { weight: 1, arbitrary: fc.constant<unknown>(DELETE) },
            { weight: 1, arbitrary: valid(schema, String(at.at(-1))) },
          ),
        ),
      );
    const body: fc.Arbitrary<unknown> = this.bodySchema
      ? fc.oneof(
          {
            weight: 10,
            arbitrary: fc
              .tuple(
                this.examples.length ? fc.oneof(fc.constantFrom(...this.examples), valid(this.bodySchema, 'body')) : valid(this.bodySchema, 'body'),
                fc.oneof(
                  { weight: 1, arbitrary: fc.constant([]) },
                  { weight: 5, arbitrary: mutation.map((m) => [m]) },
                  { weight: 2, arbitrary: fc.array(mutation, { minLength: 2, maxLength: 3 }) },
                ),
              )
              .map(([b, mutations]) => mutations.reduce<unknown>((out, [at, v]) => setAt(out, at, v), clone(b))),
          },
          { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, [], 'text', 0, new Raw('1e999'), {}, 'x'.repeat(200_000)) },
        )
      : fc.oneof({ weight: 8, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.oneof(fc.constant<unknown>({}), hostileValue) });
    const key = fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(...this.rightKeys()) },
      { weight: 1, arbitrary: fc.constantFrom('', 'sab_not_a_key', keys.AUDITOR[0], '\u00e9'.repeat(10)) },
    );
    return fc.record({
      key,
      path: fc.tuple(...this.pathParams.map(pathValue)),
      query: fc.record(Object.fromEntries(this.queryParams.map((p) => [p.name, queryValue(p)]))),
      body,
      idempotencyKey:
        this.op.method === 'post'
          ? fc.oneof({ weight: 3, arbitrary: fc.uuid() }, { weight: 1, arbitrary: fc.constantFrom(undefined, 'k', 'x'.repeat(256), 'a b', 'é') })
          : fc.constant(undefined),
      readFrom: this.has('X-Read-From') ? fc.constantFrom(undefined, 'any', 'primary', 'replica', '', 'ANY') : fc.constant(undefined),
      lastEventId: this.has('Last-Event-ID')
        ? fc.constantFrom(undefined, '0', '1', '-1', 'abc', '1e999', '9223372036854775808', '99999999999999999999999999', '1:2', 'x'.repeat(300))
        : fc.constant(undefined),
      accept: fc.constantFrom(undefined, undefined, 'application/json', 'text/csv', '*/*', 'text/event-stream'),
      contentType: fc.constantFrom('application/json', 'application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain'),
    });
  }

  /** The request as it goes on the wire. */
  written(r: Parts): Req {
    let url = this.op.path;
    this.pathParams.forEach((p, i) => (url = url.replace(`{${p.name}}`, enc(r.path[i]))));
    const qs = Object.entries(r.query)
      .filter(([, v]) => v !== undefined)
      .flatMap(([k, v]) => (Array.isArray(v) ? v : [v!]).map((x) => `${k}=${enc(x)}`))
      .join('&');
    const headers: Record<string, string> = {};
    if (r.key) headers.authorization = `Bearer ${r.key}`;
    if (r.idempotencyKey !== undefined) headers['idempotency-key'] = r.idempotencyKey;
    if (r.readFrom !== undefined) headers['x-read-from'] = r.readFrom;
    if (r.lastEventId !== undefined) headers['last-event-id'] = r.lastEventId;
    if (r.accept) headers.accept = r.accept;
    const text = r.body === undefined ? undefined : toJson(r.body);
    if (text !== undefined) {
      headers['content-type'] = r.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(text));
    }
    const op = `${this.op.method.toUpperCase()} ${this.op.path}`;
    return { op, method: this.op.method.toUpperCase() as 'GET' | 'POST', url: qs ? `${url}?${qs}` : url, headers, body: text, stream: isStream(this.op) };
  }
}

// ---------------------------------------------------------------------------------------------
// Every table's content, to tell that a refused request changed nothing

let digestQuery = '';
let last: Map<string, string>;

async function buildDigestQuery(): Promise<string> {
  const tables = await ctx.prisma.$queryRaw<{ name: string }[]>`
    SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%' ORDER BY 1`;
  return tables
    .map(
      ({ name }) =>
        `SELECT ${`'${name.replace(/'/g, "''")}'`} AS name, count(*) || ' rows, ' || md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS digest FROM ${name} t`,
    )
    .join('\nUNION ALL\n');
}

async function digest(): Promise<Map<string, string>> {
  // Prepared once per connection: a union over every table is planned once, not per request.
  const rows = await ctx.prisma.pool.query<{ name: string; digest: string }>({ name: 'fuzz-digest', text: digestQuery });
  return new Map(rows.rows.map((r) => [r.name, r.digest]));
}

function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k));
}

// ---------------------------------------------------------------------------------------------
// The property, per operation

interface Failure {
  why: string;
  req: Req;
  res: Res;
}
const stats = { operations: 0, requests: 0, swept: 0, refused: 0, succeeded: 0, started: Date.now(), statuses: new Map<number, number>() };

function show(f: Failure): string {
  const cut = (t: string) => (t.length > 300 ? `${t.slice(0, 300)}… (${t.length} characters)` : t);
  const headers = { ...f.req.headers, authorization: f.req.headers.authorization && '(a key)' };
  return `${f.why}\n  ${f.req.method} ${cut(f.req.url)}\n  headers: ${JSON.stringify(headers)}\n  body: ${cut(f.req.body ?? '(none)')}\n  answer: ${f.res.status} ${cut(f.res.body)}`;
}

/** Sends one request and checks it: no 5xx; refused, then every table as it was. */
async function check(req: Req, failures: Failure[]): Promise<void> {
  const res = await send(req);
  stats.requests++;
  stats.statuses.set(res.status, (stats.statuses.get(res.status) ?? 0) + 1);
  const after = await digest();
  if (res.status >= 500) failures.push({ why: `answered ${res.status}`, req, res });
  else if (res.status >= 400) {
    stats.refused++;
    const changed = changedTables(last, after);
    if (changed.length) failures.push({ why: `refused with ${res.status} but changed ${changed.join(', ')}`, req, res });
  } else stats.succeeded++;
  last = after;
}

function printSummary(): void {
  const seconds = ((Date.now() - stats.started) / 1000).toFixed(1);
  const statuses = [...stats.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
  process.stdout.write(
    `fuzz: ${stats.operations} operations, ${stats.requests} requests (${stats.swept} of the sweep, ${stats.requests - stats.swept} drawn at random; ` +
      `${stats.succeeded} succeeded, ${stats.refused} refused) in ${seconds} s; ${statuses.join(' ')}\n`,
  );
}

function seedOf(operationId: string): number {
  let h = SEED;
  for (const ch of operationId) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

/**
 * What an outside tester found, each pinned on its own: every one was a 500 with nothing written (or,
 * for the last ones, accepted where it should not be), and each is now a 400 VALIDATION_FAILED that
 * names the field, changing nothing.
 */
describe('the classes of 500 an outside tester found, each refused with 400', () => {
  const raw = (method: 'GET' | 'POST', url: string, key: string, body?: string, idempotencyKey?: string): Req => ({
    op: `${method} ${url}`,
    method,
    url,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }),
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body,
    stream: false,
  });

  /** Sends a request that must be refused with 400 VALIDATION_FAILED, leaving every table as it was; returns the message. */
  async function refused(req: Req): Promise<string> {
    const before = await digest();
    const res = await send(req);
    const answer = JSON.parse(res.body) as { code: string; message: string };
    expect({ status: res.status, code: answer.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    expect(changedTables(before, await digest())).toEqual([]);
    last = await digest();
    return answer.message;
  }
  const supervisor = () => keys.SUPERVISOR[0];

  it('a NUL character in a free-text field (PostgreSQL refuses 0x00 in text), in a body or a query', async () => {
    expect(await refused(raw('POST', `/v1/slips/${ids.slips[0]}/void`, supervisor(), '{"reason":"keyed twice\\u0000"}', 'nul-1'))).toBe(
      'reason holds a NUL character (\\u0000), which no text may contain: remove it and send again',
    );
    expect(await refused(raw('POST', '/v1/properties', ADMIN_KEY, '{"name":"Casino\\u0000","timeZone":"UTC","gamingDayStartHour":6}'))).toMatch(
      /^name holds a NUL/,
    );
    expect(await refused(raw('GET', '/v1/markers?patronId=P-1%00', keys.CASHIER[0]))).toMatch(/^patronId holds a NUL character/);
  });

  it('1e999 as an amount in a body sent with an Idempotency-Key (the body is hashed as canonical JSON, which has no Infinity), and anywhere else', async () => {
    const body = '{"wagers":[{"seat":1,"betType":"BANKER","amount":1e999}]}';
    expect(await refused(raw('POST', `/v1/coups/${ids.coups[1]}/wagers`, keys.TERMINAL[0], body, 'infinity-1'))).toBe(
      'wagers[0].amount is a number too large for any field of this service (past 1.8e308)',
    );
    expect(await refused(raw('POST', `/v1/coups/${ids.coups[1]}/wagers`, keys.TERMINAL[0], body))).toMatch(/^wagers\[0\]\.amount is a number too large/);
    expect(await refused(raw('POST', '/v1/odds', supervisor(), '{"shoe":{"decks":8},"rules":-1e999}', 'infinity-2'))).toMatch(/^rules is a number too large/);
  });

  it('"ctrThreshold": null in a property\'s settings, as any optional field sent as null', async () => {
    const property = { name: 'Null thresholds', timeZone: 'UTC', gamingDayStartHour: 6 };
    expect(await refused(raw('POST', '/v1/properties', ADMIN_KEY, JSON.stringify({ ...property, ctrThreshold: null })))).toBe(
      'ctrThreshold may be left out, but not sent as null (and 3 more problems)',
    );
    expect(await refused(raw('POST', '/v1/properties', ADMIN_KEY, JSON.stringify({ ...property, compShareBps: null })))).toMatch(
      /^compShareBps may be left out/,
    );
  });

  const yearZero = (path: string) => path.replace(/DAY/g, '0000-01-01');
  it.each([
    ['GET', '/v1/patrons/P-1/rating?from=DAY&to=DAY', 'HOST'],
    ['GET', '/v1/patrons/P-1/visits?from=DAY&to=DAY', 'HOST'],
    ['GET', '/v1/tables/TABLE/seatings?gamingDay=DAY', 'SUPERVISOR'],
    ['GET', '/v1/reports/top-patrons?from=DAY&to=DAY', 'HOST'],
    ['GET', '/v1/tables/TABLE/buy-ins?gamingDay=DAY', 'SUPERVISOR'],
    ['GET', '/v1/compliance/cash-report?propertyId=PROPERTY&from=DAY&to=DAY', 'COMPLIANCE'],
    ['GET', '/v1/reports/drop-reconciliation?propertyId=PROPERTY&from=DAY&to=DAY', 'FINANCE'],
    ['GET', '/v1/reports/win-loss?from=DAY&to=DAY', 'FINANCE'],
    ['GET', '/v1/reports/table-accounting?from=DAY&to=DAY', 'FINANCE'],
    ['GET', '/v1/reports/reconciliation?from=DAY&to=DAY', 'FINANCE'],
    ['GET', '/v1/exchange-rates?from=DAY&to=DAY', 'FINANCE'],
    ['GET', '/v1/audit?from=DAYT00:00:00Z', 'AUDITOR'],
    ['GET', '/v1/audit?to=DAYT00:00:00Z', 'AUDITOR'],
  ])('the date 0000-01-01 in %s %s', async (method, path, role) => {
    const url = yearZero(path).replace('TABLE', ids.tables[0]).replace('PROPERTY', ids.properties[0]);
    expect(await refused(raw(method as 'GET', url, keys[role][0]))).toMatch(/in the years 2000 to 2100/);
  });

  it('the date 0000-01-01 in a body: a session, a rate, a key', async () => {
    const session = JSON.stringify({ gamingDay: '0000-01-01', opener: [] });
    expect(await refused(raw('POST', `/v1/tables/${ids.tables[1]}/sessions`, supervisor(), session))).toMatch(
      /^gamingDay must be a calendar date YYYY-MM-DD in the years 2000 to 2100/,
    );
    const rate = JSON.stringify({ day: '0000-01-01', currency: 'EUR', into: 'USD', rate: '1.1' });
    expect(await refused(raw('POST', '/v1/exchange-rates', keys.FINANCE[0], rate))).toMatch(/^day must be a calendar date/);
    const key = JSON.stringify({ name: 'k', role: 'TERMINAL', tableId: ids.tables[0], expiresAt: '0000-01-01T00:00:00Z' });
    expect(await refused(raw('POST', '/v1/api-keys', ADMIN_KEY, key))).toMatch(
      /^expiresAt must be an ISO 8601 date or date-time naming a real day and time in the years 2000 to 2100/,
    );
  });

  it('an audit afterId past 2^63 (a PostgreSQL bigint)', async () => {
    expect(await refused(raw('GET', '/v1/audit?afterId=9223372036854775808', keys.AUDITOR[0]))).toBe(
      'afterId must be at most 9223372036854775807 (2^63 − 1): no record has a larger number',
    );
    expect((await send(raw('GET', '/v1/audit?afterId=9223372036854775807', keys.AUDITOR[0]))).status).toBe(200);
  });

  it("the gaming day 9999-12-31 was accepted: every date is in the years 2000 to 2100, as the quarterly statement's year", async () => {
    const session = JSON.stringify({ gamingDay: '9999-12-31', opener: [] });
    expect(await refused(raw('POST', `/v1/tables/${ids.tables[1]}/sessions`, supervisor(), session))).toMatch(/in the years 2000 to 2100/);
    const rate = JSON.stringify({ day: '2101-01-01', currency: 'EUR', into: 'USD', rate: '1.1' });
    expect(await refused(raw('POST', '/v1/exchange-rates', keys.FINANCE[0], rate))).toMatch(/in the years 2000 to 2100/);
    expect(await refused(raw('GET', '/v1/reports/quarterly?year=2101&quarter=1', keys.FINANCE[0]))).toBe('year must be at most 2100');
  });

  it('any three capital letters passed as a currency: only ISO 4217 codes in use do', async () => {
    const table = { code: 'CUR-1', variant: 'COMMISSION', minBet: 100, maxBet: 1000 };
    expect(await refused(raw('POST', '/v1/tables', ADMIN_KEY, JSON.stringify({ ...table, currency: 'ABC' })))).toBe(
      'currency ABC is not an ISO 4217 currency in use (such as USD, EUR or HKD)',
    );
    expect(await refused(raw('GET', '/v1/reports/win-loss?from=2026-01-01&to=2026-01-31&currency=XXX', keys.FINANCE[0]))).toMatch(/^currency XXX is not/);
    const rate = JSON.stringify({ day: today, currency: 'EUR', into: 'ZZZ', rate: '1.1' });
    expect(await refused(raw('POST', '/v1/exchange-rates', keys.FINANCE[0], rate))).toMatch(/^into ZZZ is not an ISO 4217 currency/);
    const made = await send(raw('POST', '/v1/tables', ADMIN_KEY, JSON.stringify({ ...table, currency: 'MOP' })));
    expect(made.status).toBe(201);
  });

  it('a list inside a list of wagers (or chips) read as a record with no fields', async () => {
    const wagers = JSON.stringify({ wagers: [[], { seat: 2, betType: 'PLAYER', amount: 500 }] });
    expect(await refused(raw('POST', `/v1/coups/${ids.coups[1]}/wagers`, keys.TERMINAL[0], wagers))).toMatch(/^each item of wagers must be an object/);
    const slip = JSON.stringify({ kind: 'FILL', chips: [[]] });
    expect(await refused(raw('POST', `/v1/table-sessions/${ids['table-sessions'][0]}/slips`, supervisor(), slip))).toMatch(
      /^each item of chips must be an object/,
    );
  });

  it('an empty body opens the next coup for betting: legitimate and documented (the dealer calls for bets before any is placed)', async () => {
    const opened = await send(raw('POST', `/v1/shoes/${ids.shoes[2]}/coups`, keys.TERMINAL[2], '{}'));
    expect(opened.status).toBe(201);
    expect(JSON.parse(opened.body)).toMatchObject({ status: 'BETTING', wagers: [] });
    const again = await send(raw('POST', `/v1/shoes/${ids.shoes[2]}/coups`, keys.TERMINAL[2], '{}'));
    expect([again.status, JSON.parse(again.body).code]).toEqual([409, 'COUP_IN_PROGRESS']);
    const recordCoup = doc.paths['/v1/shoes/{id}/coups'].post;
    expect(recordCoup.description).toContain('An empty body `{}` is such a request, and a legitimate one');
    last = await digest();
  });
});

describe('fuzzing every operation of the OpenAPI document', () => {
  it('walks every operation of the document the service serves, with a key of every role it names', async () => {
    const served = JSON.parse((await send({ op: 'GET /docs-json', method: 'GET', url: '/docs-json', headers: {}, stream: false })).body) as Doc;
    const names = (d: Doc) => Object.entries(d.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    expect(operations.map((op) => `${op.method.toUpperCase()} ${op.path}`).sort()).toEqual(names(served).sort()); // else: npm run openapi
    expect(operations.length).toBeGreaterThanOrEqual(85);
    for (const op of operations) for (const r of rolesOf(op)) expect(Object.keys(keys)).toContain(r);
  });

  it.each(operations.map((op) => [`${op.method.toUpperCase()} ${op.path}`, op] as const))(
    '%s: no 5xx, and a refused request changes nothing',
    async (_name, op) => {
      const fuzz = new OperationFuzz(op);
      const failures: Failure[] = [];
      stats.operations++;
      const sweep = fuzz.sweep();
      for (const parts of sweep) await check(fuzz.written(parts), failures);
      stats.swept += sweep.length;
      await fc.assert(
        fc.asyncProperty(fuzz.random(), (parts) => check(fuzz.written(parts), failures)),
        { seed: fuzz.seed, numRuns: RUNS },
      );
      if (failures.length) throw new Error(`${failures.length} of ${sweep.length + RUNS} requests failed:\n\n${failures.map(show).join('\n\n')}`);
    },
  );
});

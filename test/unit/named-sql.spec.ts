import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { COUPS_SQL } from '../../src/table-games/coups/coups-sql';
import { compile, loadQueries } from '../../src/platform/database/named-sql';
import { LEDGER_SQL } from '../../src/foundation/ledger/ledger-sql';

/** Named queries: SQL files with :name parameters, turned into $n once; and copies kept identical. */
describe('named queries', () => {
  it('numbers parameters by first appearance, reuses a number, and leaves casts, quotes and comments alone', () => {
    const q = compile<{ shoeId: string; version: string | null }>(
      'moveShoe',
      `-- :notAParameter in a comment
UPDATE shoes SET note = 'at :noon', "weird:name" = 1 WHERE id = :shoeId::uuid AND (:version::bigint IS NULL OR version = :version::bigint) AND id <> :shoeId::uuid;`,
    );
    expect(q.name).toBe('sabot-move-shoe');
    expect(q.params).toEqual(['shoeId', 'version']);
    expect(q.text).toBe(`-- :notAParameter in a comment
UPDATE shoes SET note = 'at :noon', "weird:name" = 1 WHERE id = $1::uuid AND ($2::bigint IS NULL OR version = $2::bigint) AND id <> $1::uuid`);
    expect(q.bind({ shoeId: 's-1', version: null })).toEqual({ name: 'sabot-move-shoe', text: q.text, values: ['s-1', null] });
  });

  it('refuses to bind a statement with a value missing', () => {
    const q = compile<{ a: number; b: number }>('pair', 'SELECT :a::int + :b::int');
    expect(() => q.bind({ a: 1 } as { a: number; b: number })).toThrow('pair: no value for :b');
  });

  it('reads each "-- name:" query of a file', () => {
    const file = path.join(fs.mkdtempSync('/tmp/named-sql-'), 'two.sql');
    fs.writeFileSync(file, '-- a header\n\n-- name: first\nSELECT :x::int;\n\n-- name: secondOne\nSELECT :y::text, :x::int;\n');
    const q = loadQueries<{ first: { x: number }; secondOne: { x: number; y: string } }>(file);
    expect(q.first.text).toBe('SELECT $1::int');
    expect(q.secondOne.params).toEqual(['y', 'x']);
  });

  it("the whole-coup statement appends the audit entry and the rollups with the ledger's own SQL, included from it", () => {
    const coups = fs.readFileSync(path.join(__dirname, '../../src/table-games/coups/coups.sql'), 'utf8');
    for (const part of ['audit', 'rollups']) expect(coups).toContain(`\n-- include: ../../foundation/ledger/ledger.sql ${part}\n`);
    // …knows a usable key by the access layer's one definition, and writes the shoe and its wagers with the pit's own SQL.
    expect(coups).toContain('\n-- include: ../../foundation/access/access.sql keyValid\n');
    expect(coups).not.toMatch(/revoked_at/);
    for (const part of ['settleShoe', 'settleWagers']) expect(coups).toContain(`\n-- include: ../../foundation/pit/pit.sql ${part}\n`);
  });

  it("the whole-coup statement stores an Idempotency-Key answer with the database layer's storeAnswer, included from it", () => {
    const coups = fs.readFileSync(path.join(__dirname, '../../src/table-games/coups/coups.sql'), 'utf8');
    expect(coups).toContain('\n-- include: ../../platform/database/database.sql storeAnswer\n');
    expect(coups).not.toMatch(/idempotency_records/);
    const { storeAnswer } = loadQueries<{ storeAnswer: object }>(path.join(__dirname, '../../src/platform/database/database.sql'));
    const insert = /INSERT INTO idempotency_records[^]*?now\(\)/.exec(storeAnswer.text)![0];
    expect(COUPS_SQL.settleCoup.text.replace(/\$\d+/g, '$')).toContain(insert.replace(/\$\d+/g, '$'));
  });

  it("every parameter a ledger block names is one the coup statement binds by the ledger's names", () => {
    for (const p of LEDGER_SQL.appendAudit.params) expect(COUPS_SQL.settleCoup.params).toContain(p);
    for (const p of LEDGER_SQL.applyCoupRollups.params) expect(COUPS_SQL.settleCoup.params).toContain(p);
  });
});

describe('fragments: SQL two files need is written once', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-sql-'));
  fs.mkdirSync(path.join(dir, 'ledger'));
  fs.mkdirSync(path.join(dir, 'coups'));
  fs.writeFileSync(
    path.join(dir, 'ledger', 'ledger.sql'),
    '-- name: apply\nWITH guard AS (SELECT 1),\n-- fragment: rollup begin\nr AS (SELECT :day::date AS d FROM guard)\n-- fragment: rollup end\nSELECT * FROM r;\n',
  );

  it('an include is replaced by the fragment, whose parameters take their place in order', () => {
    fs.writeFileSync(
      path.join(dir, 'coups', 'coups.sql'),
      '-- name: settle\nWITH guard AS (SELECT :coup::uuid),\n-- include: ../ledger/ledger.sql rollup\nSELECT * FROM r;\n',
    );
    const { settle } = loadQueries<{ settle: { coup: string; day: string } }>(path.join(dir, 'coups', 'coups.sql'));
    expect(settle.text).toBe('WITH guard AS (SELECT $1::uuid),\nr AS (SELECT $2::date AS d FROM guard)\nSELECT * FROM r');
    expect(settle.params).toEqual(['coup', 'day']);
  });

  it('an include of a fragment that is not there stops the load, naming both', () => {
    fs.writeFileSync(path.join(dir, 'coups', 'wrong.sql'), '-- name: settle\n-- include: ../ledger/ledger.sql audit\nSELECT 1;\n');
    expect(() => loadQueries(path.join(dir, 'coups', 'wrong.sql'))).toThrow(/wrong\.sql: \.\.\/ledger\/ledger\.sql has no fragment "audit"/);
  });
});

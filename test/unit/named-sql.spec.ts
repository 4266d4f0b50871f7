import fs from 'node:fs';
import path from 'node:path';
import { KEY_VALID_SQL } from '../../src/access/access.service';
import { COUPS_SQL } from '../../src/coups/coups-sql';
import { compile, loadQueries } from '../../src/database/named-sql';
import { LEDGER_SQL } from '../../src/ledger/ledger-sql';

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

  /** The block between "-- ledger:<part> begin" and "end" markers. */
  const block = (text: string, part: string) => {
    const m = new RegExp(`-- ledger:${part} begin\\n([\\s\\S]*?)-- ledger:${part} end`).exec(text);
    if (!m) throw new Error(`no ledger:${part} block`);
    return m[1];
  };

  it("the whole-coup statement appends the audit entry and the rollups with the ledger's own SQL, word for word", () => {
    const coups = fs.readFileSync(path.join(__dirname, '../../src/coups/coups.sql'), 'utf8');
    const ledger = fs.readFileSync(path.join(__dirname, '../../src/ledger/ledger.sql'), 'utf8');
    for (const part of ['audit', 'rollups']) expect(block(coups, part)).toBe(block(ledger, part));
    // …and knows a usable key as the access layer does.
    expect(coups.replace(/\s+/g, ' ')).toContain(KEY_VALID_SQL);
  });

  it("the whole-coup statement stores an Idempotency-Key answer as the database layer's storeAnswer does", () => {
    const line = (file: string) => /UPDATE idempotency_records SET [^\n]*/.exec(fs.readFileSync(path.join(__dirname, '../../src', file), 'utf8'))?.[0];
    expect(line('coups/coups.sql')).toBeDefined();
    expect(line('coups/coups.sql')).toBe(line('database/database.sql'));
  });

  it("every parameter a ledger block names is one the coup statement binds by the ledger's names", () => {
    for (const p of LEDGER_SQL.appendAudit.params) expect(COUPS_SQL.settleCoup.params).toContain(p);
    for (const p of LEDGER_SQL.applyCoupRollups.params) expect(COUPS_SQL.settleCoup.params).toContain(p);
  });
});

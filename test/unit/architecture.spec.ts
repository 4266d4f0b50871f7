import fs from 'node:fs';
import path from 'node:path';

/**
 * docs/architecture.md says which rooms of src/ write each table. This reads the code as a reviewer
 * would (SQL INSERT, UPDATE, DELETE in each room's .sql and .ts files; Prisma's create, update,
 * upsert and delete calls, each model to its table through prisma/schema.prisma) and fails when the
 * document and the code disagree, in either direction.
 */
const ROOT = path.join(__dirname, '..', '..');

function tablesOfModels(): Map<string, string> {
  const schema = fs.readFileSync(path.join(ROOT, 'prisma', 'schema.prisma'), 'utf8');
  const models = new Map<string, string>();
  for (const m of schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm))
    models.set(m[1][0].toLowerCase() + m[1].slice(1), /@@map\("(\w+)"\)/.exec(m[2])?.[1] ?? m[1]);
  return models;
}

/** A file's room: the folder a wing, the foundation or the platform holds it in (src/<floor>/<room>/…); the server's files are the application's. */
function roomOf(relative: string): string {
  const [floor, room] = relative.split(path.sep);
  return floor === 'server' ? '(application)' : room;
}

function writersInCode(): Map<string, Set<string>> {
  const models = tablesOfModels();
  const tables = new Set(models.values());
  const writers = new Map<string, Set<string>>();
  const add = (table: string, room: string) => writers.set(table, (writers.get(table) ?? new Set()).add(room));
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'generated') walk(file);
        continue;
      }
      if (!/\.(ts|sql)$/.test(entry.name)) continue;
      const room = roomOf(path.relative(path.join(ROOT, 'src'), file));
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?"?(\w+)"?/gi))
        if (tables.has(m[1])) add(m[1], room);
      if (file.endsWith('.ts'))
        for (const m of text.matchAll(/\.(\w+)\.(create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany)\(/g)) {
          const table = models.get(m[1]);
          if (table) add(table, room);
        }
    }
  };
  walk(path.join(ROOT, 'src'));
  return writers;
}

function writersInDocument(): Map<string, Set<string>> {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Who writes which table'));
  const rows = [...section.matchAll(/^\| `(\w+)` \| (.+) \|$/gm)];
  return new Map(rows.map((r) => [r[1], new Set([...r[2].matchAll(/`([^`]+)`/g)].map((m) => m[1]))]));
}

const asLists = (m: Map<string, Set<string>>) =>
  Object.fromEntries([...m].map(([t, rooms]) => [t, [...rooms].sort()] as const).sort((a, b) => a[0].localeCompare(b[0])));

it('the document names, for every table the service writes, exactly the rooms whose code writes it', () => {
  const code = writersInCode();
  expect(code.size).toBeGreaterThan(30);
  expect(asLists(writersInDocument())).toEqual(asLists(code));
});

it('reads both kinds of write: SQL in a room’s files and Prisma’s calls', () => {
  const code = writersInCode();
  // coups.sql writes the coups in SQL; the void requests write coup voids through Prisma, and the
  // shoes room closes a shoe's banks with updateManyAndReturn.
  expect(code.get('coups')).toContain('coups');
  expect(code.get('coup_voids')).toContain('void-requests');
  expect(code.get('banks')).toContain('shoes');
  expect(code.get('audit_log')).toEqual(new Set(['ledger']));
});

it('the pit alone writes tables, shoes, wagers and seatings (SQL that dependency-cruiser cannot see)', () => {
  const code = writersInCode();
  for (const table of ['casino_tables', 'table_limits', 'shoes', 'wagers', 'seatings']) expect([table, [...(code.get(table) ?? [])]]).toEqual([table, ['pit']]);
});

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

/**
 * dependency-cruiser sees imports, not the `-- include: file fragment` lines of the named SQL. The
 * same rules (.dependency-cruiser.cjs, read here, not copied) are applied to every include, as
 * dependency-cruiser applies them to an import: the `from` path's groups ($1, $2) substituted into
 * the `to` paths. So a room's SQL includes only its own room's, the foundation's or the platform's.
 */
interface Rule {
  name: string;
  from: { path?: string; pathNot?: string | string[] };
  to: { path?: string; pathNot?: string | string[]; circular?: boolean };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the rules are a CommonJS file dependency-cruiser reads
const RULES = (require(path.join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: Rule[] }).forbidden.filter((r) => !r.to.circular);
const listOf = (p: string | string[] | undefined) => (p === undefined ? [] : Array.isArray(p) ? p : [p]);

/** The rules an edge from one file to another breaks (`to` null: the file itself, whatever it imports). */
function broken(from: string, to: string | null): string[] {
  const names: string[] = [];
  for (const rule of RULES) {
    const m = rule.from.path ? new RegExp(rule.from.path).exec(from) : [from];
    if (!m || listOf(rule.from.pathNot).some((p) => new RegExp(p).test(from))) continue;
    const hasTo = rule.to.path !== undefined || rule.to.pathNot !== undefined;
    if (to === null) {
      if (!hasTo) names.push(rule.name);
      continue;
    }
    const sub = (re: string) => new RegExp(re.replace(/\$(\d)/g, (_s, n: string) => m[Number(n)] ?? ''));
    if (rule.to.path !== undefined && !sub(rule.to.path).test(to)) continue;
    if (listOf(rule.to.pathNot).some((p) => sub(p).test(to))) continue;
    names.push(rule.name);
  }
  return names;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return rel === 'src/generated' ? [] : filesUnder(rel);
    return [rel];
  });
}

function sqlIncludes(): [string, string][] {
  return filesUnder('src')
    .filter((f) => f.endsWith('.sql'))
    .flatMap((f) =>
      [...fs.readFileSync(path.join(ROOT, f), 'utf8').matchAll(/^-- include: *(\S+) +\w+ *$/gm)].map(
        (m) => [f, path.posix.normalize(path.posix.join(path.posix.dirname(f), m[1]))] as [string, string],
      ),
    );
}

/**
 * Every import of a file of src/: a relative one as the file it names, a package's as
 * node_modules/<package>; and every path the file builds from its own folder
 * (`path.join(__dirname, '..', 'x.sql')`, as a room loads its named SQL), which is an import by
 * another name.
 */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const built = [...text.matchAll(/path\.(?:join|resolve)\(\s*__dirname((?:\s*,\s*'[^']*')+)\s*\)/g)].map(([, args]) =>
    path.posix.normalize(path.posix.join(path.posix.dirname(file), ...[...args.matchAll(/'([^']*)'/g)].map((m) => m[1]))),
  );
  return [
    ...built.filter((p) => p.startsWith('src/')),
    ...[...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\(\s*)['"]([^'"]+)['"]/g)].map(([, spec]) => {
      if (!spec.startsWith('.')) return `node_modules/${spec}`;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      for (const candidate of [target, `${target}.ts`, `${target}/index.ts`])
        if (fs.existsSync(path.join(ROOT, candidate)) && fs.statSync(path.join(ROOT, candidate)).isFile()) return candidate;
      return target;
    }),
  ];
}

describe('the layer rules hold for what dependency-cruiser cannot see', () => {
  it('every SQL include keeps the rules an import keeps', () => {
    const includes = sqlIncludes();
    expect(includes.length).toBeGreaterThan(8);
    for (const [, to] of includes) expect(fs.existsSync(path.join(ROOT, to))).toBe(true);
    expect(includes.map(([from, to]) => ({ from, to, broken: broken(from, to) })).filter((e) => e.broken.length > 0)).toEqual([]);
  });

  it('the rules read here refuse a room’s SQL including another room’s, and allow the foundation’s and the platform’s', () => {
    expect(broken('src/finance/reports/pace.sql', 'src/table-games/dealers/dealers.sql')).toEqual(['rooms-side-by-side']);
    expect(broken('src/table-games/coups/coups.sql', 'src/table-games/banks/banks.sql')).toEqual(['rooms-side-by-side']);
    expect(broken('src/foundation/pit/pit.sql', 'src/foundation/ledger/ledger.sql')).toEqual(['foundation-side-by-side']);
    expect(broken('src/platform/database/database.sql', 'src/foundation/pit/pit.sql')).toEqual(['platform-below-the-casino']);
    expect(broken('src/finance/reports/pace.sql', 'src/foundation/pit/pit.sql')).toEqual([]);
    expect(broken('src/table-games/coups/coups.sql', 'src/platform/database/database.sql')).toEqual([]);
  });

  it('every import of src/ keeps the same rules, read by this test too: the engine imports nothing but itself, no floor imports upward, rooms stand side by side', () => {
    const edges = filesUnder('src')
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => importsOf(f).map((to) => ({ from: f, to })));
    expect(edges.length).toBeGreaterThan(1000);
    expect(edges.filter((e) => e.from.startsWith('src/domain/')).length).toBeGreaterThan(50);
    expect(edges.map((e) => ({ ...e, broken: broken(e.from, e.to) })).filter((e) => e.broken.length > 0)).toEqual([]);
    expect(broken('src/domain/game/odds.ts', 'node_modules/@nestjs/common')).toEqual(['domain-is-pure']);
    expect(broken('src/domain/game/odds.ts', 'src/platform/common/errors.ts')).toEqual(['domain-is-pure']);
    expect(broken('src/domain/game/odds.ts', 'src/domain/money/money.ts')).toEqual([]);
    expect(broken('src/platform/common/errors.ts', 'src/platform/database/sql.ts')).toEqual(['common-on-the-ground']);
    expect(broken('src/foundation/pit/pit.service.ts', 'src/table-games/coups/coups.service.ts')).toEqual(['foundation-side-by-side']);
    expect(broken('src/finance/reports/pace.ts', 'src/table-games/dealers/dealers.service.ts')).toEqual(['rooms-side-by-side']);
    expect(broken('src/server/app.module.ts', 'src/table-games/dealers/dealers.module.ts')).toEqual([]);
    // A path a room builds from __dirname into another room's files is an import by another name.
    expect(importsOf('src/table-games/coups/coups-sql.ts')).toContain('src/table-games/coups/coups.sql');
  });

  it('src/ holds its floors alone, and a wing or the foundation holds rooms, not loose files (even a file that imports nothing)', () => {
    const files = filesUnder('src').filter((f) => /\.(ts|sql)$/.test(f));
    expect(files.length).toBeGreaterThan(200);
    expect(files.map((f) => ({ f, broken: broken(f, null) })).filter((e) => e.broken.length > 0)).toEqual([]);
    expect(broken('src/stray.ts', null)).toEqual(['every-file-has-a-floor']);
    expect(broken('src/finance/stray.ts', null)).toEqual(['rooms-in-rooms']);
    expect(broken('src/platform/stray.ts', null)).toEqual(['rooms-in-rooms']);
  });
});

it('the house in docs/architecture.md names every room of every wing, the foundation and the platform, and no room that is not there', () => {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## The house'), doc.indexOf('## The path of a coup'));
  const documented = new Map<string, string[]>();
  for (const row of section.matchAll(/^\|[^|\n]*\| `src\/([\w-]+)\/` \| ([^|\n]+) \|/gm))
    documented.set(row[1], [...row[2].matchAll(/`([\w-]+)`/g)].map((m) => m[1]).sort());
  const floors = ['table-games', 'patrons-and-cage', 'finance', 'integrity', 'operations', 'foundation', 'platform'];
  const inCode = floors.map((floor) => [
    floor,
    fs
      .readdirSync(path.join(ROOT, 'src', floor), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort(),
  ]);
  expect(floors.map((floor) => [floor, documented.get(floor)])).toEqual(inCode);
});

import fs from 'node:fs';
import path from 'node:path';
import * as ts from 'typescript';

/**
 * docs/invariants.md states each invariant Sabot keeps, where the code keeps it and which test pins
 * it. This holds the page to the code: it fails when a cited code path does not exist (or no longer
 * holds a name the page says keeps the invariant there), when a cited spec file does not exist, when a
 * cited test title is not the first argument of an it/test call in that file (within the describes
 * the page names), and when the page states fewer than 20 invariants. The page's format:
 *
 *   ### I-07 A title
 *   One or two plain sentences.
 *   - kept: `src/…/file.ts` › `name`, `name` — what it does there
 *   - pinned: `test/…/file.spec.ts` › "describe title" › "exact it title"
 */
const ROOT = path.join(__dirname, '..', '..');
const PAGE = 'docs/invariants.md';
const MIN_INVARIANTS = 20;

interface Kept {
  line: number;
  path: string;
  names: string[];
}

interface Pinned {
  line: number;
  path: string;
  /** The describe titles the page names, outermost first, then the it/test title. */
  titles: string[];
}

interface Invariant {
  id: string;
  title: string;
  line: number;
  statement: string[];
  kept: Kept[];
  pinned: Pinned[];
}

const INVARIANT = /^### (I-(\d{2,})) (\S.*)$/;
const KEPT = /^- kept: `([^`]+)`(?: › (`[^`]+`(?:, `[^`]+`)*))?(?: — \S.*)?$/;
const PINNED = /^- pinned: `([^`]+)` › (.+)$/;
const QUOTED = /^"(.+)"$/;

/** The page's invariants, and every line under one that is not in the page's format. */
function parsePage(text: string): { invariants: Invariant[]; problems: string[] } {
  const invariants: Invariant[] = [];
  const problems: string[] = [];
  let current: Invariant | null = null;
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    const at = `${PAGE}:${line}`;
    const s = raw.trimEnd();
    const heading = INVARIANT.exec(s);
    if (heading) {
      current = { id: heading[1], title: heading[3], line, statement: [], kept: [], pinned: [] };
      invariants.push(current);
      return;
    }
    if (/^#{1,3} /.test(s)) {
      if (/^#{1,3} I-/.test(s)) problems.push(`${at}: an invariant's heading is "### I-nn Title": ${s}`);
      current = null;
      return;
    }
    if (!current || s === '') return;
    const inv: Invariant = current;
    if (s.startsWith('- kept')) {
      const m = KEPT.exec(s);
      if (!m) problems.push(`${at}: not a "- kept: \`path\` › \`name\`, … — note" line: ${s}`);
      else inv.kept.push({ line, path: m[1], names: m[2] ? [...m[2].matchAll(/`([^`]+)`/g)].map((n) => n[1]) : [] });
      return;
    }
    if (s.startsWith('- pinned')) {
      const m = PINNED.exec(s);
      const titles = m ? m[2].split(' › ').map((t) => QUOTED.exec(t)?.[1]) : [];
      if (!m || titles.some((t) => t === undefined)) problems.push(`${at}: not a '- pinned: \`spec\` › "describe" › "it title"' line: ${s}`);
      else inv.pinned.push({ line, path: m[1], titles: titles as string[] });
      return;
    }
    if (inv.kept.length || inv.pinned.length) problems.push(`${at}: ${inv.id}'s statement comes before its kept and pinned lines: ${s}`);
    else inv.statement.push(s);
  });
  invariants.forEach((inv, i) => {
    const at = `${PAGE}:${inv.line}`;
    const expected = `I-${String(i + 1).padStart(2, '0')}`;
    if (inv.id !== expected) problems.push(`${at}: ${inv.id} where ${expected} comes next (invariants are numbered in turn)`);
    if (!inv.statement.length) problems.push(`${at}: ${inv.id} states nothing`);
    if (!inv.kept.length) problems.push(`${at}: ${inv.id} says nowhere where it is kept`);
    if (!inv.pinned.length) problems.push(`${at}: ${inv.id} names no test that pins it`);
  });
  return { invariants, problems };
}

/** A path the page cites, inside the repository, or why it is not one. */
function citedPath(p: string, root: string): { file: string } | { problem: string } {
  if (path.isAbsolute(p) || p.split('/').includes('..')) return { problem: `\`${p}\` is not a path inside the repository` };
  const file = path.join(root, p);
  if (!fs.existsSync(file)) return { problem: `\`${p}\` does not exist` };
  return { file };
}

interface TestCall {
  title: string;
  describes: string[];
}

/** Which of Jest's functions a call is: describe(…), it(…), test.only(…), it.each(table)(…), describe.each`…`(…), (ok ? it : it.skip)(…). */
function jestFunction(callee: ts.Expression): 'describe' | 'test' | null {
  let e = callee;
  if (ts.isParenthesizedExpression(e)) return jestFunction(e.expression);
  if (ts.isConditionalExpression(e)) return jestFunction(e.whenTrue) ?? jestFunction(e.whenFalse);
  if (ts.isCallExpression(e)) e = e.expression;
  else if (ts.isTaggedTemplateExpression(e)) e = e.tag;
  while (ts.isPropertyAccessExpression(e)) e = e.expression;
  if (!ts.isIdentifier(e)) return null;
  if (e.text === 'describe') return 'describe';
  return e.text === 'it' || e.text === 'test' ? 'test' : null;
}

/** Every it/test call of a spec file whose first argument is a string literal, with the describes around it. */
function testsOf(file: string): TestCall[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const tests: TestCall[] = [];
  const describes: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const fn = jestFunction(node.expression);
      const first = node.arguments[0];
      const title = first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first)) ? first.text : null;
      if (fn === 'test' && title !== null) tests.push({ title, describes: [...describes] });
      if (fn === 'describe' && title !== null) {
        describes.push(title);
        ts.forEachChild(node, visit);
        describes.pop();
        return;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return tests;
}

/** Whether `part` appears in `whole` in order (not necessarily side by side). */
const inOrder = (part: readonly string[], whole: readonly string[]) => {
  let i = 0;
  for (const w of whole) if (i < part.length && w === part[i]) i++;
  return i === part.length;
};

/** Every citation of the page that does not hold in the repository at `root`. */
function citationProblems(invariants: readonly Invariant[], root: string): string[] {
  const problems: string[] = [];
  const specs = new Map<string, TestCall[]>();
  for (const inv of invariants) {
    for (const k of inv.kept) {
      const at = `${PAGE}:${k.line} (${inv.id})`;
      const found = citedPath(k.path, root);
      if ('problem' in found) {
        problems.push(`${at}: kept in ${found.problem}`);
        continue;
      }
      if (!k.names.length) continue;
      if (!fs.statSync(found.file).isFile()) {
        problems.push(`${at}: \`${k.path}\` is not a file, so it holds no name`);
        continue;
      }
      const text = fs.readFileSync(found.file, 'utf8');
      for (const name of k.names) {
        const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        if (!new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`).test(text)) problems.push(`${at}: \`${k.path}\` has no \`${name}\``);
      }
    }
    for (const p of inv.pinned) {
      const at = `${PAGE}:${p.line} (${inv.id})`;
      if (!/^test\/.+\.spec\.ts$/.test(p.path)) {
        problems.push(`${at}: \`${p.path}\` is not a spec file under test/`);
        continue;
      }
      const found = citedPath(p.path, root);
      if ('problem' in found) {
        problems.push(`${at}: pinned by a spec that ${found.problem.replace(/^`[^`]+` /, '')}: \`${p.path}\``);
        continue;
      }
      if (!specs.has(found.file)) specs.set(found.file, testsOf(found.file));
      const tests = specs.get(found.file)!;
      const title = p.titles[p.titles.length - 1];
      const describes = p.titles.slice(0, -1);
      const named = tests.filter((t) => t.title === title);
      if (!named.length) problems.push(`${at}: no it/test in \`${p.path}\` has the title "${title}"`);
      else if (!named.some((t) => inOrder(describes, t.describes)))
        problems.push(`${at}: "${title}" in \`${p.path}\` is not within ${describes.map((d) => `"${d}"`).join(' › ')}`);
    }
  }
  return problems;
}

const page = parsePage(fs.readFileSync(path.join(ROOT, PAGE), 'utf8'));

it('the page is regular: every invariant numbered in turn, stated, kept and pinned, and no line it cannot read', () => {
  expect(page.problems).toEqual([]);
});

it(`states at least ${MIN_INVARIANTS} invariants`, () => {
  expect(page.invariants.length).toBeGreaterThanOrEqual(MIN_INVARIANTS);
});

it('every code path it cites exists and holds the names it cites; every spec exists and holds the exact test titles it cites', () => {
  expect(citationProblems(page.invariants, ROOT)).toEqual([]);
});

it('the checks fail on a broken citation: a path, a name, a spec, a title, a describe, a count, a line out of format', () => {
  const broken = parsePage(
    [
      '## Money',
      '### I-01 A broken page',
      'Every citation below is wrong in one way.',
      '- kept: `src/domain/money/no-such-file.ts`',
      '- kept: `src/domain/money/money.ts` › `roundMoney`, `noSuchFunction`',
      '- pinned: `test/domain/money/no-such.spec.ts` › "anything"',
      '- pinned: `test/domain/money/money.spec.ts` › "refuses negative amounts rather than guess a direction, or so"',
      '- pinned: `test/domain/money/money.spec.ts` › "no such describe" › "refuses negative amounts rather than guess a direction"',
      '- pinned: `test/domain/money/money.spec.ts` › "roundMoney: the one place money is rounded" › "refuses negative amounts rather than guess a direction"',
      '- pinned: test/domain/money/money.spec.ts "unquoted"',
      '### I-03 Out of turn, and neither kept nor pinned',
      'A statement.',
    ].join('\n'),
  );
  expect(broken.invariants).toHaveLength(2);
  expect(broken.problems).toEqual([
    `${PAGE}:10: not a '- pinned: \`spec\` › "describe" › "it title"' line: - pinned: test/domain/money/money.spec.ts "unquoted"`,
    `${PAGE}:11: I-03 where I-02 comes next (invariants are numbered in turn)`,
    `${PAGE}:11: I-03 says nowhere where it is kept`,
    `${PAGE}:11: I-03 names no test that pins it`,
  ]);
  expect(citationProblems(broken.invariants, ROOT)).toEqual([
    `${PAGE}:4 (I-01): kept in \`src/domain/money/no-such-file.ts\` does not exist`,
    `${PAGE}:5 (I-01): \`src/domain/money/money.ts\` has no \`noSuchFunction\``,
    `${PAGE}:6 (I-01): pinned by a spec that does not exist: \`test/domain/money/no-such.spec.ts\``,
    `${PAGE}:7 (I-01): no it/test in \`test/domain/money/money.spec.ts\` has the title "refuses negative amounts rather than guess a direction, or so"`,
    `${PAGE}:8 (I-01): "refuses negative amounts rather than guess a direction" in \`test/domain/money/money.spec.ts\` is not within "no such describe"`,
  ]);
  // it.each titles are the literal first argument, placeholders and all.
  expect(testsOf(path.join(ROOT, 'test/domain/money/money.spec.ts'))).toContainEqual({ title: 'rejects %p', describes: ['pays: "to" and "for" bases'] });
  expect(parsePage(['### I-01 Alone', 'Stated.', '- kept: `src`', '- pinned: `test/unit/invariants.spec.ts` › "x"'].join('\n')).invariants.length).toBeLessThan(
    MIN_INVARIANTS,
  );
});

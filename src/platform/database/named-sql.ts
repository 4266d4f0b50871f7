import fs from 'node:fs';
import path from 'node:path';
import type { SqlStatement } from './sql';

/**
 * Named queries: SQL kept in `.sql` files a reviewer reads as SQL (one file per room), each query
 * headed by `-- name: someQuery`, its parameters written `:someName` (a cast may follow:
 * `:shoeId::uuid`). A file is read once, at load: each parameter becomes `$n` in the order of its
 * first appearance, and `bind` takes the values by name. Text inside quotes and comments is left
 * as it is. The statement is prepared once per connection under its name.
 *
 * A piece of SQL two files need is written once, in one of them, between `-- fragment: name begin`
 * and `-- fragment: name end`; the other writes `-- include: ../room/file.sql name` where it goes.
 */
export interface NamedQuery<P> {
  readonly name: string;
  readonly text: string;
  /** Parameter names, in `$n` order. */
  readonly params: readonly string[];
  bind(values: P): SqlStatement;
}

/** The queries of one `.sql` file, typed by the caller: `loadQueries<{ settleCoup: SettleParams }>(path)`. */
export function loadQueries<Q extends Record<string, object>>(file: string): { [K in keyof Q]: NamedQuery<Q[K]> } {
  const queries: Record<string, NamedQuery<object>> = {};
  for (const { name, body } of splitQueries(withIncludes(fs.readFileSync(file, 'utf8'), file), file)) queries[name] = compile(name, body);
  return queries as { [K in keyof Q]: NamedQuery<Q[K]> };
}

/** Each `-- include: file name` line replaced by that file's fragment `name` (the file relative to this one). */
function withIncludes(source: string, file: string): string {
  return source.replace(/^-- include: *(\S+) +(\w+) *$/gm, (_line, relative: string, name: string) => {
    const from = path.resolve(path.dirname(file), relative);
    const m = new RegExp(`^-- fragment: ${name} begin *\n([\\s\\S]*?)^-- fragment: ${name} end *$`, 'm').exec(fs.readFileSync(from, 'utf8'));
    if (!m) throw new Error(`${file}: ${relative} has no fragment "${name}"`);
    return m[1].trimEnd();
  });
}

function splitQueries(source: string, file: string): { name: string; body: string }[] {
  const parts = source.split(/^-- name: *(\w+) *$/m);
  const out: { name: string; body: string }[] = [];
  for (let i = 1; i < parts.length; i += 2) out.push({ name: parts[i], body: parts[i + 1].trim() });
  if (out.length === 0) throw new Error(`${file}: no "-- name:" query in it`);
  return out;
}

/** Turns `:name` parameters into `$n`, skipping quoted text, comments and `::` casts. */
export function compile<P extends object>(name: string, body: string): NamedQuery<P> {
  const params: string[] = [];
  let text = '';
  for (let i = 0; i < body.length;) {
    const c = body[i];
    const next = body[i + 1];
    if (c === '-' && next === '-') {
      const end = body.indexOf('\n', i);
      const stop = end === -1 ? body.length : end;
      text += body.slice(i, stop);
      i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < body.length && !(body[j] === c && body[j + 1] !== c)) j += body[j] === c ? 2 : 1;
      text += body.slice(i, j + 1);
      i = j + 1;
    } else if (c === ':' && next === ':') {
      text += '::';
      i += 2;
    } else if (c === ':' && /[A-Za-z_]/.test(next ?? '')) {
      const m = /^[A-Za-z_]\w*/.exec(body.slice(i + 1))!;
      let n = params.indexOf(m[0]);
      if (n === -1) n = params.push(m[0]) - 1;
      text += `$${n + 1}`;
      i += 1 + m[0].length;
    } else {
      text += c;
      i++;
    }
  }
  const statementName = `sabot-${name.replace(/[A-Z]/g, (u) => `-${u.toLowerCase()}`)}`;
  const sql = text.replace(/;\s*$/, '');
  return {
    name: statementName,
    text: sql,
    params,
    bind(values: P): SqlStatement {
      const v = values as Record<string, unknown>;
      return {
        name: statementName,
        text: sql,
        values: params.map((p) => {
          if (!(p in v)) throw new Error(`${name}: no value for :${p}`);
          return v[p];
        }),
      };
    },
  };
}

#!/usr/bin/env node
// What each screen costs a browser opening it cold: the entry chunk, the screen's own chunk and every
// chunk either imports (statically), script and CSS, raw and gzipped, from the app's build manifest
// (app/dist/.vite/manifest.json: run `npm run build:app` first). `--json` prints one JSON object.
// Used by `npm run bundle:sizes` and test/e2e/screens/bundle.spec.ts.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(process.argv.find((a) => a.startsWith('--dist='))?.slice(7) ?? 'app/dist');
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const entry = Object.entries(manifest).find(([, c]) => c.isEntry);
if (!entry) throw new Error('No entry chunk in the manifest');

/** The chunk and everything it imports statically, each once. */
function closure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const k of manifest[key].imports ?? []) closure(k, seen);
  return seen;
}
function measure(keys) {
  const out = { script: 0, scriptGzip: 0, css: 0 };
  const css = new Set();
  for (const k of keys) {
    const c = manifest[k];
    const bytes = fs.readFileSync(path.join(dist, c.file));
    out.script += bytes.length;
    out.scriptGzip += zlib.gzipSync(bytes, { level: 9 }).length;
    for (const f of c.css ?? []) css.add(f);
  }
  for (const f of css) out.css += fs.statSync(path.join(dist, f)).size;
  return out;
}

const base = closure(entry[0]);
const screens = {};
for (const key of entry[1].dynamicImports ?? []) {
  const name = path.basename(manifest[key].src ?? key).replace(/\.tsx?$/, '');
  screens[name] = measure(new Set([...base, ...closure(key)]));
}
const result = { entry: measure(base), screens };
if (process.argv.includes('--json')) console.log(JSON.stringify(result));
else {
  const kb = (n) => (n / 1024).toFixed(1).padStart(7);
  console.log('screen         script kB   gzip kB    CSS kB   (entry included)');
  for (const [name, m] of Object.entries(screens)) console.log(`${name.padEnd(14)} ${kb(m.script)}   ${kb(m.scriptGzip)}   ${kb(m.css)}`);
  console.log(`${'(entry alone)'.padEnd(14)} ${kb(result.entry.script)}   ${kb(result.entry.scriptGzip)}   ${kb(result.entry.css)}`);
}

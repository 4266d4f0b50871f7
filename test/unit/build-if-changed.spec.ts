import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `npm start` builds only when something the build reads has changed (scripts/build-if-changed.mjs):
 * in a folder of its own with a stand-in build that counts its runs, so that the project's own dist
 * is never touched.
 */
const script = path.join(__dirname, '..', '..', 'scripts', 'build-if-changed.mjs');
let root: string;
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
};
const builds = () => (fs.existsSync(path.join(root, 'builds')) ? fs.readFileSync(path.join(root, 'builds'), 'utf8').length : 0);
const start = () => execFileSync(process.execPath, [script], { env: { ...process.env, SABOT_ROOT: root }, encoding: 'utf8' });

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'sabot-build-'));
  // The stand-in build: what npm run build does, in miniature (outputs, then the stamp).
  write(
    'package.json',
    JSON.stringify({
      scripts: {
        build: `echo -n x >> builds && mkdir -p dist/src app/dist && touch dist/src/main.js app/dist/index.html && node ${JSON.stringify(script)} --stamp`,
      },
    }),
  );
  write('src/main.ts', 'export const a = 1;');
  write('app/src/main.tsx', 'export {};');
  write('openapi.json', '{}');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

it('builds the first time, not again while nothing it reads changes, and again once a source changes', () => {
  start();
  expect(builds()).toBe(1);
  expect(start()).toContain('Build is up to date');
  expect(builds()).toBe(1);
  // File times alone (a fresh checkout) are no change.
  const t = new Date(Date.now() + 60_000);
  fs.utimesSync(path.join(root, 'src', 'main.ts'), t, t);
  start();
  expect(builds()).toBe(1);
  write('src/main.ts', 'export const a = 2;');
  start();
  expect(builds()).toBe(2);
  write('openapi.json', '{"changed":true}');
  start();
  expect(builds()).toBe(3);
});

it('builds again when an output is missing, and never counts generated code as an input', () => {
  start();
  fs.rmSync(path.join(root, 'app', 'dist'), { recursive: true });
  start();
  expect(builds()).toBe(2);
  write('src/generated/client.ts', 'generated');
  write('app/src/generated/api.ts', 'generated');
  expect(start()).toContain('Build is up to date');
  expect(builds()).toBe(2);
});

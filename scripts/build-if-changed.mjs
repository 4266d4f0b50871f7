// The build, and npm start's and the database commands' check that it is current. What the build
// reads is hashed by content (a checkout or a copy changes file times, not contents) BEFORE it
// starts, and that hash is kept in dist/.inputs once it succeeds: a file saved while a build runs is
// built again next time, never taken as built.
//   node scripts/build-if-changed.mjs           (npm start, the CLIs: build unless up to date)
//   node scripts/build-if-changed.mjs --always  (npm run build, npm test: build)
// Where there are no sources (the service image: dist alone), there is nothing to build.
import { createHash } from 'node:crypto';
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = process.env.SABOT_ROOT ?? path.resolve(import.meta.dirname, '..');
const INPUTS = [
  'src',
  'bench',
  'app/src',
  'app/index.html',
  'app/vite.config.mts',
  'app/tsconfig.json',
  'openapi.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'nest-cli.json',
  'package.json',
  'package-lock.json',
  'prisma/schema.prisma',
  // What npm ci last installed (npm writes it): a dependency changed under the same lockfile.
  'node_modules/.package-lock.json',
];
// Made by the build itself from the inputs (the screens' API types, from openapi.json): not an input.
// The Prisma client in src/generated is made by npm ci, before the build, and is one.
const GENERATED = [path.join('app', 'src', 'generated')];
const STAMP = path.join(root, 'dist', '.inputs');
const OUTPUTS = [path.join('dist', 'src', 'server', 'main.js'), path.join('app', 'dist', 'index.html')];
const BUILD = 'npx nest build && npm run --silent build:app';

function files(relative) {
  const full = path.join(root, relative);
  if (!fs.existsSync(full) || GENERATED.includes(relative)) return [];
  if (!fs.statSync(full).isDirectory()) return [relative];
  return fs
    .readdirSync(full)
    .sort()
    .flatMap((entry) => files(path.join(relative, entry)));
}

function inputsHash() {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap(files)) {
    hash
      .update(file)
      .update('\0')
      .update(fs.readFileSync(path.join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

const built = () => OUTPUTS.every((f) => fs.existsSync(path.join(root, f)));
if (!fs.existsSync(path.join(root, 'src')) && built()) {
  console.log('No sources here (an installed build): running dist as it is.');
  process.exit(0);
}
const wanted = inputsHash();
if (!process.argv.includes('--always') && built() && fs.existsSync(STAMP) && fs.readFileSync(STAMP, 'utf8') === wanted) {
  console.log('Build is up to date (nothing it reads has changed): not rebuilding.');
  process.exit(0);
}
execSync(process.env.SABOT_BUILD ?? BUILD, { cwd: root, stdio: 'inherit' });
fs.writeFileSync(STAMP, wanted);

import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * The script a browser loads for each screen (the entry and the screen's own chunks, from the
 * build's manifest: scripts/bundle-sizes.mjs, `npm run bundle:sizes`). The table-side display runs
 * on a small computer behind the big screen: it stays under 100 kB.
 */
interface Sizes {
  entry: { script: number };
  screens: Record<string, { script: number; scriptGzip: number; css: number }>;
}

const sizes = JSON.parse(
  execFileSync(process.execPath, [path.join(__dirname, '../../../scripts/bundle-sizes.mjs'), '--json'], {
    cwd: path.join(__dirname, '../../..'),
    encoding: 'utf8',
  }),
) as Sizes;

describe('the screens’ bundles', () => {
  it('has a chunk for every screen, each loading the entry and its own code only', () => {
    expect(Object.keys(sizes.screens).sort()).toEqual([
      'admin',
      'cage',
      'credit',
      'desk',
      'display',
      'finance',
      'key',
      'patrons',
      'pit',
      'scoreboard',
      'surveillance',
      'vip',
      'yield',
    ]);
    for (const [name, s] of Object.entries(sizes.screens)) expect([name, s.script > sizes.entry.script]).toEqual([name, true]);
  });

  it('keeps the table-side display under 100 kB of script', () => {
    expect(sizes.screens.display.script).toBeLessThan(100 * 1024);
  });
});

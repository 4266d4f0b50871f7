import fs from 'node:fs';
import path from 'node:path';

/**
 * A path of this checkout (prisma/migrations, app/dist), found from src/ (tests) or dist/src/
 * (built) alike by walking up from `from`; relative to the working directory when none is found.
 */
export function inCheckout(from: string, relative: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, relative);
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return path.resolve(relative);
  }
}

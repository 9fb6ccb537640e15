import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'psd2-pis-sandbox';

let cached: string | undefined;

/**
 * The server's own version, `version` of its package.json (CHANGELOG.md says what each asks of an
 * operator). Found by walking up from this module: dist/src/config/ when run as compiled, dist/server/
 * in the bundle (whose module address is the bundle's), both under the package's root in a checkout
 * and in the packed artifact. Read once, at the first call.
 */
export function serverVersion(): string {
  if (cached !== undefined) return cached;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) {
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === PACKAGE_NAME && typeof manifest.version === 'string') return (cached = manifest.version);
    }
    if (dirname(dir) === dir) throw new Error(`no package.json of ${PACKAGE_NAME} above ${import.meta.url}`);
  }
}

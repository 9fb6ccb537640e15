// @ts-check
/**
 * `prepack` and `postpack`: the packed artifact carries the lock file, so that `npm ci --omit=dev` in
 * it installs exactly the runtime dependencies the tests ran with. npm never packs package-lock.json,
 * but packs npm-shrinkwrap.json (package.json "files"), which is the same lock under the name a
 * package may carry: copied before packing, removed after, so a checkout keeps package-lock.json alone.
 */
import { copyFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const shrinkwrap = join(root, 'npm-shrinkwrap.json');
if (process.argv[2] === 'before') copyFileSync(join(root, 'package-lock.json'), shrinkwrap);
else rmSync(shrinkwrap, { force: true });

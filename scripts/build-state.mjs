// @ts-check
/**
 * Whether a checkout's build is current: `npm start` builds first when it is not (scripts/start.mjs),
 * and `prepare` builds only when it is not (scripts/prepare.mjs), so that `npm ci && npm pack` builds
 * once. Plain JavaScript: it runs before anything is built.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * What the bundle and its entry (scripts/server-loader.ts) are made from. package.json and
 * package-lock.json are left out: a dependency changes with `npm install`, which builds anyway, and
 * npm may touch them without changing anything.
 */
const SOURCES = ['src', 'scripts/bundle.ts', 'scripts/server-loader.ts', 'tsconfig.json'];

/** What the build makes that the first start and the toolkit run: the older of the two is the build's time. */
const BUNDLES = ['dist/server/main.mjs', 'dist/tpp/tpp.mjs'];

/**
 * The first source file newer than the build (or a bundle of it that is missing), else undefined.
 * @param {string} root the checkout's folder
 * @param {readonly string[]} [more] sources beyond the code, e.g. the lock file: an install changes the libraries the bundles hold
 * @returns {string | undefined}
 */
export function changedSource(root, more = []) {
  let builtAt = Infinity;
  for (const bundle of BUNDLES) {
    try {
      builtAt = Math.min(builtAt, statSync(join(root, bundle)).mtimeMs);
    } catch {
      return bundle;
    }
  }
  /** @param {string} path @returns {string | undefined} */
  const newer = (path) => {
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.mtimeMs > builtAt ? relative(root, path) : undefined;
    for (const entry of readdirSync(path)) {
      const found = newer(join(path, entry));
      if (found !== undefined) return found;
    }
    return undefined;
  };
  for (const source of [...SOURCES, ...more]) {
    const found = newer(join(root, source));
    if (found !== undefined) return found;
  }
  return undefined;
}

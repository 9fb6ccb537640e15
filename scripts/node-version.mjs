// @ts-check
/**
 * The oldest Node the project runs on is package.json's engines.node (the tests run on Node 24).
 * `prepare` (run by `npm install`) and `npm start` stop on an older one and say how to get a newer
 * one, rather than fail later on what it lacks (the module compile cache, `node --run`). Plain
 * JavaScript: it runs before anything is built, on whatever Node the shell has.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Exits with code 1 and a word on stderr when this Node is older than package.json's engines.node (`>=X.Y`).
 * @param {string} root the folder of package.json
 * @param {string} who the script that asks, named at the start of its message
 */
export function requireEngineNode(root, who) {
  const range = String(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines?.node);
  const [major = 0, minor = 0] = range
    .replace(/^>=\s*/, '')
    .split('.')
    .map(Number);
  const [have = 0, haveMinor = 0] = process.versions.node.split('.').map(Number);
  if (have > major || (have === major && haveMinor >= minor)) return;
  process.stderr.write(
    `${who}: this needs Node ${major}.${minor} or later (package.json engines.node '${range}'); this is Node ${process.versions.node} (${process.execPath}).\n` +
      '  In a checkout, `. .ci/node.sh` puts Node 24 from the npm registry first on this shell\'s PATH; then `npm ci`, which builds better-sqlite3 for it (README, "The two commands").\n',
  );
  process.exit(1);
}

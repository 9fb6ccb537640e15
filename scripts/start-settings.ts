import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

/**
 * The settings `npm start` gives the server's process (Node's flags and glibc's malloc tunables),
 * from scripts/start.env, where they are set and explained, read with Node's reader of .env files.
 * The bench and the tests start the bundle with them too, so that it runs as `npm start` runs it;
 * the bench may be given another such file (BENCH_START_ENV, bench/bench-server.ts).
 */
export function serverProcessSettings(
  // From dist/scripts/ (compiled) to scripts/start.env.
  file: string | URL = new URL('../../scripts/start.env', import.meta.url),
): { nodeFlags: string[]; env: { GLIBC_TUNABLES: string } } {
  const settings = parseEnv(readFileSync(file, 'utf8'));
  const setting = (name: string): string => {
    const value = settings[name];
    if (value === undefined) throw new Error(`scripts/start.env sets no ${name}`);
    return value;
  };
  // As scripts/start.sh does: a caller's own tunables first.
  const tunables = [process.env.GLIBC_TUNABLES, setting('SERVER_GLIBC_TUNABLES')]
    .filter((t) => t !== undefined && t !== '')
    .join(':');
  return {
    nodeFlags: setting('SERVER_NODE_FLAGS')
      .split(' ')
      .filter((f) => f !== ''),
    env: { GLIBC_TUNABLES: tunables },
  };
}

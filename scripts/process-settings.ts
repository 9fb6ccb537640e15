import { readFileSync } from 'node:fs';

/**
 * The settings `npm start` gives the server's process (Node's flags and glibc's malloc tunables),
 * read from scripts/start.sh, where they are set and explained. Whatever else starts the bundle
 * starts it with them too: the build's training start (V8 takes a code cache only in a process
 * with the flags it was made with), the bench, and the tests.
 */
export function serverProcessSettings(): { nodeFlags: string[]; env: { GLIBC_TUNABLES: string } } {
  // From dist/scripts/ (compiled) to scripts/start.sh.
  const script = readFileSync(new URL('../../scripts/start.sh', import.meta.url), 'utf8');
  const setting = (name: string): string => {
    const value = new RegExp(`^${name}='([^']*)'$`, 'm').exec(script)?.[1];
    if (value === undefined) throw new Error(`scripts/start.sh sets no ${name}`);
    return value;
  };
  // As the script does: a caller's own tunables first.
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

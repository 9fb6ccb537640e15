import { randomBytes } from 'node:crypto';
import { link, mkdir, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Writes a new key, by default 32 random bytes as hex, readable by its owner only, to `path` unless a
 * file is there already; whether this call made it. Put in place with link(), which fails when the file
 * exists, so two processes starting at once end with one key, never a half-written one.
 */
export async function writeKeyFileOnce(
  path: string,
  content: () => string = () => `${randomBytes(32).toString('hex')}\n`,
): Promise<boolean> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, content(), { mode: 0o600 });
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return false;
  } finally {
    await unlink(temporary);
  }
}

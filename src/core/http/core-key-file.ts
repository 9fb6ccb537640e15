import { randomBytes } from 'node:crypto';
import { link, mkdir, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type CoreKey, readCoreKey } from './core-signature.js';

/**
 * The shared key at `path`, made there first when the file does not exist (the reference core's first
 * start without CORE_KEY_FILE): 32 random bytes as hex, readable by its owner only. Put in place with
 * link(), which fails when the file exists, so two processes starting at once end with one key.
 */
export async function ensureCoreKeyFile(path: string): Promise<{ key: CoreKey; made: boolean }> {
  const existing = await readCoreKey(path).catch(() => undefined);
  if (existing !== undefined) return { key: existing, made: false };
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  let made = true;
  try {
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    made = false;
  } finally {
    await unlink(temporary);
  }
  return { key: await readCoreKey(path), made };
}

import { writeKeyFileOnce } from '../../security/key-file.js';
import { type CoreKey, readCoreKey } from './core-signature.js';

/**
 * The shared key at `path`, made there first when the file does not exist (the reference core's first
 * start without CORE_KEY_FILE).
 */
export async function ensureCoreKeyFile(path: string): Promise<{ key: CoreKey; made: boolean }> {
  const existing = await readCoreKey(path).catch(() => undefined);
  if (existing !== undefined) return { key: existing, made: false };
  const made = await writeKeyFileOnce(path);
  return { key: await readCoreKey(path), made };
}

import { writeKeyFileOnce } from './key-file.js';
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NATIONAL_ID_KEY_MIN_BYTES } from '../domain/limits.js';
import type { NationalIdKey } from '../domain/psu.js';

export const NATIONAL_ID_KEY_FILE = 'psu-identity.key';

export class NationalIdKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NationalIdKeyError';
  }
}

/**
 * The installation's key for hashing national identity numbers (docs/decisions/0124): the file
 * PSU_IDENTITY_KEY_FILE names, or else `psu-identity.key` in the data folder,
 * made on the first start like the sandbox CA's key. The file holds the key as hex (64 hex digits or
 * more). It is not in the database, so a copy of the database alone cannot reverse the hashes.
 *
 * Two processes may start on one empty folder at once: the key is put in place with link(), which
 * fails when the file exists, and the loser reads the winner's key.
 */
export async function ensureNationalIdKey(dataDir: string, configuredFile: string | undefined): Promise<NationalIdKey> {
  if (configuredFile !== undefined) {
    const key = await readKey(configuredFile);
    if (key === undefined) throw new NationalIdKeyError(`PSU_IDENTITY_KEY_FILE ${configuredFile} cannot be read`);
    return key;
  }
  const path = join(dataDir, NATIONAL_ID_KEY_FILE);
  const existing = await readKey(path);
  if (existing !== undefined) return existing;
  await writeKeyFileOnce(path);
  const key = await readKey(path);
  if (key === undefined) throw new NationalIdKeyError(`${path} could not be read back after it was written`);
  return key;
}

/**
 * What the database keeps to recognise the key without holding it: an HMAC of a fixed label. Two
 * instances on one database with different keys would each fail to recognise the other's PSUs;
 * the second one refuses to start instead.
 */
export function nationalIdKeyFingerprint(key: NationalIdKey): string {
  return createHmac('sha256', key.bytes).update('fingerprint of the national identity number key').digest('hex');
}

async function readKey(path: string): Promise<NationalIdKey | undefined> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new NationalIdKeyError(`${path} cannot be read: ${error.message}`);
  });
  if (text === undefined) return undefined;
  const hex = text.trim();
  if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length % 2 !== 0 || hex.length < NATIONAL_ID_KEY_MIN_BYTES * 2) {
    throw new NationalIdKeyError(
      `${path} must hold the key as hex, at least ${NATIONAL_ID_KEY_MIN_BYTES * 2} hex digits (${NATIONAL_ID_KEY_MIN_BYTES} bytes); it holds ${hex.length} characters that are not that`,
    );
  }
  return { bytes: Buffer.from(hex, 'hex') };
}

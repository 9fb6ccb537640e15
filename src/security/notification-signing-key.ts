import { type KeyObject, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeKeyFileOnce } from './key-file.js';

export const NOTIFICATION_SIGNING_KEY_FILE = 'notification-signing-key.pem';

export class NotificationSigningKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotificationSigningKeyError';
  }
}

/** The bank's key that signs notifications, and its public half as the JWKS publishes it. */
export interface NotificationSigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** ES256 for a P-256 key, PS256 for RSA. */
  alg: 'ES256' | 'PS256';
}

/**
 * The key the bank signs notifications with (docs/notifications.md, "Checking a notification"): the
 * PEM file NOTIFICATION_SIGNING_KEY_FILE names (PKCS#8, an EC P-256 or an RSA key of 2048 bits or
 * more), else `notification-signing-key.pem` in the data folder, a P-256 key made on the first start
 * as the other keys of the data folder are. Instances behind one address name one file: a TPP checks
 * every notification against the one JWKS.
 */
export async function ensureNotificationSigningKey(
  dataDir: string,
  configuredFile: string | undefined,
): Promise<NotificationSigningKey> {
  if (configuredFile !== undefined) {
    const key = await readKey(configuredFile);
    if (key === undefined)
      throw new NotificationSigningKeyError(`NOTIFICATION_SIGNING_KEY_FILE ${configuredFile} cannot be read`);
    return key;
  }
  const path = join(dataDir, NOTIFICATION_SIGNING_KEY_FILE);
  const existing = await readKey(path);
  if (existing !== undefined) return existing;
  await writeKeyFileOnce(path, () =>
    generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  );
  const key = await readKey(path);
  if (key === undefined) throw new NotificationSigningKeyError(`${path} could not be read back after it was written`);
  return key;
}

async function readKey(path: string): Promise<NotificationSigningKey | undefined> {
  const pem = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new NotificationSigningKeyError(`${path} cannot be read: ${error.message}`);
  });
  if (pem === undefined) return undefined;
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(pem);
  } catch (error) {
    throw new NotificationSigningKeyError(`${path} holds no private key in PEM: ${(error as Error).message}`);
  }
  const details = privateKey.asymmetricKeyDetails;
  if (privateKey.asymmetricKeyType === 'ec' && details?.namedCurve === 'prime256v1')
    return { privateKey, publicKey: createPublicKey(privateKey), alg: 'ES256' };
  if (privateKey.asymmetricKeyType === 'rsa' && (details?.modulusLength ?? 0) >= 2048)
    return { privateKey, publicKey: createPublicKey(privateKey), alg: 'PS256' };
  throw new NotificationSigningKeyError(
    `${path} must hold an EC P-256 key or an RSA key of 2048 bits or more; it holds ${privateKey.asymmetricKeyType} ${details?.namedCurve ?? details?.modulusLength ?? ''}`.trim(),
  );
}

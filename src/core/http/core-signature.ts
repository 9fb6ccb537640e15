import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { CORE_KEY_MIN_BYTES, CORE_SIGNATURE_MAX_SKEW_SECONDS } from '../../domain/limits.js';

/**
 * The shared-key signature of the calls between the server and a bank's core, both ways: the
 * server's calls to the core, and the core's status reports to the server's callback (docs/core.md,
 * "The signature"). A shared key rather than mutual TLS, because a bank's integration layer can make
 * an HMAC in any language, while client certificates need the platform's TLS termination to pass
 * them on; TLS still protects the connection.
 *
 *     Core-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(key, "<t>.<METHOD>.<path with query>.<raw body>")>
 *
 * The signed text binds the time, the method, the target and the exact bytes of the body, so a
 * captured request cannot be sent to another path, with another body, or after the skew window.
 */
export const CORE_SIGNATURE_HEADER = 'core-signature';

/** The shared key's bytes; never logged, never sent. */
export interface CoreKey {
  readonly bytes: Uint8Array;
}

export class CoreKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CoreKeyError';
  }
}

/** The header value that signs a request made at `now`. */
export function signCoreRequest(
  key: CoreKey,
  method: string,
  pathWithQuery: string,
  body: string | Uint8Array | undefined,
  now: Date,
): string {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},v1=${mac(key, t, method, pathWithQuery, body).toString('hex')}`;
}

/** Why a request's Core-Signature does not hold, or undefined when it does. */
export function verifyCoreSignature(
  key: CoreKey,
  header: string | undefined,
  method: string,
  pathWithQuery: string,
  body: string | Uint8Array | undefined,
  now: Date,
): string | undefined {
  if (header === undefined || header === '') return 'the Core-Signature header is missing';
  const parts = new Map<string, string>();
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at > 0) parts.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  const tText = parts.get('t');
  const v1 = parts.get('v1');
  if (tText === undefined || !/^\d{1,12}$/.test(tText)) return 'the Core-Signature has no t=<unix seconds>';
  if (v1 === undefined || !/^[0-9a-f]{64}$/i.test(v1)) return 'the Core-Signature has no v1=<64 hex digits>';
  const t = Number(tText);
  const skew = Math.abs(Math.floor(now.getTime() / 1000) - t);
  if (skew > CORE_SIGNATURE_MAX_SKEW_SECONDS)
    return `the Core-Signature was made ${skew} s from this clock; at most ${CORE_SIGNATURE_MAX_SKEW_SECONDS} s are accepted`;
  const expected = mac(key, t, method, pathWithQuery, body);
  // Constant time: a comparison that stops at the first wrong byte tells an attacker how many are right.
  if (!timingSafeEqual(expected, Buffer.from(v1, 'hex')))
    return 'the Core-Signature does not match the request (another key, method, path or body)';
  return undefined;
}

/**
 * The shared key from its file: the key as hex, at least CORE_KEY_MIN_BYTES bytes, as
 * `openssl rand -hex 32` writes it. The same file is given to the server and to the core.
 */
export async function readCoreKey(file: string): Promise<CoreKey> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new CoreKeyError(`the core key file ${file} cannot be read: ${error.code ?? error.message}`);
  });
  return parseCoreKey(text, file);
}

/** The key from the text of its file; `source` names the file in the error. */
export function parseCoreKey(text: string, source: string): CoreKey {
  const hex = text.trim();
  if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length % 2 !== 0 || hex.length < CORE_KEY_MIN_BYTES * 2) {
    throw new CoreKeyError(
      `${source} must hold the core key as hex, at least ${CORE_KEY_MIN_BYTES * 2} hex digits (${CORE_KEY_MIN_BYTES} bytes; openssl rand -hex 32)`,
    );
  }
  return { bytes: Buffer.from(hex, 'hex') };
}

function mac(
  key: CoreKey,
  t: number,
  method: string,
  pathWithQuery: string,
  body: string | Uint8Array | undefined,
): Buffer {
  const hmac = createHmac('sha256', key.bytes).update(`${t}.${method.toUpperCase()}.${pathWithQuery}.`);
  if (body !== undefined) hmac.update(body);
  return hmac.digest();
}

import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 3230 instance digests the Berlin Group profile allows (RFC 5843 names). */
const ALGORITHMS = { 'SHA-256': 'sha256', 'SHA-512': 'sha512' } as const;
type DigestAlgorithm = keyof typeof ALGORITHMS;

/** The bytes of each algorithm's hash: what the base64 of a Digest value decodes to. */
export const DIGEST_BYTES: Readonly<Record<DigestAlgorithm, number>> = { 'SHA-256': 32, 'SHA-512': 64 };

/** The hash of `bytes` (text as UTF-8) by a Digest header's algorithm. */
export function digestOf(bytes: Uint8Array | string, algorithm: DigestAlgorithm): Buffer {
  return createHash(ALGORITHMS[algorithm]).update(bytes).digest();
}

export interface DigestValue {
  algorithm: DigestAlgorithm;
  expected: Buffer;
}

export class DigestFormatError extends Error {}

/**
 * Parses `SHA-256=<base64>` (several comma-separated digests are allowed by RFC 3230). Digests in
 * algorithms we do not support are ignored when a supported one is present, and an error otherwise.
 */
export function parseDigestHeader(header: string): DigestValue[] {
  const values: DigestValue[] = [];
  const unsupported: string[] = [];
  for (const part of header.split(',')) {
    const equals = part.indexOf('=');
    if (equals <= 0)
      throw new DigestFormatError(`'${part.trim()}' is not of the form SHA-256=<base64 hash of the body>`);
    const name = part.slice(0, equals).trim().toUpperCase();
    const encoded = part.slice(equals + 1).trim();
    if (!(name in ALGORITHMS)) {
      unsupported.push(name);
      continue;
    }
    const algorithm = name as DigestAlgorithm;
    const expected = Buffer.from(encoded, 'base64');
    const size = DIGEST_BYTES[algorithm];
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || expected.length !== size) {
      throw new DigestFormatError(`the ${algorithm} value is not the base64 of a ${size}-byte hash`);
    }
    values.push({ algorithm, expected });
  }
  if (values.length === 0) {
    throw new DigestFormatError(`algorithm ${unsupported.join(', ')} is not supported; use SHA-256 or SHA-512`);
  }
  return values;
}

/** The algorithm whose digest does not match the body, or undefined when all match. */
export function findDigestMismatch(
  values: readonly DigestValue[],
  body: Uint8Array,
  bodySha256?: Buffer,
): DigestAlgorithm | undefined {
  for (const { algorithm, expected } of values) {
    const actual = algorithm === 'SHA-256' && bodySha256 !== undefined ? bodySha256 : digestOf(body, algorithm);
    if (!timingSafeEqual(actual, expected)) return algorithm;
  }
  return undefined;
}

/** `SHA-256=<base64>` of a body, as a client would send it. */
export function digestHeaderOf(body: Uint8Array, algorithm: DigestAlgorithm = 'SHA-256'): string {
  return `${algorithm}=${digestOf(body, algorithm).toString('base64')}`;
}

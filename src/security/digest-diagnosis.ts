import { DIGEST_BYTES, type DigestValue, digestOf } from './digest.js';
import { shownValue } from './explained-value.js';
import type { SignatureExplanation, SignatureMistake } from './signature-mistakes.js';

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * What is wrong with a Digest header the bank cannot use: its algorithm's name, or its value's
 * encoding. Of several digests (RFC 3230 allows a list) the first that is wrong is told.
 */
export function diagnoseDigestFormat(header: string, body: Uint8Array): SignatureMistake {
  const sha256 = digestOf(body, 'SHA-256');
  for (const part of header.split(',')) {
    const mistake = diagnoseDigest(part.trim(), sha256);
    if (mistake !== undefined) return mistake;
  }
  return digestMistake('DIGEST_ALGORITHM', `Digest is not of the form ${FORM}`);
}

const FORM = 'SHA-256=<base64 of the SHA-256 of the body> (or SHA-512=)';

function diagnoseDigest(part: string, sha256: Buffer): SignatureMistake | undefined {
  if (BASE64.test(part) && Object.values(DIGEST_BYTES).includes(Buffer.from(part, 'base64').length)) {
    return digestMistake('DIGEST_ALGORITHM', `Digest has no algorithm name: write SHA-256=${shownValue(part)}`);
  }
  const equals = part.indexOf('=');
  if (equals <= 0) return digestMistake('DIGEST_ALGORITHM', `Digest '${shownValue(part)}' is not of the form ${FORM}`);
  const name = part.slice(0, equals).trim();
  const value = part.slice(equals + 1).trim();
  const compactName = name.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (compactName !== 'SHA256' && compactName !== 'SHA512') {
    return digestMistake('DIGEST_ALGORITHM', `Digest algorithm '${shownValue(name)}' is not taken: send ${FORM}`);
  }
  const proper = compactName === 'SHA256' ? 'SHA-256' : 'SHA-512';
  if (name.toUpperCase() !== proper) {
    return digestMistake(
      'DIGEST_ALGORITHM',
      `Digest names its algorithm '${shownValue(name)}': write ${proper}= (RFC 5843's name, with the hyphen)`,
    );
  }
  const size = DIGEST_BYTES[proper];
  if (BASE64.test(value) && Buffer.from(value, 'base64').length === size) return undefined;
  const hex = new RegExp(`^[0-9a-fA-F]{${size * 2}}$`);
  const inner = BASE64.test(value) ? Buffer.from(value, 'base64').toString('latin1') : '';
  if (hex.test(value) || hex.test(inner)) {
    const ofBody =
      proper === 'SHA-256' && [value, inner].some((text) => text.toLowerCase() === sha256.toString('hex'))
        ? ` (it is the body's SHA-256): send SHA-256=${sha256.toString('base64')}`
        : ": send base64 of the hash's bytes";
    return digestMistake(
      'DIGEST_ENCODING',
      `the Digest value is ${hex.test(value) ? 'hex' : 'base64 of hex text'}${ofBody}`,
    );
  }
  return digestMistake('DIGEST_ENCODING', `the Digest value is not the base64 of a ${size}-byte hash`);
}

/**
 * The Digest sent beside the one computed over the body received, and, when they differ, a guess at
 * which body the sent one is of.
 */
export function compareDigest(
  values: readonly DigestValue[],
  body: Uint8Array,
): { facts: NonNullable<SignatureExplanation['digest']>; mistake?: SignatureMistake } {
  const wrong = values.find(({ algorithm, expected }) => !digestOf(body, algorithm).equals(expected));
  const shown = wrong ?? values[0]!;
  const facts = {
    algorithm: shown.algorithm,
    received: shown.expected.toString('base64'),
    computed: digestOf(body, shown.algorithm).toString('base64'),
  };
  if (wrong === undefined) return { facts };
  const isOf = (bytes: Uint8Array | string) => digestOf(bytes, wrong.algorithm).equals(wrong.expected);
  let guess = 'compute it over the exact bytes sent, after the last change to the body';
  if (isOf(new Uint8Array())) guess = 'it is the digest of an empty body: compute it over the body you send';
  else if (reserialised(body).some(isOf))
    guess =
      'it is the digest of the same JSON serialised otherwise: hash the exact bytes you send, not the object serialised again';
  return {
    facts,
    mistake: digestMistake(
      'DIGEST_OF_OTHER_BODY',
      `Digest ${wrong.algorithm}=${facts.received} is not the hash of the body received (${facts.computed}): ${guess}`,
    ),
  };
}

/** The body's JSON written compactly and indented, as a client that hashed its object, not its bytes, did. */
function reserialised(body: Uint8Array): string[] {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(body).toString('utf8'));
    return [JSON.stringify(parsed), JSON.stringify(parsed, null, 2)];
  } catch {
    return [];
  }
}

function digestMistake(name: SignatureMistake['name'], text: string): SignatureMistake {
  return { name, header: 'Digest', text };
}

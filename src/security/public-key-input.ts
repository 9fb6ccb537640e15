import { createPublicKey } from 'node:crypto';
import { ApiError } from '../domain/api-error.js';
import { CERTIFICATE_RSA_MIN_BITS } from '../domain/limits.js';
import { keySha256Of } from './tpp-certificate.js';

/** A TPP's public key as the sandbox takes it, and the fingerprint its banks bind. */
export interface PublicKeyInput {
  /** SubjectPublicKeyInfo, PEM. */
  pem: string;
  /** what the key is known by, as a certificate's key is (keySha256Of). */
  keySha256: string;
}

/**
 * A TPP's public key sent in a body (to certify it, or to bind it to a sandbox bank), as SPKI PEM:
 * only an RSA key the bank accepts for signing; 400 FORMAT_ERROR naming `path` for anything else.
 */
export function readPublicKeyInput(text: string, path: string): PublicKeyInput {
  const refuse = (why: string) => {
    const message = `${path} ${why}`;
    return new ApiError('FORMAT_ERROR', message, [{ code: 'FORMAT_ERROR', path, text: message }]);
  };
  let key;
  try {
    key = createPublicKey({ key: text, format: 'pem' });
  } catch {
    throw refuse('is not a public key in PEM (-----BEGIN PUBLIC KEY-----, SubjectPublicKeyInfo)');
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== 'rsa' || bits < CERTIFICATE_RSA_MIN_BITS)
    throw refuse(
      `is a ${key.asymmetricKeyType ?? 'unknown'} key${bits > 0 ? ` of ${bits} bits` : ''}; the sandbox takes RSA keys of at least ${CERTIFICATE_RSA_MIN_BITS} bits, as the bank accepts for signing`,
    );
  return {
    pem: key.export({ type: 'spki', format: 'pem' }).toString(),
    keySha256: keySha256Of(key),
  };
}

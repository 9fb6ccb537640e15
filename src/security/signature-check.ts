import { verify } from 'node:crypto';
import { formatDistinguishedName, sameDistinguishedName } from './distinguished-name.js';
import { headerError } from './header-error.js';
import type { SignatureParameters } from './signature-header.js';
import { SIGNED_WHEN_PRESENT, type SignedRequest, buildSigningString } from './signed-request.js';
import type { ParsedCertificate } from './tpp-certificate.js';

/** The algorithms the bank verifies (docs/decisions/0008), with their hash and key type. */
export const SIGNATURE_ALGORITHMS: Readonly<Record<string, { hash: string; keyType: string }>> = {
  'rsa-sha256': { hash: 'sha256', keyType: 'rsa' },
  'rsa-sha512': { hash: 'sha512', keyType: 'rsa' },
};

/**
 * Checks the request's Signature (draft-cavage, Berlin Group profile) against the certificate it
 * came with: the keyId names that certificate, the algorithm fits its key, every header that must be
 * signed is, the Date is near the server clock, and the signature verifies. Throws the first failure.
 */
export function checkSignature(
  request: SignedRequest,
  params: SignatureParameters,
  certificate: ParsedCertificate,
  dateMillis: number | undefined,
  now: number,
  dateSkewSeconds: number,
): void {
  checkKeyId(params, certificate);
  const algorithm = algorithmOf(params, certificate);
  checkSignedHeaders(request, params);
  checkDate(dateMillis, now, dateSkewSeconds);
  const signingString = buildSigningString(request, params.headers);
  let valid = false;
  try {
    valid = verify(algorithm.hash, Buffer.from(signingString, 'utf8'), certificate.publicKey, params.signature);
  } catch {
    valid = false;
  }
  if (!valid) {
    throw headerError(
      'SIGNATURE_INVALID',
      'Signature',
      `does not verify with the key of TPP-Signature-Certificate over the signed headers '${params.headers.join(' ')}' (was it made with another key, or was a signed header changed?)`,
    );
  }
}

function checkKeyId({ keyId }: SignatureParameters, certificate: ParsedCertificate): void {
  if (keyId.serial !== certificate.serial) {
    throw headerError(
      'SIGNATURE_INVALID',
      'Signature',
      `keyId names serial ${keyId.serial.toString(16).toUpperCase()}, but TPP-Signature-Certificate has serial ${certificate.serial.toString(16).toUpperCase()}`,
    );
  }
  if (!sameDistinguishedName(keyId.issuer, certificate.issuer)) {
    throw headerError(
      'SIGNATURE_INVALID',
      'Signature',
      `keyId names CA '${formatDistinguishedName(keyId.issuer)}', but TPP-Signature-Certificate is issued by '${formatDistinguishedName(certificate.issuer)}'`,
    );
  }
}

function algorithmOf(params: SignatureParameters, certificate: ParsedCertificate): { hash: string; keyType: string } {
  const algorithm = SIGNATURE_ALGORITHMS[params.algorithm];
  if (algorithm === undefined) {
    throw headerError('FORMAT_ERROR', 'Signature', `algorithm '${params.algorithm}' is not supported; use rsa-sha256`);
  }
  const keyType = certificate.publicKey.asymmetricKeyType;
  if (keyType !== algorithm.keyType) {
    throw headerError(
      'SIGNATURE_INVALID',
      'Signature',
      `algorithm '${params.algorithm}' does not fit the certificate's ${keyType?.toUpperCase() ?? 'unknown'} key`,
    );
  }
  return algorithm;
}

function checkSignedHeaders(request: SignedRequest, params: SignatureParameters): void {
  const unsigned = SIGNED_WHEN_PRESENT.filter(
    (name) => request.headers[name] !== undefined && !params.headers.includes(name),
  );
  if (unsigned.length > 0) {
    throw headerError(
      'SIGNATURE_INVALID',
      'Signature',
      `leaves out ${unsigned.join(', ')}, which the request carries (headers="${params.headers.join(' ')}"); every one of ${SIGNED_WHEN_PRESENT.join(', ')} that is present must be signed`,
    );
  }
}

/**
 * spec, Authentication 4: date is signed "where available". Without it the signature has no
 * freshness of its own; replay is refused by the X-Request-ID binding (request-binding.ts).
 */
function checkDate(dateMillis: number | undefined, now: number, dateSkewSeconds: number): void {
  const skewSeconds = dateMillis === undefined ? 0 : Math.round(Math.abs(now - dateMillis) / 1000);
  if (skewSeconds > dateSkewSeconds) {
    throw headerError(
      'SIGNATURE_INVALID',
      'Date',
      `is ${skewSeconds} s away from the server clock (${new Date(now).toUTCString()}); at most ${dateSkewSeconds} s is allowed. Check the client's clock and sign each request when it is sent`,
    );
  }
}

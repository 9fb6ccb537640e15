import { type KeyObject, X509Certificate, createPrivateKey, randomUUID, sign } from 'node:crypto';
import { readCertificateFields } from '../security/der-certificate.js';
import { digestHeaderOf } from '../security/digest.js';
import { formatDistinguishedName } from '../security/distinguished-name.js';
import { SIGNED_WHEN_PRESENT, buildSigningString } from '../security/signed-request.js';
import { requestTargetOf } from './request-target.js';

/** The TPP's signing certificate and its private key, in PEM. */
export interface SigningCredentials {
  certPem: string;
  keyPem: string;
}

export interface SignOptions {
  method: string;
  /** Absolute URL or path with query; the path and query are what (request-target) covers. */
  url: string;
  credentials: SigningCredentials;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  now?: Date;
  /** Send a Date header (the default). The specification signs date "where available"; it is optional. */
  date?: boolean;
  requestId?: string;
  /** Defaults to SHA-256. */
  digestAlgorithm?: 'SHA-256' | 'SHA-512';
  /** Send Digest even without a body (the digest of the empty body). Defaults to true when there is a body. */
  digest?: boolean;
  /** The certificate header as base64 of the DER (the default) or as base64 of the PEM text. */
  certificateEncoding?: 'der' | 'pem';
  /** Wrap the Signature header as an RFC 2047 encoded word, as some clients do. */
  rfc2047?: boolean;
  /** Signed headers, in order; defaults to every one of the Berlin Group set that the request carries. */
  signedHeaders?: string[];
}

/**
 * Returns the request's headers with Date, X-Request-ID, Digest, TPP-Signature-Certificate and
 * Signature added, signed as the bank's Authentication part says (draft-cavage, rsa-sha256).
 */
export function signRequest(options: SignOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  if (options.date !== false) headers['date'] ??= (options.now ?? new Date()).toUTCString();
  headers['x-request-id'] ??= options.requestId ?? randomUUID();
  const body = typeof options.body === 'string' ? Buffer.from(options.body, 'utf8') : options.body;
  if (options.digest ?? body !== undefined) {
    headers['digest'] ??= digestHeaderOf(body ?? new Uint8Array(), options.digestAlgorithm);
  }

  const signer = signerOf(options.credentials);
  headers['tpp-signature-certificate'] =
    options.certificateEncoding === 'pem'
      ? Buffer.from(options.credentials.certPem, 'utf8').toString('base64')
      : signer.derBase64;

  const signed = options.signedHeaders ?? SIGNED_WHEN_PRESENT.filter((name) => headers[name] !== undefined);
  const signingString = buildSigningString(
    { method: options.method, target: requestTargetOf(options.url), headers, body: undefined },
    signed,
  );
  const signature = sign('sha256', Buffer.from(signingString, 'utf8'), signer.key).toString('base64');
  const value = `keyId="SN=${signer.serialNumber},CA=${signer.issuer}",algorithm="rsa-sha256",headers="${signed.join(' ')}",signature="${signature}"`;
  headers['signature'] =
    options.rfc2047 === true ? `=?utf-8?B?${Buffer.from(value, 'utf8').toString('base64')}?=` : value;
  return headers;
}

interface PreparedSigner {
  key: KeyObject;
  derBase64: string;
  serialNumber: string;
  issuer: string;
}

/** Parsed credentials by certificate and key: parsing them cost more than signing (the fuzz test signs thousands of requests). */
const signers = new Map<string, PreparedSigner>();
const SIGNERS_KEPT = 32;

function signerOf(credentials: SigningCredentials): PreparedSigner {
  const cacheKey = `${credentials.certPem}\n${credentials.keyPem}`;
  let signer = signers.get(cacheKey);
  if (signer === undefined) {
    const certificate = new X509Certificate(credentials.certPem);
    signer = {
      key: createPrivateKey(credentials.keyPem),
      derBase64: certificate.raw.toString('base64'),
      serialNumber: certificate.serialNumber,
      issuer: formatDistinguishedName(readCertificateFields(certificate.raw).issuer),
    };
    if (signers.size >= SIGNERS_KEPT) signers.delete(signers.keys().next().value!);
    signers.set(cacheKey, signer);
  }
  return signer;
}

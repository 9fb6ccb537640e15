import { hash, verify } from 'node:crypto';
import { ApiError, type Problem } from '../domain/api-error.js';
import { CERTIFICATE_CACHE_ENTRIES, HEADER_VALUE_MAX_LENGTH, X_REQUEST_ID_MAX_LENGTH } from '../domain/limits.js';
import type { PspRole, TppIdentity } from '../domain/psp-role.js';
import { signatureAcceptableUntil } from '../domain/request-binding.js';
import { CertificateFormatError, CertificateRefusedError } from './der-certificate.js';
import { findDigestMismatch, parseDigestHeader, DigestFormatError, type DigestValue } from './digest.js';
import { formatDistinguishedName, sameDistinguishedName } from './distinguished-name.js';
import { parseHttpDate } from './http-date.js';
import { type SignatureParameters, SignatureHeaderError, parseSignatureHeader } from './signature-header.js';
import { type ParsedCertificate, decodeCertificateHeader, parseCertificate } from './tpp-certificate.js';
import type { TrustStore } from './trust-store.js';

export type RequestHeaders = Record<string, string | string[] | undefined>;

/** What the authenticator needs of an HTTP request. */
export interface SignedRequest {
  method: string;
  /** Path and query exactly as received, for the (request-target) pseudo-header. */
  target: string;
  headers: RequestHeaders;
  /** Raw body bytes as received; undefined when the request has none. */
  body: Uint8Array | undefined;
}

export interface AuthRequirement {
  /** The PSD2 role the operation needs; 'any' accepts a certificate with any PSD2 role. */
  role: PspRole | 'any';
  /** Create operations must carry a Digest; other operations are checked when they send one. */
  digestRequired: boolean;
  /**
   * A sandbox test-data operation: it may share an X-Request-ID with other test-data operations
   * (docs/security.md, section 1). Every operation that also exists in production is strict.
   */
  testData?: boolean;
}

/** Who signed the request, and until when its signature could be accepted (and so replayed). */
export interface Authentication {
  tpp: TppIdentity;
  signatureAcceptableUntil: Date;
  /** SHA-256 (hex) of the body bytes as received (of the empty body when there is none), hashed once for the Digest check and the request's binding. */
  bodySha256: string;
}

export interface AuthenticatorOptions {
  trustStore: TrustStore;
  dateSkewSeconds: number;
  /** Wall clock: signatures and certificates are judged by real time, never by the sandbox's business clock. */
  now?: () => number;
}

/** Headers that must be covered by the signature whenever the request carries them (specification, Authentication 4). */
export const SIGNED_WHEN_PRESENT = [
  'date',
  'digest',
  'x-request-id',
  'psu-id',
  'psu-corporate-id',
  'tpp-redirect-uri',
] as const;

const ALGORITHMS: Record<string, { hash: string; keyType: string }> = {
  'rsa-sha256': { hash: 'sha256', keyType: 'rsa' },
  'rsa-sha512': { hash: 'sha512', keyType: 'rsa' },
};

/** Parsed certificate and what does not change over time about trusting it. */
interface CertificateEntry {
  certificate: ParsedCertificate;
  issuer: ParsedCertificate | undefined;
}

/** A certificate a qualified trust service would never issue (certificate-policy.ts): the problems to answer. */
interface RefusedEntry {
  refused: readonly Problem[];
}

/**
 * Authenticates a TPP request as the specification's Authentication part says: certificate,
 * Signature (draft-cavage, Berlin Group profile), Digest, Date and X-Request-ID. Each failure is
 * an ApiError naming the header and what is wrong with it (docs/errors.md).
 */
export class TppAuthenticator {
  private readonly certificates = new Map<string, CertificateEntry | RefusedEntry>();
  /** The certificate of the last request that passed the cache, and its entry. */
  private lastCertificate: { headerValue: string; entry: CertificateEntry } | undefined;
  private readonly now: () => number;

  constructor(private readonly options: AuthenticatorOptions) {
    this.now = options.now ?? Date.now;
  }

  authenticate(request: SignedRequest, requirement: AuthRequirement): Authentication {
    const headers = readHeaders(request.headers, requirement);
    const entry = this.certificateEntry(headers.certificate);
    const { certificate } = entry;
    const now = this.now();
    this.checkTrust(entry, now);
    this.checkSignature(request, headers.signature, certificate, headers.date, now);
    const body = request.body ?? new Uint8Array();
    const bodySha256 = hash('sha256', body, 'buffer');
    if (headers.digest !== undefined) {
      const mismatch = findDigestMismatch(headers.digest, body, bodySha256);
      if (mismatch !== undefined) {
        throw headerError(
          'FORMAT_ERROR',
          'Digest',
          `does not match the body: the ${mismatch} of the body as received differs (was the body changed after signing, or re-serialised?)`,
        );
      }
    }
    const psd2 = certificate.psd2!;
    if (requirement.role !== 'any' && !psd2.roles.includes(requirement.role)) {
      const held = psd2.roles.length === 0 ? 'no PSD2 role' : `only ${psd2.roles.join(', ')}`;
      throw headerError(
        'ROLE_INVALID',
        'TPP-Signature-Certificate',
        `lacks the PSD2 role ${requirement.role} that this operation needs; its QCStatement grants ${held}`,
      );
    }
    return {
      tpp: {
        id: certificate.organisationId!,
        name: certificate.name,
        roles: psd2.roles,
        ncaName: psd2.ncaName,
        ncaId: psd2.ncaId,
      },
      signatureAcceptableUntil: signatureAcceptableUntil(
        headers.date,
        this.options.dateSkewSeconds,
        certificate.notAfter,
      ),
      bodySha256: bodySha256.toString('hex'),
    };
  }

  private certificateEntry(headerValue: string): CertificateEntry {
    // A TPP sends the same certificate with every request: the one used last is compared as text
    // (a memcmp), without hashing the header's two kilobytes for the map and moving the entry in it.
    if (headerValue === this.lastCertificate?.headerValue) return this.lastCertificate.entry;
    let entry = this.certificates.get(headerValue);
    if (entry !== undefined) {
      // Re-insert to keep the map in least-recently-used order.
      this.certificates.delete(headerValue);
    } else {
      entry = this.readCertificate(headerValue);
    }
    this.certificates.set(headerValue, entry);
    if (this.certificates.size > CERTIFICATE_CACHE_ENTRIES) {
      this.certificates.delete(this.certificates.keys().next().value!);
    }
    if ('refused' in entry) throw ApiError.of(entry.refused);
    this.lastCertificate = { headerValue, entry };
    return entry;
  }

  /** A certificate that cannot be read throws; one that is refused is kept, so a TPP retrying with it costs no new parse. */
  private readCertificate(headerValue: string): CertificateEntry | RefusedEntry {
    let certificate: ParsedCertificate;
    try {
      certificate = parseCertificate(decodeCertificateHeader(headerValue));
    } catch (error) {
      if (error instanceof CertificateFormatError) {
        throw headerError(
          'FORMAT_ERROR',
          'TPP-Signature-Certificate',
          `cannot be read as a certificate: ${error.message}. Send the certificate as base64 of its DER bytes or of its PEM text`,
        );
      }
      if (error instanceof CertificateRefusedError) {
        // Every reason, each its own tppMessage, so the TPP can take all of them to its trust service at once.
        return {
          refused: error.reasons.map((reason): Problem => ({
            code: 'CERTIFICATE_INVALID',
            path: 'header:TPP-Signature-Certificate',
            text: `TPP-Signature-Certificate ${reason}`,
          })),
        };
      }
      throw error;
    }
    return { certificate, issuer: this.options.trustStore.issuerOf(certificate) };
  }

  private checkTrust({ certificate, issuer }: CertificateEntry, now: number): void {
    if (issuer === undefined) {
      throw headerError(
        'CERTIFICATE_INVALID',
        'TPP-Signature-Certificate',
        `'${certificate.name}' is issued by '${formatDistinguishedName(certificate.issuer)}', which is not a CA this bank trusts`,
      );
    }
    for (const [which, cert] of [
      ['certificate', certificate],
      ['issuing CA certificate', issuer],
    ] as const) {
      if (now < cert.notBefore.getTime()) {
        throw headerError(
          'CERTIFICATE_EXPIRED',
          'TPP-Signature-Certificate',
          `is not yet valid: the ${which} '${cert.name}' is valid from ${cert.notBefore.toISOString()}`,
        );
      }
      if (now > cert.notAfter.getTime()) {
        throw headerError(
          'CERTIFICATE_EXPIRED',
          'TPP-Signature-Certificate',
          `has expired: the ${which} '${cert.name}' was valid until ${cert.notAfter.toISOString()}`,
        );
      }
    }
    if (certificate.psd2 === undefined) {
      throw headerError(
        'CERTIFICATE_INVALID',
        'TPP-Signature-Certificate',
        "has no PSD2 QCStatement (ETSI TS 119 495) with the TPP's roles",
      );
    }
    if (certificate.organisationId === undefined || certificate.organisationId.trim() === '') {
      throw headerError(
        'CERTIFICATE_INVALID',
        'TPP-Signature-Certificate',
        'has no organizationIdentifier (2.5.4.97) in its subject, which identifies the TPP',
      );
    }
  }

  private checkSignature(
    request: SignedRequest,
    params: SignatureParameters,
    certificate: ParsedCertificate,
    dateMillis: number | undefined,
    now: number,
  ): void {
    const { keyId } = params;
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
    const algorithm = ALGORITHMS[params.algorithm];
    if (algorithm === undefined) {
      throw headerError(
        'FORMAT_ERROR',
        'Signature',
        `algorithm '${params.algorithm}' is not supported; use rsa-sha256`,
      );
    }
    const keyType = certificate.publicKey.asymmetricKeyType;
    if (keyType !== algorithm.keyType) {
      throw headerError(
        'SIGNATURE_INVALID',
        'Signature',
        `algorithm '${params.algorithm}' does not fit the certificate's ${keyType?.toUpperCase() ?? 'unknown'} key`,
      );
    }
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
    // spec, Authentication 4: date is signed "where available". Without it the signature has no
    // freshness of its own; replay is refused by the X-Request-ID binding (request-binding.ts).
    const skewSeconds = dateMillis === undefined ? 0 : Math.round(Math.abs(now - dateMillis) / 1000);
    if (skewSeconds > this.options.dateSkewSeconds) {
      throw headerError(
        'SIGNATURE_INVALID',
        'Date',
        `is ${skewSeconds} s away from the server clock (${new Date(now).toUTCString()}); at most ${this.options.dateSkewSeconds} s is allowed. Check the client's clock and sign each request when it is sent`,
      );
    }
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
}

interface AuthHeaders {
  signature: SignatureParameters;
  certificate: string;
  /** The Date header as milliseconds, when the request carries one. */
  date: number | undefined;
  digest: DigestValue[] | undefined;
}

/** Reads the authentication headers; every missing or malformed one is reported at once. */
function readHeaders(headers: RequestHeaders, requirement: AuthRequirement): AuthHeaders {
  const missing: Problem[] = [];
  const required = [
    'Signature',
    'TPP-Signature-Certificate',
    'X-Request-ID',
    ...(requirement.digestRequired ? ['Digest'] : []),
  ];
  for (const name of required) {
    const value = single(headers, name);
    if (value === undefined || value.trim() === '') {
      missing.push({
        code: 'HTTP_HEADER_REQUIRED',
        path: `header:${name}`,
        text: `header ${name} is required${explainRequired(name)}`,
      });
    }
  }
  if (missing.length > 0) throw ApiError.of(missing);

  const malformed: Problem[] = [];
  const bad = (name: string, text: string) =>
    malformed.push({ code: 'FORMAT_ERROR', path: `header:${name}`, text: `${name} ${text}` });

  const requestId = single(headers, 'X-Request-ID')!;
  if (requestId.length > X_REQUEST_ID_MAX_LENGTH)
    bad('X-Request-ID', `is ${requestId.length} characters long; at most ${X_REQUEST_ID_MAX_LENGTH} are accepted`);
  else if (!/^[\x21-\x7e]+$/.test(requestId))
    bad('X-Request-ID', 'must be printable ASCII without spaces (a UUID is recommended)');

  const certificate = single(headers, 'TPP-Signature-Certificate')!;
  if (certificate.length > HEADER_VALUE_MAX_LENGTH)
    bad(
      'TPP-Signature-Certificate',
      `is ${certificate.length} characters long; at most ${HEADER_VALUE_MAX_LENGTH} are accepted`,
    );

  let signature: SignatureParameters | undefined;
  const signatureText = single(headers, 'Signature')!;
  if (signatureText.length > HEADER_VALUE_MAX_LENGTH)
    bad('Signature', `is ${signatureText.length} characters long; at most ${HEADER_VALUE_MAX_LENGTH} are accepted`);
  else {
    try {
      signature = parseSignatureHeader(signatureText);
    } catch (error) {
      if (!(error instanceof SignatureHeaderError)) throw error;
      bad(
        'Signature',
        `cannot be read: ${error.message}. Expected keyId="SN=<serial hex>,CA=<issuer DN>",algorithm="rsa-sha256",headers="...",signature="<base64>"`,
      );
    }
  }

  const dateText = single(headers, 'Date');
  const date = dateText === undefined ? undefined : parseHttpDate(dateText);
  if (dateText !== undefined && date === undefined)
    bad('Date', `'${dateText}' is not an HTTP date such as '${new Date(0).toUTCString()}'`);

  let digest: DigestValue[] | undefined;
  const digestText = single(headers, 'Digest');
  if (digestText !== undefined) {
    try {
      digest = parseDigestHeader(digestText);
    } catch (error) {
      if (!(error instanceof DigestFormatError)) throw error;
      bad('Digest', `cannot be used: ${error.message}`);
    }
  }
  if (malformed.length > 0) throw ApiError.of(malformed);
  return { signature: signature!, certificate, date, digest };
}

function explainRequired(name: string): string {
  switch (name) {
    case 'Signature':
      return ': every request is signed (draft-cavage HTTP signature with the TPP certificate)';
    case 'TPP-Signature-Certificate':
      return ': it carries the certificate that signed the request, base64-encoded';
    case 'Digest':
      return ' on create operations: SHA-256=<base64 of the SHA-256 of the body>';
    default:
      return '';
  }
}

/** The draft-cavage signing string: `name: value` lines in the order of the headers parameter. */
export function buildSigningString(request: SignedRequest, names: readonly string[]): string {
  return names
    .map((name) => {
      if (name === '(request-target)') return `${name}: ${request.method.toLowerCase()} ${request.target}`;
      const value = request.headers[name];
      if (value === undefined) {
        throw headerError(
          'SIGNATURE_INVALID',
          'Signature',
          `signs header '${name}', but the request has no such header`,
        );
      }
      return `${name}: ${Array.isArray(value) ? value.join(', ') : value}`;
    })
    .join('\n');
}

function single(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

function headerError(code: Problem['code'], header: string, text: string): ApiError {
  const message = `${header} ${text}`;
  return new ApiError(code, message, [{ code, path: `header:${header}`, text: message }]);
}

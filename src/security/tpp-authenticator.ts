import { hash } from 'node:crypto';
import { ApiError, type Problem } from '../domain/api-error.js';
import type { CertificateAnchor } from '../domain/certificate-anchor.js';
import { CERTIFICATE_CACHE_ENTRIES } from '../domain/limits.js';
import type { PspRole, TppIdentity } from '../domain/psp-role.js';
import { signatureAcceptableUntil } from '../domain/request-binding.js';
import { readHeaders } from './auth-headers.js';
import { CertificateFormatError, CertificateRefusedError } from './der-certificate.js';
import { findDigestMismatch } from './digest.js';
import { formatDistinguishedName } from './distinguished-name.js';
import { headerError } from './header-error.js';
import { checkSignature } from './signature-check.js';
import { explainFailedAuthentication } from './signature-explainer.js';
import type { SignatureExplanation } from './signature-mistakes.js';
import type { SignedRequest } from './signed-request.js';
import { type ParsedCertificate, decodeCertificateHeader, parseCertificate } from './tpp-certificate.js';
import type { TrustStore } from './trust-store.js';
import type { RevocationCheck } from './revocation/lazy-revocation-checker.js';

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
  /**
   * A sandbox operation that opens or changes the bank as a whole (console links, initialize, the
   * clock, batch runs, snapshots, scenarios, keys): Date is required, within the skew, and the
   * X-Request-ID is bound strictly, as in production, so a captured request cannot be replayed as
   * one of them (issue 40).
   */
  wholeBank?: boolean;
}

/** A GET's or DELETE's body, and its SHA-256: the same for every request without a body. */
const EMPTY_BODY = new Uint8Array();
const EMPTY_BODY_SHA256 = hash('sha256', EMPTY_BODY, 'buffer');

/** Who signed the request, and until when its signature could be accepted (and so replayed). */
export interface Authentication {
  tpp: TppIdentity;
  signatureAcceptableUntil: Date;
  /** SHA-256 (hex) of the body bytes as received (of the empty body when there is none), hashed once for the Digest check and the request's binding. */
  bodySha256: string;
  /** SHA-256 (hex) of the certificate's public key (SubjectPublicKeyInfo): whose sandbox bank the request may reach. */
  keySha256: string;
  /** Which kind of CA issued the certificate: the sandbox's self-service CA, or one the operator trusts (whose bank it opens whatever its key). */
  anchor: CertificateAnchor;
  /** The certificate's CN and SubjectAltName dNSNames: the domain of its TPP-Notification-URI (docs/notifications.md). */
  certificateNames: readonly string[];
}

export interface AuthenticatorOptions {
  trustStore: TrustStore;
  dateSkewSeconds: number;
  /** Whether a certificate is revoked, by its CA's OCSP responder or CRL (docs/security.md, section 9); none: not checked. */
  revocation?: RevocationCheck;
  /** Wall clock: signatures and certificates are judged by real time, never by the sandbox's business clock. */
  now?: () => number;
}

/** Parsed certificate and what does not change over time about trusting it. */
interface CertificateEntry {
  certificate: ParsedCertificate;
  issuer: ParsedCertificate | undefined;
  anchor: CertificateAnchor;
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
    return this.authenticated(request, requirement).authentication;
  }

  /**
   * authenticate, then whether the certificate is revoked: the answer itself when its CRL or OCSP
   * answer is at hand (no promise, no I/O), a promise only when one must be fetched first.
   */
  authenticateUnrevoked(
    request: SignedRequest,
    requirement: AuthRequirement,
  ): Authentication | Promise<Authentication> {
    const { authentication, entry } = this.authenticated(request, requirement);
    const pending = this.options.revocation?.check(entry.certificate, entry.issuer!);
    return pending === undefined ? authentication : pending.then(() => authentication);
  }

  /**
   * What did not match in a request this authenticator refused, for the sandbox's answer
   * (signature-explainer.ts). Production never asks: its answers say no more than the refusal.
   */
  explain(request: SignedRequest, requirement: AuthRequirement, refusal: ApiError): SignatureExplanation {
    return explainFailedAuthentication({
      request,
      digestRequired: requirement.digestRequired,
      refusal,
      now: this.now(),
      dateSkewSeconds: this.options.dateSkewSeconds,
    });
  }

  private authenticated(
    request: SignedRequest,
    requirement: AuthRequirement,
  ): { authentication: Authentication; entry: CertificateEntry } {
    const headers = readHeaders(request.headers, requirement.digestRequired, requirement.wholeBank === true);
    const entry = this.certificateEntry(headers.certificate);
    const { certificate } = entry;
    const now = this.now();
    this.checkTrust(entry, now);
    checkSignature(request, headers.signature, certificate, headers.date, now, this.options.dateSkewSeconds);
    const body = request.body ?? EMPTY_BODY;
    const bodySha256 = body.length === 0 ? EMPTY_BODY_SHA256 : hash('sha256', body, 'buffer');
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
    const authentication: Authentication = {
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
      keySha256: certificate.keySha256,
      anchor: entry.anchor,
      certificateNames: certificate.domainNames,
    };
    return { authentication, entry };
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
    const issuer = this.options.trustStore.issuerOf(certificate);
    // An untrusted certificate is refused by checkTrust before its anchor matters; the lesser trust all the same.
    const anchor = issuer === undefined ? 'self-service' : this.options.trustStore.anchorOf(issuer);
    return { certificate, issuer, anchor };
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
}

import 'reflect-metadata';
import {
  AuthorityInfoAccessExtension,
  CRLDistributionPointsExtension,
  type GeneralName,
  X509Certificate as PeculiarCertificate,
} from '@peculiar/x509';
import { ApiError } from '../../domain/api-error.js';
import { CERTIFICATE_CACHE_ENTRIES, CRL_SOURCES_MAX, OCSP_CACHE_ENTRIES } from '../../domain/limits.js';
import { formatDistinguishedName } from '../distinguished-name.js';
import { headerError } from '../header-error.js';
import type { ParsedCertificate } from '../tpp-certificate.js';
import { RevocationConfigError } from './revocation-config-error.js';
import { CrlSource } from './crl-source.js';
import { OcspSource } from './ocsp-source.js';
import type { RevocationSource } from './revocation-source.js';

/** What a certificate's CRL said, and from which copy of it. */
interface Verdict {
  source: CrlSource;
  generation: number;
  revokedOn: Date | undefined;
}

export interface RevocationOptions {
  now?: () => number;
  /** Certificates whose OCSP answer is kept (OCSP_CACHE_ENTRIES when left out; a test keeps fewer). */
  ocspCacheEntries?: number;
  /** A CRL or OCSP answer that could not be read again (the last good one is kept while it may be used). */
  onRefreshFailed?: (where: string, reason: string) => void;
}

/**
 * Whether a TPP certificate is revoked (docs/security.md, section 9): by its CA's OCSP responder when
 * the certificate names one (Authority Information Access, id-ad-ocsp); else by the CRL of its CA,
 * the one at the certificate's CRL distribution point, else a CRL file of that CA (CRL_FILES). A
 * certificate that names neither, and whose CA has no CRL file, has nothing to be checked against.
 *
 * No network round trip per request: an OCSP answer is asked for when a certificate first comes and
 * kept until it is due (ocsp-source.ts); each CRL is fetched once, when a certificate first names it,
 * and then on the schedule (`start`), a certificate's verdict kept until a new copy of its CRL comes.
 * An answer or CRL past its nextUpdate is used for REVOCATION_STALE_GRACE_MS while a fresh one is
 * fetched; then, or when none was ever had, the request is refused with 503: the status cannot be
 * established, and the bank does not let a TPP through unchecked (docs/decisions/0267).
 */
export class RevocationChecker {
  private readonly files = new Map<string, CrlSource[]>();
  private readonly distributionPoints = new Map<string, CrlSource>();
  private readonly verdicts = new Map<string, Verdict>();
  /** By issuer and certificate fingerprint, oldest first. */
  private readonly ocspAnswers = new Map<string, OcspSource>();
  private readonly background = new Set<Promise<void>>();
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: RevocationOptions = {}) {
    this.now = options.now ?? Date.now;
  }

  /** Reads the bank's CRL files, each matched to the trusted CA that signed it; one that is not stops the start. */
  async addFiles(paths: readonly string[], anchors: readonly ParsedCertificate[]): Promise<void> {
    for (const path of paths) {
      const errors: string[] = [];
      let added = false;
      for (const anchor of anchors) {
        const source = new CrlSource({ kind: 'file', path }, anchor, this.now);
        await source.refresh();
        if (source.crl === undefined) {
          errors.push(source.lastError ?? '');
          continue;
        }
        this.files.set(anchor.fingerprint, [...(this.files.get(anchor.fingerprint) ?? []), source]);
        added = true;
        break;
      }
      if (!added)
        throw new RevocationConfigError(
          `CRL_FILES: '${path}' is not a CRL of a trusted CA (TRUSTED_CA_CERTS): ${errors[errors.length - 1] ?? 'no CA is trusted'}`,
        );
    }
  }

  /** Undefined when the certificate's status is known and good (no promise, no I/O); else the check, which throws if it is refused. */
  check(certificate: ParsedCertificate, issuer: ParsedCertificate): Promise<void> | undefined {
    const source = this.sourceOf(certificate, issuer);
    if (source === undefined) return undefined;
    const now = this.now();
    if (source.usable(now)) {
      if (source.due(now) && source.mayRetry(now)) this.refreshInBackground(source);
      this.judge(certificate, source);
      return undefined;
    }
    if (!source.mayRetry(now)) throw unavailable(source);
    return source.refresh().then(() => {
      if (!source.usable(this.now())) throw unavailable(source);
      this.judge(certificate, source);
    });
  }

  /**
   * Reads every CRL again every `intervalMs`; the timer does not hold the process open. OCSP answers
   * are asked for again when a request finds them due, so a certificate no longer used costs nothing.
   */
  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.refreshAll(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async refreshAll(): Promise<void> {
    const sources = [...[...this.files.values()].flat(), ...this.distributionPoints.values()];
    await Promise.all(
      sources.map(async (source) => {
        await source.refresh();
        if (source.lastError !== undefined) this.options.onRefreshFailed?.(source.where, source.lastError);
      }),
    );
  }

  /** Resolves when the reads started in the background by requests have ended: what a test waits for, never a sleep. */
  async settled(): Promise<void> {
    await Promise.all(this.background);
  }

  /** The request goes on with the answer held; the next one finds the fresh answer. */
  private refreshInBackground(source: RevocationSource): void {
    const refreshed = source.refresh().then(() => {
      if (source.lastError !== undefined) this.options.onRefreshFailed?.(source.where, source.lastError);
    });
    this.background.add(refreshed);
    void refreshed.finally(() => this.background.delete(refreshed));
  }

  private judge(certificate: ParsedCertificate, source: RevocationSource): void {
    if (source instanceof OcspSource) judgeByOcsp(certificate, source);
    else this.judgeByCrl(certificate, source as CrlSource);
  }

  private judgeByCrl(certificate: ParsedCertificate, source: CrlSource): void {
    let verdict = this.verdicts.get(certificate.fingerprint);
    if (verdict === undefined || verdict.source !== source || verdict.generation !== source.generation) {
      const entry = source.crl!.findRevoked(new PeculiarCertificate(certificate.x509.raw));
      verdict = { source, generation: source.generation, revokedOn: entry?.revocationDate };
      this.verdicts.delete(certificate.fingerprint);
      this.verdicts.set(certificate.fingerprint, verdict);
      if (this.verdicts.size > CERTIFICATE_CACHE_ENTRIES) this.verdicts.delete(this.verdicts.keys().next().value!);
    }
    if (verdict.revokedOn !== undefined) throw revoked(certificate, verdict.revokedOn, source);
  }

  /** The certificate's OCSP responder, when it names one; else its CRL, as below. */
  private sourceOf(certificate: ParsedCertificate, issuer: ParsedCertificate): RevocationSource | undefined {
    const responder = responderOf(certificate);
    return responder === undefined
      ? this.crlSourceOf(certificate, issuer)
      : this.ocspSourceOf(certificate, issuer, responder);
  }

  private ocspSourceOf(certificate: ParsedCertificate, issuer: ParsedCertificate, url: string): OcspSource {
    const key = `${issuer.fingerprint} ${certificate.fingerprint}`;
    let source = this.ocspAnswers.get(key);
    if (source === undefined) {
      source = new OcspSource(url, issuer, certificate, this.now);
      this.ocspAnswers.set(key, source);
      if (this.ocspAnswers.size > (this.options.ocspCacheEntries ?? OCSP_CACHE_ENTRIES))
        this.ocspAnswers.delete(this.ocspAnswers.keys().next().value!);
    }
    return source;
  }

  /** The certificate's first http(s) CRL distribution point, else a CRL file of its CA, else none. */
  private crlSourceOf(certificate: ParsedCertificate, issuer: ParsedCertificate): CrlSource | undefined {
    const url = distributionPointOf(certificate);
    if (url === undefined) return this.files.get(issuer.fingerprint)?.[0];
    const key = `${issuer.fingerprint} ${url}`;
    let source = this.distributionPoints.get(key);
    if (source === undefined) {
      if (this.distributionPoints.size >= CRL_SOURCES_MAX) throw tooManySources(url);
      source = new CrlSource({ kind: 'url', url }, issuer, this.now);
      this.distributionPoints.set(key, source);
    }
    return source;
  }
}

/** Where a certificate says its status is to be had; read once per parsed certificate (the authenticator keeps those). */
interface Addresses {
  responder: string | undefined;
  distributionPoint: string | undefined;
}
const addresses = new WeakMap<ParsedCertificate, Addresses>();

function addressesOf(certificate: ParsedCertificate): Addresses {
  let found = addresses.get(certificate);
  if (found === undefined) {
    const peculiar = new PeculiarCertificate(certificate.x509.raw);
    const access = peculiar.getExtension(AuthorityInfoAccessExtension);
    const points = peculiar.getExtension(CRLDistributionPointsExtension)?.distributionPoints ?? [];
    const pointUrls = points.flatMap(
      (point) =>
        point.distributionPoint?.fullName?.flatMap((name) =>
          name.uniformResourceIdentifier === undefined ? [] : [name.uniformResourceIdentifier],
        ) ?? [],
    );
    found = {
      responder: firstHttp(
        (access?.ocsp ?? []).flatMap((name: GeneralName) => (name.type === 'url' ? [name.value] : [])),
      ),
      distributionPoint: firstHttp(pointUrls),
    };
    addresses.set(certificate, found);
  }
  return found;
}

/** An address the bank fetches from: ldap:// and the like, which some CAs name too, are passed over. */
function firstHttp(urls: readonly string[]): string | undefined {
  return urls.find((u) => u.startsWith('http://') || u.startsWith('https://'));
}

const responderOf = (certificate: ParsedCertificate) => addressesOf(certificate).responder;
const distributionPointOf = (certificate: ParsedCertificate) => addressesOf(certificate).distributionPoint;

function judgeByOcsp(certificate: ParsedCertificate, source: OcspSource): void {
  const answer = source.answer!;
  if (answer.status === 'revoked') throw revoked(certificate, answer.revokedAt!, source);
  if (answer.status === 'unknown')
    throw headerError(
      'CERTIFICATE_INVALID',
      'TPP-Signature-Certificate',
      `'${certificate.name}' is unknown to the OCSP responder of '${formatDistinguishedName(certificate.issuer)}' (${source.url}); a responder answers so for a certificate its CA did not issue`,
    );
}

function revoked(certificate: ParsedCertificate, on: Date, source: RevocationSource): ApiError {
  return headerError(
    'CERTIFICATE_REVOKED',
    'TPP-Signature-Certificate',
    `'${certificate.name}' was revoked by '${formatDistinguishedName(certificate.issuer)}' on ${on.toISOString()} (${source.where})`,
  );
}

function unavailable(source: RevocationSource): ApiError {
  return new ApiError(
    'SERVICE_UNAVAILABLE',
    `the bank cannot establish whether TPP-Signature-Certificate is revoked: its CA's ${source.where} ${source.unusableBecause()}${
      source.lastError === undefined ? '' : ` (${source.lastError})`
    }; send the request again later`,
  );
}

function tooManySources(url: string): ApiError {
  return headerError(
    'CERTIFICATE_INVALID',
    'TPP-Signature-Certificate',
    `names a CRL distribution point (${url.slice(0, 200)}) beyond the ${CRL_SOURCES_MAX} this bank follows`,
  );
}

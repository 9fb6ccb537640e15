import 'reflect-metadata';
import { CRLDistributionPointsExtension, X509Certificate as PeculiarCertificate } from '@peculiar/x509';
import { ApiError } from '../../domain/api-error.js';
import { CERTIFICATE_CACHE_ENTRIES, CRL_SOURCES_MAX } from '../../domain/limits.js';
import { formatDistinguishedName } from '../distinguished-name.js';
import { headerError } from '../header-error.js';
import type { ParsedCertificate } from '../tpp-certificate.js';
import { CrlSource } from './crl-source.js';

export class RevocationConfigError extends Error {}

/** What a certificate's CRL said, and from which copy of it. */
interface Verdict {
  source: CrlSource;
  generation: number;
  revokedOn: Date | undefined;
}

export interface RevocationOptions {
  now?: () => number;
  /** A CRL that could not be read on the schedule (it is kept, and tried again). */
  onRefreshFailed?: (where: string, reason: string) => void;
}

/**
 * Whether a TPP certificate is revoked (docs/security.md, section 9), by the CRL of the CA that issued
 * it: the one at the certificate's CRL distribution point, else a CRL file of that CA (CRL_FILES).
 * A certificate whose CA publishes no CRL the bank knows has nothing to be checked against.
 *
 * No network round trip per request: each CRL is fetched once, when a certificate first names it, and
 * then on the schedule (`start`); a certificate's verdict is kept until a new copy of its CRL comes.
 * A CRL past its nextUpdate is used for REVOCATION_STALE_GRACE_MS while a fresh one is fetched; then,
 * or when none was ever had, the request is refused with 503: the status cannot be established, and
 * the bank does not let a TPP through unchecked (docs/decisions.md, "Revocation: fail closed").
 */
export class RevocationChecker {
  private readonly files = new Map<string, CrlSource[]>();
  private readonly distributionPoints = new Map<string, CrlSource>();
  private readonly verdicts = new Map<string, Verdict>();
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
      if (source.due(now) && source.mayRetry(now)) void source.refresh();
      this.judge(certificate, source);
      return undefined;
    }
    if (!source.mayRetry(now)) throw unavailable(source);
    return source.refresh().then(() => {
      if (!source.usable(this.now())) throw unavailable(source);
      this.judge(certificate, source);
    });
  }

  /** Reads every CRL again every `intervalMs`; the timer does not hold the process open. */
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

  private judge(certificate: ParsedCertificate, source: CrlSource): void {
    let verdict = this.verdicts.get(certificate.fingerprint);
    if (verdict === undefined || verdict.source !== source || verdict.generation !== source.generation) {
      const entry = source.crl!.findRevoked(new PeculiarCertificate(certificate.x509.raw));
      verdict = { source, generation: source.generation, revokedOn: entry?.revocationDate };
      this.verdicts.delete(certificate.fingerprint);
      this.verdicts.set(certificate.fingerprint, verdict);
      if (this.verdicts.size > CERTIFICATE_CACHE_ENTRIES) this.verdicts.delete(this.verdicts.keys().next().value!);
    }
    if (verdict.revokedOn !== undefined) {
      throw headerError(
        'CERTIFICATE_REVOKED',
        'TPP-Signature-Certificate',
        `'${certificate.name}' was revoked by '${formatDistinguishedName(certificate.issuer)}' on ${verdict.revokedOn.toISOString()} (${source.where})`,
      );
    }
  }

  /** The certificate's first http(s) CRL distribution point, else a CRL file of its CA, else none. */
  private sourceOf(certificate: ParsedCertificate, issuer: ParsedCertificate): CrlSource | undefined {
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

const distributionPoints = new WeakMap<ParsedCertificate, string | undefined>();

/** Read once per parsed certificate (the authenticator keeps those). */
function distributionPointOf(certificate: ParsedCertificate): string | undefined {
  if (distributionPoints.has(certificate)) return distributionPoints.get(certificate);
  const extension = new PeculiarCertificate(certificate.x509.raw).getExtension(CRLDistributionPointsExtension);
  const urls = (extension?.distributionPoints ?? []).flatMap(
    (point) =>
      point.distributionPoint?.fullName?.flatMap((name) =>
        name.uniformResourceIdentifier === undefined ? [] : [name.uniformResourceIdentifier],
      ) ?? [],
  );
  const url = urls.find((u) => u.startsWith('http://') || u.startsWith('https://'));
  distributionPoints.set(certificate, url);
  return url;
}

function unavailable(source: CrlSource): ApiError {
  return new ApiError(
    'SERVICE_UNAVAILABLE',
    `the bank cannot establish whether TPP-Signature-Certificate is revoked: its CA's ${source.where} ${
      source.crl === undefined
        ? 'could not be read'
        : `is out of date (nextUpdate ${source.crl.nextUpdate?.toISOString()})`
    }${source.lastError === undefined ? '' : ` (${source.lastError})`}; send the request again later`,
  );
}

function tooManySources(url: string): ApiError {
  return headerError(
    'CERTIFICATE_INVALID',
    'TPP-Signature-Certificate',
    `names a CRL distribution point (${url.slice(0, 200)}) beyond the ${CRL_SOURCES_MAX} this bank follows`,
  );
}

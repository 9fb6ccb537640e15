import type { ParsedCertificate } from '../tpp-certificate.js';
import type { RevocationChecker, RevocationOptions } from './revocation-checker.js';

/** What the authenticator asks of a revocation check (revocation-checker.ts says what each answer means). */
export interface RevocationCheck {
  check(certificate: ParsedCertificate, issuer: ParsedCertificate): Promise<void> | undefined;
}

/**
 * The server's revocation checker, its module loaded when first needed: at the start only when the
 * bank names CRL files, else by the warm-up after the server is ready, or by the first signed request
 * that comes before it. That module brings the certificate library (@peculiar/x509 and its ASN.1
 * modules), the largest part of the server's load that a start to `/health` does not need
 * (docs/decisions/0324). Until it is loaded a check waits for it; after, it is the checker's own.
 */
export class LazyRevocationChecker implements RevocationCheck {
  private checker: RevocationChecker | undefined;
  private loading: Promise<RevocationChecker> | undefined;
  private refreshEveryMs: number | undefined;
  private stopped = false;

  constructor(private readonly options: RevocationOptions = {}) {}

  /** Loads the checker's module (once) and, once started, starts its schedule. */
  load(): Promise<RevocationChecker> {
    this.loading ??= import('./revocation-checker.js').then(({ RevocationChecker }) => {
      const checker = new RevocationChecker(this.options);
      this.checker = checker;
      if (this.refreshEveryMs !== undefined && !this.stopped) checker.start(this.refreshEveryMs);
      return checker;
    });
    return this.loading;
  }

  /** Reads the bank's CRL files (revocation-checker.ts); none named, nothing is loaded. */
  async addFiles(paths: readonly string[], anchors: readonly ParsedCertificate[]): Promise<void> {
    if (paths.length > 0) await (await this.load()).addFiles(paths, anchors);
  }

  check(certificate: ParsedCertificate, issuer: ParsedCertificate): Promise<void> | undefined {
    if (this.checker !== undefined) return this.checker.check(certificate, issuer);
    return this.load().then((checker) => checker.check(certificate, issuer));
  }

  /** The CRLs' schedule (revocation-checker.ts), from the moment the module is loaded. */
  start(intervalMs: number): void {
    this.refreshEveryMs = intervalMs;
    this.checker?.start(intervalMs);
  }

  stop(): void {
    this.stopped = true;
    this.checker?.stop();
  }
}

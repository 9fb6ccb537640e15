/**
 * Where a certificate's revocation status comes from: its CA's CRL (crl-source.ts), or its CA's OCSP
 * answer about it (ocsp-source.ts). Both keep their last good copy and fail closed the same way
 * (docs/decisions/0267); the checker asks only this.
 */
export interface RevocationSource {
  /** For messages: "CRL at <url>", "OCSP answer from <url>". */
  readonly where: string;
  /** Why the last read failed, until one succeeds. */
  readonly lastError: string | undefined;
  /** Held, and not past its nextUpdate by more than REVOCATION_STALE_GRACE_MS. */
  usable(now: number): boolean;
  /** A fresh copy is due: a request goes on with the one held while it is fetched. */
  due(now: number): boolean;
  /** Not within REVOCATION_RETRY_AFTER_FAILURE_MS of a failed read. */
  mayRetry(now: number): boolean;
  /** Reads again; one read at a time, whoever asks. Never throws: a failure is kept in lastError. */
  refresh(): Promise<void>;
  /** Why it cannot be used, after "its CA's <where>": "could not be read", "is out of date (nextUpdate …)". */
  unusableBecause(): string;
}

import 'reflect-metadata';
import { readFile, stat } from 'node:fs/promises';
import { X509Certificate as PeculiarCertificate, X509Crl } from '@peculiar/x509';
import {
  CRL_MAX_BYTES,
  REVOCATION_FETCH_TIMEOUT_MS,
  REVOCATION_RETRY_AFTER_FAILURE_MS,
  REVOCATION_STALE_GRACE_MS,
} from '../../domain/limits.js';
import type { ParsedCertificate } from '../tpp-certificate.js';
import { fetchBounded } from './bounded-fetch.js';
import type { RevocationSource } from './revocation-source.js';

/** Where a CRL comes from: a file the bank configured (CRL_FILES), or a CA's distribution point a certificate names. */
export type CrlOrigin = { kind: 'file'; path: string } | { kind: 'url'; url: string };

/**
 * One CRL of one trusted CA: its origin, the CA that must have signed it, and the last good copy.
 * A failed read keeps the last good copy (until it is too old to use, `usable`); a copy older than
 * the one held (a replayed CRL) is not taken.
 */
export class CrlSource implements RevocationSource {
  crl: X509Crl | undefined;
  /** Bumped with every new copy: a verdict made from an older copy is made again. */
  generation = 0;
  lastError: string | undefined;
  private failedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<void> | undefined;

  constructor(
    readonly origin: CrlOrigin,
    readonly issuer: ParsedCertificate,
    private readonly now: () => number,
  ) {}

  get where(): string {
    return this.origin.kind === 'file' ? `CRL file '${this.origin.path}'` : `CRL at ${this.origin.url}`;
  }

  /** Reads the CRL again; one read at a time, whoever asks. Never throws: a failure is kept in lastError. */
  refresh(): Promise<void> {
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /** Present and not past its nextUpdate by more than the grace (REVOCATION_STALE_GRACE_MS). */
  usable(now: number): boolean {
    const next = this.crl?.nextUpdate;
    return this.crl !== undefined && (next === undefined || now <= next.getTime() + REVOCATION_STALE_GRACE_MS);
  }

  /** Past its nextUpdate: a fresh copy is due. */
  due(now: number): boolean {
    const next = this.crl?.nextUpdate;
    return this.crl === undefined || (next !== undefined && now > next.getTime());
  }

  /** A failed read is not tried again at once, so a CA's server that is down costs no round trip per request. */
  mayRetry(now: number): boolean {
    return now - this.failedAt >= REVOCATION_RETRY_AFTER_FAILURE_MS;
  }

  unusableBecause(): string {
    return this.crl === undefined
      ? 'could not be read'
      : `is out of date (nextUpdate ${this.crl.nextUpdate?.toISOString()})`;
  }

  private async load(): Promise<void> {
    try {
      const crl = await readCrl(await this.bytes(), this.issuer, this.where);
      if (this.crl !== undefined && crl.thisUpdate.getTime() < this.crl.thisUpdate.getTime())
        throw new Error(`${this.where} is older (thisUpdate ${crl.thisUpdate.toISOString()}) than the copy held`);
      this.crl = crl;
      this.generation += 1;
      this.lastError = undefined;
    } catch (error) {
      this.lastError = (error as Error).message;
      this.failedAt = this.now();
    }
  }

  private async bytes(): Promise<Uint8Array> {
    if (this.origin.kind === 'url')
      return fetchBounded({
        url: this.origin.url,
        maxBytes: CRL_MAX_BYTES,
        timeoutMs: REVOCATION_FETCH_TIMEOUT_MS,
        accept: 'application/pkix-crl',
      });
    const { size } = await stat(this.origin.path);
    if (size > CRL_MAX_BYTES) throw new Error(`${this.where} has ${size} bytes, more than the ${CRL_MAX_BYTES} read`);
    return readFile(this.origin.path);
  }
}

/** A CRL as DER or PEM, signed by `issuer`; anything else throws, naming where it came from. */
async function readCrl(bytes: Uint8Array, issuer: ParsedCertificate, where: string): Promise<X509Crl> {
  const text = Buffer.from(bytes).toString('latin1');
  let crl: X509Crl;
  try {
    crl = new X509Crl(text.includes('-----BEGIN X509 CRL-----') ? text : Buffer.from(bytes));
  } catch (error) {
    throw new Error(`${where} cannot be read as a CRL: ${(error as Error).message}`);
  }
  const signed = await crl.verify({ publicKey: new PeculiarCertificate(issuer.x509.raw) }).catch(() => false);
  if (!signed) throw new Error(`${where} is not signed by '${issuer.name}'`);
  return crl;
}

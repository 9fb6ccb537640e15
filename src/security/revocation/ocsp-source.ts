import {
  OCSP_ANSWER_MAX_AGE_MS,
  OCSP_RESPONSE_MAX_BYTES,
  REVOCATION_FETCH_TIMEOUT_MS,
  REVOCATION_RETRY_AFTER_FAILURE_MS,
  REVOCATION_STALE_GRACE_MS,
} from '../../domain/limits.js';
import type { ParsedCertificate } from '../tpp-certificate.js';
import { fetchBounded } from './bounded-fetch.js';
import { type OcspAnswer, readOcspAnswer } from './ocsp-answer.js';
import { type CertificateIdentity, encodeOcspRequest, identityOf } from './ocsp-request.js';
import type { RevocationSource } from './revocation-source.js';

/**
 * One certificate's status at its CA's OCSP responder (the certificate's Authority Information Access,
 * id-ad-ocsp): the last good answer, and when it was had. It is asked again when the answer's
 * nextUpdate comes or OCSP_ANSWER_MAX_AGE_MS after it was had, whichever is first; until then a
 * request costs no round trip. A failed read keeps the last good answer (until it is too old to use,
 * `usable`); an answer older than the one held (a replay) is not taken.
 */
export class OcspSource implements RevocationSource {
  answer: OcspAnswer | undefined;
  lastError: string | undefined;
  private receivedAt = Number.NEGATIVE_INFINITY;
  private failedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<void> | undefined;
  private readonly identity: CertificateIdentity;
  private readonly request: Uint8Array;

  constructor(
    readonly url: string,
    readonly issuer: ParsedCertificate,
    certificate: ParsedCertificate,
    private readonly now: () => number,
  ) {
    this.identity = identityOf(certificate, issuer);
    this.request = encodeOcspRequest(this.identity);
  }

  get where(): string {
    return `OCSP answer from ${this.url}`;
  }

  /** Concurrent requests with a certificate not yet asked about share one fetch. */
  refresh(): Promise<void> {
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  usable(now: number): boolean {
    return this.answer !== undefined && now <= this.validUntil() + REVOCATION_STALE_GRACE_MS;
  }

  due(now: number): boolean {
    return this.answer === undefined || now >= Math.min(this.validUntil(), this.receivedAt + OCSP_ANSWER_MAX_AGE_MS);
  }

  mayRetry(now: number): boolean {
    return now - this.failedAt >= REVOCATION_RETRY_AFTER_FAILURE_MS;
  }

  unusableBecause(): string {
    if (this.answer === undefined) return 'could not be read';
    const { nextUpdate } = this.answer;
    return nextUpdate === undefined
      ? `is out of date (had ${new Date(this.receivedAt).toISOString()}, without nextUpdate)`
      : `is out of date (nextUpdate ${nextUpdate.toISOString()})`;
  }

  /** Its nextUpdate; an answer without one stands for OCSP_ANSWER_MAX_AGE_MS from when it was had. */
  private validUntil(): number {
    return this.answer?.nextUpdate?.getTime() ?? this.receivedAt + OCSP_ANSWER_MAX_AGE_MS;
  }

  private async load(): Promise<void> {
    try {
      const bytes = await fetchBounded({
        url: this.url,
        maxBytes: OCSP_RESPONSE_MAX_BYTES,
        timeoutMs: REVOCATION_FETCH_TIMEOUT_MS,
        post: { contentType: 'application/ocsp-request', body: this.request },
        accept: 'application/ocsp-response',
      });
      const now = this.now();
      let answer: OcspAnswer;
      try {
        answer = readOcspAnswer(bytes, this.identity, this.issuer, now);
      } catch (error) {
        throw new Error(`${this.where} ${(error as Error).message}`);
      }
      if (this.answer !== undefined && answer.thisUpdate.getTime() < this.answer.thisUpdate.getTime())
        throw new Error(`${this.where} is older (thisUpdate ${answer.thisUpdate.toISOString()}) than the answer held`);
      this.answer = answer;
      this.receivedAt = now;
      this.lastError = undefined;
    } catch (error) {
      this.lastError = (error as Error).message;
      this.failedAt = this.now();
    }
  }
}

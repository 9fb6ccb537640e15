import { readFile } from 'node:fs/promises';
import type { CertificateAnchor } from '../domain/certificate-anchor.js';
import { CertificateFormatError, CertificateRefusedError } from './der-certificate.js';
import { type ParsedCertificate, parseCertificate, readPemCertificates } from './tpp-certificate.js';

/**
 * The certificates trusted to issue TPP certificates. Each is a trust anchor: TPP-Signature-Certificate
 * carries one certificate, so the chain the bank can check is that certificate and the anchor that
 * issued it (an operator who trusts an intermediate CA lists that intermediate).
 */
export class TrustStore {
  private readonly trusted: ParsedCertificate[];
  /** Keys (keySha256) of the sandbox's self-service CA: whatever anchor names one, what it signed is self-service. */
  private readonly selfServiceKeys = new Set<string>();

  constructor(anchors: readonly ParsedCertificate[]) {
    this.trusted = [...anchors];
  }

  get anchors(): readonly ParsedCertificate[] {
    return this.trusted;
  }

  /**
   * Trusts the sandbox's self-service CA (the certificate main.ts loads as the sandbox CA), made while
   * the server starts and added before it listens. Its certificates are self-service whichever anchor
   * is found to issue them: an operator may also list the same CA in TRUSTED_CA_CERTS (or a second
   * certificate over its key), and anyone can still get a certificate from it for any identifier.
   */
  addSelfService(anchor: ParsedCertificate): void {
    if (!this.trusted.some((a) => a.fingerprint === anchor.fingerprint)) this.trusted.push(anchor);
    this.selfServiceKeys.add(anchor.keySha256);
  }

  /** Whether a certificate `issuer` (an anchor issuerOf found) signed is self-service or operator-trusted. */
  anchorOf(issuer: ParsedCertificate): CertificateAnchor {
    // By key, not by certificate: a certificate verifies against any anchor over the key that signed it.
    return this.selfServiceKeys.has(issuer.keySha256) ? 'self-service' : 'trusted';
  }

  /** The anchor that issued and signed the certificate, if any. */
  issuerOf(certificate: ParsedCertificate): ParsedCertificate | undefined {
    return this.anchors.find(
      (anchor) => certificate.x509.checkIssued(anchor.x509) && certificate.x509.verify(anchor.publicKey),
    );
  }

  with(more: readonly ParsedCertificate[]): TrustStore {
    const store = new TrustStore([...this.anchors, ...more]);
    for (const key of this.selfServiceKeys) store.selfServiceKeys.add(key);
    return store;
  }
}

export class TrustStoreError extends Error {}

/**
 * Reads PEM files. A file that holds no certificate, a certificate that cannot be read, one that is
 * not a CA, or one a qualified trust service would never issue (a weak key, a broken signature hash:
 * certificate-policy.ts) is refused, so the server does not start on a trust it should not have.
 */
export async function readTrustedCertificates(paths: readonly string[]): Promise<ParsedCertificate[]> {
  const anchors: ParsedCertificate[] = [];
  for (const path of paths) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      throw new TrustStoreError(`TRUSTED_CA_CERTS: cannot read '${path}': ${(error as Error).message}`);
    }
    const ders = readPemCertificates(text);
    if (ders.length === 0) throw new TrustStoreError(`TRUSTED_CA_CERTS: '${path}' holds no PEM certificate`);
    for (const der of ders) {
      const certificate = readCertificate(der, `TRUSTED_CA_CERTS: '${path}'`);
      if (!certificate.x509.ca)
        throw new TrustStoreError(
          `TRUSTED_CA_CERTS: '${path}' holds '${certificate.name}', which is not a CA certificate`,
        );
      anchors.push(certificate);
    }
  }
  return anchors;
}

/**
 * Parses one certificate of a file the bank configured; `origin` names the file and `remedy` says what
 * the operator can do, both in the TrustStoreError.
 */
export function readCertificate(
  der: Buffer,
  origin: string,
  remedy = 'remove it, or replace it with a current certificate of that CA',
): ParsedCertificate {
  try {
    return parseCertificate(der);
  } catch (error) {
    if (error instanceof CertificateRefusedError) {
      throw new TrustStoreError(
        `${origin} holds '${error.certificateName ?? ''}', which ${error.reasons.join('; and which ')}. A qualified trust service would not issue it, so the bank does not trust it: ${remedy}`,
      );
    }
    if (error instanceof CertificateFormatError)
      throw new TrustStoreError(`${origin} holds a certificate that cannot be read: ${error.message}`);
    throw error;
  }
}

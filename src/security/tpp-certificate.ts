import { type KeyObject, X509Certificate, hash } from 'node:crypto';
import { certificateWeaknesses } from './certificate-policy.js';
import {
  CertificateFormatError,
  CertificateRefusedError,
  type NameAttribute,
  readCertificateFields,
} from './der-certificate.js';
import { type Psd2Statement, QC_STATEMENTS_OID, readPsd2Statement } from './qc-statement.js';
import { SUBJECT_ALT_NAME_OID, subjectAltDnsNames } from './certificate-dns-names.js';

export const ORGANIZATION_IDENTIFIER_OID = '2.5.4.97';
const COMMON_NAME_OID = '2.5.4.3';
const ORGANIZATION_OID = '2.5.4.10';

/** A certificate as read from TPP-Signature-Certificate or a trusted CA file. */
export interface ParsedCertificate {
  x509: X509Certificate;
  serial: bigint;
  issuer: NameAttribute[];
  subject: NameAttribute[];
  notBefore: Date;
  notAfter: Date;
  publicKey: KeyObject;
  /** SHA-256 fingerprint of the DER, as node prints it. */
  fingerprint: string;
  /** SHA-256 (hex) of the SubjectPublicKeyInfo: the key a sandbox bank is bound to (services/banks.ts). */
  keySha256: string;
  /** The PSD2 QCStatement, when the certificate has one. */
  psd2: Psd2Statement | undefined;
  /** organizationIdentifier of the subject (PSDNO-FSA-…), when present. */
  organisationId: string | undefined;
  /** Common name, else organisation name, of the subject. */
  name: string;
  /**
   * The subject's CN (when it has one) and the SubjectAltName dNSNames, as written: the domain a
   * TPP-Notification-URI must lie in (docs/notifications.md). Which of them are DNS names is the
   * judge's to say (domain/notifications/certificate-domain.ts).
   */
  domainNames: readonly string[];
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/**
 * The certificate bytes of a TPP-Signature-Certificate value. Clients send base64 of the DER,
 * base64 of the whole PEM text, or the PEM text itself (some on one line); all three are read.
 */
export function decodeCertificateHeader(value: string): Buffer {
  const pem = PEM_BLOCK.exec(value);
  if (pem !== null) return pemBodyToDer(pem[1]!);
  const compact = value.replace(/\s+/g, '');
  if (!BASE64.test(compact)) throw new CertificateFormatError('it is not base64 (nor PEM text)');
  const bytes = Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
  if (bytes[0] === 0x30) return bytes; // DER SEQUENCE
  const innerPem = PEM_BLOCK.exec(bytes.toString('latin1'));
  if (innerPem !== null) return pemBodyToDer(innerPem[1]!);
  throw new CertificateFormatError('its base64 decodes neither to a DER certificate nor to PEM text');
}

/** Every certificate in a PEM file's text. */
export function readPemCertificates(text: string): Buffer[] {
  return [...text.matchAll(new RegExp(PEM_BLOCK.source, 'g'))].map((m) => pemBodyToDer(m[1]!));
}

function pemBodyToDer(body: string): Buffer {
  const compact = body.replace(/\s+/g, '');
  if (!BASE64.test(compact)) throw new CertificateFormatError('the PEM block is not base64');
  return Buffer.from(compact, 'base64');
}

/**
 * Reads a certificate and refuses one that a qualified trust service would never issue
 * (certificate-policy.ts): every certificate the bank relies on, from a request or from its own
 * configuration, passes here, so a ParsedCertificate is always one of acceptable strength.
 * Throws CertificateFormatError for bytes that are no certificate, CertificateRefusedError (every
 * reason at once) for a certificate that is refused.
 */
export function parseCertificate(der: Buffer): ParsedCertificate {
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(der);
  } catch (error) {
    throw new CertificateFormatError(`it is not an X.509 certificate (${(error as Error).message})`);
  }
  const fields = readCertificateFields(der);
  const attribute = (oid: string) => fields.subject.find((a) => a.oid === oid)?.value;
  const name = attribute(COMMON_NAME_OID) ?? attribute(ORGANIZATION_OID) ?? '';
  let publicKey: KeyObject | undefined;
  try {
    publicKey = x509.publicKey;
  } catch {
    publicKey = undefined; // a key type node cannot read: refused below, with its OID
  }
  const reasons = certificateWeaknesses(fields, publicKey);
  const qc = fields.extensions.get(QC_STATEMENTS_OID);
  let psd2: Psd2Statement | undefined;
  try {
    psd2 = qc === undefined ? undefined : readPsd2Statement(qc);
  } catch (error) {
    if (!(error instanceof CertificateRefusedError)) throw error;
    reasons.push(...error.reasons);
  }
  if (reasons.length > 0) throw new CertificateRefusedError(reasons, name);
  return {
    x509,
    serial: BigInt(`0x${x509.serialNumber}`),
    issuer: fields.issuer,
    subject: fields.subject,
    notBefore: fields.notBefore,
    notAfter: fields.notAfter,
    publicKey: publicKey!,
    fingerprint: x509.fingerprint256,
    keySha256: keySha256Of(publicKey!),
    psd2,
    organisationId: attribute(ORGANIZATION_IDENTIFIER_OID),
    name,
    domainNames: [
      ...fields.subject.filter((a) => a.oid === COMMON_NAME_OID).map((a) => a.value),
      ...subjectAltDnsNames(fields.extensions.get(SUBJECT_ALT_NAME_OID)),
    ],
  };
}

/** What a TPP's key is known by, in a certificate or sent alone: SHA-256 (hex) of its SubjectPublicKeyInfo (DER). */
export function keySha256Of(key: KeyObject): string {
  return hash('sha256', key.export({ type: 'spki', format: 'der' }), 'hex');
}

import 'reflect-metadata';
import { X509Certificate, createPrivateKey, createPublicKey, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as x509 from '@peculiar/x509';
import { PSP_ROLES, type PspRole } from '../domain/psp-role.js';
import {
  PSD2_QC_STATEMENT_OID,
  QC_COMPLIANCE_OID,
  QC_STATEMENTS_OID,
  QC_TYPE_ESEAL_OID,
  QC_TYPE_OID,
} from './qc-statement.js';
import { CertificateRefusedError } from './der-certificate.js';
import {
  type AuthorityOptions,
  type CertificateAndKey,
  makeCertificateAuthority,
  pem,
  randomSerial,
} from './certificate-authority.js';
import { ORGANIZATION_IDENTIFIER_OID, parseCertificate } from './tpp-certificate.js';

/**
 * Issues the certificates a TPP needs to talk to the bank: a CA (the sandbox CA, or a test CA) and
 * TPP signing certificates (QSealC-like) with chosen PSD2 roles. For tests, the sandbox and people;
 * a real TPP uses the certificate its qualified trust service provider issued. The server issues with
 * it (the sandbox CA, sandbox certificates), so it lives here; the TPP toolkit hands it out unchanged
 * (toolkit/certificate-factory.ts).
 */

const crypto = webcrypto;
x509.cryptoProvider.set(crypto as unknown as Parameters<typeof x509.X509CertificateGenerator.create>[1] & object);
type CryptoKey = webcrypto.CryptoKey;

const RSA: webcrypto.RsaHashedKeyGenParams = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
};
const EC: webcrypto.EcKeyGenParams & { hash: string } = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY_MS = 86_400_000;

export type { AuthorityOptions, CertificateAndKey };

/**
 * A CA with an ECDSA P-256 key (certificate-authority.ts), read as the bank reads it before it is
 * handed out. TPP certificates keep RSA keys (rsa-sha256 signatures).
 */
export async function createCertificateAuthority(options: AuthorityOptions = {}): Promise<CertificateAndKey> {
  const ca = makeCertificateAuthority(options);
  assertBankAccepts(
    new Uint8Array(new X509Certificate(ca.certPem).raw).buffer,
    'the new CA certificate',
    'the toolkit does not hand it out',
  );
  return ca;
}

export interface TppCertificateOptions {
  /** The issuing CA's certificate and private key (PEM). */
  issuer: CertificateAndKey;
  /** PSD2 roles written in the QCStatement; an empty list writes a statement with no role. */
  roles: readonly PspRole[];
  /** organizationIdentifier, the TPP's identity at the bank, e.g. PSDNO-FSA-933012867. */
  organisationId?: string;
  name?: string;
  country?: string;
  ncaName?: string;
  ncaId?: string;
  validDays?: number;
  notBefore?: Date;
  /** Hexadecimal serial; random when not given. */
  serialHex?: string;
  /** RSA (the default, what the Berlin Group profile signs with) or EC, to test a key that does not fit. */
  keyType?: 'rsa' | 'ec';
  /** Leave out the PSD2 QCStatement, or the organisation identifier, to test a certificate that lacks them. */
  withoutQcStatement?: boolean;
  withoutOrganisationId?: boolean;
  /**
   * Certify a key the TPP holds instead of a new one: its private key (PKCS#8 PEM; the toolkit
   * renewing a certificate) or only its public key (SPKI PEM; the sandbox over HTTP, which then hands
   * out no key). A sandbox bank belongs to a key, so a renewed certificate over it keeps the bank.
   */
  keyPem?: string;
  publicKeyPem?: string;
  /** CRL distribution points written in the certificate (the CA's CRL addresses). */
  crlUrls?: readonly string[];
  /** OCSP responders written in its Authority Information Access (id-ad-ocsp). */
  ocspUrls?: readonly string[];
  /** DNS names written as SubjectAltName dNSNames: the domain of the TPP's notification URIs (docs/notifications.md). */
  dnsNames?: readonly string[];
}

export async function issueTppCertificate(options: TppCertificateOptions): Promise<CertificateAndKey> {
  const issuerCertificate = new x509.X509Certificate(options.issuer.certPem);
  assertBankAccepts(issuerCertificate.rawData, 'the CA certificate', 'the toolkit does not issue certificates from it');
  const { key: signingKey, algorithm: signingAlgorithm } = await importCaKey(options.issuer.keyPem);
  const keys = await keyPairOf(options);
  const notBefore = options.notBefore ?? new Date(Date.now() - DAY_MS);
  const subject: Record<string, string[]>[] = [{ CN: [options.name ?? 'Sandbox TPP'] }];
  if (options.withoutOrganisationId !== true) {
    subject.push({ [ORGANIZATION_IDENTIFIER_OID]: [options.organisationId ?? 'PSDNO-FSA-000000000'] });
  }
  subject.push({ O: [options.name ?? 'Sandbox TPP'] }, { C: [options.country ?? 'NO'] });
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    await x509.AuthorityKeyIdentifierExtension.create(issuerCertificate.publicKey),
  ];
  if (options.crlUrls !== undefined) extensions.push(new x509.CRLDistributionPointsExtension([...options.crlUrls]));
  if (options.ocspUrls !== undefined)
    extensions.push(new x509.AuthorityInfoAccessExtension({ ocsp: [...options.ocspUrls] }));
  if (options.dnsNames !== undefined)
    extensions.push(
      new x509.SubjectAlternativeNameExtension(options.dnsNames.map((value) => ({ type: 'dns' as const, value }))),
    );
  if (options.withoutQcStatement !== true) {
    extensions.push(
      new x509.Extension(
        QC_STATEMENTS_OID,
        false,
        qcStatements(options.roles, options.ncaName ?? 'Finanstilsynet', options.ncaId ?? 'NO-FSA'),
      ),
    );
  }
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: options.serialHex ?? randomSerial().toString('hex'),
    subject,
    issuer: issuerCertificate.subjectName,
    notBefore,
    notAfter: new Date(notBefore.getTime() + (options.validDays ?? 365) * DAY_MS),
    publicKey: keys.publicKey,
    signingKey,
    signingAlgorithm,
    extensions,
  });
  assertBankAccepts(certificate.rawData, 'the new TPP certificate', 'the toolkit does not hand it out');
  return {
    certPem: certificate.toString('pem'),
    keyPem: keys.privateKey === undefined ? (options.keyPem ?? '') : await exportKey(keys.privateKey),
  };
}

/** The key to certify: a new pair, or the public half of the key the TPP holds (its private key then stays the TPP's). */
async function keyPairOf(options: TppCertificateOptions): Promise<{ publicKey: CryptoKey; privateKey?: CryptoKey }> {
  const held = options.keyPem ?? options.publicKeyPem;
  if (held === undefined)
    return crypto.subtle.generateKey(options.keyType === 'ec' ? EC : RSA, true, ['sign', 'verify']);
  const key = createPublicKey(held);
  const algorithm = key.asymmetricKeyType === 'rsa' ? RSA : key.asymmetricKeyType === 'ec' ? EC : undefined;
  if (algorithm === undefined)
    throw new CertificateRefusedError([`has a ${key.asymmetricKeyType ?? 'unknown'} key, not RSA`], 'the TPP key');
  const spki = key.export({ format: 'der', type: 'spki' });
  return { publicKey: await crypto.subtle.importKey('spki', spki, algorithm, true, ['verify']) };
}

/**
 * The issuer never hands out what the bank refuses, nor issues from a CA the bank would not trust:
 * each certificate it makes or issues from is read as the bank reads it (certificate-policy.ts). The
 * messages speak of the toolkit, where a TPP meets them.
 */
function assertBankAccepts(der: ArrayBuffer, what: string, consequence: string): void {
  try {
    parseCertificate(Buffer.from(der));
  } catch (error) {
    if (!(error instanceof CertificateRefusedError)) throw error;
    throw new Error(
      `${what} '${error.certificateName ?? ''}' ${error.message}. The bank refuses such certificates, so ${consequence}`,
    );
  }
}

/** QCStatements with QcCompliance, QcType eseal and the PSD2 statement (ETSI TS 119 495). */
function qcStatements(roles: readonly PspRole[], ncaName: string, ncaId: string): ArrayBuffer {
  const oid = (value: string) => new asn1js.ObjectIdentifier({ value });
  const psd2 = new asn1js.Sequence({
    value: [
      oid(PSD2_QC_STATEMENT_OID),
      new asn1js.Sequence({
        value: [
          new asn1js.Sequence({
            value: roles.map(
              (role) => new asn1js.Sequence({ value: [oid(PSP_ROLES[role]), new asn1js.Utf8String({ value: role })] }),
            ),
          }),
          new asn1js.Utf8String({ value: ncaName }),
          new asn1js.Utf8String({ value: ncaId }),
        ],
      }),
    ],
  });
  return new asn1js.Sequence({
    value: [
      new asn1js.Sequence({ value: [oid(QC_COMPLIANCE_OID)] }),
      new asn1js.Sequence({ value: [oid(QC_TYPE_OID), new asn1js.Sequence({ value: [oid(QC_TYPE_ESEAL_OID)] })] }),
      psd2,
    ],
  }).toBER();
}

/** Positive serial of 16 random bytes (RFC 5280 allows up to 20 octets). */

async function exportKey(key: CryptoKey): Promise<string> {
  return pem('PRIVATE KEY', Buffer.from(await crypto.subtle.exportKey('pkcs8', key)));
}

/** A CA private key in any PEM form (PKCS#8, PKCS#1, SEC1), RSA or EC P-256, with the algorithm it signs with. */
async function importCaKey(pem: string): Promise<{ key: CryptoKey; algorithm: typeof RSA | typeof EC }> {
  const key = createPrivateKey(pem);
  const algorithm = key.asymmetricKeyType === 'rsa' ? RSA : key.asymmetricKeyType === 'ec' ? EC : undefined;
  if (algorithm === undefined)
    throw new Error(
      `the CA key is ${key.asymmetricKeyType ?? 'not a key'}; the toolkit signs certificates with an RSA or EC P-256 CA key`,
    );
  return {
    key: await crypto.subtle.importKey('pkcs8', key.export({ format: 'der', type: 'pkcs8' }), algorithm, false, [
      'sign',
    ]),
    algorithm,
  };
}

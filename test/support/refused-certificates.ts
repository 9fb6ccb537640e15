import 'reflect-metadata';
import { X509Certificate, createPrivateKey, generateKeyPairSync, randomBytes, sign, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as x509 from '@peculiar/x509';
import { PSP_ROLES } from '../../src/domain/psp-role.js';
import { PSD2_QC_STATEMENT_OID, QC_STATEMENTS_OID } from '../../src/security/qc-statement.js';
import { ORGANIZATION_IDENTIFIER_OID } from '../../src/security/tpp-certificate.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';

/**
 * Certificates a qualified trust service would never issue, made here because the toolkit refuses to
 * make them. Each is otherwise a good TPP certificate: trusted issuer, valid dates, PSD2 roles
 * PSP_PI and PSP_AI, organisation identifier.
 */

const crypto = webcrypto;
x509.cryptoProvider.set(crypto as unknown as Parameters<typeof x509.X509CertificateGenerator.create>[1] & object);

const DAY_MS = 86_400_000;
const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256' };
const RSA_ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };

export type Hash = 'SHA-1' | 'SHA-256' | 'SHA-384' | 'SHA-512';

export interface RefusedOptions {
  /** The issuing CA (its key signs): EC P-256, as the toolkit makes, or RSA. */
  issuer: CertificateAndKey;
  /** SPKI DER of the certificate's key; a new RSA-2048 key when not given. */
  publicKeySpki?: Buffer;
  /** The private key that goes with the certificate (PEM), returned as keyPem. */
  keyPem?: string;
  /** Hash of the issuer's signature (SHA-256 unless told). */
  hash?: Hash;
  /** Role entries of the PSD2 QCStatement as written, OID and name. */
  roles?: { oid: string; name: string }[];
  name?: string;
  organisationId?: string;
}

/** An RSA key pair of any size and public exponent, as SPKI DER and PKCS#8 PEM. */
export function rsaKey(modulusLength: number, publicExponent = 65537): { spki: Buffer; keyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength, publicExponent });
  return {
    spki: publicKey.export({ type: 'spki', format: 'der' }),
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** A key pair of another type (ec on a named curve, dsa, ed25519), as SPKI DER and PKCS#8 PEM. */
export function otherKey(type: 'ec' | 'dsa' | 'ed25519', namedCurve = 'prime256v1'): { spki: Buffer; keyPem: string } {
  const pair =
    type === 'ec'
      ? generateKeyPairSync('ec', { namedCurve })
      : type === 'dsa'
        ? generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 })
        : generateKeyPairSync('ed25519');
  return {
    spki: pair.publicKey.export({ type: 'spki', format: 'der' }),
    keyPem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** A TPP certificate as the toolkit would issue it, but with the key, hash or roles given. */
export async function issueRefused(options: RefusedOptions): Promise<CertificateAndKey> {
  const key =
    options.publicKeySpki === undefined ? rsaKey(2048) : { spki: options.publicKeySpki, keyPem: options.keyPem ?? '' };
  const issuer = new x509.X509Certificate(options.issuer.certPem);
  const { signingKey, signingAlgorithm } = await importIssuerKey(options.issuer.keyPem, options.hash ?? 'SHA-256');
  const roles = options.roles ?? [
    { oid: PSP_ROLES.PSP_PI, name: 'PSP_PI' },
    { oid: PSP_ROLES.PSP_AI, name: 'PSP_AI' },
  ];
  const name = options.name ?? 'Refused TPP AS';
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: [
      { CN: [name] },
      { [ORGANIZATION_IDENTIFIER_OID]: [options.organisationId ?? 'PSDNO-FSA-111111111'] },
      { O: [name] },
      { C: ['NO'] },
    ],
    issuer: issuer.subjectName,
    notBefore: new Date(Date.now() - DAY_MS),
    notAfter: new Date(Date.now() + 365 * DAY_MS),
    publicKey: key.spki,
    signingKey,
    signingAlgorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation, true),
      new x509.Extension(QC_STATEMENTS_OID, false, psd2Statement(roles)),
    ],
  });
  return { certPem: certificate.toString('pem'), keyPem: key.keyPem };
}

/** A self-signed CA with the key and hash given (RSA of any size, or EC P-256). */
export async function refusedAuthority(options: {
  rsaBits?: number;
  hash?: Hash;
  commonName?: string;
}): Promise<CertificateAndKey> {
  const algorithm =
    options.rsaBits === undefined
      ? { ...EC_P256, hash: options.hash ?? 'SHA-256' }
      : { ...RSA_ALGORITHM, modulusLength: options.rsaBits, hash: options.hash ?? 'SHA-256' };
  const keys = (await crypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: [{ CN: [options.commonName ?? 'Refused CA'] }, { O: ['Refused CA Ltd'] }, { C: ['NO'] }],
    notBefore: new Date(Date.now() - DAY_MS),
    notAfter: new Date(Date.now() + 3650 * DAY_MS),
    keys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    ],
  });
  const der = Buffer.from(await crypto.subtle.exportKey('pkcs8', keys.privateKey));
  return {
    certPem: certificate.toString('pem'),
    keyPem: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })
      .export({ type: 'pkcs8', format: 'pem' })
      .toString(),
  };
}

const SHA256_WITH_RSA = Buffer.from('06092a864886f70d01010b', 'hex');

/**
 * The certificate re-signed by its RSA issuer with an RSA PKCS#1 v1.5 algorithm WebCrypto does not
 * offer (md5WithRSAEncryption: last OID byte 4, sha224WithRSAEncryption: 14), both AlgorithmIdentifiers
 * changed. With `resign` false the signature is left as it was (for MD2, which OpenSSL 3 no longer signs).
 */
export function withRsaSignatureAlgorithm(
  certificate: CertificateAndKey,
  issuerKeyPem: string,
  lastOidByte: number,
  hash: string | undefined,
): CertificateAndKey {
  const der = Buffer.from(new X509Certificate(certificate.certPem).raw);
  let at = -1;
  let replaced = 0;
  while ((at = der.indexOf(SHA256_WITH_RSA, at + 1)) !== -1) {
    der[at + SHA256_WITH_RSA.length - 1] = lastOidByte;
    replaced += 1;
  }
  if (replaced !== 2) throw new Error(`expected sha256WithRSAEncryption twice, found it ${replaced} times`);
  if (hash !== undefined) {
    const [tbs] = (asn1js.fromBER(der).result as asn1js.Sequence).valueBlock.value;
    const signature = sign(hash, tbs!.valueBeforeDecodeView, createPrivateKey(issuerKeyPem));
    signature.copy(der, der.length - signature.length);
  }
  return { certPem: pem(der), keyPem: certificate.keyPem };
}

/** Replaces the first occurrence of `from` with `to` (same length) in the certificate's DER. */
export function withBytesReplaced(certificate: CertificateAndKey, from: Buffer, to: Buffer): CertificateAndKey {
  const der = Buffer.from(new X509Certificate(certificate.certPem).raw);
  const at = der.indexOf(from);
  if (at === -1 || from.length !== to.length) throw new Error('nothing to replace');
  to.copy(der, at);
  return { certPem: pem(der), keyPem: certificate.keyPem };
}

export function pem(der: Buffer): string {
  return `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END CERTIFICATE-----\n`;
}

async function importIssuerKey(
  keyPem: string,
  hash: Hash,
): Promise<{ signingKey: webcrypto.CryptoKey; signingAlgorithm: Algorithm }> {
  const key = createPrivateKey(keyPem);
  const signingAlgorithm = key.asymmetricKeyType === 'rsa' ? { ...RSA_ALGORITHM, hash } : { ...EC_P256, hash };
  const signingKey = await crypto.subtle.importKey(
    'pkcs8',
    key.export({ format: 'der', type: 'pkcs8' }),
    signingAlgorithm,
    false,
    ['sign'],
  );
  return { signingKey, signingAlgorithm };
}

type Algorithm = { name: string; hash: string };

function psd2Statement(roles: { oid: string; name: string }[]): ArrayBuffer {
  const oid = (value: string) => new asn1js.ObjectIdentifier({ value });
  const utf8 = (value: string) => new asn1js.Utf8String({ value });
  return new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [
          oid(PSD2_QC_STATEMENT_OID),
          new asn1js.Sequence({
            value: [
              new asn1js.Sequence({
                value: roles.map((r) => new asn1js.Sequence({ value: [oid(r.oid), utf8(r.name)] })),
              }),
              utf8('Finanstilsynet'),
              utf8('NO-FSA'),
            ],
          }),
        ],
      }),
    ],
  }).toBER();
}

function randomSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f || 0x01;
  return bytes.toString('hex');
}

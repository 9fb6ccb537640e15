import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import * as asn1js from 'asn1js';

/** A certificate and its private key, each as PEM text. */
export interface CertificateAndKey {
  certPem: string;
  keyPem: string;
}

export interface AuthorityOptions {
  commonName?: string;
  organisation?: string;
  country?: string;
  validDays?: number;
  notBefore?: Date;
}

const DAY_MS = 86_400_000;
const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const COMMON_NAME = '2.5.4.3';
const ORGANISATION = '2.5.4.10';
const COUNTRY = '2.5.4.6';
const BASIC_CONSTRAINTS = '2.5.29.19';
const KEY_USAGE = '2.5.29.15';
const SUBJECT_KEY_IDENTIFIER = '2.5.29.14';
/** keyCertSign (bit 5) and cRLSign (bit 6) of the KeyUsage bit string, its last bit unused. */
const KEY_CERT_SIGN_AND_CRL_SIGN = 0x06;
/** RFC 5280, 4.1.2.5: dates through 2049 are UTCTime, later ones GeneralizedTime. */
const FIRST_GENERALIZED_TIME_YEAR = 2050;

/**
 * A self-signed CA with an ECDSA P-256 key (docs/decisions/0026), encoded with asn1js, which the
 * server loads anyway to read certificates. The sandbox makes its CA with it on a first start,
 * in the main thread: the certificate library the TPP certificates are issued with took a worker
 * thread and about 250 ms of CPU to load, most of a first start's (docs/decisions/0365).
 * The certificate has what a CA's needs (RFC 5280): the basic constraints and key usage of a CA,
 * both critical, and the key identifier (SHA-1 of the public key, 4.2.1.2) that the certificates it
 * issues name as their authority key.
 */
export function makeCertificateAuthority(options: AuthorityOptions = {}): CertificateAndKey {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const spkiAsn = asn1js.fromBER(spki).result as asn1js.Sequence;
  const keyBits = (spkiAsn.valueBlock.value[1] as asn1js.BitString).valueBlock.valueHexView;
  const notBefore = options.notBefore ?? new Date(Date.now() - DAY_MS);
  const notAfter = new Date(notBefore.getTime() + (options.validDays ?? 3650) * DAY_MS);
  const tbs = new asn1js.Sequence({
    value: [
      new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 0 }, value: [new asn1js.Integer({ value: 2 })] }),
      new asn1js.Integer({ valueHex: randomSerial() }),
      signatureAlgorithm(),
      distinguishedName(options),
      new asn1js.Sequence({ value: [time(notBefore), time(notAfter)] }),
      distinguishedName(options),
      spkiAsn,
      new asn1js.Constructed({
        idBlock: { tagClass: 3, tagNumber: 3 },
        value: [
          new asn1js.Sequence({
            value: [
              extension(BASIC_CONSTRAINTS, true, new asn1js.Sequence({ value: [new asn1js.Boolean({ value: true })] })),
              extension(
                KEY_USAGE,
                true,
                new asn1js.BitString({ valueHex: new Uint8Array([KEY_CERT_SIGN_AND_CRL_SIGN]), unusedBits: 1 }),
              ),
              extension(
                SUBJECT_KEY_IDENTIFIER,
                false,
                new asn1js.OctetString({ valueHex: createHash('sha1').update(keyBits).digest() }),
              ),
            ],
          }),
        ],
      }),
    ],
  });
  const tbsDer = Buffer.from(tbs.toBER());
  const certificate = new asn1js.Sequence({
    value: [
      asn1js.fromBER(tbsDer).result,
      signatureAlgorithm(),
      new asn1js.BitString({ valueHex: sign('sha256', tbsDer, privateKey) }),
    ],
  });
  return {
    certPem: pem('CERTIFICATE', Buffer.from(certificate.toBER())),
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}

function distinguishedName(options: AuthorityOptions): asn1js.Sequence {
  const part = (oid: string, value: asn1js.BaseBlock) =>
    new asn1js.Set({ value: [new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: oid }), value] })] });
  return new asn1js.Sequence({
    value: [
      part(COMMON_NAME, new asn1js.Utf8String({ value: options.commonName ?? 'Sandbox PSD2 Test CA' })),
      part(ORGANISATION, new asn1js.Utf8String({ value: options.organisation ?? 'Sandbox Bank ASA' })),
      part(COUNTRY, new asn1js.PrintableString({ value: options.country ?? 'NO' })),
    ],
  });
}

function signatureAlgorithm(): asn1js.Sequence {
  return new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: ECDSA_WITH_SHA256 })] });
}

/** A validity date, to the second: RFC 5280 allows no fractions of a second. */
function time(at: Date): asn1js.BaseBlock {
  const valueDate = new Date(Math.floor(at.getTime() / 1000) * 1000);
  return valueDate.getUTCFullYear() < FIRST_GENERALIZED_TIME_YEAR
    ? new asn1js.UTCTime({ valueDate })
    : new asn1js.GeneralizedTime({ valueDate });
}

function extension(oid: string, critical: boolean, value: asn1js.BaseBlock): asn1js.Sequence {
  return new asn1js.Sequence({
    value: [
      new asn1js.ObjectIdentifier({ value: oid }),
      ...(critical ? [new asn1js.Boolean({ value: true })] : []),
      new asn1js.OctetString({ valueHex: value.toBER() }),
    ],
  });
}

/** A positive serial of 16 random bytes, its first byte never zero so that its encoding is the shortest. */
export function randomSerial(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f || 0x01;
  return bytes;
}

/** DER as PEM text under `label`, in lines of 64 characters (RFC 7468). */
export function pem(label: string, der: Buffer): string {
  return `-----BEGIN ${label}-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END ${label}-----\n`;
}

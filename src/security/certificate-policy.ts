import type { KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import {
  CERTIFICATE_EC_MIN_BITS,
  CERTIFICATE_RSA_MIN_BITS,
  CERTIFICATE_RSA_MIN_PUBLIC_EXPONENT,
  CERTIFICATE_SIGNATURE_HASH_MIN_BITS,
} from '../domain/limits.js';
import { type AlgorithmIdentifier, type CertificateFields, shownOid } from './der-certificate.js';

/**
 * What a qualified trust service issues (the cryptographic suites of ETSI TS 119 312 and the
 * CA/Browser Forum's minimums): RSA keys of at least 2048 bits, EC keys on P-256, P-384, P-521 or the
 * Brainpool curves of the same sizes, signed with SHA-256 or a stronger hash, one DER certificate.
 * The bank refuses anything else, whoever issued it: a CA that signs a 1024-bit key or with SHA-1 is
 * not one whose word the bank can rely on, and a forged certificate often looks like that.
 */

/** EC curves trust services issue keys on, by the name node gives them, with the name people know. */
const ACCEPTED_CURVES: Readonly<Record<string, string>> = {
  prime256v1: 'P-256',
  secp384r1: 'P-384',
  secp521r1: 'P-521',
  brainpoolP256r1: 'brainpoolP256r1',
  brainpoolP384r1: 'brainpoolP384r1',
  brainpoolP512r1: 'brainpoolP512r1',
};
const ACCEPTED_CURVE_LIST = Object.values(ACCEPTED_CURVES).join(', ');

const ACCEPTED_KEYS = `RSA keys of at least ${CERTIFICATE_RSA_MIN_BITS} bits and EC keys on ${ACCEPTED_CURVE_LIST}`;

export type Hash = 'MD2' | 'MD4' | 'MD5' | 'SHA-1' | 'SHA-224' | 'SHA-256' | 'SHA-384' | 'SHA-512';

/** Output bits of each hash; MD2, MD4, MD5 and SHA-1 are broken whatever their length (collisions are computed). */
const HASH_BITS: Readonly<Record<Hash, number>> = {
  MD2: 128,
  MD4: 128,
  MD5: 128,
  'SHA-1': 160,
  'SHA-224': 224,
  'SHA-256': 256,
  'SHA-384': 384,
  'SHA-512': 512,
};
const BROKEN_HASHES: ReadonlySet<Hash> = new Set(['MD2', 'MD4', 'MD5', 'SHA-1']);

const RSASSA_PSS_OID = '1.2.840.113549.1.1.10';

/** Certificate signature algorithms by OID: name and hash. RSASSA-PSS names its hash in its parameters. */
const SIGNATURE_ALGORITHMS: Readonly<Record<string, { name: string; hash: Hash }>> = {
  '1.2.840.113549.1.1.2': { name: 'md2WithRSAEncryption', hash: 'MD2' },
  '1.2.840.113549.1.1.3': { name: 'md4WithRSAEncryption', hash: 'MD4' },
  '1.2.840.113549.1.1.4': { name: 'md5WithRSAEncryption', hash: 'MD5' },
  '1.2.840.113549.1.1.5': { name: 'sha1WithRSAEncryption', hash: 'SHA-1' },
  '1.3.14.3.2.3': { name: 'md5WithRSA', hash: 'MD5' },
  '1.3.14.3.2.29': { name: 'sha1WithRSA', hash: 'SHA-1' },
  '1.2.840.10040.4.3': { name: 'dsa-with-sha1', hash: 'SHA-1' },
  '1.2.840.10045.4.1': { name: 'ecdsa-with-SHA1', hash: 'SHA-1' },
  '1.2.840.113549.1.1.14': { name: 'sha224WithRSAEncryption', hash: 'SHA-224' },
  '1.2.840.10045.4.3.1': { name: 'ecdsa-with-SHA224', hash: 'SHA-224' },
  '1.2.840.113549.1.1.11': { name: 'sha256WithRSAEncryption', hash: 'SHA-256' },
  '1.2.840.113549.1.1.12': { name: 'sha384WithRSAEncryption', hash: 'SHA-384' },
  '1.2.840.113549.1.1.13': { name: 'sha512WithRSAEncryption', hash: 'SHA-512' },
  '1.2.840.10045.4.3.2': { name: 'ecdsa-with-SHA256', hash: 'SHA-256' },
  '1.2.840.10045.4.3.3': { name: 'ecdsa-with-SHA384', hash: 'SHA-384' },
  '1.2.840.10045.4.3.4': { name: 'ecdsa-with-SHA512', hash: 'SHA-512' },
};

/** Hash algorithm OIDs, as RSASSA-PSS parameters name them (RFC 4055). */
const HASH_OIDS: Readonly<Record<string, Hash>> = {
  '1.2.840.113549.2.2': 'MD2',
  '1.2.840.113549.2.5': 'MD5',
  '1.3.14.3.2.26': 'SHA-1',
  '2.16.840.1.101.3.4.2.4': 'SHA-224',
  '2.16.840.1.101.3.4.2.1': 'SHA-256',
  '2.16.840.1.101.3.4.2.2': 'SHA-384',
  '2.16.840.1.101.3.4.2.3': 'SHA-512',
};

/**
 * Every reason a qualified trust service would never have issued this certificate; empty when there
 * is none. Each reason follows the certificate's name: "has a 1024-bit RSA key; ...".
 * `publicKey` is undefined when node could not read the key.
 */
export function certificateWeaknesses(fields: CertificateFields, publicKey: KeyObject | undefined): string[] {
  const reasons: string[] = [];
  if (fields.trailingBytes > 0) {
    reasons.push(
      `has ${fields.trailingBytes} byte${fields.trailingBytes === 1 ? '' : 's'} after the end of its DER encoding; a certificate is exactly one DER SEQUENCE, with nothing after it`,
    );
  }
  const signature = signatureWeakness(fields.signatureAlgorithm);
  if (signature !== undefined) reasons.push(signature);
  else if (!sameBytes(fields.signatureAlgorithm.der, fields.tbsSignatureAlgorithm.der)) {
    reasons.push(
      `is signed with ${algorithmName(fields.signatureAlgorithm)}, but its signed part names ${algorithmName(fields.tbsSignatureAlgorithm)}; RFC 5280 requires the two to be the same`,
    );
  }
  const key = keyWeakness(fields, publicKey);
  if (key !== undefined) reasons.push(key);
  return reasons;
}

function signatureWeakness(algorithm: AlgorithmIdentifier): string | undefined {
  const hash = hashOf(algorithm);
  const name = algorithmName(algorithm);
  const required = `certificates must be signed with RSA or ECDSA and a hash of at least ${CERTIFICATE_SIGNATURE_HASH_MIN_BITS} bits (SHA-256, SHA-384 or SHA-512)`;
  if (hash === undefined) return `is signed with ${name}, which the bank does not verify; ${required}`;
  if (BROKEN_HASHES.has(hash))
    return `is signed with ${name}: ${hash} is broken (collisions can be computed), so the issuer's signature does not bind what the certificate says; ${required}`;
  if (HASH_BITS[hash] < CERTIFICATE_SIGNATURE_HASH_MIN_BITS)
    return `is signed with ${name}: ${hash} has ${HASH_BITS[hash]} bits; ${required}`;
  return undefined;
}

/**
 * The hash of a signature the bank relies on, by the same rule as a certificate's (RSA or ECDSA with
 * SHA-256, SHA-384 or SHA-512): an OCSP answer a CA signed with SHA-1 binds no more than its
 * certificates would. Undefined for any other algorithm; `signatureAlgorithmName` says which it was.
 */
export function acceptedSignatureHash(algorithm: AlgorithmIdentifier): { hash: Hash; pss: boolean } | undefined {
  if (signatureWeakness(algorithm) !== undefined) return undefined;
  return { hash: hashOf(algorithm)!, pss: algorithm.oid === RSASSA_PSS_OID };
}

export { algorithmName as signatureAlgorithmName };

function hashOf(algorithm: AlgorithmIdentifier): Hash | undefined {
  if (algorithm.oid === RSASSA_PSS_OID) return pssHash(algorithm.parameters);
  return SIGNATURE_ALGORITHMS[algorithm.oid]?.hash;
}

/** RSASSA-PSS-params: SEQUENCE { [0] hashAlgorithm DEFAULT sha1, ... } (RFC 4055, section 3.1). */
function pssHash(parameters: asn1js.AsnType | undefined): Hash | undefined {
  if (!(parameters instanceof asn1js.Sequence)) return undefined;
  const tagged = parameters.valueBlock.value.find(
    (item) => item.idBlock.tagClass === 3 && item.idBlock.tagNumber === 0,
  );
  if (tagged === undefined) return 'SHA-1';
  const inner = (tagged as asn1js.Constructed).valueBlock?.value?.[0];
  const oid = inner instanceof asn1js.Sequence ? inner.valueBlock.value[0] : undefined;
  return oid instanceof asn1js.ObjectIdentifier ? HASH_OIDS[oid.getValue()] : undefined;
}

function algorithmName(algorithm: AlgorithmIdentifier): string {
  if (algorithm.oid === RSASSA_PSS_OID) return `RSASSA-PSS with ${pssHash(algorithm.parameters) ?? 'an unknown hash'}`;
  return SIGNATURE_ALGORITHMS[algorithm.oid]?.name ?? `algorithm ${shownOid(algorithm.oid)}`;
}

function keyWeakness(fields: CertificateFields, publicKey: KeyObject | undefined): string | undefined {
  if (publicKey === undefined) {
    return `has a public key of a type the bank cannot read (algorithm ${shownOid(fields.publicKeyAlgorithm.oid)}); the bank accepts ${ACCEPTED_KEYS}`;
  }
  const type = publicKey.asymmetricKeyType;
  const details = publicKey.asymmetricKeyDetails ?? {};
  if (type === 'rsa' || type === 'rsa-pss') {
    const bits = details.modulusLength ?? 0;
    if (bits < CERTIFICATE_RSA_MIN_BITS)
      return `has a ${bits}-bit RSA key; at least ${CERTIFICATE_RSA_MIN_BITS} bits are required`;
    const exponent = details.publicExponent ?? 0n;
    if (exponent < CERTIFICATE_RSA_MIN_PUBLIC_EXPONENT || exponent % 2n === 0n) {
      return `has an RSA key with public exponent ${exponent}; it must be odd and at least ${CERTIFICATE_RSA_MIN_PUBLIC_EXPONENT}`;
    }
    return undefined;
  }
  if (type === 'ec') {
    const curve = details.namedCurve;
    if (curve === undefined)
      return `has an EC key with explicit curve parameters instead of a named curve; the bank accepts EC keys on ${ACCEPTED_CURVE_LIST}`;
    if (Object.hasOwn(ACCEPTED_CURVES, curve)) return undefined;
    const bits = ecFieldBits(fields.publicKeyBytes);
    if (bits < CERTIFICATE_EC_MIN_BITS) {
      return `has an EC key on the ${bits}-bit curve ${curve}, weaker than P-256; EC keys must be on a curve of at least ${CERTIFICATE_EC_MIN_BITS} bits: ${ACCEPTED_CURVE_LIST}`;
    }
    return `has an EC key on curve ${curve}, which qualified certificates do not use; the bank accepts EC keys on ${ACCEPTED_CURVE_LIST}`;
  }
  const display = displayKeyType(type);
  return `has ${/^[AEIOUX]/i.test(display) ? 'an' : 'a'} ${display} key, which the bank does not verify; the bank accepts ${ACCEPTED_KEYS}`;
}

/** The field size of an EC public point: 04 || X || Y uncompressed, 02/03 || X compressed. */
function ecFieldBits(point: Uint8Array): number {
  const coordinateBytes = point[0] === 0x04 ? (point.length - 1) / 2 : point.length - 1;
  return Math.floor(coordinateBytes) * 8;
}

function displayKeyType(type: string | undefined): string {
  switch (type) {
    case 'dsa':
      return 'DSA';
    case 'ed25519':
      return 'Ed25519';
    case 'ed448':
      return 'Ed448';
    case 'x25519':
      return 'X25519';
    case 'x448':
      return 'X448';
    case 'dh':
      return 'Diffie-Hellman';
    default:
      return type ?? 'unknown';
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

import { type KeyObject, constants, publicDecrypt } from 'node:crypto';

/**
 * The DER prefix of each hash's DigestInfo (RFC 8017, section 9.2, note 1): what an RSA PKCS#1 v1.5
 * signature holds before the hash itself.
 */
const DIGEST_INFO_PREFIXES: readonly { hash: string; prefix: Buffer }[] = [
  { hash: 'sha256', prefix: Buffer.from('3031300d060960864801650304020105000420', 'hex') },
  { hash: 'sha512', prefix: Buffer.from('3051300d060960864801650304020305000440', 'hex') },
  { hash: 'sha384', prefix: Buffer.from('3041300d060960864801650304020205000430', 'hex') },
  { hash: 'sha224', prefix: Buffer.from('302d300d06096086480165030402040500041c', 'hex') },
  { hash: 'sha1', prefix: Buffer.from('3021300906052b0e03021a05000414', 'hex') },
];

/** The hash a signature was made over, and with which algorithm. */
export interface SignedDigest {
  /** Node's name of the hash: sha256, sha512, … */
  hash: string;
  digest: Buffer;
}

/**
 * The hash inside an RSA PKCS#1 v1.5 signature, opened with the certificate's public key: undefined
 * when the key is not RSA, or the signature was not made with its private key (the padding is then
 * noise). With it the explainer can tell "another key" from "another text", and try texts by hashing
 * them alone.
 */
export function recoverSignedDigest(signature: Buffer, publicKey: KeyObject): SignedDigest | undefined {
  if (publicKey.asymmetricKeyType !== 'rsa') return undefined;
  let opened: Buffer;
  try {
    opened = publicDecrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, signature);
  } catch {
    return undefined;
  }
  for (const { hash, prefix } of DIGEST_INFO_PREFIXES) {
    if (opened.length > prefix.length && opened.subarray(0, prefix.length).equals(prefix)) {
      return { hash, digest: opened.subarray(prefix.length) };
    }
  }
  return undefined;
}

/** The bytes a signature by this key has: its modulus length (undefined for a key that is not RSA). */
export function signatureBytesOf(publicKey: KeyObject): number | undefined {
  const bits = publicKey.asymmetricKeyDetails?.modulusLength;
  return publicKey.asymmetricKeyType === 'rsa' && bits !== undefined ? Math.ceil(bits / 8) : undefined;
}

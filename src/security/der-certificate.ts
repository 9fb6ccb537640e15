import * as asn1js from 'asn1js';
import { CERTIFICATE_OID_SHOWN_MAX_LENGTH } from '../domain/limits.js';

/** One attribute of a distinguished name, as it stands in the certificate. */
export interface NameAttribute {
  oid: string;
  value: string;
}

/** An AlgorithmIdentifier (RFC 5280, section 4.1.1.2). */
export interface AlgorithmIdentifier {
  oid: string;
  /** The parameters, when present (a curve OID, RSASSA-PSS parameters, NULL). */
  parameters: asn1js.AsnType | undefined;
  /** The whole AlgorithmIdentifier as encoded, to compare two of them byte for byte. */
  der: Uint8Array;
}

/** The parts of an X.509 certificate that node:crypto does not expose. */
export interface CertificateFields {
  issuer: NameAttribute[];
  /** The issuer Name as encoded, and the serial number's INTEGER content: what an OCSP CertID is made of (RFC 6960, 4.1.1). */
  issuerDer: Uint8Array;
  serialNumberBytes: Uint8Array;
  subject: NameAttribute[];
  notBefore: Date;
  notAfter: Date;
  /** extnValue bytes (the DER inside the OCTET STRING) by extension OID. */
  extensions: Map<string, Uint8Array>;
  /** signatureAlgorithm after the TBSCertificate: what the issuer signed with. */
  signatureAlgorithm: AlgorithmIdentifier;
  /** The signature field inside the TBSCertificate, which RFC 5280 requires to equal signatureAlgorithm. */
  tbsSignatureAlgorithm: AlgorithmIdentifier;
  /** subjectPublicKeyInfo: the key's algorithm (with its curve for EC) and the key bytes of the BIT STRING. */
  publicKeyAlgorithm: AlgorithmIdentifier;
  publicKeyBytes: Uint8Array;
  /** Bytes after the end of the certificate's SEQUENCE: a certificate is exactly one, so any is an error. */
  trailingBytes: number;
}

/** An OID read from a certificate, as an error message quotes it: cut short, since its length is the sender's choice. */
export function shownOid(oid: string): string {
  return oid.length <= CERTIFICATE_OID_SHOWN_MAX_LENGTH ? oid : `${oid.slice(0, CERTIFICATE_OID_SHOWN_MAX_LENGTH)}…`;
}

/** Bytes that cannot be read as a certificate. */
export class CertificateFormatError extends Error {}

/**
 * A certificate that reads well but that a qualified trust service would never issue: a weak key, a
 * broken signature hash, bytes after its end, a PSD2 role given only by name. Each reason is a phrase
 * that follows the certificate ("has a 1024-bit RSA key; at least 2048 bits are required"), so the
 * caller can say which certificate it is and where it came from.
 */
export class CertificateRefusedError extends Error {
  constructor(
    readonly reasons: readonly string[],
    readonly certificateName?: string,
  ) {
    super(reasons.join('; and it '));
  }
}

/**
 * Walks the TBSCertificate of RFC 5280 (section 4.1). The structure is fixed by the standard,
 * so this reads positions rather than pulling in a full PKI library on the request path.
 */
export function readCertificateFields(der: Uint8Array): CertificateFields {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1) throw new CertificateFormatError(`not DER: ${parsed.result.error}`);
  const [tbs, outerAlgorithm] = childrenOf(parsed.result);
  if (tbs === undefined) throw new CertificateFormatError('no TBSCertificate');
  const items = childrenOf(tbs);
  let index = isContextTag(items[0], 0) ? 1 : 0; // optional [0] version
  const serialNumber = items[index++];
  if (!(serialNumber instanceof asn1js.Integer)) throw new CertificateFormatError('serialNumber is not an INTEGER');
  const tbsSignatureAlgorithm = readAlgorithm(items[index++]);
  const issuerBlock = items[index++];
  const issuer = readName(issuerBlock);
  const validity = childrenOf(items[index++]);
  const subject = readName(items[index++]);
  const [keyAlgorithm, keyBits] = childrenOf(items[index++]);
  if (!(keyBits instanceof asn1js.BitString))
    throw new CertificateFormatError('subjectPublicKeyInfo has no BIT STRING');
  const extensions = new Map<string, Uint8Array>();
  for (const item of items.slice(index)) {
    if (!isContextTag(item, 3)) continue;
    for (const extension of childrenOf(childrenOf(item)[0])) {
      const parts = childrenOf(extension);
      const oid = parts[0];
      const value = parts[parts.length - 1];
      if (oid instanceof asn1js.ObjectIdentifier && value instanceof asn1js.OctetString) {
        extensions.set(oid.getValue(), value.valueBlock.valueHexView);
      }
    }
  }
  return {
    issuer,
    issuerDer: new Uint8Array(issuerBlock!.valueBeforeDecodeView),
    serialNumberBytes: serialNumber.valueBlock.valueHexView,
    subject,
    notBefore: readTime(validity[0]),
    notAfter: readTime(validity[1]),
    extensions,
    signatureAlgorithm: readAlgorithm(outerAlgorithm),
    tbsSignatureAlgorithm,
    publicKeyAlgorithm: readAlgorithm(keyAlgorithm),
    publicKeyBytes: keyBits.valueBlock.valueHexView,
    trailingBytes: der.byteLength - parsed.offset,
  };
}

/** An AlgorithmIdentifier's OID and parameters, as they stand. */
export function readAlgorithm(block: asn1js.AsnType | undefined): AlgorithmIdentifier {
  const [oid, parameters] = childrenOf(block);
  if (!(oid instanceof asn1js.ObjectIdentifier)) throw new CertificateFormatError('AlgorithmIdentifier without OID');
  return { oid: oid.getValue(), parameters, der: new Uint8Array(block!.valueBeforeDecodeView) };
}

function readName(block: asn1js.AsnType | undefined): NameAttribute[] {
  const attributes: NameAttribute[] = [];
  for (const rdn of childrenOf(block)) {
    for (const pair of childrenOf(rdn)) {
      const [type, value] = childrenOf(pair);
      if (!(type instanceof asn1js.ObjectIdentifier)) throw new CertificateFormatError('name attribute without OID');
      attributes.push({ oid: type.getValue(), value: stringValue(value) });
    }
  }
  return attributes;
}

function readTime(block: asn1js.AsnType | undefined): Date {
  if (block instanceof asn1js.UTCTime || block instanceof asn1js.GeneralizedTime) return block.toDate();
  throw new CertificateFormatError('validity is not a time');
}

/** The text of any ASN.1 string type (UTF8String, PrintableString, IA5String, BMPString, ...). */
export function stringValue(block: asn1js.AsnType | undefined): string {
  const candidate = block as { getValue?: () => unknown } | undefined;
  const value = typeof candidate?.getValue === 'function' ? candidate.getValue() : undefined;
  if (typeof value === 'string') return value;
  throw new CertificateFormatError('expected a string value');
}

export function childrenOf(block: asn1js.AsnType | undefined): asn1js.AsnType[] {
  if (block instanceof asn1js.Constructed) return block.valueBlock.value;
  const value = (block as { valueBlock?: { value?: unknown } } | undefined)?.valueBlock?.value;
  if (Array.isArray(value)) return value as asn1js.AsnType[];
  throw new CertificateFormatError('expected a constructed value');
}

function isContextTag(block: asn1js.AsnType | undefined, tagNumber: number): boolean {
  const id = (block as { idBlock?: { tagClass: number; tagNumber: number } } | undefined)?.idBlock;
  return id !== undefined && id.tagClass === 3 && id.tagNumber === tagNumber;
}

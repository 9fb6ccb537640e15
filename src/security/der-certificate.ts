import * as asn1js from 'asn1js';

/** One attribute of a distinguished name, as it stands in the certificate. */
export interface NameAttribute {
  oid: string;
  value: string;
}

/** The parts of an X.509 certificate that node:crypto does not expose. */
export interface CertificateFields {
  issuer: NameAttribute[];
  subject: NameAttribute[];
  notBefore: Date;
  notAfter: Date;
  /** extnValue bytes (the DER inside the OCTET STRING) by extension OID. */
  extensions: Map<string, Uint8Array>;
}

export class CertificateFormatError extends Error {}

/**
 * Walks the TBSCertificate of RFC 5280 (section 4.1). The structure is fixed by the standard,
 * so this reads positions rather than pulling in a full PKI library on the request path.
 */
export function readCertificateFields(der: Uint8Array): CertificateFields {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1) throw new CertificateFormatError(`not DER: ${parsed.result.error}`);
  const tbs = childrenOf(parsed.result)[0];
  if (tbs === undefined) throw new CertificateFormatError('no TBSCertificate');
  const items = childrenOf(tbs);
  let index = isContextTag(items[0], 0) ? 1 : 0; // optional [0] version
  index += 2; // serialNumber, signature algorithm
  const issuer = readName(items[index++]);
  const validity = childrenOf(items[index++]);
  const subject = readName(items[index++]);
  index += 1; // subjectPublicKeyInfo
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
  return { issuer, subject, notBefore: readTime(validity[0]), notAfter: readTime(validity[1]), extensions };
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

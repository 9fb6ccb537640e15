import * as asn1js from 'asn1js';
import { childrenOf } from './der-certificate.js';

/** subjectAltName (RFC 5280, 4.2.1.6). */
export const SUBJECT_ALT_NAME_OID = '2.5.29.17';

/**
 * The dNSName entries ([2] IA5String) of a subjectAltName extension's value, as written: what a
 * TPP-Notification-URI's host is judged against, with the CN (docs/notifications.md). Read from the
 * DER rather than from node's text form of the extension, which joins the names with ", " and so
 * needs its own quoting rules read back. An extension that cannot be read names none: the TPP is then
 * judged by its CN alone, and the certificate itself was already accepted.
 */
export function subjectAltDnsNames(extensionValue: Uint8Array | undefined): string[] {
  if (extensionValue === undefined) return [];
  const parsed = asn1js.fromBER(extensionValue);
  if (parsed.offset === -1) return [];
  let names: asn1js.AsnType[];
  try {
    names = childrenOf(parsed.result);
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const name of names) {
    const id = name.idBlock;
    if (id.tagClass !== 3 || id.tagNumber !== 2 || id.isConstructed) continue;
    const bytes = new Uint8Array((name.valueBlock as unknown as { valueHexView: Uint8Array }).valueHexView);
    // IA5String: seven-bit ASCII; a name with any other byte is no DNS name.
    if (bytes.every((byte) => byte < 0x80)) found.push(Buffer.from(bytes).toString('latin1'));
  }
  return found;
}

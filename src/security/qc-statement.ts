import * as asn1js from 'asn1js';
import { PSP_ROLES, type PspRole, isPspRole, roleOfOid } from '../domain/psp-role.js';
import {
  CertificateFormatError,
  CertificateRefusedError,
  childrenOf,
  shownOid,
  stringValue,
} from './der-certificate.js';

/** RFC 3739 qcStatements certificate extension. */
export const QC_STATEMENTS_OID = '1.3.6.1.5.5.7.1.3';
/** ETSI TS 119 495 PSD2 QCStatement: SEQUENCE { rolesOfPSP, nCAName, nCAId }. */
export const PSD2_QC_STATEMENT_OID = '0.4.0.19495.2';
/** ETSI EN 319 412-5 statements the toolkit also writes, so its certificates look like real QSealCs. */
export const QC_COMPLIANCE_OID = '0.4.0.1862.1.1';
export const QC_TYPE_OID = '0.4.0.1862.1.6';
export const QC_TYPE_ESEAL_OID = '0.4.0.1862.1.6.2';

export interface Psd2Statement {
  roles: PspRole[];
  ncaName: string;
  ncaId: string;
}

/**
 * Reads the PSD2 statement from a qcStatements extension value; undefined when there is none.
 * A role counts only by its ETSI OID (0.4.0.19495.1.x); the name beside it is for people. An entry
 * that names a PSD2 role under another OID is refused (CertificateRefusedError): no qualified trust
 * service writes one, and honouring the name would let any CA grant a role by spelling it.
 * Entries whose OID and name are both unknown (a future role) are left out.
 */
export function readPsd2Statement(extensionValue: Uint8Array): Psd2Statement | undefined {
  const parsed = asn1js.fromBER(extensionValue);
  if (parsed.offset === -1) throw new CertificateFormatError('qcStatements is not DER');
  for (const statement of childrenOf(parsed.result)) {
    const [id, info] = childrenOf(statement);
    if (!(id instanceof asn1js.ObjectIdentifier) || id.getValue() !== PSD2_QC_STATEMENT_OID) continue;
    const [rolesBlock, ncaName, ncaId] = childrenOf(info);
    const roles: PspRole[] = [];
    const byNameOnly: { name: PspRole; oid: string }[] = [];
    for (const role of childrenOf(rolesBlock)) {
      const [oid, name] = childrenOf(role);
      const oidText = oid instanceof asn1js.ObjectIdentifier ? oid.getValue() : undefined;
      const byOid = oidText === undefined ? undefined : roleOfOid(oidText);
      const nameText = name === undefined ? '' : stringValue(name);
      if (byOid !== undefined) {
        if (!roles.includes(byOid)) roles.push(byOid);
      } else if (isPspRole(nameText)) {
        byNameOnly.push({ name: nameText, oid: oidText === undefined ? 'no OID' : shownOid(oidText) });
      }
    }
    if (byNameOnly.length > 0) throw new CertificateRefusedError([roleByNameReason(byNameOnly)]);
    return { roles, ncaName: stringValue(ncaName), ncaId: stringValue(ncaId) };
  }
  return undefined;
}

/** One reason for all such entries, naming the first: their number is bounded only by the header's size. */
function roleByNameReason(entries: readonly { name: PspRole; oid: string }[]): string {
  const [first] = entries;
  const more =
    entries.length > 1
      ? ` (and ${entries.length - 1} more role${entries.length > 2 ? 's' : ''} given by name only)`
      : '';
  return `names the PSD2 role ${first!.name} under OID ${first!.oid}, which is not its ETSI role OID ${PSP_ROLES[first!.name]}${more}; a role counts only by its OID (ETSI TS 119 495)`;
}

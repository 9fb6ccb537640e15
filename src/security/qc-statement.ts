import * as asn1js from 'asn1js';
import { type PspRole, isPspRole, roleOfOid } from '../domain/psp-role.js';
import { CertificateFormatError, childrenOf, stringValue } from './der-certificate.js';

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
 * A role is recognised by its OID, or by its name when the OID is one we do not know.
 */
export function readPsd2Statement(extensionValue: Uint8Array): Psd2Statement | undefined {
  const parsed = asn1js.fromBER(extensionValue);
  if (parsed.offset === -1) throw new CertificateFormatError('qcStatements is not DER');
  for (const statement of childrenOf(parsed.result)) {
    const [id, info] = childrenOf(statement);
    if (!(id instanceof asn1js.ObjectIdentifier) || id.getValue() !== PSD2_QC_STATEMENT_OID) continue;
    const [rolesBlock, ncaName, ncaId] = childrenOf(info);
    const roles: PspRole[] = [];
    for (const role of childrenOf(rolesBlock)) {
      const [oid, name] = childrenOf(role);
      const byOid = oid instanceof asn1js.ObjectIdentifier ? roleOfOid(oid.getValue()) : undefined;
      const nameText = name === undefined ? '' : stringValue(name);
      const resolved = byOid ?? (isPspRole(nameText) ? nameText : undefined);
      if (resolved !== undefined && !roles.includes(resolved)) roles.push(resolved);
    }
    return { roles, ncaName: stringValue(ncaName), ncaId: stringValue(ncaId) };
  }
  return undefined;
}

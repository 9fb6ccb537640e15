import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as asn1js from 'asn1js';
import { PSP_ROLES } from '../../src/domain/psp-role.js';
import { CertificateFormatError } from '../../src/security/der-certificate.js';
import { PSD2_QC_STATEMENT_OID, QC_COMPLIANCE_OID, QC_TYPE_ESEAL_OID, QC_TYPE_OID, readPsd2Statement } from '../../src/security/qc-statement.js';

/** Builds qcStatements DER by hand, to give readPsd2Statement what the toolkit never writes. */
const oid = (value: string) => new asn1js.ObjectIdentifier({ value });
const utf8 = (value: string) => new asn1js.Utf8String({ value });
const sequence = (...value: asn1js.AsnType[]) => new asn1js.Sequence({ value });

function role(roleOid: string, name: asn1js.AsnType = utf8('')): asn1js.Sequence {
  return sequence(oid(roleOid), name);
}

function psd2Statement(roles: asn1js.AsnType[], ncaName = 'Finanstilsynet', ncaId = 'NO-FSA'): asn1js.Sequence {
  return sequence(oid(PSD2_QC_STATEMENT_OID), sequence(sequence(...roles), utf8(ncaName), utf8(ncaId)));
}

function qcStatements(...statements: asn1js.AsnType[]): Uint8Array {
  return new Uint8Array(sequence(...statements).toBER());
}

const COMPLIANCE = sequence(oid(QC_COMPLIANCE_OID));
const ESEAL = sequence(oid(QC_TYPE_OID), sequence(oid(QC_TYPE_ESEAL_OID)));

describe('readPsd2Statement', () => {
  it('reads roles, NCA name and NCA id after other statements', () => {
    const value = qcStatements(COMPLIANCE, ESEAL, psd2Statement([role(PSP_ROLES.PSP_PI, utf8('PSP_PI')), role(PSP_ROLES.PSP_AI, utf8('PSP_AI'))]));
    assert.deepEqual(readPsd2Statement(value), { roles: ['PSP_PI', 'PSP_AI'], ncaName: 'Finanstilsynet', ncaId: 'NO-FSA' });
  });

  it('recognises a role by its OID whatever name is written next to it', () => {
    const value = qcStatements(psd2Statement([role(PSP_ROLES.PSP_AS, utf8('Account Servicing')), role(PSP_ROLES.PSP_IC, utf8('PSP_PI'))]));
    assert.deepEqual(readPsd2Statement(value)?.roles, ['PSP_AS', 'PSP_IC']);
  });

  it('recognises a role by its name when its OID is unknown', () => {
    const value = qcStatements(psd2Statement([role('1.2.3.4.5', utf8('PSP_AI'))]));
    assert.deepEqual(readPsd2Statement(value)?.roles, ['PSP_AI']);
  });

  it('reads a role name in another ASN.1 string type', () => {
    const value = qcStatements(psd2Statement([role('1.2.3.4.5', new asn1js.PrintableString({ value: 'PSP_PI' }))]));
    assert.deepEqual(readPsd2Statement(value)?.roles, ['PSP_PI']);
  });

  it('leaves out a role whose OID and name are both unknown', () => {
    const value = qcStatements(psd2Statement([role('1.2.3.4.5', utf8('PSP_XX')), role(PSP_ROLES.PSP_PI, utf8('PSP_PI'))]));
    assert.deepEqual(readPsd2Statement(value)?.roles, ['PSP_PI']);
  });

  it('does not match role names case-insensitively', () => {
    const value = qcStatements(psd2Statement([role('1.2.3.4.5', utf8('psp_pi'))]));
    assert.deepEqual(readPsd2Statement(value)?.roles, []);
  });

  it('lists a role given twice once, at its first place', () => {
    const value = qcStatements(psd2Statement([
      role(PSP_ROLES.PSP_AI, utf8('PSP_AI')),
      role(PSP_ROLES.PSP_PI, utf8('PSP_PI')),
      role('1.2.3.4.5', utf8('PSP_AI')),
    ]));
    assert.deepEqual(readPsd2Statement(value)?.roles, ['PSP_AI', 'PSP_PI']);
  });

  it('gives an empty role list for a statement without roles', () => {
    assert.deepEqual(readPsd2Statement(qcStatements(psd2Statement([], 'Finansinspektionen', 'SE-FINA'))), { roles: [], ncaName: 'Finansinspektionen', ncaId: 'SE-FINA' });
  });

  it('returns undefined when there is no PSD2 statement', () => {
    assert.equal(readPsd2Statement(qcStatements(COMPLIANCE, ESEAL)), undefined);
    assert.equal(readPsd2Statement(qcStatements()), undefined);
  });

  it('throws a CertificateFormatError for an extension value that is not DER', () => {
    assert.throws(() => readPsd2Statement(new Uint8Array([0x30, 0x85, 0x01])), CertificateFormatError);
  });

  it('throws a CertificateFormatError when the NCA name is not a string', () => {
    const bad = sequence(oid(PSD2_QC_STATEMENT_OID), sequence(sequence(), new asn1js.Integer({ value: 1 }), utf8('NO-FSA')));
    assert.throws(() => readPsd2Statement(qcStatements(bad)), CertificateFormatError);
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as asn1js from 'asn1js';
import { PSP_ROLES } from '../../src/domain/psp-role.js';
import { CertificateFormatError, CertificateRefusedError } from '../../src/security/der-certificate.js';
import {
  PSD2_QC_STATEMENT_OID,
  QC_COMPLIANCE_OID,
  QC_TYPE_ESEAL_OID,
  QC_TYPE_OID,
  readPsd2Statement,
} from '../../src/security/qc-statement.js';

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
    const value = qcStatements(
      COMPLIANCE,
      ESEAL,
      psd2Statement([role(PSP_ROLES.PSP_PI, utf8('PSP_PI')), role(PSP_ROLES.PSP_AI, utf8('PSP_AI'))]),
    );
    assert.deepEqual(readPsd2Statement(value), {
      roles: ['PSP_PI', 'PSP_AI'],
      ncaName: 'Finanstilsynet',
      ncaId: 'NO-FSA',
    });
  });

  it('recognises a role by its OID whatever name is written next to it', () => {
    const value = qcStatements(
      psd2Statement([role(PSP_ROLES.PSP_AS, utf8('Account Servicing')), role(PSP_ROLES.PSP_IC, utf8('PSP_PI'))]),
    );
    assert.deepEqual(readPsd2Statement(value)?.roles, ['PSP_AS', 'PSP_IC']);
  });

  it('refuses a role given by name under an OID that is not its ETSI role OID, saying which', () => {
    const value = qcStatements(
      psd2Statement([role(PSP_ROLES.PSP_PI, utf8('PSP_PI')), role('1.2.3.4.5', utf8('PSP_AI'))]),
    );
    assert.throws(
      () => readPsd2Statement(value),
      (error: unknown) => {
        assert.ok(error instanceof CertificateRefusedError, String(error));
        assert.deepEqual(error.reasons, [
          'names the PSD2 role PSP_AI under OID 1.2.3.4.5, which is not its ETSI role OID 0.4.0.19495.1.3; a role counts only by its OID (ETSI TS 119 495)',
        ]);
        return true;
      },
    );
  });

  it('refuses a role name in another ASN.1 string type under a foreign OID too', () => {
    const value = qcStatements(psd2Statement([role('1.2.3.4.5', new asn1js.PrintableString({ value: 'PSP_PI' }))]));
    assert.throws(
      () => readPsd2Statement(value),
      (error: unknown) =>
        error instanceof CertificateRefusedError &&
        /names the PSD2 role PSP_PI under OID 1\.2\.3\.4\.5/.test(error.message),
    );
  });

  it('names the first role given by name and counts the others, however many there are', () => {
    const entries = Array.from({ length: 500 }, (_, i) => role(`1.2.3.4.${i}`, utf8('PSP_PI')));
    assert.throws(
      () => readPsd2Statement(qcStatements(psd2Statement(entries))),
      (error: unknown) => {
        assert.ok(error instanceof CertificateRefusedError);
        assert.equal(error.reasons.length, 1);
        assert.match(
          error.reasons[0]!,
          /^names the PSD2 role PSP_PI under OID 1\.2\.3\.4\.0, .* \(and 499 more roles given by name only\)/,
        );
        return true;
      },
    );
  });

  it('quotes a long OID cut short', () => {
    const longOid = `1.2.${'1234567890.'.repeat(100)}1`;
    assert.throws(
      () => readPsd2Statement(qcStatements(psd2Statement([role(longOid, utf8('PSP_PI'))]))),
      (error: unknown) => {
        assert.ok(error instanceof CertificateRefusedError);
        assert.match(
          error.reasons[0]!,
          new RegExp(`under OID ${longOid.slice(0, 64).replace(/\./g, '\\.')}…, which is not`),
        );
        assert.ok(error.reasons[0]!.length < 300, `${error.reasons[0]!.length} characters`);
        return true;
      },
    );
  });

  it('refuses a role given by name under an OID of the ETSI role arc that is not a role', () => {
    const value = qcStatements(psd2Statement([role('0.4.0.19495.1.9', utf8('PSP_PI'))]));
    assert.throws(() => readPsd2Statement(value), CertificateRefusedError);
  });

  it('leaves out, without refusing, a role of the ETSI arc it does not know under a name that is no PSD2 role', () => {
    const value = qcStatements(
      psd2Statement([role('0.4.0.19495.1.9', utf8('PSP_XY')), role(PSP_ROLES.PSP_AI, utf8('PSP_AI'))]),
    );
    assert.deepEqual(readPsd2Statement(value)?.roles, ['PSP_AI']);
  });

  it('leaves out a role whose OID and name are both unknown', () => {
    const value = qcStatements(
      psd2Statement([role('1.2.3.4.5', utf8('PSP_XX')), role(PSP_ROLES.PSP_PI, utf8('PSP_PI'))]),
    );
    assert.deepEqual(readPsd2Statement(value)?.roles, ['PSP_PI']);
  });

  it('does not match role names case-insensitively', () => {
    const value = qcStatements(psd2Statement([role('1.2.3.4.5', utf8('psp_pi'))]));
    assert.deepEqual(readPsd2Statement(value)?.roles, []);
  });

  it('lists a role given twice once, at its first place', () => {
    const value = qcStatements(
      psd2Statement([
        role(PSP_ROLES.PSP_AI, utf8('PSP_AI')),
        role(PSP_ROLES.PSP_PI, utf8('PSP_PI')),
        role(PSP_ROLES.PSP_AI, utf8('PSP_AI')),
      ]),
    );
    assert.deepEqual(readPsd2Statement(value)?.roles, ['PSP_AI', 'PSP_PI']);
  });

  it('gives an empty role list for a statement without roles', () => {
    assert.deepEqual(readPsd2Statement(qcStatements(psd2Statement([], 'Finansinspektionen', 'SE-FINA'))), {
      roles: [],
      ncaName: 'Finansinspektionen',
      ncaId: 'SE-FINA',
    });
  });

  it('returns undefined when there is no PSD2 statement', () => {
    assert.equal(readPsd2Statement(qcStatements(COMPLIANCE, ESEAL)), undefined);
    assert.equal(readPsd2Statement(qcStatements()), undefined);
  });

  it('throws a CertificateFormatError for an extension value that is not DER', () => {
    assert.throws(() => readPsd2Statement(new Uint8Array([0x30, 0x85, 0x01])), CertificateFormatError);
  });

  it('throws a CertificateFormatError when the NCA name is not a string', () => {
    const bad = sequence(
      oid(PSD2_QC_STATEMENT_OID),
      sequence(sequence(), new asn1js.Integer({ value: 1 }), utf8('NO-FSA')),
    );
    assert.throws(() => readPsd2Statement(qcStatements(bad)), CertificateFormatError);
  });
});

import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { CertificateFormatError } from '../../src/security/der-certificate.js';
import { decodeCertificateHeader, parseCertificate, readPemCertificates } from '../../src/security/tpp-certificate.js';
import {
  type CertificateAndKey,
  createCertificateAuthority,
  issueTppCertificate,
} from '../../src/security/certificate-issuer.js';

const CN = '2.5.4.3';
const C = '2.5.4.6';
const O = '2.5.4.10';
const ORG_ID = '2.5.4.97';
const NOT_BEFORE = new Date('2025-03-01T12:30:45Z');
const DAY_MS = 86_400_000;

let ca: CertificateAndKey;
let tpp: CertificateAndKey;
let swedishTpp: CertificateAndKey;
let withoutQcStatement: CertificateAndKey;
let withoutOrganisationId: CertificateAndKey;
let noRoles: CertificateAndKey;
let tppDer: Buffer;

const derOf = (certificate: CertificateAndKey) => Buffer.from(new X509Certificate(certificate.certPem).raw);

before(async () => {
  ca = await createCertificateAuthority({
    commonName: 'Test PSD2 CA',
    organisation: 'Test Bank, Trust & Co',
    country: 'NO',
  });
  const issue = (options: Partial<Parameters<typeof issueTppCertificate>[0]>) =>
    issueTppCertificate({
      issuer: ca,
      roles: ['PSP_PI'],
      organisationId: 'PSDNO-FSA-111111111',
      name: 'Test TPP AS',
      ...options,
    });
  [tpp, swedishTpp, withoutQcStatement, withoutOrganisationId, noRoles] = await Promise.all([
    issue({ serialHex: '00ab12cd34ef56', roles: ['PSP_AI', 'PSP_PI', 'PSP_IC'], notBefore: NOT_BEFORE, validDays: 90 }),
    issue({
      roles: ['PSP_PI'],
      organisationId: 'PSDSE-FINA-44059',
      name: 'Svensk Betalning AB',
      country: 'SE',
      ncaName: 'Finansinspektionen',
      ncaId: 'SE-FINA',
    }),
    issue({ withoutQcStatement: true }),
    issue({ withoutOrganisationId: true }),
    issue({ roles: [] }),
  ]);
  tppDer = derOf(tpp);
});

describe('decodeCertificateHeader', () => {
  it('reads base64 of the DER', () => {
    assert.deepEqual(decodeCertificateHeader(tppDer.toString('base64')), tppDer);
  });

  it('reads base64 of the DER folded over several lines', () => {
    assert.deepEqual(
      decodeCertificateHeader(
        tppDer
          .toString('base64')
          .match(/.{1,64}/g)!
          .join('\r\n '),
      ),
      tppDer,
    );
  });

  it('reads base64 of the whole PEM text', () => {
    assert.deepEqual(decodeCertificateHeader(Buffer.from(tpp.certPem, 'utf8').toString('base64')), tppDer);
  });

  it('reads the PEM text on several lines', () => {
    assert.ok(tpp.certPem.split('\n').length > 3);
    assert.deepEqual(decodeCertificateHeader(tpp.certPem), tppDer);
  });

  it('reads the PEM text on one line', () => {
    const oneLine = tpp.certPem.replace(/\r?\n/g, '');
    assert.ok(!oneLine.includes('\n'));
    assert.deepEqual(decodeCertificateHeader(oneLine), tppDer);
  });

  it('reads the PEM text on one line with spaces where the line breaks were', () => {
    assert.deepEqual(decodeCertificateHeader(tpp.certPem.replace(/\r?\n/g, ' ').trim()), tppDer);
  });

  it('reads base64url of the DER', () => {
    const base64url = tppDer.toString('base64url');
    assert.match(base64url, /[-_]/, 'the test needs a base64url text that differs from base64');
    assert.deepEqual(decodeCertificateHeader(base64url), tppDer);
  });

  it('throws a CertificateFormatError for text that is neither base64 nor PEM', () => {
    assert.throws(
      () => decodeCertificateHeader('this is not a certificate!'),
      (error: unknown) => error instanceof CertificateFormatError && /not base64/.test(error.message),
    );
    assert.throws(() => decodeCertificateHeader(''), CertificateFormatError);
  });

  it('throws a CertificateFormatError for base64 of text that is neither DER nor PEM', () => {
    const text = Buffer.from('Hello, this is just some text and no certificate at all.', 'utf8').toString('base64');
    assert.throws(
      () => decodeCertificateHeader(text),
      (error: unknown) =>
        error instanceof CertificateFormatError && /neither to a DER certificate nor to PEM text/.test(error.message),
    );
  });

  it('throws a CertificateFormatError for a PEM block whose body is not base64', () => {
    assert.throws(
      () => decodeCertificateHeader('-----BEGIN CERTIFICATE-----not*base64-----END CERTIFICATE-----'),
      (error: unknown) => error instanceof CertificateFormatError && /PEM block is not base64/.test(error.message),
    );
  });
});

describe('readPemCertificates', () => {
  it('reads every certificate of a PEM text, in order', () => {
    const text = `# trusted\n${ca.certPem}\nsome comment\n${tpp.certPem}`;
    assert.deepEqual(readPemCertificates(text), [derOf(ca), tppDer]);
  });

  it('returns no certificate for a text without a PEM certificate block', () => {
    assert.deepEqual(readPemCertificates(tpp.keyPem), []);
    assert.deepEqual(readPemCertificates(''), []);
  });
});

describe('parseCertificate', () => {
  it('gives the serial as the bigint of the hex serial it was issued with', () => {
    assert.equal(parseCertificate(tppDer).serial, 0xab12cd34ef56n);
  });

  it('gives the issuer attributes of the issuing CA, in order', () => {
    assert.deepEqual(parseCertificate(tppDer).issuer, [
      { oid: CN, value: 'Test PSD2 CA' },
      { oid: O, value: 'Test Bank, Trust & Co' },
      { oid: C, value: 'NO' },
    ]);
  });

  it('gives the subject attributes, organisation identifier and name', () => {
    const parsed = parseCertificate(tppDer);
    assert.deepEqual(parsed.subject, [
      { oid: CN, value: 'Test TPP AS' },
      { oid: ORG_ID, value: 'PSDNO-FSA-111111111' },
      { oid: O, value: 'Test TPP AS' },
      { oid: C, value: 'NO' },
    ]);
    assert.equal(parsed.organisationId, 'PSDNO-FSA-111111111');
    assert.equal(parsed.name, 'Test TPP AS');
  });

  it('gives notBefore and notAfter of the validity it was issued with', () => {
    const parsed = parseCertificate(tppDer);
    assert.equal(parsed.notBefore.toISOString(), NOT_BEFORE.toISOString());
    assert.equal(parsed.notAfter.toISOString(), new Date(NOT_BEFORE.getTime() + 90 * DAY_MS).toISOString());
  });

  it('gives the public key and SHA-256 fingerprint of the certificate', () => {
    const parsed = parseCertificate(tppDer);
    const x509 = new X509Certificate(tpp.certPem);
    assert.equal(parsed.fingerprint, x509.fingerprint256);
    assert.ok(parsed.publicKey.equals(x509.publicKey));
  });

  it('gives the PSD2 roles in the order they were issued, with the NCA name and id', () => {
    assert.deepEqual(parseCertificate(tppDer).psd2, {
      roles: ['PSP_AI', 'PSP_PI', 'PSP_IC'],
      ncaName: 'Finanstilsynet',
      ncaId: 'NO-FSA',
    });
  });

  it('gives the NCA name and id the certificate was issued with', () => {
    const parsed = parseCertificate(derOf(swedishTpp));
    assert.deepEqual(parsed.psd2, { roles: ['PSP_PI'], ncaName: 'Finansinspektionen', ncaId: 'SE-FINA' });
    assert.equal(parsed.organisationId, 'PSDSE-FINA-44059');
    assert.equal(parsed.name, 'Svensk Betalning AB');
    assert.deepEqual(parsed.subject.at(-1), { oid: C, value: 'SE' });
  });

  it('gives psd2 undefined for a certificate without the QCStatement', () => {
    const parsed = parseCertificate(derOf(withoutQcStatement));
    assert.equal(parsed.psd2, undefined);
    assert.equal(parsed.organisationId, 'PSDNO-FSA-111111111');
  });

  it('gives organisationId undefined for a subject without organizationIdentifier', () => {
    const parsed = parseCertificate(derOf(withoutOrganisationId));
    assert.equal(parsed.organisationId, undefined);
    assert.ok(!parsed.subject.some((a) => a.oid === ORG_ID));
    assert.deepEqual(parsed.psd2?.roles, ['PSP_PI']);
  });

  it('gives an empty role list for a PSD2 statement without roles', () => {
    assert.deepEqual(parseCertificate(derOf(noRoles)).psd2, { roles: [], ncaName: 'Finanstilsynet', ncaId: 'NO-FSA' });
  });

  it('reads a CA certificate, whose subject is its issuer and which has no PSD2 statement', () => {
    const parsed = parseCertificate(derOf(ca));
    assert.deepEqual(parsed.subject, parsed.issuer);
    assert.equal(parsed.psd2, undefined);
    assert.equal(parsed.organisationId, undefined);
    assert.equal(parsed.name, 'Test PSD2 CA');
    assert.equal(parsed.x509.ca, true);
  });

  it('reads what decodeCertificateHeader gives for each header form', () => {
    for (const header of [
      tppDer.toString('base64'),
      tpp.certPem,
      Buffer.from(tpp.certPem).toString('base64'),
      tppDer.toString('base64url'),
    ]) {
      assert.equal(parseCertificate(decodeCertificateHeader(header)).serial, 0xab12cd34ef56n);
    }
  });

  it('throws a CertificateFormatError for bytes that are not a certificate', () => {
    assert.throws(
      () => parseCertificate(Buffer.from([0x30, 0x03, 0x02, 0x01, 0x01])),
      (error: unknown) => error instanceof CertificateFormatError && /not an X\.509 certificate/.test(error.message),
    );
    assert.throws(() => parseCertificate(tppDer.subarray(0, tppDer.length - 10)), CertificateFormatError);
  });
});

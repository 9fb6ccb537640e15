import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { describe, it } from 'node:test';
import { makeCertificateAuthority } from '../../src/security/certificate-authority.js';
import { issueTppCertificate } from '../../src/security/certificate-issuer.js';
import { parseCertificate } from '../../src/security/tpp-certificate.js';

describe('a CA made with asn1js (docs/decisions/0365)', () => {
  it('is a self-signed P-256 CA that OpenSSL reads as one, with its key beside it, and the bank accepts it', () => {
    const ca = makeCertificateAuthority({ commonName: 'Æble CA', organisation: 'Øst Bank', country: 'DK' });
    const certificate = new X509Certificate(ca.certPem);
    assert.equal(certificate.subject, 'CN=Æble CA\nO=Øst Bank\nC=DK');
    assert.equal(certificate.issuer, certificate.subject);
    assert.equal(certificate.ca, true);
    assert.ok(certificate.verify(certificate.publicKey), 'signed by its own key');
    assert.ok(certificate.checkPrivateKey(createPrivateKey(ca.keyPem)));
    assert.equal(certificate.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    assert.doesNotThrow(() => parseCertificate(certificate.raw));
  });

  it('is valid from the day before for ten years by default, to the second, and later than 2049 in GeneralizedTime', () => {
    const notBefore = new Date('2026-03-01T10:20:30.456Z');
    const tenYears = new X509Certificate(makeCertificateAuthority({ notBefore }).certPem);
    assert.equal(new Date(tenYears.validFrom).toISOString(), '2026-03-01T10:20:30.000Z');
    assert.equal(new Date(tenYears.validTo).toISOString(), '2036-02-27T10:20:30.000Z');
    const far = new X509Certificate(makeCertificateAuthority({ notBefore, validDays: 10_000 }).certPem);
    assert.equal(new Date(far.validTo).toISOString(), '2053-07-17T10:20:30.000Z');
    const now = Date.now();
    const fresh = new X509Certificate(makeCertificateAuthority().certPem);
    assert.ok(Math.abs(new Date(fresh.validFrom).getTime() - (now - 86_400_000)) < 2_000);
  });

  it('has a new positive serial each time', () => {
    const serials = new Set(
      Array.from({ length: 20 }, () => new X509Certificate(makeCertificateAuthority().certPem).serialNumber),
    );
    assert.equal(serials.size, 20);
    for (const serial of serials) assert.ok(Number.parseInt(serial.slice(0, 2), 16) < 0x80, `${serial} is positive`);
  });

  it("issues TPP certificates that name its key identifier as their authority's, so that the chain verifies", async () => {
    const ca = makeCertificateAuthority();
    const tpp = await issueTppCertificate({ issuer: ca, roles: ['PSP_PI'] });
    const issued = new X509Certificate(tpp.certPem);
    const authority = new X509Certificate(ca.certPem);
    assert.ok(issued.checkIssued(authority), 'OpenSSL matches the authority key identifier and the names');
    assert.ok(issued.verify(authority.publicKey));
    const other = await issueTppCertificate({ issuer: makeCertificateAuthority(), roles: ['PSP_PI'] });
    assert.equal(new X509Certificate(other.certPem).checkIssued(authority), false, 'another CA of the same name');
  });
});

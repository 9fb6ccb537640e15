import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.js';
import { TppAuthenticator } from '../../src/security/tpp-authenticator.js';
import { parseCertificate, readPemCertificates } from '../../src/security/tpp-certificate.js';
import { TrustStore } from '../../src/security/trust-store.js';
import { createCertificateAuthority, issueTppCertificate } from '../../src/security/certificate-issuer.js';
import { signRequest } from '../../src/toolkit/request-signer.js';

/**
 * The authenticator keeps what does not change per request (the parsed certificate, the keyId's
 * issuer in canonical form, the certificate used last): these check that what does change is still
 * judged on every request.
 */
describe('the TPP authenticator on requests that repeat a certificate', () => {
  const DAY_MS = 86_400_000;
  const READ = '/v1/payments/norwegian-cross-border-credit-transfers/x/status';

  async function setUp() {
    const ca = await createCertificateAuthority({ commonName: 'Repeat CA' });
    const tpp = await issueTppCertificate({
      issuer: ca,
      roles: ['PSP_PI'],
      organisationId: 'PSDNO-FSA-111222333',
      name: 'Repeat TPP',
      notBefore: new Date(Date.now() - DAY_MS),
      validDays: 2,
    });
    const other = await issueTppCertificate({
      issuer: ca,
      roles: ['PSP_AI'],
      organisationId: 'PSDNO-FSA-444555666',
      name: 'Other TPP',
    });
    const clock = { ms: Date.now() };
    const authenticator = new TppAuthenticator({
      trustStore: new TrustStore([parseCertificate(readPemCertificates(ca.certPem)[0]!)]),
      dateSkewSeconds: 300,
      now: () => clock.ms,
    });
    const read = (credentials: typeof tpp, tamper: (headers: Record<string, string>) => void = () => undefined) => {
      const headers = signRequest({ method: 'GET', url: READ, credentials, now: new Date(clock.ms) });
      tamper(headers);
      return authenticator.authenticate(
        { method: 'GET', target: READ, headers, body: undefined },
        { role: 'any', digestRequired: false },
      );
    };
    return { tpp, other, clock, read };
  }

  function refusal(run: () => unknown): ApiError {
    try {
      run();
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
    assert.fail('the request was accepted');
  }

  it('refuses the certificate used last once the clock has passed its end', async () => {
    const { tpp, clock, read } = await setUp();
    assert.equal(read(tpp).tpp.id, 'PSDNO-FSA-111222333');
    clock.ms += 2 * DAY_MS;
    assert.equal(refusal(() => read(tpp)).code, 'CERTIFICATE_EXPIRED');
  });

  it("compares the keyId's CA again when it changes, and goes on accepting the certificate after another TPP's", async () => {
    const { tpp, other, read } = await setUp();
    assert.equal(read(tpp).tpp.id, 'PSDNO-FSA-111222333');
    const wrongCa = refusal(() =>
      read(tpp, (h) => {
        assert.match(h['signature']!, /CA=[^"]+"/);
        h['signature'] = h['signature']!.replace(/CA=[^"]*/, 'CA=CN=Another CA');
      }),
    );
    assert.equal(wrongCa.code, 'SIGNATURE_INVALID');
    assert.match(wrongCa.message, /keyId names CA 'CN=Another CA'/);
    assert.equal(read(other).tpp.id, 'PSDNO-FSA-444555666');
    assert.equal(read(tpp).tpp.id, 'PSDNO-FSA-111222333');
    // The same CA written in another case and spacing is the same name.
    assert.equal(
      read(tpp, (h) => {
        assert.match(h['signature']!, /CA=CN=Repeat CA,O=Sandbox Bank ASA,C=NO"/);
        h['signature'] = h['signature']!.replace(
          /CN=Repeat CA,O=Sandbox Bank ASA,C=NO/,
          'c=no, o = SANDBOX  bank asa, cn = REPEAT  CA',
        );
      }).tpp.id,
      'PSDNO-FSA-111222333',
    );
  });
});

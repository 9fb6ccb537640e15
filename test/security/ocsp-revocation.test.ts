import 'reflect-metadata';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { after, afterEach, before, describe, it } from 'node:test';
import { OCSPResponseStatus } from '@peculiar/asn1-ocsp';
import { X509Certificate as PeculiarCertificate } from '@peculiar/x509';
import {
  OCSP_ANSWER_MAX_AGE_MS,
  OCSP_CACHE_ENTRIES,
  OCSP_CLOCK_SKEW_MS,
  REVOCATION_RETRY_AFTER_FAILURE_MS,
  REVOCATION_STALE_GRACE_MS,
} from '../../src/domain/limits.js';
import { createCertificateAuthority, issueTppCertificate } from '../../src/security/certificate-issuer.js';
import { RevocationChecker } from '../../src/security/revocation/revocation-checker.js';
import { parseCertificate, readPemCertificates } from '../../src/security/tpp-certificate.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { type TestOcspResponder, issueResponderCertificate, startOcspResponder } from '../support/ocsp-responder.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * Issue 31, 6: a TPP certificate that names its CA's OCSP responder (Authority Information Access,
 * id-ad-ocsp) is checked there. The test's CA answers from a responder the test starts on 127.0.0.1;
 * the bank's clock (the checker's) and the responder's are the test's `now`.
 */
const HOUR = 3_600_000;

let ca: CertificateAndKey;
let responder: TestOcspResponder;
let t: TestApp;
let now = Date.now();
let checker: RevocationChecker;
let organisation = 932000000;
const refreshFailures: string[] = [];

before(async () => {
  ca = await createCertificateAuthority({ commonName: 'OCSP Test CA' });
  responder = await startOcspResponder(ca, () => now);
  checker = new RevocationChecker({
    now: () => now,
    onRefreshFailed: (where, reason) => refreshFailures.push(`${where}: ${reason}`),
  });
  t = await startTestApp({ extraCas: [ca.certPem], revocation: checker });
});
after(async () => {
  await t.close();
  await responder.close();
});
afterEach(() => responder.reset());

/** A TPP certificate of the test CA whose OCSP responder is at `path` of the test's responder. */
async function tpp(path: string, options: { crlPath?: string } = {}): Promise<CertificateAndKey> {
  organisation += 1;
  return issueTppCertificate({
    issuer: ca,
    roles: ['PSP_PI', 'PSP_AI'],
    organisationId: `PSDNO-FSA-${organisation}`,
    ocspUrls: [`${responder.url}${path}`],
    ...(options.crlPath === undefined ? {} : { crlUrls: [`${responder.url}${options.crlPath}`] }),
  });
}

const serialOf = (certificate: CertificateAndKey) => new PeculiarCertificate(certificate.certPem).serialNumber;
const read = (as: CertificateAndKey) => t.signed({ method: 'GET', url: '/v1/sandbox/customers', as });

function assertUnavailable(response: Awaited<ReturnType<typeof read>>, reason: RegExp): void {
  assert.equal(response.statusCode, 503, response.body);
  const { message } = response.json() as { message: string };
  assert.match(message, /cannot establish whether TPP-Signature-Certificate is revoked: its CA's OCSP answer from /);
  assert.match(message, reason);
}

describe('a TPP certificate that names an OCSP responder', () => {
  it('works while the responder says good; concurrent first requests share one OCSP call, and later ones make none until the answer is due', async () => {
    const certificate = await tpp('/good');
    const first = await Promise.all([read(certificate), read(certificate), read(certificate)]);
    assert.deepEqual(
      first.map((response) => response.statusCode),
      [200, 200, 200],
    );
    assert.equal(responder.asked['/good'], 1, 'one OCSP call for three requests arriving together');
    for (let i = 0; i < 3; i++) assert.equal((await read(certificate)).statusCode, 200);
    assert.equal(responder.asked['/good'], 1, 'the answer is kept: no call per request');
  });

  it('gets 401 CERTIFICATE_REVOKED once the responder says revoked; the answer is asked again when due, within the hour', async () => {
    const certificate = await tpp('/revoking');
    const other = await tpp('/revoking');
    responder.answering.nextUpdateOffsetMs = 7 * 24 * HOUR; // a responder's answer valid for a week
    assert.equal((await read(certificate)).statusCode, 200);
    assert.equal((await read(other)).statusCode, 200);
    assert.equal(responder.asked['/revoking'], 2, 'one call per certificate');

    const revokedAt = new Date(now - 60_000);
    responder.answering.statuses.set(serialOf(certificate), { status: 'revoked', revokedAt });
    responder.answering.nextUpdateOffsetMs = 7 * 24 * HOUR;
    assert.equal((await read(certificate)).statusCode, 200, 'the answer held is not yet due');
    assert.equal(responder.asked['/revoking'], 2);

    now += OCSP_ANSWER_MAX_AGE_MS;
    assert.equal((await read(certificate)).statusCode, 200, 'the request that finds the answer due goes on with it');
    await checker.settled();
    assert.equal(responder.asked['/revoking'], 3, 'asked again in the background');
    const refused = await read(certificate);
    assert.equal(refused.statusCode, 401, refused.body);
    const body = refused.json() as { code: string; tppMessages: { code: string; path: string; text: string }[] };
    assert.equal(body.code, 'CERTIFICATE_REVOKED');
    assert.equal(body.tppMessages[0]!.path, 'header:TPP-Signature-Certificate');
    assert.equal(
      body.tppMessages[0]!.text,
      `TPP-Signature-Certificate 'Sandbox TPP' was revoked by 'CN=OCSP Test CA,O=Sandbox Bank ASA,C=NO' on ${revokedAt.toISOString()} (OCSP answer from ${responder.url}/revoking) (CERTIFICATE_REVOKED)`,
    );
    assert.equal((await read(certificate)).statusCode, 401);
    assert.equal(responder.asked['/revoking'], 3, 'the revoked answer is kept too');
    assert.equal((await read(other)).statusCode, 200, 'another certificate of the CA goes on');
  });

  it('is refused with 401 CERTIFICATE_INVALID when the responder does not know it', async () => {
    const certificate = await tpp('/unknown');
    responder.answering.statuses.set(serialOf(certificate), { status: 'unknown' });
    const refused = await read(certificate);
    assert.equal(refused.statusCode, 401, refused.body);
    assert.equal(refused.json().code, 'CERTIFICATE_INVALID');
    assert.match(refused.json().message, /is unknown to the OCSP responder of 'CN=OCSP Test CA.*' \(http:\/\/127/);
  });

  it(`keeps a bounded number of answers (${OCSP_CACHE_ENTRIES}); past it the oldest is dropped, and asked for again when it comes`, async () => {
    const anchor = parseCertificate(readPemCertificates(ca.certPem)[0]!);
    // Three here: a thousand certificates and OCSP calls would take the test seconds.
    const bounded = new RevocationChecker({ now: () => now, ocspCacheEntries: 3 });
    const certificates = [];
    for (let i = 0; i < 4; i++) {
      const issued = await issueTppCertificate({
        issuer: ca,
        roles: ['PSP_PI'],
        keyType: 'ec',
        ocspUrls: [`${responder.url}/many`],
      });
      certificates.push(parseCertificate(readPemCertificates(issued.certPem)[0]!));
    }
    for (const certificate of certificates) await bounded.check(certificate, anchor);
    assert.equal(responder.asked['/many'], 4);
    assert.equal(bounded.check(certificates[1]!, anchor), undefined, 'the second oldest is held: no call');
    assert.equal(bounded.check(certificates[3]!, anchor), undefined, 'the newest is held: no call');
    await bounded.check(certificates[0]!, anchor);
    assert.equal(responder.asked['/many'], 5, 'the oldest was dropped, and asked for again');
  });

  it('is checked by OCSP only: a CRL distribution point it names as well is not fetched', async () => {
    const certificate = await tpp('/both', { crlPath: '/both.crl' });
    assert.equal((await read(certificate)).statusCode, 200);
    assert.equal(responder.asked['/both'], 1);
    assert.equal(responder.asked['/both.crl'], undefined);
  });
});

describe('when no OCSP answer can be had', () => {
  it('answers 503 while the responder is down and no answer is held, asks it again only after a minute, and 200 once it answers', async () => {
    const certificate = await tpp('/down');
    responder.answering.httpStatus = 500;
    assertUnavailable(await read(certificate), /could not be read \(.*\/down answered 500\)/);
    assertUnavailable(await read(certificate), /could not be read/);
    assert.equal(responder.asked['/down'], 1, 'a failed responder is not asked again at once');

    responder.answering.httpStatus = 200;
    now += REVOCATION_RETRY_AFTER_FAILURE_MS;
    assert.equal((await read(certificate)).statusCode, 200);
    assert.equal(responder.asked['/down'], 2);
  });

  it('answers 503 when nothing listens at the responder address', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as { port: number }).port;
    closed.close();
    await once(closed, 'close');
    organisation += 1;
    const certificate = await issueTppCertificate({
      issuer: ca,
      roles: ['PSP_PI'],
      organisationId: `PSDNO-FSA-${organisation}`,
      ocspUrls: [`http://127.0.0.1:${port}/ocsp`],
    });
    assertUnavailable(await read(certificate), /could not be read \(http:\/\/127\.0\.0\.1:\d+\/ocsp: .*ECONNREFUSED/);
  });

  it(`uses an answer past its nextUpdate for ${REVOCATION_STALE_GRACE_MS / HOUR} hours while the responder is down, then fails closed with 503`, async () => {
    const certificate = await tpp('/stale');
    assert.equal((await read(certificate)).statusCode, 200);
    responder.answering.httpStatus = 503;
    now += HOUR + REVOCATION_STALE_GRACE_MS - 60_000;
    assert.equal((await read(certificate)).statusCode, 200, 'within the grace');
    await checker.settled();
    assert.match(
      refreshFailures.at(-1) ?? '',
      /OCSP answer from .*\/stale: .*answered 503/,
      'the failed refresh is logged',
    );
    now += 2 * 60_000;
    assertUnavailable(await read(certificate), /is out of date \(nextUpdate \d{4}-.*\) \(.*answered 503\)/);

    responder.answering.httpStatus = 200;
    now += REVOCATION_RETRY_AFTER_FAILURE_MS;
    assert.equal((await read(certificate)).statusCode, 200, 'a fresh answer ends it');
  });
});

describe('an OCSP answer the bank does not take', () => {
  /** Each case on its own certificate, so that no good answer is held; every one is 503. */
  async function refusedAnswer(path: string, reason: RegExp): Promise<void> {
    assertUnavailable(await read(await tpp(path)), reason);
  }

  it("signed by another CA's key", async () => {
    responder.answering.signer = await createCertificateAuthority({ commonName: 'Stranger CA' });
    await refusedAnswer(
      '/stranger',
      /is not signed by 'OCSP Test CA' nor by a responder certificate it issued for OCSP \(id-kp-OCSPSigning\)/,
    );
  });

  it('signed by a responder certificate the CA issued without id-kp-OCSPSigning, or with it but by another CA', async () => {
    const withoutPurpose = await issueResponderCertificate(ca, { withoutOcspSigning: true });
    responder.answering.signer = withoutPurpose;
    responder.answering.certs = [withoutPurpose.certPem];
    await refusedAnswer('/no-purpose', /is not signed by 'OCSP Test CA' nor by a responder certificate/);

    const foreign = await issueResponderCertificate(await createCertificateAuthority({ commonName: 'Stranger CA' }));
    responder.answering.signer = foreign;
    responder.answering.certs = [foreign.certPem];
    await refusedAnswer('/foreign', /is not signed by 'OCSP Test CA' nor by a responder certificate/);
  });

  it('is taken from a responder certificate the CA issued with id-kp-OCSPSigning', async () => {
    const delegated = await issueResponderCertificate(ca);
    responder.answering.signer = delegated;
    responder.answering.certs = [delegated.certPem];
    const certificate = await tpp('/delegated');
    responder.answering.statuses.set(serialOf(certificate), { status: 'revoked' });
    const refused = await read(certificate);
    assert.equal(refused.statusCode, 401, refused.body);
    assert.equal(refused.json().code, 'CERTIFICATE_REVOKED');
  });

  it('about another certificate (its CertID names another serial)', async () => {
    responder.answering.answerForSerial = '0badc0ffee';
    await refusedAnswer('/other-serial', /does not answer for this certificate \(no CertID matches it\)/);
  });

  it('past its nextUpdate (a replayed answer), dated ahead of the clock, or old without nextUpdate', async () => {
    responder.answering.thisUpdateOffsetMs = -2 * HOUR;
    responder.answering.nextUpdateOffsetMs = -HOUR;
    await refusedAnswer('/replayed', /is out of date \(nextUpdate /);

    responder.answering.thisUpdateOffsetMs = OCSP_CLOCK_SKEW_MS + 60_000;
    responder.answering.nextUpdateOffsetMs = HOUR;
    await refusedAnswer('/ahead', /is dated ahead of the bank's clock/);

    responder.answering.thisUpdateOffsetMs = -OCSP_ANSWER_MAX_AGE_MS - 60_000;
    responder.answering.nextUpdateOffsetMs = undefined;
    await refusedAnswer('/old', /has no nextUpdate and is too old to rely on/);
  });

  it("the responder's refusal (tryLater), or bytes that are no OCSP response", async () => {
    responder.answering.responseStatus = OCSPResponseStatus.tryLater;
    await refusedAnswer('/try-later', /is no status but the responder's refusal 'tryLater'/);
    responder.reset();
    responder.answering.body = Buffer.from('<html>Service moved</html>');
    await refusedAnswer('/html', /is not an OCSP response/);
  });

  it('older than the answer held (a replay that would undo a revocation): the held answer stands', async () => {
    const certificate = await tpp('/older');
    responder.answering.statuses.set(serialOf(certificate), { status: 'revoked' });
    assert.equal((await read(certificate)).statusCode, 401);
    responder.answering.statuses.clear();
    now += OCSP_ANSWER_MAX_AGE_MS;
    responder.answering.thisUpdateOffsetMs = -2 * OCSP_ANSWER_MAX_AGE_MS;
    assert.equal((await read(certificate)).statusCode, 401);
    await checker.settled();
    assert.equal(responder.asked['/older'], 2);
    assert.match(refreshFailures.at(-1) ?? '', /\/older is older \(thisUpdate .*\) than the answer held/);
    assert.equal((await read(certificate)).statusCode, 401);
  });
});

describe('in production mode', () => {
  it('refuses a certificate its responder says is revoked with 401 CERTIFICATE_REVOKED, and lets a good one through', async () => {
    const production = await startTestApp({
      mode: 'production',
      extraCas: [ca.certPem],
      revocation: checker,
      seed: false,
    });
    try {
      const good = await tpp('/production');
      const revoked = await tpp('/production');
      responder.answering.statuses.set(serialOf(revoked), { status: 'revoked' });
      const url = '/v1/signing-baskets/0f9b2a44-5c1e-4b8e-9a57-3d2c6e1f7a80/status';
      const passed = await production.signed({ method: 'GET', url, as: good });
      assert.equal(passed.statusCode, 404, passed.body);
      assert.equal(passed.json().code, 'RESOURCE_UNKNOWN', 'authenticated: the basket is what is unknown');
      const refused = await production.signed({ method: 'GET', url, as: revoked });
      assert.equal(refused.statusCode, 401, refused.body);
      assert.equal(refused.json().code, 'CERTIFICATE_REVOKED');
    } finally {
      await production.close();
    }
  });
});

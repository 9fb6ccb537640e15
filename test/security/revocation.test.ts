import 'reflect-metadata';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { createPrivateKey, webcrypto } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { X509Certificate as PeculiarCertificate, X509CrlGenerator } from '@peculiar/x509';
import {
  CRL_MAX_BYTES,
  REVOCATION_RETRY_AFTER_FAILURE_MS,
  REVOCATION_STALE_GRACE_MS,
} from '../../src/domain/limits.js';
import { createCertificateAuthority, issueTppCertificate } from '../../src/security/certificate-issuer.js';
import { fetchBounded } from '../../src/security/revocation/bounded-fetch.js';
import { RevocationChecker } from '../../src/security/revocation/revocation-checker.js';
import { RevocationConfigError } from '../../src/security/revocation/revocation-config-error.js';
import { LazyRevocationChecker } from '../../src/security/revocation/lazy-revocation-checker.js';
import { parseCertificate, readPemCertificates } from '../../src/security/tpp-certificate.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * Issue 31, 6: no code checked revocation, so a revoked TPP certificate worked until it expired. A CA
 * of the test's own publishes its CRL from an HTTP server the test starts on 127.0.0.1; the bank
 * follows the certificate's distribution point, and reads the CRL files it is given.
 */
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const HOUR = 3_600_000;

/** The CA's distribution point: what it serves now, and how often it was asked. */
const published: Record<string, { status: number; body: Buffer; declared?: boolean }> = {};
const asked: Record<string, number> = {};
let server: Server;
let base: string;
let ca: CertificateAndKey;
let t: TestApp;
let now = Date.now();
let checker: RevocationChecker;
const dir = mkdtempSync(join(tmpdir(), 'psd2-crl-'));

before(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    asked[path] = (asked[path] ?? 0) + 1;
    const answer = published[path] ?? { status: 404, body: Buffer.alloc(0) };
    // Chunked unless the test declares the length (Content-Length).
    response
      .writeHead(answer.status, {
        'content-type': 'application/pkix-crl',
        ...(answer.declared === true ? { 'content-length': answer.body.length } : {}),
      })
      .end(answer.body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  ca = await createCertificateAuthority({ commonName: 'Revoking Test CA' });
  checker = new RevocationChecker({ now: () => now });
  t = await startTestApp({ extraCas: [ca.certPem], revocation: checker });
});
after(async () => {
  await t.close();
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A CRL of the test CA listing these serials, valid for an hour from `at`. */
async function crl(serials: readonly string[], at = now, signer: CertificateAndKey = ca): Promise<Buffer> {
  const key = await webcrypto.subtle.importKey(
    'pkcs8',
    createPrivateKey(signer.keyPem).export({ format: 'der', type: 'pkcs8' }),
    EC,
    false,
    ['sign'],
  );
  const made = await X509CrlGenerator.create({
    issuer: new PeculiarCertificate(ca.certPem).subjectName,
    thisUpdate: new Date(at),
    nextUpdate: new Date(at + HOUR),
    signingAlgorithm: EC,
    signingKey: key,
    entries: serials.map((serialNumber) => ({ serialNumber, revocationDate: new Date(at - 60_000) })),
  });
  return Buffer.from(made.rawData);
}

async function tpp(path: string | undefined, organisationId: string) {
  return issueTppCertificate({
    issuer: ca,
    roles: ['PSP_PI', 'PSP_AI'],
    organisationId,
    ...(path === undefined ? {} : { crlUrls: [`${base}${path}`] }),
  });
}

const serialOf = (certificate: CertificateAndKey) => new PeculiarCertificate(certificate.certPem).serialNumber;
const read = (as: CertificateAndKey) => t.signed({ method: 'GET', url: '/v1/sandbox/customers', as });

describe('a revoked TPP certificate', () => {
  it('works until its CA revokes it, then gets 401 CERTIFICATE_REVOKED; the CRL is fetched once and on the schedule, not per request', async () => {
    const revoked = await tpp('/a.crl', 'PSDNO-FSA-931000001');
    const other = await tpp('/a.crl', 'PSDNO-FSA-931000002');
    published['/a.crl'] = { status: 200, body: await crl([]) };
    for (let i = 0; i < 3; i++) assert.equal((await read(revoked)).statusCode, 200);
    assert.equal((await read(other)).statusCode, 200);
    assert.equal(asked['/a.crl'], 1, 'one fetch for every request and both certificates');

    published['/a.crl'] = { status: 200, body: await crl([serialOf(revoked)]) };
    await checker.refreshAll();
    const refused = await read(revoked);
    assert.equal(refused.statusCode, 401, refused.body);
    const body = refused.json() as { code: string; tppMessages: { code: string; path: string; text: string }[] };
    assert.equal(body.code, 'CERTIFICATE_REVOKED');
    assert.equal(body.tppMessages[0]!.path, 'header:TPP-Signature-Certificate');
    assert.match(body.tppMessages[0]!.text, /was revoked by '.*Revoking Test CA.*' on \d{4}-\d\d-\d\dT/);
    assert.equal((await read(other)).statusCode, 200, 'another certificate of the CA goes on');
    assert.equal(asked['/a.crl'], 2);
  });

  it('is refused from a CRL file of its CA too (CRL_FILES); a file no trusted CA signed stops the start', async () => {
    const revoked = await tpp(undefined, 'PSDNO-FSA-931000003');
    const path = join(dir, 'ca.crl');
    writeFileSync(path, await crl([serialOf(revoked)]));
    const anchors = [parseCertificate(readPemCertificates(ca.certPem)[0]!)];
    const withFile = new RevocationChecker({ now: () => now });
    await withFile.addFiles([path], anchors);
    const certificate = parseCertificate(readPemCertificates(revoked.certPem)[0]!);
    assert.throws(() => withFile.check(certificate, anchors[0]!), { code: 'CERTIFICATE_REVOKED' });

    const stranger = await createCertificateAuthority({ commonName: 'Stranger CA' });
    const forged = join(dir, 'forged.crl');
    writeFileSync(forged, await crl([], now, stranger));
    await assert.rejects(new RevocationChecker().addFiles([forged], anchors), (error: unknown) => {
      assert.ok(error instanceof RevocationConfigError);
      assert.match(
        error.message,
        /CRL_FILES: '.*forged\.crl' is not a CRL of a trusted CA .*is not signed by 'Revoking Test CA'/,
      );
      return true;
    });
  });
});

describe("the server's checker, its module loaded when first needed", () => {
  it('refuses a revoked certificate on its first check, before its module is loaded, and from a CRL file read at the start', async () => {
    const revoked = await tpp(undefined, 'PSDNO-FSA-931000006');
    const path = join(dir, 'lazy.crl');
    writeFileSync(path, await crl([serialOf(revoked)]));
    const anchors = [parseCertificate(readPemCertificates(ca.certPem)[0]!)];
    const certificate = parseCertificate(readPemCertificates(revoked.certPem)[0]!);

    const withFile = new LazyRevocationChecker({ now: () => now });
    await withFile.addFiles([path], anchors);
    assert.throws(() => withFile.check(certificate, anchors[0]!), { code: 'CERTIFICATE_REVOKED' });

    // No CRL file named: nothing loaded at the start; the first check waits for the module, then judges.
    const lazy = new LazyRevocationChecker({ now: () => now });
    await lazy.addFiles([], anchors);
    lazy.start(HOUR);
    published['/lazy.crl'] = { status: 200, body: await crl([serialOf(revoked)]) };
    const byPoint = parseCertificate(readPemCertificates((await tpp('/lazy.crl', 'PSDNO-FSA-931000007')).certPem)[0]!);
    const first = lazy.check(byPoint, anchors[0]!);
    assert.ok(first instanceof Promise, 'the first check is the module being loaded, then the CRL fetched');
    await first;
    published['/lazy.crl'] = { status: 200, body: await crl([serialOf(revoked), byPoint.x509.serialNumber]) };
    await (await lazy.load()).refreshAll();
    assert.throws(() => lazy.check(byPoint, anchors[0]!), { code: 'CERTIFICATE_REVOKED' });
    lazy.stop();
  });
});

describe('when the CRL cannot be had', () => {
  it(`uses a CRL past its nextUpdate for ${REVOCATION_STALE_GRACE_MS / HOUR} hours, then fails closed with 503 until a fresh one comes`, async () => {
    const certificate = await tpp('/stale.crl', 'PSDNO-FSA-931000004');
    published['/stale.crl'] = { status: 200, body: await crl([]) };
    assert.equal((await read(certificate)).statusCode, 200);
    published['/stale.crl'] = { status: 500, body: Buffer.alloc(0) };
    now += HOUR + REVOCATION_STALE_GRACE_MS - 60_000;
    assert.equal((await read(certificate)).statusCode, 200, 'within the grace');
    now += 2 * 60_000;
    const closed = await read(certificate);
    assert.equal(closed.statusCode, 503, closed.body);
    assert.match(
      closed.json().message,
      /cannot establish whether TPP-Signature-Certificate is revoked: its CA's CRL at .*stale\.crl is out of date/,
    );
    const fetches = asked['/stale.crl'];
    assert.equal((await read(certificate)).statusCode, 503);
    assert.equal(asked['/stale.crl'], fetches, 'a failed address is not asked again at once');

    published['/stale.crl'] = { status: 200, body: await crl([]) };
    now += REVOCATION_RETRY_AFTER_FAILURE_MS;
    assert.equal((await read(certificate)).statusCode, 200);
  });

  it('answers 503 when the distribution point never answered a CRL, and takes no CRL signed by another CA', async () => {
    const unreachable = await tpp('/missing.crl', 'PSDNO-FSA-931000005');
    const missing = await read(unreachable);
    assert.equal(missing.statusCode, 503, missing.body);
    assert.match(missing.json().message, /could not be read .*answered 404/);

    const stranger = await createCertificateAuthority({ commonName: 'Stranger CA' });
    const forged = await tpp('/forged.crl', 'PSDNO-FSA-931000006');
    published['/forged.crl'] = { status: 200, body: await crl([], now, stranger) };
    const refused = await read(forged);
    assert.equal(refused.statusCode, 503, refused.body);
    assert.match(refused.json().message, /is not signed by 'Revoking Test CA'/);
  });

  it('reads at most the bound: a larger CRL is refused by its Content-Length, or as soon as its body passes it', async () => {
    const big = Buffer.alloc(CRL_MAX_BYTES + 1);
    published['/declared.crl'] = { status: 200, body: big, declared: true };
    await assert.rejects(
      fetchBounded({ url: `${base}/declared.crl`, maxBytes: CRL_MAX_BYTES, timeoutMs: 5_000 }),
      new RegExp(`sends ${CRL_MAX_BYTES + 1} bytes, more than the ${CRL_MAX_BYTES} read`),
    );
    published['/streamed.crl'] = { status: 200, body: big };
    await assert.rejects(
      fetchBounded({ url: `${base}/streamed.crl`, maxBytes: CRL_MAX_BYTES, timeoutMs: 5_000 }),
      new RegExp(`sends more than the ${CRL_MAX_BYTES} bytes read`),
    );
    await assert.rejects(
      fetchBounded({ url: 'file:///etc/passwd', maxBytes: 99, timeoutMs: 5_000 }),
      /only http and https addresses are fetched/,
    );
  });
});

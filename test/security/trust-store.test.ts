import 'reflect-metadata';
import assert from 'node:assert/strict';
import { X509Certificate, createPrivateKey, webcrypto } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as x509 from '@peculiar/x509';
import { type ParsedCertificate, parseCertificate } from '../../src/security/tpp-certificate.js';
import { TrustStore, TrustStoreError, readTrustedCertificates } from '../../src/security/trust-store.js';
import {
  type CertificateAndKey,
  createCertificateAuthority,
  issueTppCertificate,
} from '../../src/security/certificate-issuer.js';
import { pem, refusedAuthority } from '../support/refused-certificates.js';

let ca: CertificateAndKey;
let otherCa: CertificateAndKey;
/** Same subject name and subject key identifier as ca, different key: only the signature tells them apart. */
let impostorCa: CertificateAndKey;
let tpp: CertificateAndKey;
let otherTpp: CertificateAndKey;
let dir: string;

const parse = (certificate: CertificateAndKey): ParsedCertificate =>
  parseCertificate(Buffer.from(new X509Certificate(certificate.certPem).raw));

/** A self-signed CA certificate that copies the name and key identifier of another CA, with a key of its own (of the same type). */
async function impostorOf(real: CertificateAndKey): Promise<CertificateAndKey> {
  const original = new x509.X509Certificate(real.certPem);
  const keyId = original.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  assert.ok(keyId, 'the CA certificate has a subject key identifier');
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: original.subjectName,
    notBefore: original.notBefore,
    notAfter: original.notAfter,
    keys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      new x509.SubjectKeyIdentifierExtension(keyId),
    ],
  });
  return { certPem: certificate.toString('pem'), keyPem: '' };
}

/** A second certificate over the CA's own key (re-issued, with another serial and validity): what it signs verifies against either. */
async function recertified(real: CertificateAndKey): Promise<CertificateAndKey> {
  const original = new x509.X509Certificate(real.certPem);
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const privateKey = await webcrypto.subtle.importKey(
    'pkcs8',
    createPrivateKey(real.keyPem).export({ type: 'pkcs8', format: 'der' }),
    algorithm,
    false,
    ['sign'],
  );
  const publicKey = await original.publicKey.export(algorithm, ['verify']);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '02',
    name: original.subjectName,
    notBefore: original.notBefore,
    notAfter: new Date(original.notAfter.getTime() + 86_400_000),
    keys: { privateKey, publicKey },
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(publicKey),
    ],
  });
  return { certPem: certificate.toString('pem'), keyPem: real.keyPem };
}

before(async () => {
  [ca, otherCa] = await Promise.all([
    createCertificateAuthority({ commonName: 'Test PSD2 CA', organisation: 'Test Bank ASA', country: 'NO' }),
    createCertificateAuthority({ commonName: 'Untrusted CA', organisation: 'Elsewhere', country: 'SE' }),
  ]);
  [impostorCa, tpp, otherTpp] = await Promise.all([
    impostorOf(ca),
    issueTppCertificate({ issuer: ca, roles: ['PSP_PI'], organisationId: 'PSDNO-FSA-111111111', name: 'Test TPP AS' }),
    issueTppCertificate({ issuer: otherCa, roles: ['PSP_PI'], organisationId: 'PSDSE-FINA-1', name: 'Other TPP AB' }),
  ]);
  dir = await mkdtemp(join(tmpdir(), 'trust-store-test-'));
});

after(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text, 'utf8');
  return path;
}

async function rejectsWith(paths: string[], pattern: RegExp, path: string): Promise<void> {
  await assert.rejects(readTrustedCertificates(paths), (error: unknown) => {
    assert.ok(error instanceof TrustStoreError, `expected a TrustStoreError, got ${String(error)}`);
    assert.ok(error.message.includes(`'${path}'`), `the message names the path: ${error.message}`);
    assert.match(error.message, pattern);
    return true;
  });
}

describe('TrustStore.issuerOf', () => {
  it('finds the anchor that issued a certificate among several', () => {
    const store = new TrustStore([parse(otherCa), parse(ca)]);
    const issuer = store.issuerOf(parse(tpp));
    assert.ok(issuer);
    assert.equal(issuer.fingerprint, parse(ca).fingerprint);
    assert.equal(store.issuerOf(parse(otherTpp))?.fingerprint, parse(otherCa).fingerprint);
  });

  it('returns undefined for a certificate issued by a CA that is not an anchor', () => {
    assert.equal(new TrustStore([parse(ca)]).issuerOf(parse(otherTpp)), undefined);
  });

  it('returns undefined when an anchor has the issuer name and key identifier but not the key that signed', () => {
    const impostor = parse(impostorCa);
    assert.deepEqual(impostor.subject, parse(ca).subject);
    assert.equal(
      parse(tpp).x509.checkIssued(impostor.x509),
      true,
      'name and key identifier match, so only the signature check can refuse',
    );
    assert.equal(new TrustStore([impostor]).issuerOf(parse(tpp)), undefined);
    assert.equal(new TrustStore([impostor, parse(ca)]).issuerOf(parse(tpp))?.fingerprint, parse(ca).fingerprint);
  });

  it('returns undefined for an empty store', () => {
    assert.equal(new TrustStore([]).issuerOf(parse(tpp)), undefined);
  });

  it('finds the issuer among anchors added with, and leaves the original store unchanged', () => {
    const store = new TrustStore([parse(ca)]);
    const more = store.with([parse(otherCa)]);
    assert.equal(more.anchors.length, 2);
    assert.equal(more.issuerOf(parse(otherTpp))?.fingerprint, parse(otherCa).fingerprint);
    assert.equal(store.anchors.length, 1);
    assert.equal(store.issuerOf(parse(otherTpp)), undefined);
  });
});

describe('TrustStore.anchorOf', () => {
  it("names a certificate of a CA the operator trusts 'trusted', and one of the sandbox's self-service CA 'self-service'", () => {
    const store = new TrustStore([parse(otherCa)]);
    store.addSelfService(parse(ca));
    assert.equal(store.anchorOf(store.issuerOf(parse(otherTpp))!), 'trusted');
    assert.equal(store.anchorOf(store.issuerOf(parse(tpp))!), 'self-service');
  });

  it("names the self-service CA's certificates self-service when the operator lists that CA in TRUSTED_CA_CERTS too, under any certificate over its key", async () => {
    const again = parse(await recertified(ca));
    assert.notEqual(again.fingerprint, parse(ca).fingerprint, 'another certificate of the CA');
    // The operator's list comes first, so issuerOf finds the listed certificate, not the one main.ts added.
    const store = new TrustStore([again, parse(ca), parse(otherCa)]);
    store.addSelfService(parse(ca));
    assert.equal(store.anchors.length, 3, 'a CA listed already is not listed twice');
    assert.equal(store.issuerOf(parse(tpp))?.fingerprint, again.fingerprint);
    assert.equal(store.anchorOf(store.issuerOf(parse(tpp))!), 'self-service');
    assert.equal(store.anchorOf(store.issuerOf(parse(otherTpp))!), 'trusted');
    assert.equal(store.with([]).anchorOf(again), 'self-service', 'with keeps which CA is self-service');
  });
});

describe('readTrustedCertificates', () => {
  it('reads the CA certificates of several PEM files, one of them holding two, in order', async () => {
    const one = await write('one.pem', ca.certPem);
    const two = await write('two.pem', `${otherCa.certPem}\n${impostorCa.certPem}`);
    const anchors = await readTrustedCertificates([one, two]);
    assert.deepEqual(
      anchors.map((a) => a.fingerprint),
      [parse(ca), parse(otherCa), parse(impostorCa)].map((a) => a.fingerprint),
    );
    assert.ok(anchors.every((a) => a.x509.ca));
  });

  it('returns no anchor for no path', async () => {
    assert.deepEqual(await readTrustedCertificates([]), []);
  });

  it('gives anchors a TrustStore finds the issuer among', async () => {
    const path = await write('store.pem', ca.certPem);
    const store = new TrustStore(await readTrustedCertificates([path]));
    assert.equal(store.issuerOf(parse(tpp))?.fingerprint, parse(ca).fingerprint);
  });

  it('rejects a missing file with a TrustStoreError naming the path', async () => {
    const missing = join(dir, 'does-not-exist.pem');
    await rejectsWith([missing], /cannot read/, missing);
  });

  it('rejects a file without a PEM certificate with a TrustStoreError naming the path', async () => {
    const keyOnly = await write('key-only.pem', ca.keyPem);
    await rejectsWith([keyOnly], /holds no PEM certificate/, keyOnly);
    const empty = await write('empty.pem', '');
    await rejectsWith([empty], /holds no PEM certificate/, empty);
  });

  it('rejects a file holding a TPP certificate with a TrustStoreError naming the path and the certificate', async () => {
    const path = await write('tpp.pem', tpp.certPem);
    await rejectsWith([path], /'Test TPP AS', which is not a CA certificate/, path);
  });

  it('rejects a file holding a CA and a TPP certificate, and a good file before a bad one', async () => {
    const good = await write('good.pem', ca.certPem);
    const mixed = await write('mixed.pem', `${ca.certPem}${tpp.certPem}`);
    await rejectsWith([good, mixed], /not a CA certificate/, mixed);
  });

  it('refuses at start a CA with an RSA key under 2048 bits, naming the file, the CA and the key size', async () => {
    const path = await write(
      'weak-key.pem',
      (await refusedAuthority({ rsaBits: 1024, commonName: 'Old RSA CA' })).certPem,
    );
    await rejectsWith(
      [path],
      /holds 'Old RSA CA', which has a 1024-bit RSA key; at least 2048 bits are required/,
      path,
    );
  });

  it('refuses at start a CA signed with SHA-1, even a self-signed one', async () => {
    const path = await write('sha1.pem', (await refusedAuthority({ hash: 'SHA-1', commonName: 'SHA-1 CA' })).certPem);
    await rejectsWith([path], /holds 'SHA-1 CA', which is signed with ecdsa-with-SHA1: SHA-1 is broken/, path);
  });

  it('refuses at start a CA whose PEM block holds bytes after the certificate', async () => {
    const der = Buffer.concat([Buffer.from(new X509Certificate(ca.certPem).raw), Buffer.from([0, 0, 0])]);
    const path = await write('trailing.pem', pem(der));
    await rejectsWith([path], /holds 'Test PSD2 CA', which has 3 bytes after the end of its DER encoding/, path);
  });

  it('refuses at start a PEM block that is not a certificate, naming the file', async () => {
    const path = await write('garbage.pem', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    await rejectsWith([path], /holds a certificate that cannot be read/, path);
  });
});

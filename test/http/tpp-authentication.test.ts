import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { contextOf } from '../../src/http/hooks/request-context.js';
import { readCertificateFields } from '../../src/security/der-certificate.js';
import { formatDistinguishedName } from '../../src/security/distinguished-name.js';
import { PSP_ROLES } from '../../src/domain/psp-role.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { issueRefused, otherKey, pem, rsaKey, withBytesReplaced } from '../support/refused-certificates.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';
import { TPP_ID } from '../support/tpp-fixtures.js';

/**
 * Authentication part of the specification, through HTTP: every way a signed request can be wrong
 * gets its own 4xx and message; every form real clients send is accepted.
 * Two probe operations stand in for the real ones: a create that needs PSP_PI and a Digest, and a
 * read that needs any PSD2 role.
 */
const CREATE = '/v1/probe/payments';
const READ = '/v1/probe/resource';
const BODY = { instructedAmount: { amount: '100.00', currency: 'NOK' } };

let t: TestApp;

const probeRoutes = (app: TestApp['app']) => {
  app.post(CREATE, { config: { api: { auth: { role: 'PSP_PI', digestRequired: true } } } }, async (request) => ({
    tpp: contextOf(request).tpp,
    body: request.body,
  }));
  app.get(READ, { config: { api: { auth: { role: 'any', digestRequired: false } } } }, async (request) => ({
    tpp: contextOf(request).tpp,
  }));
};

before(async () => {
  t = await startTestApp({ routes: probeRoutes });
});
after(() => t.close());

function messageAt(body: ReturnType<typeof assertErrorBody>, path: string): string {
  const message = body.tppMessages?.find((m) => m.path === path);
  assert.ok(message, `expected a tppMessage at ${path}, got ${JSON.stringify(body.tppMessages)}`);
  return message.text ?? '';
}

function replaceKeyId(headers: Record<string, string>, replace: (keyId: string) => string): void {
  headers.signature = headers.signature!.replace(/keyId="([^"]*)"/, (_m, keyId: string) => `keyId="${replace(keyId)}"`);
}

describe('a signed request from a trusted TPP', () => {
  it('is authenticated and the TPP is identified by its organisation identifier', async () => {
    const response = await t.signed({ method: 'POST', url: CREATE, body: BODY });
    assert.equal(response.statusCode, 200, response.body);
    const json = response.json();
    assert.equal(json.tpp.id, TPP_ID);
    assert.deepEqual(json.tpp.roles, ['PSP_PI', 'PSP_AI']);
    assert.equal(json.tpp.ncaId, 'NO-FSA');
    assert.deepEqual(json.body, BODY);
  });

  it('is accepted with the Signature header in RFC 2047 form, B encoding', async () => {
    const response = await t.signed({ method: 'POST', url: CREATE, body: BODY, sign: { rfc2047: true } });
    assert.equal(response.statusCode, 200, response.body);
  });

  it('is accepted with the Signature header in RFC 2047 form, Q encoding', async () => {
    const response = await t.signed({
      method: 'POST',
      url: CREATE,
      body: BODY,
      tamper: (h) => {
        h.signature = `=?utf-8?Q?${[...Buffer.from(h.signature!, 'utf8')].map((b) => (b === 0x20 ? '_' : /[A-Za-z0-9]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `=${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('')}?=`;
      },
    });
    assert.equal(response.statusCode, 200, response.body);
  });

  it('is accepted with only the signature value wrapped as an encoded word', async () => {
    const response = await t.signed({
      method: 'POST',
      url: CREATE,
      body: BODY,
      tamper: (h) => {
        h.signature = h.signature!.replace(/signature="([^"]+)"/, (_m, s: string) => `signature="=?utf-8?B?${s}?="`);
      },
    });
    assert.equal(response.statusCode, 200, response.body);
  });

  it('is accepted with a SHA-512 Digest', async () => {
    const response = await t.signed({ method: 'POST', url: CREATE, body: BODY, sign: { digestAlgorithm: 'SHA-512' } });
    assert.equal(response.statusCode, 200, response.body);
  });

  for (const [label, rewrite] of [
    ['lower case', (sn: string) => sn.toLowerCase()],
    ['upper case', (sn: string) => sn.toUpperCase()],
    ['leading zeros removed', (sn: string) => sn.replace(/^0+/, '')],
    ['leading zeros added', (sn: string) => `0000${sn}`],
  ] as const) {
    it(`is accepted with the keyId serial in ${label}`, async () => {
      const response = await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        tamper: (h) => replaceKeyId(h, (k) => k.replace(/^SN=([0-9A-Fa-f]+)/, (_m, sn: string) => `SN=${rewrite(sn)}`)),
      });
      assert.equal(response.statusCode, 200, response.body);
    });
  }

  it('is accepted with the certificate as base64 of the PEM text', async () => {
    const response = await t.signed({ method: 'POST', url: CREATE, body: BODY, sign: { certificateEncoding: 'pem' } });
    assert.equal(response.statusCode, 200, response.body);
  });

  it('is accepted with the certificate as base64 of the DER bytes', async () => {
    const response = await t.signed({ method: 'POST', url: CREATE, body: BODY, sign: { certificateEncoding: 'der' } });
    assert.equal(response.statusCode, 200, response.body);
  });

  for (const [label, rewrite] of [
    [
      'another attribute order',
      (dn: string) =>
        dn
          .split(/,(?=[A-Za-z]+=)/)
          .reverse()
          .join(','),
    ],
    ['spaces after commas (RFC 2253 style)', (dn: string) => dn.split(/,(?=[A-Za-z]+=)/).join(', ')],
    ['spaces written as %20', (dn: string) => dn.replace(/ /g, '%20')],
    ['long attribute names', (dn: string) => dn.replace(/^CN=/, 'commonName=').replace(/,O=/, ',organizationName=')],
    // Inside the quoted keyId parameter the DN's own quotes are escaped, as HTTP quoted-strings require.
    [
      'quoted values (RFC 1779)',
      (dn: string) => dn.replace(/O=([^,\\]*(?:\\,[^,\\]*)*)/, (_m, o: string) => `O=\\"${o.replace(/\\/g, '')}\\"`),
    ],
    ['hex escapes (RFC 4514)', (dn: string) => dn.replace(/\\,/g, '\\2C').replace(/&/g, '\\26')],
  ] as const) {
    it(`is accepted with the keyId issuer DN in ${label}`, async () => {
      const response = await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        tamper: (h) => replaceKeyId(h, (k) => k.replace(/CA=(.*)$/, (_m, dn: string) => `CA=${rewrite(dn)}`)),
      });
      assert.equal(response.statusCode, 200, response.body);
    });
  }

  it('is accepted when the signature also covers (request-target)', async () => {
    const response = await t.signed({
      method: 'POST',
      url: CREATE,
      body: BODY,
      sign: { signedHeaders: ['(request-target)', 'date', 'digest', 'x-request-id'] },
    });
    assert.equal(response.statusCode, 200, response.body);
  });

  it('is accepted on a read without Digest, from a certificate with any PSD2 role', async () => {
    const response = await t.signed({ method: 'GET', url: READ, as: t.fixtures.aisOnly });
    assert.equal(response.statusCode, 200, response.body);
  });
});

describe('a request that fails authentication', () => {
  it('without Signature: 400 HTTP_HEADER_REQUIRED naming Signature', async () => {
    const body = assertErrorBody(
      await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        tamper: (h) => {
          delete h.signature;
        },
      }),
      400,
      'HTTP_HEADER_REQUIRED',
    );
    assert.match(messageAt(body, 'header:Signature'), /Signature is required/);
  });

  it('without TPP-Signature-Certificate: 400 HTTP_HEADER_REQUIRED naming it', async () => {
    const body = assertErrorBody(
      await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        tamper: (h) => {
          delete h['tpp-signature-certificate'];
        },
      }),
      400,
      'HTTP_HEADER_REQUIRED',
    );
    assert.match(messageAt(body, 'header:TPP-Signature-Certificate'), /required/);
  });

  it('without X-Request-ID: 400 HTTP_HEADER_REQUIRED naming it', async () => {
    const body = assertErrorBody(
      await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        tamper: (h) => {
          delete h['x-request-id'];
        },
      }),
      400,
      'HTTP_HEADER_REQUIRED',
    );
    assert.match(messageAt(body, 'header:X-Request-ID'), /required/);
  });

  it('without several headers: every missing one is listed', async () => {
    const body = assertErrorBody(
      await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        tamper: (h) => {
          delete h.signature;
          delete h['x-request-id'];
          delete h.digest;
        },
      }),
      400,
      'HTTP_HEADER_REQUIRED',
    );
    assert.deepEqual(body.tppMessages?.map((m) => m.path).sort(), [
      'header:Digest',
      'header:Signature',
      'header:X-Request-ID',
    ]);
  });

  it('without Digest on a create: 400 HTTP_HEADER_REQUIRED', async () => {
    const body = assertErrorBody(
      await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        tamper: (h) => {
          delete h.digest;
        },
      }),
      400,
      'HTTP_HEADER_REQUIRED',
    );
    assert.match(messageAt(body, 'header:Digest'), /create operations/);
  });

  it('with a certificate that is not base64: 400 FORMAT_ERROR', async () => {
    const body = assertErrorBody(
      await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        tamper: (h) => {
          h['tpp-signature-certificate'] = 'not a certificate!';
        },
      }),
      400,
      'FORMAT_ERROR',
    );
    assert.match(messageAt(body, 'header:TPP-Signature-Certificate'), /not base64/);
  });

  it('with base64 that is no certificate: 400 FORMAT_ERROR', async () => {
    const body = assertErrorBody(
      await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        tamper: (h) => {
          h['tpp-signature-certificate'] = Buffer.from('hello world').toString('base64');
        },
      }),
      400,
      'FORMAT_ERROR',
    );
    assert.match(messageAt(body, 'header:TPP-Signature-Certificate'), /neither to a DER certificate nor to PEM/);
  });

  it('with a Signature header that cannot be parsed: 400 FORMAT_ERROR', async () => {
    const body = assertErrorBody(
      await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        tamper: (h) => {
          h.signature = 'keyId=SN=1';
        },
      }),
      400,
      'FORMAT_ERROR',
    );
    assert.match(messageAt(body, 'header:Signature'), /cannot be read/);
  });

  it('signed with another key: 401 SIGNATURE_INVALID', async () => {
    const credentials = { certPem: t.fixtures.tpp.certPem, keyPem: t.fixtures.otherTpp.keyPem };
    const body = assertErrorBody(
      await t.signed({ method: 'POST', url: CREATE, body: BODY, sign: { credentials } }),
      401,
      'SIGNATURE_INVALID',
    );
    assert.match(messageAt(body, 'header:Signature'), /does not verify/);
  });

  it('with a signed header changed after signing: 401 SIGNATURE_INVALID', async () => {
    assertErrorBody(
      await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        tamper: (h) => {
          h['x-request-id'] = 'changed';
        },
      }),
      401,
      'SIGNATURE_INVALID',
    );
  });

  it('with the body changed after signing: 400 FORMAT_ERROR on Digest', async () => {
    const headersSeen: Record<string, string> = {};
    await t.signed({ method: 'POST', url: CREATE, body: BODY, tamper: (h) => Object.assign(headersSeen, h) });
    const response = await t.app.inject({
      method: 'POST',
      url: CREATE,
      headers: headersSeen,
      payload: JSON.stringify({ ...BODY, creditorName: 'Mallory' }),
    });
    const body = assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.match(messageAt(body, 'header:Digest'), /does not match the body/);
  });

  it('with an unsupported digest algorithm: 400 FORMAT_ERROR', async () => {
    const body = assertErrorBody(
      await t.signed({ method: 'POST', url: CREATE, body: BODY, headers: { Digest: 'MD5=XrY7u+Ae7tCTyyK7j1rNww==' } }),
      400,
      'FORMAT_ERROR',
    );
    assert.match(messageAt(body, 'header:Digest'), /MD5 is not supported; use SHA-256 or SHA-512/);
  });

  it('with the keyId serial of another certificate: 401 SIGNATURE_INVALID', async () => {
    const otherSerial = new X509Certificate(t.fixtures.otherTpp.certPem).serialNumber;
    const body = assertErrorBody(
      await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        tamper: (h) => replaceKeyId(h, (k) => k.replace(/^SN=[0-9A-Fa-f]+/, `SN=${otherSerial}`)),
      }),
      401,
      'SIGNATURE_INVALID',
    );
    assert.match(
      messageAt(body, 'header:Signature'),
      /keyId names serial .* but TPP-Signature-Certificate has serial AB12CD34EF56/,
    );
  });

  it('with the keyId CA of another issuer: 401 SIGNATURE_INVALID', async () => {
    const otherIssuer = formatDistinguishedName(
      readCertificateFields(new X509Certificate(t.fixtures.otherCa.certPem).raw).subject,
    );
    const body = assertErrorBody(
      await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        tamper: (h) => replaceKeyId(h, (k) => k.replace(/CA=.*$/, `CA=${otherIssuer}`)),
      }),
      401,
      'SIGNATURE_INVALID',
    );
    assert.match(messageAt(body, 'header:Signature'), /keyId names CA 'CN=Untrusted CA/);
  });

  it('with an expired certificate: 401 CERTIFICATE_EXPIRED', async () => {
    const body = assertErrorBody(
      await t.signed({ method: 'POST', url: CREATE, body: BODY, as: t.fixtures.expired }),
      401,
      'CERTIFICATE_EXPIRED',
    );
    assert.match(messageAt(body, 'header:TPP-Signature-Certificate'), /has expired/);
  });

  it('with a certificate not yet valid: 401 CERTIFICATE_EXPIRED', async () => {
    const body = assertErrorBody(
      await t.signed({ method: 'POST', url: CREATE, body: BODY, as: t.fixtures.notYetValid }),
      401,
      'CERTIFICATE_EXPIRED',
    );
    assert.match(messageAt(body, 'header:TPP-Signature-Certificate'), /not yet valid/);
  });

  it('with a certificate from an untrusted CA: 401 CERTIFICATE_INVALID', async () => {
    const body = assertErrorBody(
      await t.signed({ method: 'POST', url: CREATE, body: BODY, as: t.fixtures.untrusted }),
      401,
      'CERTIFICATE_INVALID',
    );
    assert.match(messageAt(body, 'header:TPP-Signature-Certificate'), /not a CA this bank trusts/);
  });

  it('with a certificate without the PSD2 QCStatement: 401 CERTIFICATE_INVALID', async () => {
    const body = assertErrorBody(
      await t.signed({ method: 'POST', url: CREATE, body: BODY, as: t.fixtures.withoutQcStatement }),
      401,
      'CERTIFICATE_INVALID',
    );
    assert.match(messageAt(body, 'header:TPP-Signature-Certificate'), /QCStatement/);
  });

  it('with a certificate without organisation identifier: 401 CERTIFICATE_INVALID', async () => {
    const body = assertErrorBody(
      await t.signed({ method: 'POST', url: CREATE, body: BODY, as: t.fixtures.withoutOrganisationId }),
      401,
      'CERTIFICATE_INVALID',
    );
    assert.match(messageAt(body, 'header:TPP-Signature-Certificate'), /organizationIdentifier/);
  });

  it('with a certificate without PSP_PI on a payment initiation: 401 ROLE_INVALID', async () => {
    const body = assertErrorBody(
      await t.signed({ method: 'POST', url: CREATE, body: BODY, as: t.fixtures.aisOnly }),
      401,
      'ROLE_INVALID',
    );
    assert.match(
      messageAt(body, 'header:TPP-Signature-Certificate'),
      /lacks the PSD2 role PSP_PI .* grants only PSP_AI/,
    );
  });

  it('with an EC certificate and algorithm rsa-sha256: 401 SIGNATURE_INVALID', async () => {
    const body = assertErrorBody(
      await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        sign: { credentials: { certPem: t.fixtures.ecKey.certPem, keyPem: t.fixtures.tpp.keyPem } },
      }),
      401,
      'SIGNATURE_INVALID',
    );
    assert.match(messageAt(body, 'header:Signature'), /does not fit the certificate's EC key/);
  });

  it('with an unsupported signature algorithm: 400 FORMAT_ERROR', async () => {
    const body = assertErrorBody(
      await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        tamper: (h) => {
          h.signature = h.signature!.replace('rsa-sha256', 'hmac-sha256');
        },
      }),
      400,
      'FORMAT_ERROR',
    );
    assert.match(messageAt(body, 'header:Signature'), /'hmac-sha256' is not supported/);
  });

  it('with a present PSU-ID left out of the signed headers: 401 SIGNATURE_INVALID', async () => {
    const body = assertErrorBody(
      await t.signed({
        method: 'POST',
        url: CREATE,
        body: BODY,
        headers: { 'PSU-ID': 'b8f0a3c2-1e64-4e55-9d2f-0c7b1a2f3e4d' },
        sign: { signedHeaders: ['date', 'digest', 'x-request-id'] },
      }),
      401,
      'SIGNATURE_INVALID',
    );
    assert.match(messageAt(body, 'header:Signature'), /leaves out psu-id/);
  });

  it('with Date outside the allowed skew: 401 SIGNATURE_INVALID naming Date', async () => {
    const body = assertErrorBody(
      await t.signed({ method: 'POST', url: CREATE, body: BODY, sign: { now: new Date(Date.now() - 301_000) } }),
      401,
      'SIGNATURE_INVALID',
    );
    assert.match(
      messageAt(body, 'header:Date'),
      /Date is 30\d s away from the server clock .*at most 300 s is allowed/,
    );
  });

  it('with a Date that is no HTTP date: 400 FORMAT_ERROR', async () => {
    const body = assertErrorBody(
      await t.signed({ method: 'POST', url: CREATE, body: BODY, headers: { Date: '2026-11-21T10:00:00Z' } }),
      400,
      'FORMAT_ERROR',
    );
    assert.match(messageAt(body, 'header:Date'), /not an HTTP date/);
  });

  it('with an over-long X-Request-ID: 400 FORMAT_ERROR', async () => {
    assertErrorBody(
      await t.signed({ method: 'POST', url: CREATE, body: BODY, sign: { requestId: 'x'.repeat(201) } }),
      400,
      'FORMAT_ERROR',
    );
  });

  it('accepts an X-Request-ID that is not a UUID, as the platform test scripts send', async () => {
    const response = await t.signed({ method: 'POST', url: CREATE, body: BODY, sign: { requestId: 'testscript-42' } });
    assert.equal(response.statusCode, 200, response.body);
  });
});

interface RefusedCase {
  label: string;
  /** The certificate and the key that signs the request (its own where it is RSA, so only the certificate is wrong). */
  credentials: () => CertificateAndKey;
  /** Rewrites TPP-Signature-Certificate after signing (it is not a signed header). */
  header?: (der: Buffer) => string;
  message: RegExp;
}

/** Made once: RSA keys take a while. */
let refused:
  | Promise<Record<'rsa1024' | 'ecP192' | 'dsa' | 'sha1' | 'roleByName' | 'unreadableKey', CertificateAndKey>>
  | undefined;
function refusedCertificates() {
  refused ??= (async () => {
    const ca = t.fixtures.ca;
    const signWithTppKey = t.fixtures.tpp.keyPem;
    const weak = rsaKey(1024);
    const p192 = otherKey('ec', 'prime192v1');
    const dsa = otherKey('dsa');
    const [rsa1024, ecP192, dsaCertificate, sha1, roleByName] = await Promise.all([
      issueRefused({ issuer: ca, publicKeySpki: weak.spki, keyPem: weak.keyPem }),
      issueRefused({ issuer: ca, publicKeySpki: p192.spki, keyPem: signWithTppKey }),
      issueRefused({ issuer: ca, publicKeySpki: dsa.spki, keyPem: signWithTppKey }),
      issueRefused({ issuer: ca, hash: 'SHA-1' }),
      issueRefused({
        issuer: ca,
        roles: [
          { oid: '1.2.3.4.5', name: 'PSP_PI' },
          { oid: PSP_ROLES.PSP_AI, name: 'PSP_AI' },
        ],
      }),
    ]);
    // rsaEncryption (1.2.840.113549.1.1.1) made 1.2.840.113549.1.1.99: a key node cannot read.
    const unreadableKey = withBytesReplaced(
      t.fixtures.tpp,
      Buffer.from('06092a864886f70d010101', 'hex'),
      Buffer.from('06092a864886f70d010163', 'hex'),
    );
    return { rsa1024, ecP192, dsa: dsaCertificate, sha1, roleByName, unreadableKey };
  })();
  return refused;
}

const TRAILING = Buffer.from([0x00, 0x00, 0x00]);
const REFUSED_CASES: RefusedCase[] = [
  {
    label: 'an RSA key of 1024 bits',
    credentials: () => certificates.rsa1024,
    message:
      /^TPP-Signature-Certificate has a 1024-bit RSA key; at least 2048 bits are required \(CERTIFICATE_INVALID\)$/,
  },
  {
    label: 'an EC key on P-192',
    credentials: () => certificates.ecP192,
    message:
      /^TPP-Signature-Certificate has an EC key on the 192-bit curve prime192v1, weaker than P-256; EC keys must be on a curve of at least 256 bits/,
  },
  {
    label: 'a DSA key',
    credentials: () => certificates.dsa,
    message:
      /^TPP-Signature-Certificate has a DSA key, which the bank does not verify; the bank accepts RSA keys of at least 2048 bits and EC keys on P-256/,
  },
  {
    label: 'a key of a type node cannot read',
    credentials: () => certificates.unreadableKey,
    message:
      /^TPP-Signature-Certificate has a public key of a type the bank cannot read \(algorithm 1\.2\.840\.113549\.1\.1\.99\)/,
  },
  {
    label: 'a SHA-1 signature',
    credentials: () => certificates.sha1,
    message:
      /^TPP-Signature-Certificate is signed with ecdsa-with-SHA1: SHA-1 is broken \(collisions can be computed\)/,
  },
  {
    label: 'a PSD2 role given by name under a foreign OID',
    credentials: () => certificates.roleByName,
    message:
      /^TPP-Signature-Certificate names the PSD2 role PSP_PI under OID 1\.2\.3\.4\.5, which is not its ETSI role OID 0\.4\.0\.19495\.1\.2; a role counts only by its OID/,
  },
  {
    label: 'bytes after the DER, sent as base64 of the DER',
    credentials: () => t.fixtures.tpp,
    header: (der) => Buffer.concat([der, TRAILING]).toString('base64'),
    message: /^TPP-Signature-Certificate has 3 bytes after the end of its DER encoding/,
  },
  {
    label: 'bytes after the DER, sent as base64 of the PEM text',
    credentials: () => t.fixtures.tpp,
    header: (der) => Buffer.from(pem(Buffer.concat([der, TRAILING]))).toString('base64'),
    message: /^TPP-Signature-Certificate has 3 bytes after the end of its DER encoding/,
  },
  {
    label: 'bytes after the DER, sent as PEM text on one line',
    credentials: () => t.fixtures.tpp,
    header: (der) =>
      pem(Buffer.concat([der, TRAILING]))
        .replace(/\n/g, ' ')
        .trim(),
    message: /^TPP-Signature-Certificate has 3 bytes after the end of its DER encoding/,
  },
];
let certificates: Awaited<ReturnType<typeof refusedCertificates>>;

for (const mode of ['sandbox', 'production'] as const) {
  describe(`a certificate a qualified trust service would never issue, in ${mode} mode: 401 CERTIFICATE_INVALID saying what is wrong`, () => {
    let app: TestApp;
    before(async () => {
      certificates = await refusedCertificates();
      app = mode === 'sandbox' ? t : await startTestApp({ mode, routes: probeRoutes, seed: false });
    });
    after(async () => {
      if (app !== t) await app.close();
    });

    for (const c of REFUSED_CASES) {
      it(`refuses a signed request whose certificate has ${c.label}`, async () => {
        const credentials = c.credentials();
        const der = Buffer.from(new X509Certificate(credentials.certPem).raw);
        const response = await app.signed({
          method: 'POST',
          url: CREATE,
          body: BODY,
          sign: { credentials },
          tamper:
            c.header === undefined
              ? undefined
              : (h) => {
                  h['tpp-signature-certificate'] = c.header!(der);
                },
        });
        const body = assertErrorBody(response, 401, 'CERTIFICATE_INVALID');
        assert.match(messageAt(body, 'header:TPP-Signature-Certificate'), c.message);
      });
    }

    it('lists every reason of a certificate refused for several, each as a message of its own', async () => {
      const weak = rsaKey(1024);
      const credentials = await issueRefused({
        issuer: t.fixtures.ca,
        publicKeySpki: weak.spki,
        keyPem: weak.keyPem,
        hash: 'SHA-1',
      });
      const body = assertErrorBody(
        await app.signed({ method: 'GET', url: READ, sign: { credentials } }),
        401,
        'CERTIFICATE_INVALID',
      );
      assert.deepEqual(
        body.tppMessages?.map((m) => [m.code, m.path]),
        [
          ['FORBIDDEN', 'header:TPP-Signature-Certificate'],
          ['FORBIDDEN', 'header:TPP-Signature-Certificate'],
        ],
      );
      assert.match(body.tppMessages![0]!.text!, /is signed with ecdsa-with-SHA1/);
      assert.match(body.tppMessages![1]!.text!, /has a 1024-bit RSA key/);
      const again = assertErrorBody(
        await app.signed({ method: 'GET', url: READ, sign: { credentials } }),
        401,
        'CERTIFICATE_INVALID',
      );
      assert.deepEqual(
        again.tppMessages,
        body.tppMessages,
        'a refused certificate sent again (kept in the certificate cache) gets the same answer',
      );
    });
  });
}

describe('a failed TPP authentication as a client generated from the published enum reads it', () => {
  const cases = [
    {
      label: 'a signature made with another key',
      code: 'SIGNATURE_INVALID',
      published: 'BAD_REQUEST',
      path: 'header:Signature',
      send: () =>
        t.signed({
          method: 'POST',
          url: CREATE,
          body: BODY,
          sign: { credentials: { certPem: t.fixtures.tpp.certPem, keyPem: t.fixtures.otherTpp.keyPem } },
        }),
    },
    {
      label: 'Date outside the allowed skew',
      code: 'SIGNATURE_INVALID',
      published: 'BAD_REQUEST',
      path: 'header:Date',
      send: () => t.signed({ method: 'GET', url: READ, sign: { now: new Date(Date.now() - 3_600_000) } }),
    },
    {
      label: 'an untrusted certificate',
      code: 'CERTIFICATE_INVALID',
      published: 'FORBIDDEN',
      path: 'header:TPP-Signature-Certificate',
      send: () => t.signed({ method: 'POST', url: CREATE, body: BODY, as: t.fixtures.untrusted }),
    },
    {
      label: 'an expired certificate',
      code: 'CERTIFICATE_EXPIRED',
      published: 'FORBIDDEN',
      path: 'header:TPP-Signature-Certificate',
      send: () => t.signed({ method: 'POST', url: CREATE, body: BODY, as: t.fixtures.expired }),
    },
    {
      label: 'a certificate without PSP_PI',
      code: 'ROLE_INVALID',
      published: 'FORBIDDEN',
      path: 'header:TPP-Signature-Certificate',
      send: () => t.signed({ method: 'POST', url: CREATE, body: BODY, as: t.fixtures.aisOnly }),
    },
  ] as const;
  for (const c of cases) {
    it(`${c.label}: the body code is ${c.code}, the tppMessage code ${c.published} (of the specification's list), its text ends with ${c.code}`, async () => {
      const body = assertErrorBody(await c.send(), 401, c.code);
      assert.deepEqual(
        body.tppMessages?.map((m) => [m.category, m.code, m.path]),
        [['ERROR', c.published, c.path]],
      );
      assert.ok(body.tppMessages![0]!.text!.endsWith(` (${c.code})`), body.tppMessages![0]!.text);
    });
  }
});

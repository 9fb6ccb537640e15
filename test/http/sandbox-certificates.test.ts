import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SANDBOX_CERTIFICATE_REQUESTS_PER_ADDRESS_PER_MINUTE } from '../../src/domain/limits.js';
import { parseCertificate, readPemCertificates } from '../../src/security/tpp-certificate.js';
import { CROSS_BORDER_PATH, crossBorderBody, messagesByPath, psuByNationalId } from '../support/payment-requests.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/** POST /v1/sandbox/certificates: a TPP with only the server's address gets a certificate the sandbox trusts. */
const PATH = '/v1/sandbox/certificates';
const REQUEST = {
  organizationIdentifier: 'PSDNO-FSA-987654321',
  name: 'Certificate Test TPP',
  roles: ['PSP_PI', 'PSP_AI'],
};

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

/** Each test asks from an address of its own: the limit is per address. */
let nextAddress = 1;
function issue(body: unknown, remoteAddress = `198.51.100.${nextAddress++}`) {
  return t.app.inject({
    method: 'POST',
    url: PATH,
    payload: body as object,
    headers: { 'content-type': 'application/json' },
    remoteAddress,
  });
}

interface Issued {
  certificate: string;
  privateKey: string;
  keyId: string;
  serialNumber: string;
  organizationIdentifier: string;
  roles: string[];
  validFrom: string;
  validTo: string;
  caCertificate: string;
}

describe('POST /v1/sandbox/certificates', () => {
  it('issues, unsigned, a certificate with the identifier, name and roles asked for, and its key; the sandbox then takes a payment signed with it (201)', async () => {
    const response = await issue(REQUEST);
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(response.headers['cache-control'], 'no-store');
    const issued = response.json() as Issued;
    const certificate = parseCertificate(readPemCertificates(issued.certificate)[0]!);
    assert.equal(certificate.organisationId, REQUEST.organizationIdentifier);
    assert.equal(certificate.name, REQUEST.name);
    assert.deepEqual(certificate.psd2?.roles, REQUEST.roles);
    assert.equal(certificate.psd2?.ncaId, 'NO-FSA');
    assert.ok(new X509Certificate(issued.certificate).checkIssued(new X509Certificate(issued.caCertificate)));
    assert.equal(issued.serialNumber, certificate.x509.serialNumber);
    assert.match(issued.keyId, new RegExp(`^SN=${issued.serialNumber},CA=CN=`));
    assert.ok(Date.parse(issued.validTo) - Date.parse(issued.validFrom) >= 365 * 86_400_000);
    assert.match(issued.privateKey, /^-----BEGIN PRIVATE KEY-----/);

    const created = await t.signed({
      method: 'POST',
      url: CROSS_BORDER_PATH,
      body: crossBorderBody(),
      headers: psuByNationalId(),
      as: { certPem: issued.certificate, keyPem: issued.privateKey },
    });
    assert.equal(created.statusCode, 201, created.body);
  });

  it('takes a validity in days, at most a year', async () => {
    const issued = (await issue({ ...REQUEST, validDays: 30 })).json() as Issued;
    assert.equal(Date.parse(issued.validTo) - Date.parse(issued.validFrom), 30 * 86_400_000);
    const refused = await issue({ ...REQUEST, validDays: 366 });
    assertErrorBody(refused, 400, 'FORMAT_ERROR');
    assert.ok(messagesByPath(refused).has('$.validDays'), refused.body);
  });

  it('refuses identifiers no authority gives, naming the field and the rule (400 FORMAT_ERROR)', async () => {
    const cases: [string, RegExp][] = [
      ['933012867', /PSD, the authority's country/],
      ['PSDNO-FSA-', /PSD, the authority's country/],
      ['PSDNO-F-933012867', /2 to 8 capital letters/],
      ['PSDno-FSA-933012867', /PSD, the authority's country/],
      ['PSDNO-FSA-933 012 867', /no spaces/],
      ['PSDXX-FSA-933012867', /'XX', which is no ISO 3166 country code/],
      [`PSDNO-FSA-${'9'.repeat(60)}`, /.+/],
    ];
    for (const [organizationIdentifier, why] of cases) {
      const response = await issue({ ...REQUEST, organizationIdentifier });
      assertErrorBody(response, 400, 'FORMAT_ERROR');
      const texts =
        messagesByPath(response)
          .get('$.organizationIdentifier')
          ?.map((m) => m.text)
          .join(' ') ?? '';
      assert.match(texts, why, `${organizationIdentifier}: ${response.body}`);
    }
  });

  it('refuses impossible roles and names: none, unknown, twice, an empty or control-character name, an unknown field (400 FORMAT_ERROR at each)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...REQUEST, roles: [] }, '$.roles'],
      [{ ...REQUEST, roles: ['PSP_XX'] }, '$.roles[0]'],
      [{ ...REQUEST, roles: ['PSP_PI', 'PSP_PI'] }, '$.roles'],
      [{ ...REQUEST, roles: 'PSP_PI' }, '$.roles'],
      [{ ...REQUEST, name: '   ' }, '$.name'],
      [{ ...REQUEST, name: 'Line\nbreak' }, '$.name'],
      [{ ...REQUEST, name: 'x'.repeat(65) }, '$.name'],
      [{ ...REQUEST, serialNumber: '01' }, '$.serialNumber'],
      [{ name: 'No identifier', roles: ['PSP_PI'] }, '$.organizationIdentifier'],
    ];
    for (const [body, path] of cases) {
      const response = await issue(body);
      assertErrorBody(response, 400, 'FORMAT_ERROR');
      assert.ok(
        messagesByPath(response).has(path),
        `${JSON.stringify(body)}: expected a message at ${path}, got ${response.body}`,
      );
    }
  });

  it(`answers at most ${SANDBOX_CERTIFICATE_REQUESTS_PER_ADDRESS_PER_MINUTE} requests a minute from one address, then 429 ACCESS_EXCEEDED with Retry-After; another address is served`, async () => {
    const address = '203.0.113.7';
    // Refused requests count as well: the limit is on asking, whatever is asked.
    for (let i = 0; i < SANDBOX_CERTIFICATE_REQUESTS_PER_ADDRESS_PER_MINUTE; i++)
      assertErrorBody(await issue({}, address), 400, 'FORMAT_ERROR');
    const limited = await issue(REQUEST, address);
    assertErrorBody(limited, 429, 'ACCESS_EXCEEDED');
    assert.ok(Number(limited.headers['retry-after']) > 0, JSON.stringify(limited.headers));
    assert.equal((limited.json() as { tppMessages: { code: string }[] }).tppMessages[0]!.code, 'ACCESS_EXCEEDED');
    assert.equal((await issue(REQUEST, '203.0.113.8')).statusCode, 201);
  });

  it('is in the OpenAPI document with its request and answer', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
    };
    const operation = document.paths[PATH]?.post;
    assert.ok(operation !== undefined, Object.keys(document.paths).join(', '));
    assert.ok(operation.requestBody !== undefined);
    for (const status of ['201', '400', '429']) assert.ok(status in operation.responses, status);
  });
});

describe('POST /v1/sandbox/certificates in production', () => {
  it('does not exist: 404 as every sandbox route', async () => {
    const production = await startTestApp({ mode: 'production' });
    try {
      const response = await production.app.inject({ method: 'POST', url: PATH, payload: REQUEST });
      const body = assertErrorBody(response, 404, 'NOT_FOUND');
      assert.match(body.message ?? '', /belongs to the sandbox/);
    } finally {
      await production.close();
    }
  });
});

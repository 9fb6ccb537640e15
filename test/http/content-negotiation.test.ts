import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';
import { COMPRESSION_MIN_BYTES } from '../../src/domain/limits.js';
import { CROSS_BORDER_PATH, createCrossBorder } from '../support/payment-requests.js';

/** Content negotiation of every operation: Accept, Accept-Charset, Accept-Encoding, Accept-Language. */
const URL_ = '/v1/probe/negotiated';
const SMALL_URL = '/v1/probe/negotiated-small';
// Longer than COMPRESSION_MIN_BYTES, as a list is; SMALL as long as a status answer.
const PAYLOAD = { message: 'Betaling mottatt — æøå', items: Array.from({ length: 200 }, (_, i) => ({ i })) };
const SMALL = { transactionStatus: 'ACTC', padding: 'x'.repeat(400) };

let t: TestApp;
before(async () => {
  t = await startTestApp({
    routes: (app) => {
      app.get(URL_, { config: { api: { auth: { role: 'any', digestRequired: false } } } }, async (request) => ({
        ...PAYLOAD,
        locale: request.locale,
      }));
      app.get(SMALL_URL, { config: { api: { auth: { role: 'any', digestRequired: false } } } }, async () => SMALL);
    },
  });
});
after(() => t.close());

const get = (headers: Record<string, string>) => t.signed({ method: 'GET', url: URL_, headers });

describe('content negotiation', () => {
  it('answers JSON in UTF-8 when the client states no preference', async () => {
    const response = await get({});
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(response.headers['content-encoding'], undefined);
    assert.equal(response.headers['content-language'], 'en');
    assert.equal(response.json().message, PAYLOAD.message);
  });

  for (const accept of ['application/json', '*/*', 'application/*', 'text/html, application/json;q=0.5']) {
    it(`accepts Accept: ${accept}`, async () => {
      assert.equal((await get({ Accept: accept })).statusCode, 200);
    });
  }

  it('answers 406 REQUESTED_FORMATS_INVALID when Accept rules out JSON', async () => {
    const body = assertErrorBody(await get({ Accept: 'application/xml' }), 406, 'REQUESTED_FORMATS_INVALID');
    assert.equal(body.tppMessages?.[0]?.path, 'header:Accept');
  });

  it('answers 406 when Accept-Charset rules out UTF-8, and accepts it when UTF-8 is allowed', async () => {
    assertErrorBody(await get({ 'Accept-Charset': 'iso-8859-1' }), 406, 'REQUESTED_FORMATS_INVALID');
    assert.equal((await get({ 'Accept-Charset': 'iso-8859-1, utf-8;q=0.5' })).statusCode, 200);
  });

  it('answers 406 when Accept-Encoding rules out every encoding including identity', async () => {
    const body = assertErrorBody(
      await get({ 'Accept-Encoding': 'compress, identity;q=0' }),
      406,
      'REQUESTED_FORMATS_INVALID',
    );
    assert.equal(body.tppMessages?.[0]?.path, 'header:Accept-Encoding');
  });

  for (const [encoding, decode] of [
    ['gzip', gunzipSync],
    ['br', brotliDecompressSync],
    ['deflate', inflateSync],
  ] as const) {
    it(`compresses with ${encoding} when asked and reports it in Content-Encoding`, async () => {
      const response = await get({ 'Accept-Encoding': encoding });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-encoding'], encoding);
      assert.equal(JSON.parse(decode(response.rawPayload).toString('utf8')).message, PAYLOAD.message);
    });
  }

  it('sends an answer shorter than COMPRESSION_MIN_BYTES without content coding, whatever Accept-Encoding allows', async () => {
    assert.ok(
      JSON.stringify(PAYLOAD).length > COMPRESSION_MIN_BYTES && JSON.stringify(SMALL).length < COMPRESSION_MIN_BYTES,
    );
    for (const encoding of ['gzip', 'br', 'deflate', 'gzip, deflate, br']) {
      const response = await t.signed({ method: 'GET', url: SMALL_URL, headers: { 'Accept-Encoding': encoding } });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-encoding'], undefined, encoding);
      assert.deepEqual(response.json(), SMALL);
    }
  });

  it('answers a payment’s status, which goes without the compression hooks, as any short answer', async () => {
    const created = await createCrossBorder(t);
    assert.equal(created.statusCode, 201, created.body);
    const url = `${CROSS_BORDER_PATH}/${(created.json() as { paymentId: string }).paymentId}/status`;
    for (const encoding of ['gzip', 'br', 'gzip, deflate, br']) {
      const response = await t.signed({ method: 'GET', url, headers: { 'Accept-Encoding': encoding } });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['content-encoding'], undefined, encoding);
      assert.ok(response.rawPayload.length < COMPRESSION_MIN_BYTES, `${response.rawPayload.length} bytes`);
      assert.equal(response.json().transactionStatus, 'RCVD');
    }
    const refused = await t.signed({ method: 'GET', url, headers: { 'Accept-Encoding': 'compress, identity;q=0' } });
    assert.equal(
      assertErrorBody(refused, 406, 'REQUESTED_FORMATS_INVALID').tppMessages?.[0]?.path,
      'header:Accept-Encoding',
    );
  });

  it('answers a GET that names a Content-Encoding as any GET: it has no body to decode', async () => {
    for (const encoding of ['gzip', 'compress', 'x-unknown']) {
      const response = await get({ 'Content-Encoding': encoding });
      assert.equal(response.statusCode, 200, encoding);
      assert.equal(response.json().message, PAYLOAD.message);
    }
  });

  it('reports every violation of Accept, Accept-Charset and Accept-Encoding at once', async () => {
    const body = assertErrorBody(
      await get({ Accept: 'text/plain', 'Accept-Charset': 'us-ascii', 'Accept-Encoding': 'identity;q=0' }),
      406,
      'REQUESTED_FORMATS_INVALID',
    );
    assert.deepEqual(
      body.tppMessages?.map((m) => m.path),
      ['header:Accept', 'header:Accept-Charset', 'header:Accept-Encoding'],
    );
  });

  for (const [header, expected] of [
    ['nb', 'nb'],
    ['nb-NO', 'nb'],
    ['no', 'nb'],
    ['nn-NO;q=0.9, en;q=0.5', 'nb'],
    ['en-GB', 'en'],
    ['de', 'en'],
    ['en;q=0.2, nb;q=0.8', 'nb'],
  ] as const) {
    it(`answers Accept-Language '${header}' in ${expected}`, async () => {
      const response = await get({ 'Accept-Language': header });
      assert.equal(response.headers['content-language'], expected);
      assert.equal(response.json().locale, expected);
    });
  }

  it('reports Content-Language on error answers too', async () => {
    const response = await t.signed({
      method: 'GET',
      url: URL_,
      headers: { 'Accept-Language': 'nb' },
      tamper: (h) => {
        delete h.signature;
      },
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.headers['content-language'], 'nb');
  });
});

import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.js';
import { TPP_MESSAGE_CODES } from '../../src/domain/error-catalogue.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * The error model: every error is the specification's body {id, system, status, code, message}
 * with tppMessages listing every violation; an internal fault is a 500 SYSTEM_ERROR with nothing
 * internal in it; the id is the one in the request's log line.
 */
const lines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    for (const line of String(chunk).split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line));
    done();
  },
});

const PROBE = '/v1/probe/validated';
const probeSchema = {
  headers: {
    type: 'object',
    required: ['PSU-IP-Address'],
    properties: {
      'PSU-IP-Address': {
        type: 'string',
        anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }],
        'x-rule-text': 'an IPv4 or IPv6 address',
      },
    },
  },
  querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1 } } },
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['creditorName', 'payments'],
    properties: {
      creditorName: { type: 'string', maxLength: 70 },
      payments: {
        type: 'array',
        items: {
          type: 'object',
          required: ['amount'],
          properties: {
            amount: {
              type: 'string',
              pattern: '^\\d+(\\.\\d+)?$',
              'x-rule-text': 'a decimal number written as a string',
            },
          },
        },
      },
    },
  },
} as const;

let t: TestApp;
before(async () => {
  t = await startTestApp({
    logger: { level: 'info', stream: logStream },
    routes: (app) => {
      const auth = { role: 'PSP_PI' as const, digestRequired: true };
      app.post('/v1/probe/fault', { config: { api: { auth } } }, async () => {
        throw new Error('database password is hunter2 at /srv/secret/path');
      });
      app.post(PROBE, { config: { api: { auth } }, schema: probeSchema }, async (request) => ({
        ok: true,
        query: request.query,
      }));
      // A route written later, by anyone, with precise codes in its messages.
      app.post('/v1/probe/warned', { config: { api: { auth } } }, async () => ({
        ok: true,
        tppMessages: [
          { category: 'WARNING', code: 'REFERENCE_STATUS_INVALID', text: 'the payment is already in a basket' },
        ],
      }));
      app.post('/v1/probe/mixed', { config: { api: { auth } } }, async () => {
        throw ApiError.of([
          { code: 'FORMAT_ERROR', path: '$.paymentIds[0]', text: 'not a payment id' },
          {
            code: 'REFERENCE_MIX_INVALID',
            path: '$.paymentIds[1]',
            text: 'a bulk payment cannot be put in a signing basket',
          },
        ]);
      });
    },
  });
});
after(() => t.close());

describe('error model', () => {
  it('answers an internal fault with 500 SYSTEM_ERROR and no internal detail, and logs it in full under the same id', async () => {
    const response = await t.signed({ method: 'POST', url: '/v1/probe/fault', body: {} });
    const body = assertErrorBody(response, 500, 'SYSTEM_ERROR');
    assert.deepEqual(Object.keys(body).sort(), ['code', 'id', 'status', 'system']);
    assert.doesNotMatch(response.body, /hunter2|secret|stack|Error/);
    const fault = lines.find((l) => l.reqId === body.id && l.msg === 'unexpected fault');
    assert.ok(fault, 'the fault is logged with the error id');
    assert.match(JSON.stringify(fault), /hunter2/);
    const requestLine = lines.find((l) => l.reqId === body.id && l.msg === 'request');
    assert.equal(requestLine?.status, 500);
  });

  it('reports every violation at once, each with its path, across headers, query and body', async () => {
    const response = await t.signed({
      method: 'POST',
      url: `${PROBE}?limit=0`,
      headers: { 'PSU-IP-Address': 'not-an-ip' },
      body: { creditorName: 'x'.repeat(71), payments: [{ amount: '1' }, { amount: 12 }, {}], extra: true },
    });
    const body = assertErrorBody(response, 400, 'FORMAT_ERROR');
    const byPath = new Map(body.tppMessages?.map((m) => [m.path, m.text]));
    assert.match(
      byPath.get('header:PSU-IP-Address') ?? '',
      /header PSU-IP-Address must be an IPv4 or IPv6 address \(got 'not-an-ip'\)/,
    );
    assert.match(byPath.get('query:limit') ?? '', /query parameter limit must be at least 1/);
    assert.match(byPath.get('$.creditorName') ?? '', /must be at most 70 characters long \(it is 71\)/);
    assert.match(byPath.get('$.payments[1].amount') ?? '', /must be a string \(got 12\)/);
    assert.match(byPath.get('$.payments[2].amount') ?? '', /is required/);
    assert.match(byPath.get('$.extra') ?? '', /is not a field of this request/);
    assert.equal(
      body.tppMessages?.every((m) => m.category === 'ERROR'),
      true,
    );
    assert.match(body.message ?? '', /^6 problems in the request/);
  });

  it('names a missing required header with HTTP_HEADER_REQUIRED', async () => {
    const response = await t.signed({ method: 'POST', url: PROBE, body: { creditorName: 'A', payments: [] } });
    const body = assertErrorBody(response, 400, 'HTTP_HEADER_REQUIRED');
    assert.equal(body.tppMessages?.[0]?.path, 'header:PSU-IP-Address');
  });

  it('coerces query values to the schema type and passes a valid request', async () => {
    const response = await t.signed({
      method: 'POST',
      url: `${PROBE}?limit=5`,
      headers: { 'PSU-IP-Address': '2001:db8::1' },
      body: { creditorName: 'A', payments: [{ amount: '10.50' }] },
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json().query, { limit: 5 });
  });

  it('refuses a whole number in a query parameter not written in decimal digits, which coercion alone would read as a number (Infinity passed as one)', async () => {
    const send = (limit: string) =>
      t.signed({
        method: 'POST',
        url: `${PROBE}?limit=${limit}`,
        headers: { 'PSU-IP-Address': '2001:db8::1' },
        body: { creditorName: 'A', payments: [{ amount: '10.50' }] },
      });
    for (const limit of ['Infinity', '-Infinity', '0x10', '%201', '1%20', '1e1', '1.0', '%20', '', '1e400']) {
      const body = assertErrorBody(await send(limit), 400, 'FORMAT_ERROR');
      assert.equal(
        body.tppMessages?.length,
        1,
        `limit=${limit}: one problem, of the text sent: ${JSON.stringify(body.tppMessages)}`,
      );
      assert.equal(body.tppMessages?.[0]?.path, 'query:limit');
      assert.match(
        body.tppMessages?.[0]?.text ?? '',
        /^query parameter limit must be a whole number, written in decimal digits \(got '/,
        `limit=${limit}`,
      );
    }
    for (const [limit, read] of [
      ['%2B5', 5],
      ['007', 7],
      ['5', 5],
    ] as const) {
      const response = await send(limit);
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json().query, { limit: read });
    }
    // Decimal digits still meet the schema's bounds, and a repeated parameter its type.
    assert.match(
      assertErrorBody(await send('-3'), 400, 'FORMAT_ERROR').tppMessages?.[0]?.text ?? '',
      /must be at least 1 \(got -3\)/,
    );
    const repeated = await t.signed({
      method: 'POST',
      url: `${PROBE}?limit=1&limit=2`,
      headers: { 'PSU-IP-Address': '2001:db8::1' },
      body: { creditorName: 'A', payments: [{ amount: '10.50' }] },
    });
    assert.match(
      assertErrorBody(repeated, 400, 'FORMAT_ERROR').tppMessages?.[0]?.text ?? '',
      /query parameter limit must be a whole number/,
    );
  });

  it('answers a body that is not JSON with 400 FORMAT_ERROR, after authentication', async () => {
    const body = assertErrorBody(
      await t.signed({
        method: 'POST',
        url: PROBE,
        headers: { 'PSU-IP-Address': '10.0.0.1' },
        body: '{"creditorName": ',
      }),
      400,
      'FORMAT_ERROR',
    );
    assert.match(body.message ?? '', /the body is not valid JSON/);
  });

  it('does not parse the body of a request that fails authentication', async () => {
    const response = await t.signed({
      method: 'POST',
      url: PROBE,
      body: '{broken',
      tamper: (h) => {
        delete h.signature;
      },
    });
    assertErrorBody(response, 400, 'HTTP_HEADER_REQUIRED');
  });

  it('refuses a body that is not UTF-8', async () => {
    const bytes = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    const body = assertErrorBody(
      await t.signed({ method: 'POST', url: PROBE, headers: { 'PSU-IP-Address': '10.0.0.1' }, body: bytes }),
      400,
      'FORMAT_ERROR',
    );
    assert.match(body.message ?? '', /UTF-8|JSON/);
  });

  it('refuses a prototype-polluting body, naming the field (__proto__, escaped or not, and constructor.prototype)', async () => {
    for (const [raw, path] of [
      ['{"__proto__": {"admin": true}, "creditorName": "A", "payments": []}', '$.__proto__'],
      ['{"payments": [{"\\u005f_proto__": {"admin": true}}]}', '$.payments[0].__proto__'],
      ['{"a": {"constructor": {"prototype": {"admin": true}}}}', '$.a.constructor.prototype'],
    ] as const) {
      const body = assertErrorBody(
        await t.signed({ method: 'POST', url: PROBE, headers: { 'PSU-IP-Address': '10.0.0.1' }, body: raw }),
        400,
        'FORMAT_ERROR',
      );
      assert.equal(body.tppMessages?.[0]?.path, path, JSON.stringify(body));
      assert.match(body.tppMessages?.[0]?.text ?? '', /field name this server refuses/);
    }
    // "constructor" and "prototype" alone are ordinary names.
    const plain = await t.signed({
      method: 'POST',
      url: PROBE,
      headers: { 'PSU-IP-Address': '10.0.0.1' },
      body: '{"constructor": 1, "prototype": {"x": 1}}',
    });
    assert.doesNotMatch(plain.body, /field name this server refuses/);
  });

  it('answers a body sent as another media type with 415 UNSUPPORTED_MEDIA_TYPE, text/plain too (not a Digest mismatch)', async () => {
    for (const contentType of ['application/x-www-form-urlencoded', 'text/plain', 'text/plain; charset=utf-8']) {
      const response = await t.signed({
        method: 'POST',
        url: PROBE,
        body: '{"payments": []}',
        headers: { 'Content-Type': contentType, 'PSU-IP-Address': '10.0.0.1' },
      });
      const body = assertErrorBody(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
      assert.deepEqual(
        body.tppMessages?.map((m) => [m.code, m.path]),
        [['FORMAT_ERROR', 'header:Content-Type']],
        contentType,
      );
    }
  });

  it('takes an empty body of any media type as no body (fetch sends a POST without a body as text/plain)', async () => {
    for (const contentType of [
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'application/octet-stream',
    ]) {
      const response = await t.signed({
        method: 'POST',
        url: '/v1/sandbox/batch-runs',
        body: '',
        headers: { 'Content-Type': contentType },
        sign: { digest: true },
      });
      assert.equal(response.statusCode, 200, `${contentType}: ${response.body}`);
    }
  });

  it('answers a body over the limit with 400 PAYLOAD_TOO_LARGE, a status Berlin Group defines', async () => {
    const response = await t.signed({
      method: 'POST',
      url: PROBE,
      headers: { 'PSU-IP-Address': '10.0.0.1' },
      body: JSON.stringify({ creditorName: 'x'.repeat(3 * 1024 * 1024), payments: [] }),
    });
    const body = assertErrorBody(response, 400, 'PAYLOAD_TOO_LARGE');
    assert.deepEqual(
      body.tppMessages?.map((m) => m.code),
      ['BAD_REQUEST'],
    );
    assert.match(body.tppMessages![0]!.text!, /larger than 65536 bytes.* \(PAYLOAD_TOO_LARGE\)$/);
  });

  it('answers an unknown operation with 404 NOT_FOUND in the error body', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/nothing-here' });
    const body = assertErrorBody(response, 404, 'NOT_FOUND');
    assert.match(body.message ?? '', /no operation GET \/v1\/nothing-here/);
  });

  it('echoes X-Request-ID on every answer, an unknown operation and an unsigned request too', async () => {
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/v1/consents/unknown/status',
      headers: { 'x-request-id': 'echo-404' },
    });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.headers['x-request-id'], 'echo-404');
    const unsigned = await t.app.inject({
      method: 'GET',
      url: '/v1/sandbox/customers',
      headers: { 'x-request-id': 'echo-400' },
    });
    assert.equal(unsigned.statusCode, 400);
    assert.equal(unsigned.headers['x-request-id'], 'echo-400');
  });

  it('writes one log line per request with X-Request-ID, status, duration and TPP, and no header secrets', async () => {
    const requestId = `log-check-${Date.now()}`;
    const response = await t.signed({
      method: 'POST',
      url: PROBE,
      headers: { 'PSU-IP-Address': '10.0.0.1', 'X-PSU-IDENTITY': '13039319955' },
      body: { creditorName: 'A', payments: [] },
      sign: { requestId },
    });
    assert.equal(response.statusCode, 200);
    const mine = lines.filter((l) => l.xRequestId === requestId);
    assert.equal(mine.length, 1);
    const line = mine[0]!;
    assert.equal(line.status, 200);
    assert.equal(line.tpp, 'PSDNO-FSA-111111111');
    assert.equal(typeof line.durationMs, 'number');
    const all = JSON.stringify(lines);
    assert.doesNotMatch(all, /13039319955/);
    assert.doesNotMatch(all, /BEGIN CERTIFICATE|keyId=|signature=/);
  });
});

describe('tppMessage codes', () => {
  it("a 2xx answer of any route carries its warnings with codes of the specification's list, the precise one in the text", async () => {
    const response = await t.signed({ method: 'POST', url: '/v1/probe/warned', body: {} });
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json().tppMessages, [
      { category: 'WARNING', code: 'CONFLICT', text: 'the payment is already in a basket (REFERENCE_STATUS_INVALID)' },
    ]);
  });

  it("an error answer keeps its leading code in the body and publishes every message's code from the list", async () => {
    const body = assertErrorBody(
      await t.signed({ method: 'POST', url: '/v1/probe/mixed', body: {} }),
      400,
      'FORMAT_ERROR',
    );
    assert.deepEqual(
      body.tppMessages?.map((m) => [m.code, m.path]),
      [
        ['FORMAT_ERROR', '$.paymentIds[0]'],
        ['BAD_REQUEST', '$.paymentIds[1]'],
      ],
    );
    assert.match(body.tppMessages![1]!.text!, /\(REFERENCE_MIX_INVALID\)$/);
    assert.ok(body.tppMessages!.every((m) => (TPP_MESSAGE_CODES as readonly string[]).includes(m.code)));
  });
});

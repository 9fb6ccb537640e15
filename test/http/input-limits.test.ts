import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BODY_LIMIT_BYTES,
  ERROR_LIST_MAX_ENTRIES,
  RESOURCE_BODY_LIMIT_BYTES,
  HEADER_VALUE_MAX_LENGTH,
  HEADERS_MAX_COUNT,
  JSON_MAX_ARRAY_ENTRIES,
  JSON_MAX_DEPTH,
  JSON_MAX_NUMBER_LENGTH,
  JSON_MAX_OBJECT_KEYS,
  JSON_MAX_STRING_LENGTH,
  JSON_MAX_VALUES,
  MAX_BULK_ENTRIES,
  QUERY_MAX_LENGTH,
  QUERY_MAX_PARAMETERS,
} from '../../src/domain/limits.js';
import { MAX_BASKET_ENTRIES } from '../../src/domain/signing-basket.js';
import {
  BULK_PATH,
  bulkBody,
  createBulk,
  createCrossBorder,
  createHeaders,
  crossBorderBody,
} from '../support/payment-requests.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * Issue 10, points 3 and 4: every body, header and query string is held to named limits before any
 * work per element, a body that crosses one is refused with 400 naming where, and error lists are
 * capped while still counting every problem.
 */
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

/** A cross-border create body as raw JSON with `extra` spliced in as its first fields. */
const withFields = (extra: string) => `{${extra},${JSON.stringify(crossBorderBody()).slice(1)}`;

function onlyProblem(response: Awaited<ReturnType<typeof createCrossBorder>>, path: string, text: RegExp): void {
  const body = assertErrorBody(response, 400, 'FORMAT_ERROR');
  assert.equal(body.tppMessages?.length, 1, response.body);
  assert.equal(body.tppMessages[0]!.path, path, response.body);
  assert.match(body.tppMessages[0]!.text ?? '', text);
}

describe('input limits: JSON bodies', () => {
  it(`refuses a body nested 5 000 deep with 400 (create, signing basket, sandbox posting), not a stack overflow`, async () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const deepObject = `{"paymentIds":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`;
    const paths = (depth: number, start: string) => start + '[0]'.repeat(depth);
    onlyProblem(
      await createCrossBorder(t, { body: deep }),
      paths(JSON_MAX_DEPTH, '$'),
      new RegExp(`nested deeper than ${JSON_MAX_DEPTH} levels`),
    );
    const basket = await t.signed({
      method: 'POST',
      url: '/v1/signing-baskets',
      body: deepObject,
      headers: createHeaders(),
    });
    onlyProblem(basket, `$.paymentIds${'.a'.repeat(JSON_MAX_DEPTH - 1)}`, /nested deeper/);
    const posting = await t.signed({ method: 'POST', url: '/v1/sandbox/accounts/x/transactions', body: deep });
    assertErrorBody(posting, 400, 'FORMAT_ERROR');
  });

  it(`refuses an array of more than ${JSON_MAX_ARRAY_ENTRIES} entries anywhere in a body, naming it, before validating its entries`, async () => {
    const response = await createCrossBorder(t, {
      body: withFields(
        `"extra":[${Array(JSON_MAX_ARRAY_ENTRIES + 1)
          .fill('{}')
          .join(',')}]`,
      ),
    });
    onlyProblem(response, '$.extra', new RegExp(`^\\$\\.extra must have at most ${JSON_MAX_ARRAY_ENTRIES} entries$`));
  });

  it(`refuses an object of more than ${JSON_MAX_OBJECT_KEYS} fields`, async () => {
    const fields = Array.from({ length: JSON_MAX_OBJECT_KEYS + 1 }, (_, i) => `"f${i}":0`).join(',');
    onlyProblem(
      await createCrossBorder(t, { body: `{"creditorAddress":{${fields}}}` }),
      '$.creditorAddress',
      new RegExp(`must have at most ${JSON_MAX_OBJECT_KEYS} fields`),
    );
  });

  it(`refuses a string longer than ${JSON_MAX_STRING_LENGTH} characters (value or field name), and a number longer than ${JSON_MAX_NUMBER_LENGTH}`, async () => {
    const long = 'x'.repeat(JSON_MAX_STRING_LENGTH + 1);
    onlyProblem(
      await createCrossBorder(t, { body: withFields(`"note":"${long}"`) }),
      '$.note',
      new RegExp(`must be at most ${JSON_MAX_STRING_LENGTH} characters long`),
    );
    onlyProblem(
      await createCrossBorder(t, { body: withFields(`"${long}":1`) }),
      '$',
      new RegExp(`field name longer than ${JSON_MAX_STRING_LENGTH}`),
    );
    onlyProblem(
      await createCrossBorder(t, { body: withFields(`"n":${'9'.repeat(JSON_MAX_NUMBER_LENGTH + 1)}`) }),
      '$.n',
      /a number may have at most/,
    );
  });

  it(`refuses a body of more than ${JSON_MAX_VALUES} values`, async () => {
    const row = `[${Array(JSON_MAX_ARRAY_ENTRIES).fill('0').join(',')}]`;
    const rows = Math.ceil(JSON_MAX_VALUES / JSON_MAX_ARRAY_ENTRIES) + 1;
    // A bulk create: the only payment operation whose body may be large enough to hold that many.
    onlyProblem(
      await createBulk(t, { body: `{"extra":[${Array(rows).fill(row).join(',')}]}` }),
      '$',
      new RegExp(`more than ${JSON_MAX_VALUES} values`),
    );
  });

  it('refuses a field given twice in one object with 400 FORMAT_ERROR naming the field and its path (the payment is not created)', async () => {
    const body = crossBorderBody();
    const text = `${JSON.stringify(body).slice(0, -1)},"creditorName":"Someone Else"}`;
    onlyProblem(await createCrossBorder(t, { body: text }), '$.creditorName', /given twice/);
    const nested = JSON.stringify(body).replace('"currency":"NOK"', '"currency":"NOK","currency":"SEK"');
    onlyProblem(await createCrossBorder(t, { body: nested }), '$.instructedAmount.currency', /given twice/);
    // The same name written with an escape is the same field.
    onlyProblem(await createCrossBorder(t, { body: withFields('"x":1,"\\u0078":2') }), '$.x', /given twice/);
  });
});

describe('input limits: body size per operation', () => {
  it(`refuses a body over ${RESOURCE_BODY_LIMIT_BYTES} bytes on operations of one resource, and takes up to ${BODY_LIMIT_BYTES} on those that carry a list`, async () => {
    const padded = (bytes: number) => withFields(`"padding":"${' '.repeat(0)}"`).replace('{', `{${' '.repeat(bytes)}`);
    const tooLarge = padded(RESOURCE_BODY_LIMIT_BYTES);
    for (const [url, headers] of [
      ['/v1/payments/norwegian-cross-border-credit-transfers', createHeaders()],
      ['/v1/signing-baskets', createHeaders()],
      ['/v1/sandbox/customers', {}],
    ] as const) {
      const body = assertErrorBody(
        await t.signed({ method: 'POST', url, body: tooLarge, headers }),
        400,
        'PAYLOAD_TOO_LARGE',
      );
      assert.match(
        body.message ?? '',
        new RegExp(`larger than ${RESOURCE_BODY_LIMIT_BYTES} bytes, the most this operation accepts`),
      );
    }
    // A list route reads a body of that size (and refuses it for its content, not its size).
    const bulk = await t.signed({
      method: 'POST',
      url: '/v1/bulk-payments/norwegian-domestic-credit-transfers',
      body: tooLarge,
      headers: createHeaders(),
    });
    assert.equal(bulk.statusCode, 400, bulk.body);
    assert.doesNotMatch(bulk.body, /PAYLOAD_TOO_LARGE/);
    assertErrorBody(
      await t.signed({
        method: 'POST',
        url: '/v1/bulk-payments/norwegian-domestic-credit-transfers',
        body: padded(BODY_LIMIT_BYTES),
        headers: createHeaders(),
      }),
      400,
      'PAYLOAD_TOO_LARGE',
    );
  });
});

describe('input limits: UTF-8 bodies', () => {
  it('reads a large body of non-ASCII text exactly, with or without a byte order mark, and refuses bytes that are not UTF-8', async () => {
    const named = () => {
      const body = bulkBody(2);
      (body.payments as Record<string, unknown>[])[0]!.creditorName = 'Søren Ærlig';
      return JSON.stringify(body);
    };
    const json = named();
    const large = `{${' '.repeat(300 * 1024)}${json.slice(1)}`;
    for (const text of [large, `\uFEFF${named()}`]) {
      const created = await createBulk(t, { body: text });
      assert.equal(created.statusCode, 201, created.body);
      const read = await t.signed({
        method: 'GET',
        url: `${BULK_PATH}/${created.json().paymentId as string}`,
        headers: { 'PSU-IP-Address': '192.0.2.10' },
      });
      assert.equal(read.statusCode, 200, read.body);
      assert.match(read.body, /Søren Ærlig/);
    }

    // An invalid byte (a lone continuation byte) in a small body, and at the end of a large one.
    const bad = Buffer.concat([Buffer.from(json.slice(0, -2)), Buffer.from([0x80]), Buffer.from('"}')]);
    const largeBad = Buffer.concat([Buffer.from(large.slice(0, -2)), Buffer.from([0x80]), Buffer.from('"}')]);
    for (const raw of [bad, largeBad]) {
      const answer = assertErrorBody(await createBulk(t, { body: raw }), 400, 'FORMAT_ERROR');
      assert.equal(answer.tppMessages?.[0]?.text, 'the body is not valid UTF-8');
    }
  });

  it('refuses a lone surrogate escaped in a string or field name, small body or large, naming where; takes a pair, and an escaped backslash before u', async () => {
    const crossBorder = (creditorName: string) =>
      JSON.stringify({ ...crossBorderBody(), creditorName: 'NAME' }).replace('"NAME"', creditorName);
    for (const name of ['"Smile \\ud83d\\ude00"', '"Back\\\\ud83d slash"']) {
      const created = await createCrossBorder(t, { body: crossBorder(name) });
      assert.equal(created.statusCode, 201, `${name}: ${created.body}`);
    }
    for (const name of ['"Smile \\ud83d"', '"\\ude00 first"', '"\\uD83D\\uD83D"', '"Slash \\\\\\ud83d"']) {
      const answer = assertErrorBody(await createCrossBorder(t, { body: crossBorder(name) }), 400, 'FORMAT_ERROR');
      assert.equal(answer.tppMessages?.[0]?.path, '$.creditorName', name);
      assert.match(answer.tppMessages?.[0]?.text ?? '', /lone UTF-16 surrogate/);
    }
    const oddKey = assertErrorBody(
      await createCrossBorder(t, { body: crossBorder('"x", "\\ud800": 1') }),
      400,
      'FORMAT_ERROR',
    );
    assert.equal(oddKey.tppMessages?.[0]?.path, '$["\\ud800"]');
    // A large body (a list route's, read in steps; walking its values to name the field would hold the event loop): the byte.
    const bulk = bulkBody(2);
    (bulk.payments as Record<string, unknown>[])[1]!.creditorName = 'NAME';
    const large = `{${' '.repeat(300 * 1024)}${JSON.stringify(bulk).slice(1).replace('"NAME"', '"Lone \\udbff"')}`;
    const answer = assertErrorBody(await createBulk(t, { body: large }), 400, 'FORMAT_ERROR');
    assert.equal(answer.tppMessages?.[0]?.path, '$');
    assert.match(
      answer.tppMessages?.[0]?.text ?? '',
      new RegExp(`^the body, at byte ${Buffer.from(large).indexOf('\\udbff')},`),
    );
  });
});

describe('input limits: every schema bounds what it takes', () => {
  it(`bounds every string, array and object of every request body, header, query and path parameter in the OpenAPI document, within the JSON limits`, async () => {
    type Schema = Record<string, any>;
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, Schema>>;
      components: { schemas: Record<string, Schema> };
    };
    const unbounded: string[] = [];
    const walk = (schema: Schema | undefined, where: string, body: boolean, seen: Set<string>): void => {
      if (schema === undefined) return;
      if (typeof schema.$ref === 'string') {
        const name = schema.$ref.split('/').pop()!;
        if (!seen.has(name))
          walk(document.components.schemas[name], `${where}→${name}`, body, new Set([...seen, name]));
        return;
      }
      for (const key of ['anyOf', 'oneOf', 'allOf'])
        for (const branch of (schema[key] ?? []) as Schema[]) walk(branch, where, body, seen);
      if (
        schema.type === 'string' &&
        schema.enum === undefined &&
        !(schema.maxLength <= (body ? JSON_MAX_STRING_LENGTH : HEADER_VALUE_MAX_LENGTH))
      )
        unbounded.push(`${where}: a string without maxLength`);
      if (schema.type === 'array') {
        if (!(schema.maxItems <= JSON_MAX_ARRAY_ENTRIES)) unbounded.push(`${where}: an array without maxItems`);
        walk(schema.items as Schema, `${where}[]`, body, seen);
      }
      if (schema.type === 'object') {
        if (schema.additionalProperties !== false || Object.keys(schema.properties ?? {}).length > JSON_MAX_OBJECT_KEYS)
          unbounded.push(`${where}: an object open to other fields`);
        for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>))
          walk(property, `${where}.${name}`, body, seen);
      }
    };
    let operations = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        operations += 1;
        for (const parameter of (operation.parameters ?? []) as Schema[])
          walk(parameter.schema as Schema, `${method} ${path} ${parameter.in}:${parameter.name}`, false, new Set());
        walk(
          operation.requestBody?.content?.['application/json']?.schema as Schema | undefined,
          `${method} ${path} body`,
          true,
          new Set(),
        );
      }
    }
    assert.ok(operations > 20, 'the document lists the operations');
    assert.deepEqual(unbounded, []);
  });
});

describe('input limits: error lists', () => {
  it('answers an array longer than its route allows with that one problem, without validating its entries', async () => {
    const body = { paymentIds: Array.from({ length: JSON_MAX_ARRAY_ENTRIES }, (_, i) => i) };
    const response = await t.signed({ method: 'POST', url: '/v1/signing-baskets', body, headers: createHeaders() });
    const error = assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.deepEqual(
      error.tppMessages?.map((m) => [m.path, m.text]),
      [['$.paymentIds', `$.paymentIds must have at most ${MAX_BASKET_ENTRIES} entries`]],
    );
    assert.equal(error.message, `$.paymentIds must have at most ${MAX_BASKET_ENTRIES} entries`);
  });

  it(`lists at most ${ERROR_LIST_MAX_ENTRIES} problems and gives their total in the message`, async () => {
    const body = {
      debtorAccount: { bban: '90412263056', currency: 'NOK' },
      payments: Array.from({ length: MAX_BULK_ENTRIES }, () => ({})),
    };
    const response = await createBulk(t, { body });
    const error = assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.equal(error.tppMessages?.length, ERROR_LIST_MAX_ENTRIES, response.body);
    const total = Number(
      /^(\d+) problems in the request, of which tppMessages lists the first (\d+);/.exec(error.message ?? '')?.[1],
    );
    // Each entry lacks its four required fields.
    assert.ok(total >= 4 * MAX_BULK_ENTRIES, error.message);
    assert.equal(error.tppMessages[0]!.path, '$.payments[0].instructedAmount');
  });
});

describe('input limits: headers and query', () => {
  it(`refuses more than ${HEADERS_MAX_COUNT} headers with 431, and a header value longer than ${HEADER_VALUE_MAX_LENGTH} characters with 400`, async () => {
    const many = Object.fromEntries(Array.from({ length: HEADERS_MAX_COUNT }, (_, i) => [`x-extra-${i}`, 'a']));
    assertErrorBody(
      await t.signed({ method: 'GET', url: '/v1/sandbox/customers', headers: many }),
      431,
      'HEADERS_TOO_LARGE',
    );
    const long = await t.signed({
      method: 'GET',
      url: '/v1/sandbox/customers',
      headers: { 'PSU-User-Agent': 'x'.repeat(HEADER_VALUE_MAX_LENGTH + 1) },
    });
    const body = assertErrorBody(long, 400, 'FORMAT_ERROR');
    assert.equal(body.tppMessages?.[0]?.path?.toLowerCase(), 'header:psu-user-agent');
  });

  it(`refuses a query string of more than ${QUERY_MAX_PARAMETERS} parameters or ${QUERY_MAX_LENGTH} characters`, async () => {
    const many = Array.from({ length: QUERY_MAX_PARAMETERS + 1 }, (_, i) => `p${i}=1`).join('&');
    assert.match(
      assertErrorBody(await t.signed({ method: 'GET', url: `/v1/sandbox/customers?${many}` }), 400, 'FORMAT_ERROR')
        .message ?? '',
      /parameters/,
    );
    const long = `/v1/sandbox/customers?limit=10&x=${'y'.repeat(QUERY_MAX_LENGTH)}`;
    assert.match(
      assertErrorBody(await t.signed({ method: 'GET', url: long }), 400, 'FORMAT_ERROR').message ?? '',
      /query string/,
    );
  });

  it("answers a query string over the limit on the PSU's pages with a page, not a fault (the limit is checked before the page reads its cookies)", async () => {
    for (const url of [
      `/sca/some-link?x=${'y'.repeat(QUERY_MAX_LENGTH)}`,
      `/sca/constructor?a[]=${'a'.repeat(QUERY_MAX_LENGTH)}`,
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 403, response.body);
      assert.match(String(response.headers['content-type']), /text\/html/);
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BODY_LIMIT_BYTES,
  MAX_SANDBOX_TRANSACTIONS_PER_REQUEST,
  RESOURCE_BODY_LIMIT_BYTES,
} from '../../src/domain/limits.js';
import { bulkBodySchema, crossBorderBodySchema, paymentSchemas } from '../../src/http/schemas/payment-schemas.js';
import { sandboxSchemas } from '../../src/http/schemas/sandbox-schemas.js';
import { sandboxTransactionCreateSchema } from '../../src/http/schemas/sandbox/sandbox-account-transaction-schemas.js';
import { sandboxAgreementCreateSchema } from '../../src/http/schemas/sandbox/sandbox-agreement-schemas.js';
import { sandboxCardTransactionCreateSchema } from '../../src/http/schemas/sandbox/sandbox-card-transaction-schemas.js';
import { BULK_PATH, CROSS_BORDER_PATH, createHeaders } from '../support/payment-requests.js';
import { type SchemaNode, largestInstance } from '../support/largest-body.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * The body size limits (src/domain/limits.ts) are as small as the work a hostile body causes asks,
 * and no smaller than the operations' own bodies: the largest body each operation's schema accepts,
 * every field at its maximum length, is read whole (refused, if at all, for its made-up values,
 * never with PAYLOAD_TOO_LARGE).
 */
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const schemas = [...paymentSchemas, ...sandboxSchemas] as unknown as SchemaNode[];
const largest = (schema: unknown, itemsOf?: Record<string, number>) =>
  largestInstance(schema as SchemaNode, { schemas, ...(itemsOf === undefined ? {} : { itemsOf }) });
const posting = (schema: unknown) =>
  Array.from({ length: MAX_SANDBOX_TRANSACTIONS_PER_REQUEST }, () => largest(schema));

const cases = [
  // A bulk entry with every field at its maximum and one structured reference (a KID): ten each,
  // the schema's most, would be 2.7 MB, more than any real payroll sends in one SCA.
  {
    name: 'bulk payment',
    url: BULK_PATH,
    body: () => largest(bulkBodySchema, { 'RemittanceInformationStructured#': 1 }),
    limit: BODY_LIMIT_BYTES,
  },
  {
    name: 'posting of account transactions',
    url: '/v1/sandbox/accounts/missing/transactions',
    body: () => posting(sandboxTransactionCreateSchema),
    limit: BODY_LIMIT_BYTES,
  },
  {
    name: 'posting of card transactions',
    url: '/v1/sandbox/card-accounts/missing/transactions',
    body: () => posting(sandboxCardTransactionCreateSchema),
    limit: BODY_LIMIT_BYTES,
  },
  {
    name: 'agreement',
    url: '/v1/sandbox/agreements',
    body: () => largest(sandboxAgreementCreateSchema),
    limit: RESOURCE_BODY_LIMIT_BYTES,
  },
  {
    name: 'cross-border payment',
    url: CROSS_BORDER_PATH,
    body: () => largest(crossBorderBodySchema),
    limit: RESOURCE_BODY_LIMIT_BYTES,
  },
];

describe('body size limits', () => {
  for (const c of cases) {
    it(`reads the largest ${c.name} its schema accepts: it fits the operation's limit with room`, async () => {
      const json = JSON.stringify(c.body());
      const bytes = Buffer.byteLength(json);
      // Room for a client's formatting: 5 % at least (the card posting, the largest, has 8 %).
      assert.ok(bytes * 1.05 <= c.limit, `${c.name}: ${bytes} bytes against a limit of ${c.limit}`);
      const answer = await t.signed({ method: 'POST', url: c.url, body: json, headers: createHeaders() });
      assert.doesNotMatch(answer.body, /PAYLOAD_TOO_LARGE/);
      assert.ok(answer.statusCode < 500, answer.body);
    });
  }

  it(`refuses a list body over ${BODY_LIMIT_BYTES} bytes, and an agreement over ${RESOURCE_BODY_LIMIT_BYTES}, with 400 naming the limit`, async () => {
    for (const [url, limit] of [
      [BULK_PATH, BODY_LIMIT_BYTES],
      ['/v1/sandbox/accounts/missing/transactions', BODY_LIMIT_BYTES],
      ['/v1/sandbox/agreements', RESOURCE_BODY_LIMIT_BYTES],
    ] as const) {
      const answer = await t.signed({ method: 'POST', url, body: `[${' '.repeat(limit)}]`, headers: createHeaders() });
      assert.equal(answer.statusCode, 400, answer.body);
      assert.match(answer.json().tppMessages[0].text, new RegExp(`larger than ${limit} bytes`));
    }
  });
});

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { after, before, describe, it } from 'node:test';
import { MAX_BULK_ENTRIES } from '../../src/domain/limits.js';
import {
  BULK_PATH,
  type CreateOptions,
  KID_MOD10,
  KID_MOD11,
  NO_ACCOUNTS,
  bulkBody,
  bulkEntry,
  createBulk,
  createHeaders,
  messagesByPath,
} from '../support/payment-requests.js';
import { type ErrorBodyJson, type TestApp, assertErrorBody, startTestApp, PUBLIC_URL } from '../support/test-app.js';

/**
 * Endpoint 3 of the specification: POST /v1/bulk-payments/norwegian-domestic-credit-transfers.
 * The answer on success, the required fields, every length limit, the bulk rules (remittance,
 * KID, entries, NOK, accounts, duplicates, execution date, purpose code), all violations in one
 * answer, the product forms, and logical duplicates across bulk payments.
 */

type Json = Record<string, unknown>;

/** KIDs that pass exactly one of the two checks, so each check is shown to be accepted on its own. */
const KID_MOD10_ONLY = '76543214';
const KID_MOD11_ONLY = '76543216';
/** Fails both MOD10 (check digit 4) and MOD11 (check digit 6). */
const KID_WRONG = '76543210';
/** 2345676 with its check digit changed: fails MOD10 and MOD11 alike (both want 6). */
const KID_MOD10_WRONG = '2345677';
/** A Norwegian account number whose MOD11 check digit is wrong (12345678903 is right). */
const BBAN_WRONG_CHECK = '12345678904';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

/**
 * Creates a bulk payment as a PSU of its own unless the test names one, so that equal entries in
 * different tests are never logical duplicates of each other.
 */
async function post(body: unknown, options: CreateOptions = {}): Promise<LightMyRequestResponse> {
  return createBulk(t, {
    ...options,
    body,
    headers: { 'PSU-ID': options.headers?.['PSU-ID'] ?? (await t.newPsu()), ...options.headers },
  });
}

function entriesOf(body: Json): Json[] {
  return body.payments as Json[];
}

function entry(body: Json, index: number): Json {
  return entriesOf(body)[index]!;
}

/** A bulk entry with structured remittance instead of the unstructured text. */
function structuredEntry(index: number, structured: Json): Json {
  const result = bulkEntry(index);
  delete result.remittanceInformationUnstructured;
  result.remittanceInformationStructured = structured;
  return result;
}

/** Norwegian letters on purpose: a limit counts characters, not UTF-8 bytes. */
function text(length: number): string {
  const source = 'Blåbærsyltetøy på brødskiva ';
  return Array.from({ length }, (_, i) => source[i % source.length]).join('');
}

function futureDate(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

function assertCreated(response: LightMyRequestResponse): Json {
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as Json;
}

/** A 400 (or other) error body whose only problem is at `path` with `code` and a text matching `pattern`. */
function assertOnlyProblem(
  response: LightMyRequestResponse,
  path: string,
  pattern: RegExp,
  code = 'FORMAT_ERROR',
  status = 400,
): ErrorBodyJson {
  const body = assertErrorBody(response, status, code);
  assert.equal(body.tppMessages?.length, 1, `exactly one problem expected: ${response.body}`);
  const [message] = body.tppMessages!;
  assert.equal(message!.path, path);
  assert.equal(message!.code, code);
  assert.equal(message!.category, 'ERROR');
  assert.match(message!.text ?? '', pattern);
  return body;
}

/** The problems of an answer at one path. */
function problemsAt(
  response: LightMyRequestResponse,
  path: string,
): { code: string; text: string; category: string }[] {
  return messagesByPath(response).get(path) ?? [];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('bulk payment create: the 201 answer', () => {
  it('answers 201 with an enc!! paymentId, RCVD, no fee, links and a Location header', async () => {
    const response = await post(bulkBody(2));
    const body = assertCreated(response);
    assert.match(String(body.paymentId), /^enc!!\S+$/);
    const self = `${BULK_PATH}/${encodeURIComponent(String(body.paymentId))}`;
    const links = body._links as { scaRedirect: { href: string } };
    assert.match(links.scaRedirect.href, /^http:\/\/127\.0\.0\.1:8080\/sca\/[\w-]{20,}$/);
    assert.deepEqual(
      { ...body, psuMessage: undefined },
      {
        paymentId: body.paymentId,
        transactionStatus: 'RCVD',
        transactionFees: { amount: '0.00', currency: 'NOK' },
        transactionFeeIndicator: false,
        psuMessage: undefined,
        _links: {
          self: { href: self, verbs: ['GET', 'DELETE'] },
          status: { href: `${self}/status`, verbs: ['GET'] },
          scaRedirect: { href: links.scaRedirect.href, verbs: ['GET'] },
        },
      },
    );
    assert.equal(response.headers.location, `${PUBLIC_URL}${self}`);
  });

  it('gives every created bulk payment a paymentId of its own', async () => {
    const first = assertCreated(await post(bulkBody(1)));
    const second = assertCreated(await post(bulkBody(1)));
    assert.notEqual(first.paymentId, second.paymentId);
  });

  it('tells the PSU in English by default how many payments the bulk holds and their total', async () => {
    const body = bulkBody(3);
    (entry(body, 0).instructedAmount as Json).amount = '1250.75';
    (entry(body, 1).instructedAmount as Json).amount = '99.30';
    (entry(body, 2).instructedAmount as Json).amount = '0.95';
    const response = await post(body);
    const created = assertCreated(response);
    assert.equal(
      created.psuMessage,
      'Your bulk payment of 3 payments, NOK 1351.00 in all, is received. Approve it in your bank to send it.',
    );
    assert.equal(response.headers['content-language'], 'en');
  });

  it('tells the PSU in Norwegian when Accept-Language is nb, with a decimal comma', async () => {
    const body = bulkBody(2);
    const response = await post(body, { headers: { 'Accept-Language': 'nb' } });
    const created = assertCreated(response);
    assert.equal(
      created.psuMessage,
      'Massebetalingen med 2 betalinger, NOK 202,00 til sammen, er mottatt. Godkjenn den i banken for å sende den.',
    );
    assert.equal(response.headers['content-language'], 'nb');
  });

  it('speaks of one payment in the singular', async () => {
    const created = assertCreated(await post(bulkBody(1)));
    assert.match(String(created.psuMessage), /^Your bulk payment of 1 payment, NOK 100\.50 in all, is received\./);
  });

  it('creates the bulk payment without x-accept-fix, which is optional on this operation', async () => {
    const created = assertCreated(await post(bulkBody(2), { without: ['x-accept-fix'] }));
    assert.equal(created.transactionStatus, 'RCVD');
  });

  it('returns on GET every field submitted, with paymentId and transactionStatus, and RCVD on GET …/status', async () => {
    const body: Json = {
      paymentInformationId: `PI-${randomUUID().slice(0, 8)}`,
      debtorAccount: { bban: NO_ACCOUNTS[0], currency: 'NOK' },
      requestedExecutionDate: futureDate(30),
      payments: [
        { ...bulkEntry(0), debtorName: 'Ola Nordmann', ultimateDebtor: 'Nordmann Holding AS', purposeCode: 'SUPP' },
        {
          ...structuredEntry(1, { reference: KID_MOD10, referenceType: 'SCOR', referenceIssuer: 'Kreditor AS' }),
          creditorAddress: { country: 'NO' },
        },
        (() => {
          const e = bulkEntry(2);
          delete e.remittanceInformationUnstructured;
          e.remittanceInformationStructuredArray = [
            { reference: KID_MOD11, referenceType: 'SCOR' },
            { reference: 'INV-2025-0042', referenceType: 'CINV', referenceIssuer: 'BITS-EFAKTURA' },
          ];
          return e;
        })(),
      ],
    };
    const created = assertCreated(await post(body));
    const self = (created._links as { self: { href: string } }).self.href;

    const read = await t.signed({ method: 'GET', url: self });
    assert.equal(read.statusCode, 200, read.body);
    const { _links, ...fields } = read.json();
    assert.deepEqual(fields, { paymentId: created.paymentId, transactionStatus: 'RCVD', ...body });
    assert.equal(_links.self.href, self, 'with its links (test/http/payment-reads.test.ts tests them all)');

    const status = await t.signed({ method: 'GET', url: `${self}/status` });
    assert.equal(status.statusCode, 200, status.body);
    assert.equal(status.json().transactionStatus, 'RCVD');
  });
});

describe('bulk payment create: required fields', () => {
  for (const field of ['payments', 'debtorAccount']) {
    it(`refuses a bulk payment without ${field} with 400 FORMAT_ERROR at $.${field}`, async () => {
      const body = bulkBody(2);
      delete body[field];
      assertOnlyProblem(await post(body), `$.${field}`, new RegExp(`^\\$\\.${field} is required$`));
    });
  }

  for (const field of ['bban', 'currency']) {
    it(`refuses a debtorAccount without ${field} at $.debtorAccount.${field}`, async () => {
      const body = bulkBody(2);
      delete (body.debtorAccount as Json)[field];
      const response = await post(body);
      assertErrorBody(response, 400, 'FORMAT_ERROR');
      assert.deepEqual(
        problemsAt(response, `$.debtorAccount.${field}`).map((p) => [p.code, p.text]),
        [['FORMAT_ERROR', `$.debtorAccount.${field} is required`]],
      );
    });
  }

  const entryFields: { field: string; remove: (e: Json) => void }[] = [
    { field: 'instructedAmount', remove: (e) => delete e.instructedAmount },
    { field: 'instructedAmount.amount', remove: (e) => delete (e.instructedAmount as Json).amount },
    { field: 'instructedAmount.currency', remove: (e) => delete (e.instructedAmount as Json).currency },
    { field: 'creditorName', remove: (e) => delete e.creditorName },
    { field: 'creditorAccount', remove: (e) => delete e.creditorAccount },
    { field: 'creditorAccount.bban', remove: (e) => delete (e.creditorAccount as Json).bban },
    { field: 'creditorAccount.currency', remove: (e) => delete (e.creditorAccount as Json).currency },
    { field: 'creditorAddress', remove: (e) => delete e.creditorAddress },
    { field: 'creditorAddress.country', remove: (e) => delete (e.creditorAddress as Json).country },
  ];
  for (const { field, remove } of entryFields) {
    it(`refuses an entry without ${field}, naming $.payments[2].${field}`, async () => {
      const body = bulkBody(3);
      remove(entry(body, 2));
      const response = await post(body);
      assertErrorBody(response, 400, 'FORMAT_ERROR');
      const path = `$.payments[2].${field}`;
      assert.deepEqual(
        problemsAt(response, path).map((p) => [p.code, p.text]),
        [['FORMAT_ERROR', `${path} is required`]],
      );
      const paths = [...messagesByPath(response).keys()];
      assert.ok(
        paths.every((p) => p.startsWith('$.payments[2]')),
        `only entry 2 has problems: ${paths.join(', ')}`,
      );
    });
  }

  it('accepts an entry whose address has only the country', async () => {
    const body = bulkBody(1);
    entry(body, 0).creditorAddress = { country: 'NO' };
    assertCreated(await post(body));
  });
});

describe('bulk payment create: length limits', () => {
  interface LimitRow {
    field: string;
    path: string;
    limit: number;
    /** Whether the empty string is allowed (true), refused (false), or not a question the specification answers (undefined). */
    empty?: boolean;
    set: (body: Json, value: string) => void;
  }

  const setStructured = (others: Json, key: string) => (body: Json, value: string) => {
    entriesOf(body)[0] = structuredEntry(0, { ...others, [key]: value });
  };

  const rows: LimitRow[] = [
    {
      field: 'paymentInformationId',
      path: '$.paymentInformationId',
      limit: 35,
      empty: true,
      set: (b, v) => {
        b.paymentInformationId = v;
      },
    },
    {
      field: 'creditorName',
      path: '$.payments[0].creditorName',
      limit: 70,
      set: (b, v) => {
        entry(b, 0).creditorName = v;
      },
    },
    {
      field: 'debtorName',
      path: '$.payments[0].debtorName',
      limit: 70,
      set: (b, v) => {
        entry(b, 0).debtorName = v;
      },
    },
    {
      field: 'ultimateDebtor',
      path: '$.payments[0].ultimateDebtor',
      limit: 70,
      set: (b, v) => {
        entry(b, 0).ultimateDebtor = v;
      },
    },
    {
      field: 'creditorAddress.street',
      path: '$.payments[0].creditorAddress.street',
      limit: 70,
      set: (b, v) => {
        (entry(b, 0).creditorAddress as Json).street = v;
      },
    },
    {
      field: 'remittanceInformationUnstructured',
      path: '$.payments[0].remittanceInformationUnstructured',
      limit: 140,
      empty: false,
      set: (b, v) => {
        entry(b, 0).remittanceInformationUnstructured = v;
      },
    },
    // CINV is an invoice number, not a KID: the reference is not checked as one.
    {
      field: 'remittanceInformationStructured.reference',
      path: '$.payments[0].remittanceInformationStructured.reference',
      limit: 35,
      empty: false,
      set: setStructured({ referenceType: 'CINV' }, 'reference'),
    },
    {
      field: 'remittanceInformationStructured.referenceType',
      path: '$.payments[0].remittanceInformationStructured.referenceType',
      limit: 35,
      empty: false,
      set: setStructured({ reference: KID_MOD10 }, 'referenceType'),
    },
    {
      field: 'remittanceInformationStructured.referenceIssuer',
      path: '$.payments[0].remittanceInformationStructured.referenceIssuer',
      limit: 35,
      empty: false,
      set: setStructured({ reference: KID_MOD10, referenceType: 'SCOR' }, 'referenceIssuer'),
    },
  ];

  for (const row of rows) {
    it(`accepts ${row.field} of exactly ${row.limit} characters`, async () => {
      const body = bulkBody(2);
      row.set(body, text(row.limit));
      assertCreated(await post(body));
    });

    it(`refuses ${row.field} of ${row.limit + 1} characters with 400 FORMAT_ERROR 'at most ${row.limit} characters' at ${row.path}`, async () => {
      const body = bulkBody(2);
      row.set(body, text(row.limit + 1));
      assertOnlyProblem(
        await post(body),
        row.path,
        new RegExp(`^${escape(row.path)} must be at most ${row.limit} characters long \\(it is ${row.limit + 1}\\)$`),
      );
    });

    if (row.empty === true) {
      it(`accepts an empty ${row.field} (0 to ${row.limit} characters)`, async () => {
        const body = bulkBody(2);
        row.set(body, '');
        assertCreated(await post(body));
      });
    } else if (row.empty === false) {
      it(`refuses an empty ${row.field} (1 to ${row.limit} characters) at ${row.path}`, async () => {
        const body = bulkBody(2);
        row.set(body, '');
        assertOnlyProblem(await post(body), row.path, new RegExp(`^${escape(row.path)} must not be empty`));
      });
    }
  }

  const bbans: { account: string; path: string; set: (body: Json, bban: string) => void }[] = [
    {
      account: 'debtorAccount',
      path: '$.debtorAccount.bban',
      set: (b, v) => {
        (b.debtorAccount as Json).bban = v;
      },
    },
    {
      account: 'creditorAccount',
      path: '$.payments[0].creditorAccount.bban',
      set: (b, v) => {
        (entry(b, 0).creditorAccount as Json).bban = v;
      },
    },
  ];
  for (const { account, path, set } of bbans) {
    it(`refuses a 30-character ${account}.bban only as not a Norwegian account number, not for its length`, async () => {
      const body = bulkBody(2);
      set(body, '1'.repeat(30));
      assertOnlyProblem(await post(body), path, /is not a Norwegian account number: 11 digits/);
    });

    it(`refuses a 31-character ${account}.bban for its length (at most 30 characters)`, async () => {
      const body = bulkBody(2);
      set(body, '1'.repeat(31));
      const response = await post(body);
      assertErrorBody(response, 400, 'FORMAT_ERROR');
      const texts = problemsAt(response, path).map((p) => p.text);
      assert.ok(texts.includes(`${path} must be at most 30 characters long (it is 31)`), texts.join(' | '));
    });
  }
});

describe('bulk payment create: remittance rules', () => {
  it('refuses an entry with both unstructured and structured remittance information, at the entry path', async () => {
    const body = bulkBody(3);
    entry(body, 1).remittanceInformationStructured = { reference: KID_MOD10, referenceType: 'SCOR' };
    assertOnlyProblem(await post(body), '$.payments[1]', /both unstructured and structured remittance information/);
  });

  it('refuses an entry with both unstructured remittance and the structured array', async () => {
    const body = bulkBody(2);
    entry(body, 0).remittanceInformationStructuredArray = [{ reference: KID_MOD10, referenceType: 'SCOR' }];
    assertOnlyProblem(await post(body), '$.payments[0]', /both unstructured and structured remittance information/);
  });

  it('refuses an entry with both remittanceInformationStructured and remittanceInformationStructuredArray', async () => {
    const body = bulkBody(2);
    const e = structuredEntry(0, { reference: KID_MOD10, referenceType: 'SCOR' });
    e.remittanceInformationStructuredArray = [{ reference: KID_MOD11, referenceType: 'SCOR' }];
    entriesOf(body)[0] = e;
    const response = await post(body);
    const error = assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.equal(error.tppMessages?.length, 1, response.body);
    assert.match(error.tppMessages![0]!.path ?? '', /^\$\.payments\[0\]/);
    assert.match(
      error.tppMessages![0]!.text ?? '',
      /remittanceInformationStructured and remittanceInformationStructuredArray/,
    );
  });

  it('accepts a structured array with a KID (SCOR) and an invoice number (CINV, BITS-EFAKTURA)', async () => {
    const body = bulkBody(2);
    const e = bulkEntry(0);
    delete e.remittanceInformationUnstructured;
    e.remittanceInformationStructuredArray = [
      { reference: KID_MOD10, referenceType: 'SCOR' },
      { reference: '2025-000417', referenceType: 'CINV', referenceIssuer: 'BITS-EFAKTURA' },
    ];
    entriesOf(body)[0] = e;
    assertCreated(await post(body));
  });

  it('refuses a KID in the structured array with a wrong check digit at its own index', async () => {
    const body = bulkBody(2);
    const e = bulkEntry(1);
    delete e.remittanceInformationUnstructured;
    e.remittanceInformationStructuredArray = [
      { reference: '2025-000417', referenceType: 'CINV', referenceIssuer: 'BITS-EFAKTURA' },
      { reference: KID_WRONG, referenceType: 'SCOR' },
    ];
    entriesOf(body)[1] = e;
    assertOnlyProblem(
      await post(body),
      '$.payments[1].remittanceInformationStructuredArray[1].reference',
      /is not a valid KID/,
      'KID_INVALID',
    );
  });

  const wrongKids: { name: string; structured: Json }[] = [
    { name: 'referenceType SCOR', structured: { reference: KID_MOD10_WRONG, referenceType: 'SCOR' } },
    { name: 'no referenceType', structured: { reference: KID_MOD10_WRONG } },
    {
      name: 'referenceType SCOR and a KID failing both checks',
      structured: { reference: KID_WRONG, referenceType: 'SCOR' },
    },
  ];
  for (const { name, structured } of wrongKids) {
    it(`refuses a KID with a wrong check digit (${name}) with 400 KID_INVALID at …remittanceInformationStructured.reference`, async () => {
      const body = bulkBody(2);
      entriesOf(body)[0] = structuredEntry(0, structured);
      const error = assertOnlyProblem(
        await post(body),
        '$.payments[0].remittanceInformationStructured.reference',
        new RegExp(`'${structured.reference}' is not a valid KID`),
        'KID_INVALID',
      );
      assert.equal(error.status, 400);
    });
  }

  const validKids: { name: string; reference: string; referenceType?: string }[] = [
    { name: 'KID_MOD10', reference: KID_MOD10, referenceType: 'SCOR' },
    { name: 'KID_MOD11', reference: KID_MOD11, referenceType: 'SCOR' },
    { name: 'valid by MOD10 only', reference: KID_MOD10_ONLY, referenceType: 'SCOR' },
    { name: 'valid by MOD11 only', reference: KID_MOD11_ONLY, referenceType: 'SCOR' },
    { name: 'valid by MOD11 only, without referenceType', reference: KID_MOD11_ONLY },
  ];
  for (const kid of validKids) {
    it(`accepts a KID ${kid.reference} (${kid.name})`, async () => {
      const body = bulkBody(2);
      entriesOf(body)[0] = structuredEntry(
        0,
        kid.referenceType === undefined
          ? { reference: kid.reference }
          : { reference: kid.reference, referenceType: kid.referenceType },
      );
      assertCreated(await post(body));
    });
  }

  it('does not check a reference of another type (CINV) as a KID', async () => {
    const body = bulkBody(2);
    entriesOf(body)[0] = structuredEntry(0, { reference: KID_WRONG, referenceType: 'CINV' });
    assertCreated(await post(body));
  });

  it('refuses a structured remittance object without reference with 400 KID_MISSING', async () => {
    const body = bulkBody(2);
    entriesOf(body)[0] = structuredEntry(0, { referenceType: 'SCOR' });
    assertOnlyProblem(
      await post(body),
      '$.payments[0].remittanceInformationStructured.reference',
      /is required/,
      'KID_MISSING',
    );
  });
});

describe('bulk payment create: entries, currency, accounts and other rules', () => {
  it('refuses a bulk payment with no entries at $.payments', async () => {
    const body = bulkBody(0);
    assertOnlyProblem(await post(body), '$.payments', /^\$\.payments must have at least 1 entry$/);
  });

  it(`accepts exactly MAX_BULK_ENTRIES (${MAX_BULK_ENTRIES}) entries`, async () => {
    assert.equal(MAX_BULK_ENTRIES, 1000);
    const created = assertCreated(await post(bulkBody(MAX_BULK_ENTRIES)));
    assert.match(String(created.psuMessage), new RegExp(`^Your bulk payment of ${MAX_BULK_ENTRIES} payments,`));
  });

  it(`refuses ${MAX_BULK_ENTRIES + 1} entries at $.payments with 'at most ${MAX_BULK_ENTRIES} entries'`, async () => {
    assertOnlyProblem(
      await post(bulkBody(MAX_BULK_ENTRIES + 1)),
      '$.payments',
      new RegExp(`^\\$\\.payments must have at most ${MAX_BULK_ENTRIES} entries$`),
    );
  });

  it('refuses an entry whose instructedAmount is not in NOK', async () => {
    const body = bulkBody(2);
    entry(body, 1).instructedAmount = { amount: '100.00', currency: 'EUR' };
    assertOnlyProblem(await post(body), '$.payments[1].instructedAmount.currency', /must be NOK/);
  });

  it('refuses a creditor account that is not in NOK', async () => {
    const body = bulkBody(2);
    (entry(body, 1).creditorAccount as Json).currency = 'SEK';
    assertOnlyProblem(await post(body), '$.payments[1].creditorAccount.currency', /must be NOK.*\(got 'SEK'\)/);
  });

  it('refuses a debtor account that is not in NOK', async () => {
    const body = bulkBody(2);
    (body.debtorAccount as Json).currency = 'DKK';
    assertOnlyProblem(await post(body), '$.debtorAccount.currency', /must be NOK/);
  });

  it("refuses a currency that is not in the specification's list", async () => {
    const body = bulkBody(2);
    (entry(body, 0).creditorAccount as Json).currency = 'XYZ';
    const response = await post(body);
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.match(
      problemsAt(response, '$.payments[0].creditorAccount.currency')[0]?.text ?? '',
      /ISO 4217 currency code/,
    );
  });

  it('refuses a creditor bban whose MOD11 check digit is wrong', async () => {
    const body = bulkBody(2);
    (entry(body, 1).creditorAccount as Json).bban = BBAN_WRONG_CHECK;
    assertOnlyProblem(await post(body), '$.payments[1].creditorAccount.bban', /MOD11 check digit is wrong/);
  });

  it('refuses a debtor bban whose MOD11 check digit is wrong', async () => {
    const body = bulkBody(2);
    (body.debtorAccount as Json).bban = BBAN_WRONG_CHECK;
    assertOnlyProblem(await post(body), '$.debtorAccount.bban', /MOD11 check digit is wrong/);
  });

  it('refuses a creditor bban written with dots', async () => {
    const body = bulkBody(1);
    (entry(body, 0).creditorAccount as Json).bban = '1234.56.78903';
    assertOnlyProblem(
      await post(body),
      '$.payments[0].creditorAccount.bban',
      /is not a Norwegian account number: 11 digits/,
    );
  });

  it('refuses two equal entries in one bulk at the path of the second, naming the first', async () => {
    const body = bulkBody(3);
    entriesOf(body)[2] = structuredClone(entry(body, 0));
    assertOnlyProblem(await post(body), '$.payments[2]', /^\$\.payments\[2\] is equal to \$\.payments\[0\]/);
  });

  it('accepts two entries that differ only in amount', async () => {
    const body = bulkBody(2);
    const twin = structuredClone(entry(body, 0));
    twin.instructedAmount = { amount: '100.51', currency: 'NOK' };
    entriesOf(body)[1] = twin;
    assertCreated(await post(body));
  });

  it('refuses a requestedExecutionDate in the past with EXECUTION_DATE_INVALID', async () => {
    const body = bulkBody(2);
    body.requestedExecutionDate = '2020-01-15';
    assertOnlyProblem(
      await post(body),
      '$.requestedExecutionDate',
      /2020-01-15 is in the past/,
      'EXECUTION_DATE_INVALID',
    );
  });

  it('refuses a requestedExecutionDate of the years 0000-0099 as in the past, as any earlier date (once taken, read as 1900-1999)', async () => {
    for (const date of ['0000-01-01', '0001-01-01', '0099-12-31']) {
      const body = bulkBody(2);
      body.requestedExecutionDate = date;
      assertOnlyProblem(
        await post(body),
        '$.requestedExecutionDate',
        new RegExp(`${date} is in the past`),
        'EXECUTION_DATE_INVALID',
      );
    }
  });

  it('accepts a requestedExecutionDate in the future', async () => {
    const body = bulkBody(2);
    body.requestedExecutionDate = futureDate(14);
    assertCreated(await post(body));
  });

  it('refuses a requestedExecutionDate that is not an ISO date', async () => {
    const body = bulkBody(2);
    body.requestedExecutionDate = '15.01.2030';
    assertOnlyProblem(await post(body), '$.requestedExecutionDate', /must be a valid date/);
  });

  it("refuses a purposeCode outside the specification's list", async () => {
    const body = bulkBody(2);
    entry(body, 1).purposeCode = 'GDDS';
    assertOnlyProblem(await post(body), '$.payments[1].purposeCode', /must be one of INVS, SALA, .*OTHR/);
  });

  it("accepts every purposeCode of the specification's list", async () => {
    const codes = [
      'INVS',
      'SALA',
      'IDCP',
      'CASH',
      'CORT',
      'INTC',
      'PENS',
      'SSBE',
      'SUPP',
      'TAXS',
      'TREA',
      'VATX',
      'LOAN',
      'OTHR',
    ];
    const body = bulkBody(codes.length);
    codes.forEach((code, i) => {
      entry(body, i).purposeCode = code;
    });
    assertCreated(await post(body));
  });

  it('refuses a field the entry does not have', async () => {
    const body = bulkBody(2);
    entry(body, 1).creditorAgent = 'DNBANOKKXXX';
    assertOnlyProblem(await post(body), '$.payments[1].creditorAgent', /is not a field of this request/);
  });
});

describe('bulk payment create: every violation at once', () => {
  it('lists the problems of several entries and of debtorAccount in one 400, each with its path', async () => {
    const body = bulkBody(5);
    body.debtorAccount = { bban: '1234567890', currency: 'EUR' };
    entry(body, 0).creditorName = text(71);
    (entry(body, 2).creditorAccount as Json).bban = BBAN_WRONG_CHECK;
    entriesOf(body)[3] = structuredEntry(3, { reference: KID_WRONG, referenceType: 'SCOR' });
    entry(body, 4).instructedAmount = { amount: '10.001', currency: 'NOK' };
    const response = await post(body);
    const error = assertErrorBody(response, 400, 'FORMAT_ERROR');
    const byPath = messagesByPath(response);
    assert.deepEqual([...byPath.keys()].sort(), [
      '$.debtorAccount.bban',
      '$.debtorAccount.currency',
      '$.payments[0].creditorName',
      '$.payments[2].creditorAccount.bban',
      '$.payments[3].remittanceInformationStructured.reference',
      '$.payments[4].instructedAmount.amount',
    ]);
    assert.equal(error.tppMessages?.length, 6, response.body);
    assert.match(byPath.get('$.debtorAccount.bban')![0]!.text, /not a Norwegian account number/);
    assert.match(byPath.get('$.debtorAccount.currency')![0]!.text, /must be NOK/);
    assert.match(byPath.get('$.payments[0].creditorName')![0]!.text, /must be at most 70 characters long \(it is 71\)/);
    assert.match(byPath.get('$.payments[2].creditorAccount.bban')![0]!.text, /MOD11 check digit is wrong/);
    assert.equal(byPath.get('$.payments[3].remittanceInformationStructured.reference')![0]!.code, 'KID_INVALID');
    assert.match(byPath.get('$.payments[4].instructedAmount.amount')![0]!.text, /fraction digits/);
    assert.ok(error.tppMessages!.every((m) => m.category === 'ERROR'));
    assert.match(error.message ?? '', /^6 problems in the request/);
  });

  it('reports header problems together with body problems', async () => {
    const body = bulkBody(2);
    entry(body, 1).creditorName = text(71);
    const response = await post(body, { headers: { 'PSU-IP-Address': 'not-an-ip' } });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    const byPath = messagesByPath(response);
    assert.ok(byPath.has('header:PSU-IP-Address'), response.body);
    assert.ok(byPath.has('$.payments[1].creditorName'), response.body);
  });
});

describe('bulk payment create: products', () => {
  const cases: { url: string; status: number; code: string; what: string }[] = [
    {
      url: '/v1/bulk-payments/norwegian-cross-border-credit-transfers',
      status: 403,
      code: 'PRODUCT_INVALID',
      what: 'a bulk of cross-border transfers',
    },
    {
      url: '/v1/bulk-payments/instant-norwegian-domestic-credit-transfers-straks',
      status: 403,
      code: 'PRODUCT_INVALID',
      what: 'a bulk of Straks payments, offered as single payments only',
    },
    {
      url: '/v1/periodic-payments/norwegian-cross-border-credit-transfers',
      status: 403,
      code: 'PRODUCT_INVALID',
      what: 'a periodic cross-border transfer; only the domestic one is a standing order',
    },
    {
      url: '/v1/bulk-payments/instant-sepa-credit-transfers',
      status: 404,
      code: 'PRODUCT_UNKNOWN',
      what: 'a product the bank does not offer',
    },
  ];
  for (const { url, status, code, what } of cases) {
    it(`answers POST ${url} (${what}) with ${status} ${code} in the error body`, async () => {
      const response = await t.signed({ method: 'POST', url, body: bulkBody(2), headers: createHeaders() });
      const error = assertErrorBody(response, status, code);
      assert.equal(error.tppMessages?.[0]?.code, code);
      assert.match(error.message ?? '', new RegExp(escape(url.split('/')[3]!)));
    });
  }
});

describe('bulk payment create: logical duplicates', () => {
  it('refuses the same bulk sent again with a new X-Request-ID as 409 CONFLICT naming each entry, and creates it with allowLogicalDuplicate=true', async () => {
    const psu = { 'PSU-ID': await t.newPsu() };
    const body = bulkBody(2);
    const first = assertCreated(await post(body, { headers: psu }));

    const again = await post(body, { headers: psu, requestId: randomUUID() });
    const error = assertErrorBody(again, 409, 'CONFLICT');
    const byPath = messagesByPath(again);
    assert.deepEqual([...byPath.keys()].sort(), ['$.payments[0]', '$.payments[1]']);
    for (const [, messages] of byPath) {
      assert.equal(messages[0]!.code, 'CONFLICT');
      assert.match(messages[0]!.text, new RegExp(`equals payment ${escape(String(first.paymentId))}`));
    }
    assert.equal(error.tppMessages?.length, 2);

    const allowed = assertCreated(await post(body, { headers: psu, query: '?allowLogicalDuplicate=true' }));
    assert.notEqual(allowed.paymentId, first.paymentId);
  });

  it('refuses a bulk of which one entry equals an entry of an earlier bulk of the same PSU, naming that entry', async () => {
    const psu = { 'PSU-ID': await t.newPsu() };
    const earlierBody = bulkBody(2);
    const earlier = assertCreated(await post(earlierBody, { headers: psu }));

    const body = bulkBody(0);
    body.payments = [bulkEntry(3), structuredClone(entry(earlierBody, 1)), bulkEntry(4)];
    const response = await post(body, { headers: psu });
    assertOnlyProblem(
      response,
      '$.payments[1]',
      new RegExp(`^\\$\\.payments\\[1\\] equals payment ${escape(String(earlier.paymentId))}`),
      'CONFLICT',
      409,
    );
  });

  it('does not count an equal bulk of another PSU as a duplicate', async () => {
    const body = bulkBody(2);
    assertCreated(await post(body, { headers: { 'PSU-ID': await t.newPsu() } }));
    assertCreated(await post(body, { headers: { 'PSU-ID': await t.newPsu() } }));
  });

  it('answers a retry with the same X-Request-ID as the first time, not as a duplicate', async () => {
    const psu = { 'PSU-ID': await t.newPsu() };
    const body = bulkBody(2);
    const requestId = randomUUID();
    const first = assertCreated(await post(body, { headers: psu, requestId }));
    const retry = assertCreated(await post(body, { headers: psu, requestId }));
    assert.equal(retry.paymentId, first.paymentId);
  });
});

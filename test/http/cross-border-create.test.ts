import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { CURRENCIES, minorUnitsOf } from '../../src/domain/currency.js';
import { formatAmount } from '../../src/domain/money.js';
import { ReferenceRates } from '../../src/domain/reference-rates.js';
import {
  CROSS_BORDER_PATH,
  NO_ACCOUNTS,
  NO_IBAN,
  SE_IBAN,
  createCrossBorder,
  crossBorderBody,
  createHeaders,
  messagesByPath,
} from '../support/payment-requests.js';
import { type TestApp, assertErrorBody, startTestApp, PUBLIC_URL } from '../support/test-app.js';

/**
 * POST /v1/payments/norwegian-cross-border-credit-transfers (specification, endpoint 2): the 201
 * answer, the operation's headers, every length limit, the field rules, regulatory reporting from
 * NOK 100 000, x-accept-fix, all violations in one answer, and who may create and read.
 */
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const CREDITOR = crossBorderBody().creditorName as string;

interface Created {
  paymentId: string;
  transactionStatus: string;
  transactionFees?: { amount: unknown; currency: unknown };
  transactionFeeIndicator?: boolean;
  tppMessages?: { category: string; code: string; path?: string; text?: string }[];
  psuMessage?: string;
  _links?: Record<string, { href: string; verbs: string[] }>;
}

/** A body from crossBorderBody with some fields changed; `undefined` removes a field. */
function bodyWith(changes: Record<string, unknown>): Record<string, unknown> {
  const body = crossBorderBody();
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete body[key];
    else body[key] = value;
  }
  return body;
}

function addressWith(changes: Record<string, unknown>): Record<string, unknown> {
  return { ...(crossBorderBody().creditorAddress as Record<string, unknown>), ...changes };
}

/** Letters and digits, unique per call, exactly `length` characters long. */
function textOf(length: number): string {
  const unique = randomUUID().replace(/-/g, '');
  return (unique + 'x'.repeat(length)).slice(0, length);
}

function assertCreated(response: LightMyRequestResponse): Created {
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as Created;
}

/** The messages at one path; fails when there are none. */
function messagesAt(
  response: LightMyRequestResponse,
  path: string,
): { code: string; text: string; category: string }[] {
  const messages = messagesByPath(response).get(path);
  assert.ok(messages !== undefined && messages.length > 0, `expected a message at ${path}, got ${response.body}`);
  return messages;
}

/** A 400 whose messages include one at `path` with `code` and a text matching `text`. */
function assertRefusedAt(response: LightMyRequestResponse, path: string, code: string, text?: RegExp): void {
  assert.equal(response.statusCode, 400, response.body);
  const messages = messagesAt(response, path);
  assert.ok(
    messages.some((m) => m.code === code && m.category === 'ERROR' && (text === undefined || text.test(m.text))),
    `expected ${code} at ${path}${text === undefined ? '' : ` matching ${text}`}, got ${JSON.stringify(messages)}`,
  );
}

const OSLO_DATE = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Oslo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** Today in Norway plus `days`, as YYYY-MM-DD. */
function osloDatePlus(days: number): string {
  const [y, m, d] = OSLO_DATE.format(new Date()).split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

describe('creating a cross-border credit transfer: the 201 answer', () => {
  it('answers 201 with an enc!! paymentId, status RCVD, a NOK 100.00 fee for a NOK payment from a NOK account, and no tppMessages', async () => {
    const body = assertCreated(await createCrossBorder(t));
    assert.match(body.paymentId, /^enc!!.+/);
    assert.equal(body.transactionStatus, 'RCVD');
    assert.deepEqual(body.transactionFees, { amount: '100.00', currency: 'NOK' });
    assert.equal(body.transactionFeeIndicator, true);
    assert.equal(body.tppMessages, undefined);
  });

  it('gives every payment its own paymentId', async () => {
    const first = assertCreated(await createCrossBorder(t));
    const second = assertCreated(await createCrossBorder(t));
    assert.notEqual(first.paymentId, second.paymentId);
  });

  it('adds a currency conversion fee of 0.25 % of the NOK amount when the debtor account has another currency (EUR 10 000.00 from a NOK account: NOK 392.50)', async () => {
    const body = assertCreated(
      await createCrossBorder(t, { body: bodyWith({ instructedAmount: { amount: '10000.00', currency: 'EUR' } }) }),
    );
    // NOK 100.00 + 0.25 % of EUR 10 000.00 × 11.70 = NOK 117 000.00, which is NOK 292.50.
    assert.deepEqual(body.transactionFees, { amount: '392.50', currency: 'NOK' });
    assert.equal(body.transactionFeeIndicator, true);
  });

  it('charges the conversion fee when a NOK payment is made from an account in another currency (NOK 150 000.00 from a EUR account: NOK 475.00)', async () => {
    // NOK 100.00 + 0.25 % of NOK 150 000.00, which is NOK 375.00.
    const body = assertCreated(
      await createCrossBorder(t, { body: bodyWith({ debtorAccount: { bban: NO_ACCOUNTS[1], currency: 'EUR' } }) }),
    );
    assert.deepEqual(body.transactionFees, { amount: '475.00', currency: 'NOK' });
  });

  it('charges at least NOK 25.00 for a currency conversion (SEK 1 000.00 from a NOK account: NOK 125.00)', async () => {
    // SEK 1 000.00 = NOK 1 020.00 at 1.02: 0.25 % is NOK 2.55, below the minimum of NOK 25.00.
    const body = assertCreated(
      await createCrossBorder(t, {
        body: bodyWith({
          instructedAmount: { amount: '1000.00', currency: 'SEK' },
          regulatoryReportingCode: undefined,
          regulatoryReportingInformation: undefined,
        }),
      }),
    );
    assert.deepEqual(body.transactionFees, { amount: '125.00', currency: 'NOK' });
    assert.equal(body.transactionFeeIndicator, true);
  });

  it("writes the fee as a string amount and shows the instructed amount with the currency's two decimals in psuMessage", async () => {
    const body = assertCreated(
      await createCrossBorder(t, { body: bodyWith({ instructedAmount: { amount: '120000', currency: 'NOK' } }) }),
    );
    assert.equal(typeof body.transactionFees?.amount, 'string');
    assert.match(body.psuMessage ?? '', /NOK 120000\.00/);
  });

  it('has a psuMessage in English by default, reported in Content-Language', async () => {
    const response = await createCrossBorder(t);
    const body = assertCreated(response);
    assert.equal(response.headers['content-language'], 'en');
    assert.equal(
      body.psuMessage,
      `Your cross-border payment of NOK 150000.00 to ${CREDITOR} is received. Approve it in your bank to send it.`,
    );
  });

  for (const language of ['nb', 'no', 'nn;q=0.9, en;q=0.5']) {
    it(`has a psuMessage in Norwegian (Bokmål) with Accept-Language '${language}', reported in Content-Language nb`, async () => {
      const response = await createCrossBorder(t, { headers: { 'Accept-Language': language } });
      const body = assertCreated(response);
      assert.equal(response.headers['content-language'], 'nb');
      assert.equal(
        body.psuMessage,
        `Utenlandsbetalingen på NOK 150000,00 til ${CREDITOR} er mottatt. Godkjenn den i banken for å sende den.`,
      );
    });
  }

  it('falls back to English for a language the bank does not speak (Accept-Language de)', async () => {
    const response = await createCrossBorder(t, { headers: { 'Accept-Language': 'de' } });
    const body = assertCreated(response);
    assert.equal(response.headers['content-language'], 'en');
    assert.match(body.psuMessage ?? '', /^Your cross-border payment of NOK 150000\.00/);
  });

  it('links the payment (GET, DELETE) and its status (GET), and sends the payment address in Location', async () => {
    const response = await createCrossBorder(t);
    const body = assertCreated(response);
    const self = `${CROSS_BORDER_PATH}/${body.paymentId}`;
    assert.deepEqual(body._links?.self, { href: self, verbs: ['GET', 'DELETE'] });
    assert.deepEqual(body._links?.status, { href: `${self}/status`, verbs: ['GET'] });
    assert.equal(response.headers.location, `${PUBLIC_URL}${body._links?.self?.href}`);
  });

  it('echoes X-Request-ID in the answer', async () => {
    const requestId = `cb-${randomUUID()}`;
    const response = await createCrossBorder(t, { requestId });
    assertCreated(response);
    assert.equal(response.headers['x-request-id'], requestId);
  });

  it('makes the created payment readable by its creator at _links.self and _links.status', async () => {
    const created = assertCreated(await createCrossBorder(t));
    const read = await t.signed({ method: 'GET', url: created._links!.self!.href });
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(read.json().paymentId, created.paymentId);
    assert.equal(read.json().creditorName, CREDITOR);
    const status = await t.signed({ method: 'GET', url: created._links!.status!.href });
    assert.equal(status.statusCode, 200, status.body);
    assert.equal(status.json().transactionStatus, 'RCVD');
  });
});

describe('creating a cross-border credit transfer: headers', () => {
  for (const name of ['x-accept-fix', 'TPP-Session-ID', 'TPP-Redirect-URI', 'PSU-IP-Address']) {
    it(`refuses a request without ${name} with 400 HTTP_HEADER_REQUIRED naming header:${name}`, async () => {
      const body = assertErrorBody(await createCrossBorder(t, { without: [name] }), 400, 'HTTP_HEADER_REQUIRED');
      assert.deepEqual(
        body.tppMessages?.map((m) => m.path),
        [`header:${name}`],
      );
      assert.match(body.tppMessages?.[0]?.text ?? '', /is required/);
    });
  }

  for (const name of ['X-Request-ID', 'Digest']) {
    it(`refuses a request without ${name} with 400 HTTP_HEADER_REQUIRED naming header:${name}`, async () => {
      const response = await t.signed({
        method: 'POST',
        url: CROSS_BORDER_PATH,
        body: crossBorderBody(),
        headers: createHeaders(),
        tamper: (headers) => {
          delete headers[name.toLowerCase()];
        },
      });
      const body = assertErrorBody(response, 400, 'HTTP_HEADER_REQUIRED');
      assert.ok(
        body.tppMessages?.some((m) => m.path === `header:${name}`),
        response.body,
      );
    });
  }

  it('refuses a request with neither PSU-ID nor X-PSU-IDENTITY with 400 HTTP_HEADER_REQUIRED at header:PSU-ID', async () => {
    const body = assertErrorBody(await createCrossBorder(t, { without: ['PSU-ID'] }), 400, 'HTTP_HEADER_REQUIRED');
    assert.deepEqual(
      body.tppMessages?.map((m) => m.path),
      ['header:PSU-ID'],
    );
  });

  it('accepts X-PSU-IDENTITY with a valid national identity number instead of PSU-ID', async () => {
    assertCreated(await createCrossBorder(t, { without: ['PSU-ID'], headers: { 'X-PSU-IDENTITY': '13039319955' } }));
  });

  const malformed: [string, string, RegExp][] = [
    ['PSU-ID', 'not-a-uuid', /UUID/],
    ['PSU-IP-Address', 'abc', /IPv4 or IPv6/],
    ['PSU-IP-Port', '70000', /port number from 1 to 65535/],
    ['PSU-Device-ID', 'device-1', /UUID/],
    ['PSU-HTTP-Method', 'FETCH', /GET, POST, PUT, PATCH, DELETE/],
    ['PSU-Context', 'PERSONAL', /PRIVATE, CORPORATE/],
    ['TPP-Redirect-URI', 'not a uri', /http or https/],
    ['TPP-Redirect-Preferred', 'maybe', /true, false/],
    ['X-PSU-IDENTITY', '12345678901', /national identity number/],
    ['PSU-Geo-Location', 'Oslo', /GEO:/],
  ];
  for (const [name, value, text] of malformed) {
    it(`refuses ${name} '${value}' with 400 FORMAT_ERROR naming header:${name}`, async () => {
      const response = await createCrossBorder(t, { headers: { [name]: value } });
      const body = assertErrorBody(response, 400, 'FORMAT_ERROR');
      assert.deepEqual(
        body.tppMessages?.map((m) => m.path),
        [`header:${name}`],
      );
      assert.match(body.tppMessages?.[0]?.text ?? '', text);
    });
  }

  it('accepts valid forwarded PSU headers: port, device id, method and geo location', async () => {
    assertCreated(
      await createCrossBorder(t, {
        headers: {
          'PSU-IP-Port': '443',
          'PSU-Device-ID': randomUUID(),
          'PSU-HTTP-Method': 'POST',
          'PSU-Geo-Location': 'GEO:59.9139;10.7522',
          'PSU-User-Agent': 'Mozilla/5.0',
          'TPP-Redirect-Preferred': 'false',
          'TPP-Brand-Logging-Information': 'Test TPP',
        },
      }),
    );
  });

  it('refuses a PSU-Geo-Location outside the globe (latitude 91, longitude 200)', async () => {
    const response = await createCrossBorder(t, { headers: { 'PSU-Geo-Location': 'GEO:91;200' } });
    assertRefusedAt(response, 'header:PSU-Geo-Location', 'FORMAT_ERROR', /latitude -90 to 90/);
  });

  it('accepts an IPv6 PSU-IP-Address', async () => {
    assertCreated(await createCrossBorder(t, { headers: { 'PSU-IP-Address': '2001:db8::10' } }));
  });

  it('refuses PSU-Context CORPORATE without PSU-Corporate-ID with 400 HTTP_HEADER_REQUIRED at header:PSU-Corporate-ID', async () => {
    const body = assertErrorBody(
      await createCrossBorder(t, { headers: { 'PSU-Context': 'CORPORATE' } }),
      400,
      'HTTP_HEADER_REQUIRED',
    );
    assert.deepEqual(
      body.tppMessages?.map((m) => m.path),
      ['header:PSU-Corporate-ID'],
    );
  });

  it('refuses PSU-Context PRIVATE with a PSU-Corporate-ID with 400 FORMAT_ERROR at header:PSU-Corporate-ID, as a consent does (one PSU header rule)', async () => {
    const body = assertErrorBody(
      await createCrossBorder(t, { headers: { 'PSU-Context': 'PRIVATE', 'PSU-Corporate-ID': 'CORP-0001' } }),
      400,
      'FORMAT_ERROR',
    );
    assert.deepEqual(
      body.tppMessages?.map((m) => m.path),
      ['header:PSU-Corporate-ID'],
    );
    assert.match(body.tppMessages?.[0]?.text ?? '', /but PSU-Context is PRIVATE/);
  });

  it('accepts PSU-Context CORPORATE with PSU-Corporate-ID', async () => {
    assertCreated(
      await createCrossBorder(t, { headers: { 'PSU-Context': 'CORPORATE', 'PSU-Corporate-ID': 'CORP-0001' } }),
    );
  });
});

describe('creating a cross-border credit transfer: length limits', () => {
  interface Limit {
    path: string;
    max: number;
    body: (text: string) => Record<string, unknown>;
  }
  const foreignBban = (bban: string) =>
    bodyWith({ creditorAgent: 'ESSESESSXXX', creditorAccount: { bban, currency: 'SEK' } });
  const limits: Limit[] = [
    { path: '$.creditorName', max: 70, body: (text) => bodyWith({ creditorName: text }) },
    {
      path: '$.creditorAddress.street',
      max: 70,
      body: (text) => bodyWith({ creditorAddress: addressWith({ street: text }) }),
    },
    {
      path: '$.creditorAddress.buildingNumber',
      max: 16,
      body: (text) => bodyWith({ creditorAddress: addressWith({ buildingNumber: text }) }),
    },
    {
      path: '$.creditorAddress.postalCode',
      max: 16,
      body: (text) => bodyWith({ creditorAddress: addressWith({ postalCode: text }) }),
    },
    {
      path: '$.creditorAddress.city',
      max: 35,
      body: (text) => bodyWith({ creditorAddress: addressWith({ city: text }) }),
    },
    { path: '$.creditorAccount.bban', max: 30, body: foreignBban },
    {
      path: '$.remittanceInformationUnstructured',
      max: 140,
      body: (text) => bodyWith({ remittanceInformationUnstructured: text }),
    },
    {
      path: '$.regulatoryReportingInformation',
      max: 140,
      body: (text) => bodyWith({ regulatoryReportingInformation: text }),
    },
  ];
  for (const limit of limits) {
    it(`accepts ${limit.path} of exactly ${limit.max} characters`, async () => {
      assertCreated(await createCrossBorder(t, { body: limit.body(textOf(limit.max)) }));
    });

    it(`refuses ${limit.path} of ${limit.max + 1} characters with 400 FORMAT_ERROR saying at most ${limit.max} characters`, async () => {
      const response = await createCrossBorder(t, { body: limit.body(textOf(limit.max + 1)) });
      assertErrorBody(response, 400, 'FORMAT_ERROR');
      assertRefusedAt(
        response,
        limit.path,
        'FORMAT_ERROR',
        new RegExp(`must be at most ${limit.max} characters long \\(it is ${limit.max + 1}\\)`),
      );
    });
  }

  it('counts characters, not bytes: a creditorName of 70 non-ASCII characters is accepted', async () => {
    assertCreated(await createCrossBorder(t, { body: bodyWith({ creditorName: 'Ø'.repeat(69) + 'å' }) }));
  });

  it('refuses an empty remittanceInformationUnstructured (at least 1 character)', async () => {
    const response = await createCrossBorder(t, { body: bodyWith({ remittanceInformationUnstructured: '' }) });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(response, '$.remittanceInformationUnstructured', 'FORMAT_ERROR', /must not be empty/);
  });

  it('judges a 34-character creditorAccount.iban only as an invalid IBAN, not by its length (no IBAN is that long)', async () => {
    const iban = `SE45${'5'.repeat(30)}`;
    assert.equal(iban.length, 34);
    const response = await createCrossBorder(t, { body: bodyWith({ creditorAccount: { iban, currency: 'SEK' } }) });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    const messages = messagesAt(response, '$.creditorAccount.iban');
    assert.ok(
      messages.every((m) => /is not a valid IBAN/.test(m.text)),
      JSON.stringify(messages),
    );
    assert.ok(
      messages.every((m) => !/characters long/.test(m.text)),
      JSON.stringify(messages),
    );
  });

  it('refuses a 35-character creditorAccount.iban for its length (at most 34 characters)', async () => {
    const iban = `SE45${'5'.repeat(31)}`;
    const response = await createCrossBorder(t, { body: bodyWith({ creditorAccount: { iban, currency: 'SEK' } }) });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(
      response,
      '$.creditorAccount.iban',
      'FORMAT_ERROR',
      /must be at most 34 characters long \(it is 35\)/,
    );
  });
});

describe('creating a cross-border credit transfer: field rules', () => {
  it('refuses an amount sent as a JSON number, saying it must be a string', async () => {
    const response = await createCrossBorder(t, {
      body: bodyWith({ instructedAmount: { amount: 12, currency: 'NOK' } }),
    });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(response, '$.instructedAmount.amount', 'FORMAT_ERROR', /must be a string \(got 12\)/);
  });

  it('refuses an amount sent as a JSON number too large for a double (1e400), not calling it null', async () => {
    const raw = JSON.stringify(bodyWith({ instructedAmount: { amount: 12, currency: 'NOK' } })).replace(
      '"amount":12',
      '"amount":1e400',
    );
    const response = await createCrossBorder(t, { body: raw });
    assertRefusedAt(
      response,
      '$.instructedAmount.amount',
      'FORMAT_ERROR',
      /must be a string \(got a number too large to read\)/,
    );
  });

  it("refuses NOK 10.001: more fraction digits than the currency's minor units", async () => {
    const response = await createCrossBorder(t, {
      body: bodyWith({ instructedAmount: { amount: '10.001', currency: 'NOK' } }),
    });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(response, '$.instructedAmount.amount', 'FORMAT_ERROR', /NOK has 2 minor units/);
  });

  it('refuses JPY 10.5: JPY has no minor units', async () => {
    const response = await createCrossBorder(t, {
      body: bodyWith({ instructedAmount: { amount: '10.5', currency: 'JPY' } }),
    });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(response, '$.instructedAmount.amount', 'FORMAT_ERROR', /JPY has 0 minor units/);
  });

  it('refuses an amount of 0.00', async () => {
    const response = await createCrossBorder(t, {
      body: bodyWith({ instructedAmount: { amount: '0.00', currency: 'NOK' } }),
    });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(response, '$.instructedAmount.amount', 'FORMAT_ERROR', /more than zero/);
  });

  it("refuses currency XXX, which is not in the specification's list", async () => {
    const response = await createCrossBorder(t, {
      body: bodyWith({ instructedAmount: { amount: '150000.00', currency: 'XXX' } }),
    });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(response, '$.instructedAmount.currency', 'FORMAT_ERROR', /currency code/);
  });

  it("refuses country XK, which is not in the specification's list", async () => {
    const response = await createCrossBorder(t, {
      body: bodyWith({ creditorAddress: addressWith({ country: 'XK' }) }),
    });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(response, '$.creditorAddress.country', 'FORMAT_ERROR', /country code/);
  });

  it('refuses purposeCode ABCD, which is not a supported purpose code', async () => {
    const response = await createCrossBorder(t, { body: bodyWith({ purposeCode: 'ABCD' }) });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(response, '$.purposeCode', 'FORMAT_ERROR', /must be one of .*SUPP/);
  });

  it("refuses regulatoryReportingCode 99, which is not in the specification's list", async () => {
    const response = await createCrossBorder(t, { body: bodyWith({ regulatoryReportingCode: '99' }) });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(response, '$.regulatoryReportingCode', 'FORMAT_ERROR', /must be one of 14, 26/);
  });

  it('refuses a creditorAgent that is not a BIC', async () => {
    const response = await createCrossBorder(t, { body: bodyWith({ creditorAgent: 'NOTABIC' }) });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(response, '$.creditorAgent', 'FORMAT_ERROR', /is not a BIC/);
  });

  it('refuses a creditor account given by bban without a creditorAgent', async () => {
    const response = await createCrossBorder(t, {
      body: bodyWith({ creditorAgent: undefined, creditorAccount: { bban: '50000058398257466', currency: 'SEK' } }),
    });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(response, '$.creditorAgent', 'FORMAT_ERROR', /required when creditorAccount is given by bban/);
  });

  it('accepts a creditor account given by iban without a creditorAgent', async () => {
    assertCreated(await createCrossBorder(t, { body: bodyWith({ creditorAgent: undefined }) }));
  });

  it('refuses a creditor IBAN with wrong check digits', async () => {
    const wrong = `SE44${SE_IBAN.slice(4)}`;
    const response = await createCrossBorder(t, {
      body: bodyWith({ creditorAccount: { iban: wrong, currency: 'SEK' } }),
    });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(response, '$.creditorAccount.iban', 'FORMAT_ERROR', /is not a valid IBAN/);
  });

  it('refuses a debtor account that is not Norwegian (a Swedish IBAN)', async () => {
    const response = await createCrossBorder(t, {
      body: bodyWith({ debtorAccount: { iban: SE_IBAN, currency: 'SEK' } }),
    });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(response, '$.debtorAccount.iban', 'FORMAT_ERROR', /must be a Norwegian account/);
  });

  it('accepts a Norwegian debtor IBAN', async () => {
    assertCreated(
      await createCrossBorder(t, { body: bodyWith({ debtorAccount: { iban: NO_IBAN, currency: 'NOK' } }) }),
    );
  });

  it('refuses a debtor bban whose MOD11 check digit is wrong', async () => {
    const response = await createCrossBorder(t, {
      body: bodyWith({ debtorAccount: { bban: '12345678904', currency: 'NOK' } }),
    });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(response, '$.debtorAccount.bban', 'FORMAT_ERROR', /MOD11/);
  });

  it('refuses a requestedExecutionDate of yesterday (Norwegian time) with 400 EXECUTION_DATE_INVALID', async () => {
    const response = await createCrossBorder(t, { body: bodyWith({ requestedExecutionDate: osloDatePlus(-1) }) });
    assertErrorBody(response, 400, 'EXECUTION_DATE_INVALID');
    assertRefusedAt(response, '$.requestedExecutionDate', 'EXECUTION_DATE_INVALID', /in the past/);
  });

  it('refuses a requestedExecutionDate of the year 0001 with 400 EXECUTION_DATE_INVALID, as any date in the past', async () => {
    const response = await createCrossBorder(t, { body: bodyWith({ requestedExecutionDate: '0001-01-01' }) });
    assertRefusedAt(response, '$.requestedExecutionDate', 'EXECUTION_DATE_INVALID', /0001-01-01 is in the past/);
  });

  it('accepts a requestedExecutionDate of today (Norwegian time)', async () => {
    assertCreated(await createCrossBorder(t, { body: bodyWith({ requestedExecutionDate: osloDatePlus(0) }) }));
  });

  it('accepts a requestedExecutionDate 365 days ahead', async () => {
    assertCreated(await createCrossBorder(t, { body: bodyWith({ requestedExecutionDate: osloDatePlus(365) }) }));
  });

  it('refuses a requestedExecutionDate 366 days ahead with 400 EXECUTION_DATE_INVALID', async () => {
    const response = await createCrossBorder(t, { body: bodyWith({ requestedExecutionDate: osloDatePlus(366) }) });
    assertErrorBody(response, 400, 'EXECUTION_DATE_INVALID');
    assertRefusedAt(response, '$.requestedExecutionDate', 'EXECUTION_DATE_INVALID', /more than 365 days ahead/);
  });

  it('refuses a requestedExecutionDate that is not a real date (2026-02-30) with 400 FORMAT_ERROR', async () => {
    const response = await createCrossBorder(t, { body: bodyWith({ requestedExecutionDate: '2026-02-30' }) });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(response, '$.requestedExecutionDate', 'FORMAT_ERROR', /must be a valid date/);
    assert.equal(
      messagesAt(response, '$.requestedExecutionDate').length,
      1,
      'a date that does not exist is not also judged as past or future',
    );
  });

  it('refuses an unknown field (chargeBearer) as not a field of this request', async () => {
    const response = await createCrossBorder(t, { body: bodyWith({ chargeBearer: 'SHAR' }) });
    const body = assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.deepEqual(
      body.tppMessages?.map((m) => [m.path, m.text]),
      [['$.chargeBearer', '$.chargeBearer is not a field of this request']],
    );
  });
});

describe('creating a cross-border credit transfer: regulatory reporting', () => {
  const withoutReporting = (amount: string, currency: string) =>
    bodyWith({
      instructedAmount: { amount, currency },
      regulatoryReportingCode: undefined,
      regulatoryReportingInformation: undefined,
    });

  it('refuses NOK 100 000.00 without regulatoryReportingCode and regulatoryReportingInformation, naming both', async () => {
    const response = await createCrossBorder(t, { body: withoutReporting('100000.00', 'NOK') });
    const body = assertErrorBody(response, 400, 'FORMAT_ERROR');
    assert.deepEqual(body.tppMessages?.map((m) => m.path).sort(), [
      '$.regulatoryReportingCode',
      '$.regulatoryReportingInformation',
    ]);
    assert.ok(
      body.tppMessages?.every((m) => /required for transfers of NOK 100 000 or more/.test(m.text ?? '')),
      JSON.stringify(body.tppMessages),
    );
  });

  it('accepts NOK 99 999.99 without regulatory reporting, with a PRODUCT_INVALID warning that the product is meant for NOK 100 000 or more', async () => {
    const body = assertCreated(await createCrossBorder(t, { body: withoutReporting('99999.99', 'NOK') }));
    assert.equal(body.tppMessages?.length, 1, JSON.stringify(body.tppMessages));
    const warning = body.tppMessages![0]!;
    assert.equal(warning.category, 'WARNING');
    assert.equal(warning.code, 'PRODUCT_INVALID');
    assert.match(warning.text ?? '', /meant for amounts of NOK 100 000 or more/);
  });

  it('does not warn about the amount from NOK 100 000.00 with regulatory reporting', async () => {
    const body = assertCreated(
      await createCrossBorder(t, { body: bodyWith({ instructedAmount: { amount: '100000.00', currency: 'NOK' } }) }),
    );
    assert.equal(body.tppMessages, undefined);
  });

  it('converts other currencies at the reference rate: EUR 9 000.00 (NOK 105 300.00 at 11.70) needs regulatory reporting', async () => {
    const response = await createCrossBorder(t, { body: withoutReporting('9000.00', 'EUR') });
    assertErrorBody(response, 400, 'FORMAT_ERROR');
    assertRefusedAt(
      response,
      '$.regulatoryReportingCode',
      'FORMAT_ERROR',
      /EUR 9000\.00 \(NOK 105300\.00 at the bank's reference rate\)/,
    );
    assertRefusedAt(response, '$.regulatoryReportingInformation', 'FORMAT_ERROR');
  });

  it('refuses a currency the bank has no reference rate for (AED, with REFERENCE_RATES=EUR=11.70) with 400 PAYMENT_FAILED', async () => {
    // The sandbox table has every currency; a bank's own table may lack one.
    const bank = await startTestApp({ rates: ReferenceRates.parse('EUR=11.70') });
    try {
      const response = await createCrossBorder(bank, {
        body: bodyWith({ instructedAmount: { amount: '500000.00', currency: 'AED' } }),
      });
      assertErrorBody(response, 400, 'PAYMENT_FAILED');
      assertRefusedAt(response, '$.instructedAmount.currency', 'PAYMENT_FAILED', /no reference rate for AED/);
    } finally {
      await bank.close();
    }
  });

  it('accepts a payment in GGP, at par with GBP: GGP 10 000.00 from a NOK account (NOK 139 000.00 at 13.90) costs NOK 447.50', async () => {
    const body = assertCreated(
      await createCrossBorder(t, {
        body: bodyWith({
          instructedAmount: { amount: '10000.00', currency: 'GGP' },
          creditorAccount: { iban: SE_IBAN, currency: 'GGP' },
        }),
      }),
    );
    // NOK 100.00 + 0.25 % of NOK 139 000.00, which is NOK 347.50; at or above NOK 100 000, so reported.
    assert.deepEqual(body.transactionFees, { amount: '447.50', currency: 'NOK' });
    assert.equal(body.tppMessages, undefined);
    const refused = await createCrossBorder(t, { body: withoutReporting('10000.00', 'GGP') });
    assertRefusedAt(
      refused,
      '$.regulatoryReportingCode',
      'FORMAT_ERROR',
      /GGP 10000\.00 \(NOK 139000\.00 at the bank's reference rate\)/,
    );
  });

  it('accepts a payment in every currency the specification lists, SPL, TVD and the withdrawn VEF and ZWD included', async () => {
    const refused: string[] = [];
    for (const currency of CURRENCIES) {
      const amount = formatAmount(10n ** BigInt(minorUnitsOf(currency)), currency);
      const response = await createCrossBorder(t, {
        body: bodyWith({ instructedAmount: { amount, currency }, creditorAccount: { iban: SE_IBAN, currency } }),
      });
      if (response.statusCode !== 201) refused.push(`${currency} ${amount}: ${response.statusCode} ${response.body}`);
    }
    assert.deepEqual(refused, []);
  });
});

describe('creating a cross-border credit transfer: x-accept-fix', () => {
  it('accepts an unknown x-accept-fix name with a WARNING BAD_REQUEST at header:x-accept-fix', async () => {
    const body = assertCreated(await createCrossBorder(t, { headers: { 'x-accept-fix': 'no-such-change' } }));
    assert.deepEqual(
      body.tppMessages?.map((m) => [m.category, m.code, m.path]),
      [['WARNING', 'BAD_REQUEST', 'header:x-accept-fix']],
    );
    assert.match(body.tppMessages?.[0]?.text ?? '', /'no-such-change' is not a published change/);
  });

  for (const value of [
    'longer-name',
    'longer-names',
    'amount-as-string, "cash-account-type-iso"',
    'LONGER-NAME,batch-transactions',
    '',
  ]) {
    it(`accepts x-accept-fix '${value}' without a warning`, async () => {
      const body = assertCreated(await createCrossBorder(t, { headers: { 'x-accept-fix': value } }));
      assert.equal(body.tppMessages, undefined);
    });
  }
});

describe('creating a cross-border credit transfer: all violations at once', () => {
  it('reports every problem of the headers and the body in one 400, each with its path', async () => {
    const response = await createCrossBorder(t, {
      without: ['TPP-Session-ID'],
      headers: { 'PSU-IP-Address': 'abc', 'PSU-Geo-Location': 'Oslo' },
      body: bodyWith({
        creditorName: 'x'.repeat(71),
        instructedAmount: { amount: 12, currency: 'NOK' },
        purposeCode: 'ABCD',
        chargeBearer: 'SHAR',
        debtorAccount: { bban: '12345678904', currency: 'NOK' },
      }),
    });
    assert.equal(response.statusCode, 400, response.body);
    const body = response.json() as {
      code: string;
      message: string;
      tppMessages: { path?: string; code: string; category: string }[];
    };
    const byPath = messagesByPath(response);
    const expected: [string, string][] = [
      ['header:TPP-Session-ID', 'HTTP_HEADER_REQUIRED'],
      ['header:PSU-IP-Address', 'FORMAT_ERROR'],
      ['header:PSU-Geo-Location', 'FORMAT_ERROR'],
      ['$.creditorName', 'FORMAT_ERROR'],
      ['$.instructedAmount.amount', 'FORMAT_ERROR'],
      ['$.purposeCode', 'FORMAT_ERROR'],
      ['$.chargeBearer', 'FORMAT_ERROR'],
      ['$.debtorAccount.bban', 'FORMAT_ERROR'],
    ];
    for (const [path, code] of expected) {
      assert.ok(
        byPath.get(path)?.some((m) => m.code === code),
        `expected ${code} at ${path}, got ${response.body}`,
      );
    }
    assert.equal(body.tppMessages.length, expected.length, response.body);
    assert.ok(body.tppMessages.every((m) => m.category === 'ERROR'));
    assert.equal(body.code, body.tppMessages[0]!.code);
    assert.match(body.message, new RegExp(`^${expected.length} problems in the request`));
  });
});

describe('creating a cross-border credit transfer: who may create and read', () => {
  it('hides a payment from another TPP: GET of the payment and of its status is 404 RESOURCE_UNKNOWN', async () => {
    const created = assertCreated(await createCrossBorder(t));
    const self = `${CROSS_BORDER_PATH}/${created.paymentId}`;
    const read = assertErrorBody(
      await t.signed({ method: 'GET', url: self, as: t.fixtures.otherTpp }),
      404,
      'RESOURCE_UNKNOWN',
    );
    assert.doesNotMatch(JSON.stringify(read), /Svenska/);
    assertErrorBody(
      await t.signed({ method: 'GET', url: `${self}/status`, as: t.fixtures.otherTpp }),
      404,
      'RESOURCE_UNKNOWN',
    );
    const own = await t.signed({ method: 'GET', url: `${self}/status` });
    assert.equal(own.statusCode, 200, own.body);
  });

  it('refuses a create signed with a certificate without the PSP_PI role with 401 ROLE_INVALID', async () => {
    const body = assertErrorBody(await createCrossBorder(t, { as: t.fixtures.aisOnly }), 401, 'ROLE_INVALID');
    assert.equal(body.tppMessages?.[0]?.path, 'header:TPP-Signature-Certificate');
  });

  it('lets a second TPP with PSP_PI create its own payment', async () => {
    const created = assertCreated(await createCrossBorder(t, { as: t.fixtures.otherTpp }));
    const read = await t.signed({
      method: 'GET',
      url: `${CROSS_BORDER_PATH}/${created.paymentId}/status`,
      as: t.fixtures.otherTpp,
    });
    assert.equal(read.statusCode, 200, read.body);
  });
});

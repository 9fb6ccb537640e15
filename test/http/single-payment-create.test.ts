import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  KID_MOD10,
  KID_MOD11,
  NO_ACCOUNTS,
  NO_IBAN,
  OLA_ACCOUNTS,
  createHeaders,
  messagesByPath,
} from '../support/payment-requests.js';
import {
  CBCT_PATH,
  KARI_EUR_ACCOUNT,
  NDCT_PATH,
  NO_STRAKS_ACCOUNT,
  SEPA_PATH,
  STRAKS_PATH,
  TR_IBAN,
  cbctBody,
  createSingle,
  ndctBody,
  sepaBody,
} from '../support/single-payment-requests.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * Single payments of every product the platform offers (issue 30, section 1): the domestic credit
 * transfer (NDCT), Straks, SEPA and the general cross-border product: their creates with their fees,
 * each field rule naming its field, every violation at once, idempotent retries and logical
 * duplicates, and which of them a signing basket takes.
 */
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

interface Created {
  paymentId: string;
  transactionStatus: string;
  transactionFees: { amount: string; currency: string };
  transactionFeeIndicator: boolean;
  psuMessage: string;
  _links: Record<string, { href: string; verbs: string[] }>;
}

function created(response: { statusCode: number; body: string; json(): unknown }): Created {
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as Created;
}

/** The paths (and codes) of the ERROR tppMessages of a 400. */
function problems(response: { statusCode: number; body: string }, code = 'FORMAT_ERROR'): Map<string, string[]> {
  assert.equal(response.statusCode, 400, response.body);
  const byPath = new Map<string, string[]>();
  for (const [path, messages] of messagesByPath(response as never))
    byPath.set(
      path,
      messages.map((m) => m.text),
    );
  assert.ok(byPath.size > 0, `${code}: ${response.body}`);
  return byPath;
}

const STRAKS_BODY = () => ndctBody();

describe('creating each product: 201 with its fees', () => {
  const cases = [
    { what: 'NDCT', path: NDCT_PATH, body: ndctBody, fee: '0.00', charged: true },
    { what: 'Straks', path: STRAKS_PATH, body: STRAKS_BODY, fee: '10.00', charged: true },
    // EUR 100.00 from a NOK account: NOK 15.00 and the conversion fee's minimum NOK 25.00.
    { what: 'SEPA from a NOK account', path: SEPA_PATH, body: sepaBody, fee: '40.00', charged: true },
    {
      what: 'SEPA from a EUR account',
      path: SEPA_PATH,
      body: () => ({ ...sepaBody(), debtorAccount: { bban: KARI_EUR_ACCOUNT, currency: 'EUR' } }),
      fee: '15.00',
      charged: true,
    },
    // SEK 1 000.00 from a NOK account: NOK 50.00 and the conversion fee's minimum NOK 25.00.
    { what: 'the general cross-border product', path: CBCT_PATH, body: cbctBody, fee: '75.00', charged: true },
    {
      what: 'the general cross-border product in NOK',
      path: CBCT_PATH,
      body: () => ({ ...cbctBody(), instructedAmount: { amount: '99999.99', currency: 'NOK' } }),
      fee: '50.00',
      charged: true,
    },
  ];
  for (const c of cases) {
    it(`creates a ${c.what} payment: 201 RCVD, transactionFees NOK ${c.fee}, transactionFeeIndicator ${c.charged}, links and psuMessage`, async () => {
      const body = c.body();
      const answer = created(await createSingle(t, c.path, body));
      assert.match(answer.paymentId, /^enc!!/);
      assert.equal(answer.transactionStatus, 'RCVD');
      assert.deepEqual(answer.transactionFees, { amount: c.fee, currency: 'NOK' });
      assert.equal(answer.transactionFeeIndicator, c.charged);
      assert.match(answer.psuMessage, /is received/);
      assert.equal(answer._links.self?.href, `${c.path}/${encodeURIComponent(answer.paymentId)}`);
      assert.ok(answer._links.scaRedirect, 'PSU-Context given: the payment has its own SCA link');
      const read = await t.signed({ method: 'GET', url: answer._links.self!.href });
      assert.equal(read.statusCode, 200, read.body);
      const echoed = read.json() as Record<string, unknown>;
      assert.equal(echoed.paymentId, answer.paymentId);
      assert.equal(echoed.transactionStatus, 'RCVD');
      for (const [field, value] of Object.entries(body)) assert.deepEqual(echoed[field], value, field);
      const status = await t.signed({ method: 'GET', url: answer._links.status!.href });
      assert.equal(status.json().transactionStatus, 'RCVD');
    });
  }

  it('takes a domestic payment with a KID in remittanceInformationStructuredArray (MOD10 and MOD11), in remittanceInformationStructured, and a Norwegian IBAN on either side', async () => {
    let amount = 100;
    for (const structured of [
      { remittanceInformationStructuredArray: [{ reference: KID_MOD10, referenceType: 'SCOR' }] },
      { remittanceInformationStructuredArray: [{ reference: KID_MOD11 }] },
      { remittanceInformationStructured: { reference: KID_MOD10, referenceType: 'SCOR' } },
    ]) {
      const body = ndctBody();
      delete body.remittanceInformationUnstructured;
      for (const path of [NDCT_PATH, STRAKS_PATH])
        created(
          await createSingle(t, path, {
            ...body,
            ...structured,
            instructedAmount: { amount: `${amount++}.00`, currency: 'NOK' },
          }),
        );
    }
    created(await createSingle(t, NDCT_PATH, { ...ndctBody(), creditorAccount: { iban: NO_IBAN, currency: 'NOK' } }));
  });

  it('takes a future requestedExecutionDate on NDCT, SEPA and the general cross-border product', async () => {
    const today = (await t.signed({ method: 'GET', url: '/v1/sandbox/clock' })).json().today as string;
    const later = new Date(Date.parse(`${today}T12:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10);
    for (const [path, body] of [
      [NDCT_PATH, ndctBody()],
      [SEPA_PATH, sepaBody()],
      [CBCT_PATH, cbctBody()],
    ] as const)
      created(await createSingle(t, path, { ...body, requestedExecutionDate: later }));
  });

  it('answers the bulk form of the new products with 403 PRODUCT_INVALID, and an unknown product with 404 PRODUCT_UNKNOWN', async () => {
    for (const url of ['/v1/bulk-payments/sepa-credit-transfers', '/v1/bulk-payments/cross-border-credit-transfers'])
      assertErrorBody(await createSingle(t, url, sepaBody()), 403, 'PRODUCT_INVALID');
    assertErrorBody(
      await createSingle(t, '/v1/payments/instant-sepa-credit-transfers', sepaBody()),
      404,
      'PRODUCT_UNKNOWN',
    );
  });
});

describe('the domestic products (NDCT and Straks): field rules naming their field', () => {
  const rules: { name: string; change: (body: Record<string, unknown>) => void; path: string; code?: string }[] = [
    {
      name: 'a creditor bban whose MOD11 check digit is wrong',
      change: (b) => (b.creditorAccount = { bban: '12345678901', currency: 'NOK' }),
      path: '$.creditorAccount.bban',
    },
    {
      name: 'a foreign creditor IBAN',
      change: (b) => (b.creditorAccount = { iban: 'DE89370400440532013000', currency: 'NOK' }),
      path: '$.creditorAccount.iban',
    },
    {
      name: 'an amount in EUR',
      change: (b) => (b.instructedAmount = { amount: '10.00', currency: 'EUR' }),
      path: '$.instructedAmount.currency',
    },
    {
      name: 'a debtor account in EUR',
      change: (b) => (b.debtorAccount = { bban: OLA_ACCOUNTS[0], currency: 'EUR' }),
      path: '$.debtorAccount.currency',
    },
    {
      name: 'both a message and a KID',
      change: (b) => (b.remittanceInformationStructuredArray = [{ reference: KID_MOD10 }]),
      path: '$',
    },
    {
      name: 'a KID with a wrong check digit',
      change: (b) => {
        delete b.remittanceInformationUnstructured;
        b.remittanceInformationStructuredArray = [{ reference: '76543215', referenceType: 'SCOR' }];
      },
      path: '$.remittanceInformationStructuredArray[0].reference',
      code: 'KID_INVALID',
    },
    {
      name: 'an endToEndIdentification of 36 characters',
      change: (b) => (b.endToEndIdentification = 'E'.repeat(36)),
      path: '$.endToEndIdentification',
    },
    {
      name: 'a creditorName of 71 characters',
      change: (b) => (b.creditorName = 'N'.repeat(71)),
      path: '$.creditorName',
    },
    {
      name: 'a requestedExecutionDate in the past',
      change: (b) => (b.requestedExecutionDate = '2020-01-01'),
      path: '$.requestedExecutionDate',
      code: 'EXECUTION_DATE_INVALID',
    },
    {
      name: 'a field the product does not have',
      change: (b) => (b.regulatoryReportingCode = '14'),
      path: '$.regulatoryReportingCode',
    },
  ];
  for (const path of [NDCT_PATH, STRAKS_PATH]) {
    for (const rule of rules) {
      it(`${path.split('/').at(-1)}: refuses ${rule.name} with 400 naming ${rule.path}`, async () => {
        const body = ndctBody();
        rule.change(body);
        const response = await createSingle(t, path, body);
        const error = assertErrorBody(response, 400, rule.code ?? 'FORMAT_ERROR');
        assert.ok(
          error.tppMessages?.some((m) => m.path === rule.path),
          `${rule.path} is named: ${response.body}`,
        );
      });
    }
  }

  it('accepts endToEndIdentification of exactly 35 characters (release 1.21.18) and echoes it in the read', async () => {
    const body = { ...ndctBody(), endToEndIdentification: 'E'.repeat(35) };
    const answer = created(await createSingle(t, NDCT_PATH, body));
    const read = await t.signed({ method: 'GET', url: answer._links.self!.href });
    assert.equal(read.json().endToEndIdentification, 'E'.repeat(35));
  });

  it('lists every violation of a domestic payment at once, headers and body, each naming its field', async () => {
    const body = {
      ...ndctBody(),
      instructedAmount: { amount: '10.001', currency: 'NOK' },
      creditorName: '',
      creditorAccount: { bban: '12345678901', currency: 'NOK' },
      debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'SEK' },
      endToEndIdentification: 'E'.repeat(36),
      requestedExecutionDate: '2020-01-01',
      remittanceInformationStructuredArray: [{ reference: KID_MOD10 }],
    };
    const headers = createHeaders();
    const response = await createSingle(t, NDCT_PATH, body, { without: ['TPP-Redirect-URI'], headers });
    assert.equal(response.statusCode, 400, response.body);
    const paths = [...messagesByPath(response).keys()];
    for (const path of [
      'header:TPP-Redirect-URI',
      '$.instructedAmount.amount',
      '$.creditorName',
      '$.creditorAccount.bban',
      '$.debtorAccount.currency',
      '$.endToEndIdentification',
      '$.requestedExecutionDate',
      '$',
    ])
      assert.ok(paths.includes(path), `${path} is listed: ${paths.join(', ')}`);
  });
});

describe('Straks: what an instant payment cannot be (docs/decisions/0216 and docs/decisions/0217)', () => {
  it('refuses a creditor at a bank that does not take Straks (registration number 9999) with 400 PAYMENT_FAILED naming $.creditorAccount; NDCT takes it', async () => {
    const body = { ...ndctBody(), creditorAccount: { bban: NO_STRAKS_ACCOUNT, currency: 'NOK' } };
    const error = assertErrorBody(await createSingle(t, STRAKS_PATH, body), 400, 'PAYMENT_FAILED');
    assert.equal(error.tppMessages?.[0]?.path, '$.creditorAccount');
    assert.match(
      error.tppMessages?.[0]?.text ?? '',
      /does not take Straks payments.*norwegian-domestic-credit-transfers/,
    );
    created(await createSingle(t, NDCT_PATH, body));
  });

  it('refuses an amount over the instant limit of NOK 500 000 with 400 PAYMENT_FAILED naming $.instructedAmount.amount, and takes exactly NOK 500 000.00', async () => {
    const over = { ...ndctBody(), instructedAmount: { amount: '500000.01', currency: 'NOK' } };
    const error = assertErrorBody(await createSingle(t, STRAKS_PATH, over), 400, 'PAYMENT_FAILED');
    assert.equal(error.tppMessages?.[0]?.path, '$.instructedAmount.amount');
    created(
      await createSingle(t, STRAKS_PATH, { ...ndctBody(), instructedAmount: { amount: '500000.00', currency: 'NOK' } }),
    );
  });

  it('refuses a future requestedExecutionDate with 400 EXECUTION_DATE_INVALID (it executes at once) and takes today', async () => {
    const today = (await t.signed({ method: 'GET', url: '/v1/sandbox/clock' })).json().today as string;
    const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const error = assertErrorBody(
      await createSingle(t, STRAKS_PATH, { ...ndctBody(), requestedExecutionDate: tomorrow }),
      400,
      'EXECUTION_DATE_INVALID',
    );
    assert.match(error.tppMessages?.[0]?.text ?? '', /executed at once/);
    created(await createSingle(t, STRAKS_PATH, { ...ndctBody(), requestedExecutionDate: today }));
  });
});

describe('SEPA and the general cross-border product: field rules naming their field', () => {
  it('SEPA: refuses a creditor IBAN outside the SEPA countries, an amount not in EUR, a debtor account in SEK and a BIC that is not one, all at once', async () => {
    const body = {
      ...sepaBody(),
      instructedAmount: { amount: '100.00', currency: 'USD' },
      creditorAccount: { iban: TR_IBAN, currency: 'EUR' },
      debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'SEK' },
      creditorAgent: 'NOTABIC!',
    };
    const paths = problems(await createSingle(t, SEPA_PATH, body));
    for (const path of [
      '$.instructedAmount.currency',
      '$.creditorAccount.iban',
      '$.debtorAccount.currency',
      '$.creditorAgent',
    ])
      assert.ok(paths.has(path), `${path}: ${[...paths.keys()].join(', ')}`);
    assert.match(paths.get('$.creditorAccount.iban')![0]!, /not a country of the SEPA schemes/);
  });

  it('SEPA: takes a valid creditorAgent and no creditorAgent, and refuses a creditor without iban naming $.creditorAccount.iban', async () => {
    created(await createSingle(t, SEPA_PATH, { ...sepaBody(), creditorAgent: 'BNPAFRPPXXX' }));
    const error = assertErrorBody(
      await createSingle(t, SEPA_PATH, { ...sepaBody(), creditorAccount: { bban: '123456', currency: 'EUR' } }),
      400,
      'FORMAT_ERROR',
    );
    assert.ok(
      error.tppMessages?.some((m) => m.path === '$.creditorAccount.iban'),
      JSON.stringify(error.tppMessages),
    );
  });

  it('the general cross-border product: refuses NOK 100 000 or more (at the reference rate) with 400 PAYMENT_FAILED pointing to norwegian-cross-border-credit-transfers', async () => {
    for (const amount of [
      { amount: '100000.00', currency: 'NOK' },
      { amount: '8547.01', currency: 'EUR' },
    ]) {
      const error = assertErrorBody(
        await createSingle(t, CBCT_PATH, { ...cbctBody(), instructedAmount: amount }),
        400,
        'PAYMENT_FAILED',
      );
      assert.equal(error.tppMessages?.[0]?.path, '$.instructedAmount');
      assert.match(error.tppMessages?.[0]?.text ?? '', /norwegian-cross-border-credit-transfers/);
    }
  });

  it('the general cross-border product: refuses the regulatory reporting fields it does not have, and a creditor bban without creditorAgent', async () => {
    const body: Record<string, unknown> = {
      ...cbctBody(),
      regulatoryReportingCode: '14',
      creditorAccount: { bban: '12345', currency: 'SEK' },
    };
    delete body.creditorAgent;
    const paths = problems(await createSingle(t, CBCT_PATH, body));
    assert.ok(paths.has('$.regulatoryReportingCode'), [...paths.keys()].join(', '));
    assert.ok(paths.has('$.creditorAgent'), [...paths.keys()].join(', '));
  });
});

describe('idempotent retries and logical duplicates, for every new product', () => {
  for (const [what, path, body] of [
    ['NDCT', NDCT_PATH, ndctBody],
    ['Straks', STRAKS_PATH, ndctBody],
    ['SEPA', SEPA_PATH, sepaBody],
    ['the general cross-border product', CBCT_PATH, cbctBody],
  ] as const) {
    it(`${what}: a retry with the same X-Request-ID gets the first answer; the same payment with a new one is 409 CONFLICT unless allowLogicalDuplicate=true`, async () => {
      const payment = body();
      const requestId = randomUUID();
      const first = created(await createSingle(t, path, payment, { requestId }));
      const retry = created(await createSingle(t, path, payment, { requestId }));
      assert.equal(retry.paymentId, first.paymentId);
      const duplicate = assertErrorBody(await createSingle(t, path, payment), 409, 'CONFLICT');
      assert.match(duplicate.tppMessages?.[0]?.text ?? '', new RegExp(first.paymentId.replace(/[!]/g, '\\$&')));
      const allowed = created(await createSingle(t, path, payment, { query: '?allowLogicalDuplicate=true' }));
      assert.notEqual(allowed.paymentId, first.paymentId);
    });
  }

  it('a domestic payment named by the Norwegian IBAN of an account is a duplicate of one named by its number', async () => {
    const body = { ...ndctBody(), creditorAccount: { bban: NO_ACCOUNTS[2], currency: 'NOK' } };
    created(await createSingle(t, NDCT_PATH, body));
    const byIban = { ...body, creditorAccount: { iban: 'NO9612345678938', currency: 'NOK' } };
    assertErrorBody(await createSingle(t, NDCT_PATH, byIban), 409, 'CONFLICT');
  });
});

describe('signing baskets take the products the platform lets in (docs/decisions/0222)', () => {
  async function forBasket(path: string, body: Record<string, unknown>): Promise<string> {
    return created(await createSingle(t, path, body, { without: ['PSU-Context'] })).paymentId;
  }
  const basket = (paymentIds: string[]) =>
    t.signed({ method: 'POST', url: '/v1/signing-baskets', body: { paymentIds }, headers: createHeaders() });

  it('puts NDCT, SEPA and the general cross-border payments in one basket', async () => {
    const ids = [
      await forBasket(NDCT_PATH, ndctBody()),
      await forBasket(SEPA_PATH, sepaBody()),
      await forBasket(CBCT_PATH, cbctBody()),
    ];
    const response = await basket(ids);
    assert.equal(response.statusCode, 201, response.body);
  });

  it('refuses a Straks payment with 400 REFERENCE_MIX_INVALID at its path: it executes at its own SCA', async () => {
    const ndct = await forBasket(NDCT_PATH, ndctBody());
    const straks = await forBasket(STRAKS_PATH, ndctBody());
    const error = assertErrorBody(await basket([ndct, straks]), 400, 'REFERENCE_MIX_INVALID');
    assert.equal(error.tppMessages?.[0]?.path, '$.paymentIds[1]');
    assert.match(error.tppMessages?.[0]?.text ?? '', /instant-norwegian-domestic-credit-transfers-straks payment/);
  });
});

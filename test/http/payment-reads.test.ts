import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bankDayFrom } from '../../src/domain/periodic/bank-days.js';
import { DEFAULT_CUSTOMERS } from '../../src/sandbox/default-data-set.js';
import { bankDate } from '../support/ais-data.js';
import { OLA_ACCOUNTS, bulkBody, createBulk, createCrossBorder, crossBorderBody } from '../support/payment-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/** Reading a payment (every field submitted, plus its status and links), its status, and cancelling it. */
let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const get = (url: string, as = t.fixtures.tpp) => t.signed({ method: 'GET', url, as });

/**
 * A payment's links as the platform answers them (docs/platform-research.md §3.3): while it waits for its SCA,
 * self with DELETE, status and startAuthorisation; once authorised (or ended), self and status only.
 */
function linksOf(self: string, waiting: boolean): Record<string, unknown> {
  return {
    self: { href: self, verbs: waiting ? ['GET', 'DELETE'] : ['GET'] },
    status: { href: `${self}/status`, verbs: ['GET'] },
    ...(waiting ? { startAuthorisation: { href: `${self}/authorisations`, verbs: ['POST'] } } : {}),
  };
}

/** A cross-border payment from Ola's account, approved by Ola on the SCA page. */
async function authorisedPayment(): Promise<{ paymentId: string; self: string; body: Record<string, unknown> }> {
  const body = crossBorderBody();
  body.debtorAccount = { bban: OLA_ACCOUNTS[0], currency: 'NOK' };
  const created = (await createCrossBorder(t, { body })).json();
  const psu = new ScriptedPsu(t.app);
  await psu.open(created._links.scaRedirect.href);
  await psu.logIn(DEFAULT_CUSTOMERS.ola.customerNumber, '123456');
  await psu.approve();
  return { paymentId: created.paymentId, self: created._links.self.href, body };
}

describe('reading a payment', () => {
  it('returns every field of a cross-border payment as submitted, with paymentId, transactionStatus and its links', async () => {
    const body = crossBorderBody();
    body.requestedExecutionDate = bankDayFrom(await bankDate(t, 30), 'following');
    body.creditorAddress = {
      street: 'Kungsgatan',
      buildingNumber: '1',
      postalCode: '11143',
      city: 'Stockholm',
      country: 'SE',
    };
    const created = (await createCrossBorder(t, { body })).json();
    const response = await get(created._links.self.href);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), {
      paymentId: created.paymentId,
      transactionStatus: 'RCVD',
      ...body,
      _links: linksOf(created._links.self.href, true),
    });
  });

  it('returns every field of a bulk payment as submitted, entries and structured remittance included', async () => {
    const body = bulkBody(2);
    (body.payments as Record<string, unknown>[])[1] = {
      ...(body.payments as Record<string, unknown>[])[1],
      remittanceInformationUnstructured: undefined,
      remittanceInformationStructuredArray: [
        { reference: '2345676', referenceType: 'SCOR' },
        { reference: 'INV-77', referenceType: 'CINV', referenceIssuer: 'BITS-EFAKTURA' },
      ],
      ultimateDebtor: 'Lønnsavdelingen',
      purposeCode: 'SALA',
    };
    const normalised = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
    const created = (await createBulk(t, { body: normalised })).json();
    const response = await get(created._links.self.href);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), {
      paymentId: created.paymentId,
      transactionStatus: 'RCVD',
      ...normalised,
      _links: linksOf(created._links.self.href, true),
    });
  });

  it('reads the status of a new payment as RCVD, with its paymentId and links (self with DELETE, status, startAuthorisation), without fundsAvailable before any funds check', async () => {
    for (const created of [(await createCrossBorder(t)).json(), (await createBulk(t)).json()]) {
      const response = await get(created._links.status.href);
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), {
        paymentId: created.paymentId,
        transactionStatus: 'RCVD',
        _links: linksOf(created._links.self.href, true),
      });
    }
  });

  it('gives an authorised payment its links as they stand: self without DELETE, status, no startAuthorisation, in the status and the read', async () => {
    const { paymentId, self, body } = await authorisedPayment();
    const status = await get(`${self}/status`);
    assert.equal(status.statusCode, 200, status.body);
    assert.deepEqual(status.json(), { paymentId, transactionStatus: 'ACTC', _links: linksOf(self, false) });
    const read = await get(self);
    assert.deepEqual(read.json(), { paymentId, transactionStatus: 'ACTC', ...body, _links: linksOf(self, false) });
  });

  it('answers an unknown payment id with 404 RESOURCE_UNKNOWN', async () => {
    assertErrorBody(
      await get('/v1/payments/norwegian-cross-border-credit-transfers/enc!!doesnotexist'),
      404,
      'RESOURCE_UNKNOWN',
    );
    assertErrorBody(
      await get('/v1/payments/norwegian-cross-border-credit-transfers/enc!!doesnotexist/status'),
      404,
      'RESOURCE_UNKNOWN',
    );
  });

  it('answers another TPP with 404 RESOURCE_UNKNOWN for a payment it did not create', async () => {
    const created = (await createBulk(t)).json();
    assertErrorBody(await get(created._links.self.href, t.fixtures.otherTpp), 404, 'RESOURCE_UNKNOWN');
    assertErrorBody(await get(created._links.status.href, t.fixtures.otherTpp), 404, 'RESOURCE_UNKNOWN');
    assertErrorBody(
      await t.signed({ method: 'DELETE', url: created._links.self.href, as: t.fixtures.otherTpp }),
      404,
      'RESOURCE_UNKNOWN',
    );
  });

  it('answers a payment read under the other product with 404 RESOURCE_UNKNOWN', async () => {
    const created = (await createCrossBorder(t)).json();
    assertErrorBody(
      await get(`/v1/bulk-payments/norwegian-domestic-credit-transfers/${created.paymentId}`),
      404,
      'RESOURCE_UNKNOWN',
    );
  });

  it('answers an unknown product with 404 PRODUCT_UNKNOWN and a product in another form with 403 PRODUCT_INVALID', async () => {
    assertErrorBody(await get('/v1/payments/instant-sepa-credit-transfers/enc!!x'), 404, 'PRODUCT_UNKNOWN');
    assertErrorBody(await get('/v1/payments/instant-sepa-credit-transfers/enc!!x/status'), 404, 'PRODUCT_UNKNOWN');
    assertErrorBody(await get('/v1/bulk-payments/sepa-credit-transfers/enc!!x'), 403, 'PRODUCT_INVALID');
    assertErrorBody(
      await get('/v1/bulk-payments/norwegian-cross-border-credit-transfers/enc!!x/status'),
      403,
      'PRODUCT_INVALID',
    );
  });

  it('needs a signature to read, like every operation', async () => {
    const created = (await createCrossBorder(t)).json();
    assertErrorBody(
      await t.app.inject({ method: 'GET', url: created._links.status.href }),
      400,
      'HTTP_HEADER_REQUIRED',
    );
  });
});

describe('cancelling a payment', () => {
  it('cancels a payment that has not been executed: 204, then its status is CANC', async () => {
    const created = (await createCrossBorder(t)).json();
    const response = await t.signed({ method: 'DELETE', url: created._links.self.href });
    assert.equal(response.statusCode, 204);
    assert.equal(response.body, '');
    assert.deepEqual((await get(created._links.status.href)).json(), {
      paymentId: created.paymentId,
      transactionStatus: 'CANC',
      _links: linksOf(created._links.self.href, false),
    });
    assert.equal((await get(created._links.self.href)).json().transactionStatus, 'CANC');
  });

  it('refuses to cancel a payment twice: 405 CANCELLATION_INVALID saying why', async () => {
    const created = (await createBulk(t)).json();
    assert.equal((await t.signed({ method: 'DELETE', url: created._links.self.href })).statusCode, 204);
    const body = assertErrorBody(
      await t.signed({ method: 'DELETE', url: created._links.self.href }),
      405,
      'CANCELLATION_INVALID',
    );
    assert.match(body.message ?? '', /is CANC and can no longer be cancelled/);
  });

  it('answers a cancellation of an unknown payment with 404 RESOURCE_UNKNOWN', async () => {
    assertErrorBody(
      await t.signed({ method: 'DELETE', url: '/v1/bulk-payments/norwegian-domestic-credit-transfers/enc!!nothing' }),
      404,
      'RESOURCE_UNKNOWN',
    );
  });
});

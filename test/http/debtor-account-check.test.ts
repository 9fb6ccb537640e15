import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  NO_ACCOUNTS,
  OLA_ACCOUNTS,
  bulkBody,
  createBulk,
  createCrossBorder,
  crossBorderBody,
  psuByNationalId,
} from '../support/payment-requests.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';

/**
 * Issue 38: production took a payment from an account nobody holds (1506.10.12343 on an empty
 * database) and answered 201. The bank's core now says whether the PSU holds the debtor account.
 */
describe('production: a payment from an account the core does not hold for the PSU', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ mode: 'production' });
  });
  after(() => t.close());

  const fromAccount = (bban: string) => ({ ...crossBorderBody(), debtorAccount: { bban, currency: 'NOK' } });

  it('is refused at create with 400 PAYMENT_FAILED at $.debtorAccount, and nothing is created', async () => {
    const response = await createCrossBorder(t, { body: fromAccount(NO_ACCOUNTS[0]!) });
    const body = assertErrorBody(response, 400, 'PAYMENT_FAILED');
    assert.equal(body.tppMessages?.[0]?.path, '$.debtorAccount');
    assert.match(body.message!, /not an account the PSU holds/);
    assert.equal(response.headers.location, undefined);
  });

  it('is refused for an account of another customer of the bank, in the same words as one that does not exist', async () => {
    const kari = await createCrossBorder(t, { body: fromAccount('15061012378') });
    const nobody = await createCrossBorder(t, { body: fromAccount(NO_ACCOUNTS[0]!) });
    assert.equal(
      assertErrorBody(kari, 400, 'PAYMENT_FAILED').message,
      assertErrorBody(nobody, 400, 'PAYMENT_FAILED').message,
    );
  });

  it("is refused for a bulk too; the PSU's own account is created (201)", async () => {
    assertErrorBody(await createBulk(t), 400, 'PAYMENT_FAILED');
    const own = await createBulk(t, {
      body: { ...bulkBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } },
    });
    assert.equal(own.statusCode, 201, own.body);
    assert.equal((await createCrossBorder(t, { body: fromAccount(OLA_ACCOUNTS[1]) })).statusCode, 201);
  });

  it('names the PSU by X-PSU-IDENTITY as well; a number that is no customer of the bank is refused alike', async () => {
    const headers = psuByNationalId();
    assert.equal(
      (await createCrossBorder(t, { body: fromAccount(OLA_ACCOUNTS[0]), headers, without: ['PSU-ID'] })).statusCode,
      201,
    );
    const stranger = await createCrossBorder(t, {
      body: fromAccount(OLA_ACCOUNTS[0]),
      headers: { ...headers, 'X-PSU-IDENTITY': '12085592767' },
      without: ['PSU-ID'],
    });
    assertErrorBody(stranger, 400, 'PAYMENT_FAILED');
    const noCustomer = await createCrossBorder(t, {
      body: fromAccount(OLA_ACCOUNTS[0]),
      headers: { ...headers, 'X-PSU-IDENTITY': '01010012356' },
      without: ['PSU-ID'],
    });
    assertErrorBody(noCustomer, 400, 'PAYMENT_FAILED');
  });

  it('refuses a corporate agreement the PSU has no REGISTER role on, naming PSU-Corporate-ID', async () => {
    const response = await createCrossBorder(t, {
      body: fromAccount('15062056786'),
      headers: { 'PSU-Context': 'CORPORATE', 'PSU-Corporate-ID': 'no-such-agreement' },
    });
    assert.match(assertErrorBody(response, 400, 'PAYMENT_FAILED').message!, /PSU-Corporate-ID/);
  });
});

describe('sandbox: a payment from an account the PSU does not hold', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp();
  });
  after(() => t.close());

  it('is created (201) and refused at its SCA, as before (docs/decisions/0294)', async () => {
    const response = await createCrossBorder(t, {
      body: { ...crossBorderBody(), debtorAccount: { bban: NO_ACCOUNTS[0], currency: 'NOK' } },
    });
    assert.equal(response.statusCode, 201, response.body);
  });
});

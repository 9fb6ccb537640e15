import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authorizationDetailsOf } from '../../src/services/sca/authorization-details.js';
import type { Authorisation, ScaPayment } from '../../src/store/sca-records.js';

/**
 * What the PSU authorises, as the identity provider is told it (RFC 9396 authorization_details):
 * the kinds the HTTP tests do not sign at the provider (a standing order, a cancellation, a bulk in
 * two currencies, a session) and the shape of each.
 */
function authorisation(kind: Authorisation['kind'], psuCorporateId?: string): Authorisation {
  return {
    id: 'a1',
    stage: 'login',
    kind,
    objectId: 'p1',
    tppId: 'tpp',
    tppName: 'Test TPP AS',
    psuId: undefined,
    psuNationalIdHash: undefined,
    psuCorporateId,
    psuContext: undefined,
    authMethod: undefined,
    redirectPreferred: true,
    tppRedirectUri: undefined,
    tppSessionId: undefined,
    status: 'started',
    customerId: undefined,
    attempts: 0,
    expiresAt: new Date(),
    createdAt: new Date(),
  };
}

function payment(changes: Partial<ScaPayment> = {}): ScaPayment {
  return {
    id: 'p1',
    tppId: 'tpp',
    service: 'payments',
    product: 'norwegian-domestic-credit-transfers',
    status: 'RCVD',
    createdAt: '2026-11-29T00:00:00.000Z',
    psuKey: 'psu:x',
    psuId: 'x',
    psuNationalIdHash: undefined,
    psuCorporateId: undefined,
    debtorBban: '15061012343',
    debtorIban: undefined,
    debtorCurrency: 'NOK',
    requestedExecutionDate: undefined,
    feeMinor: 0n,
    feeCurrency: 'NOK',
    transfers: [
      { amountMinor: 12_345n, currency: 'NOK', creditorName: 'Kari Nordmann', creditorAccount: '86011117947' },
    ],
    remittance: ['Husleie'],
    schedule: undefined,
    tppRedirectUri: 'https://tpp.example/cb',
    tppSessionId: 's',
    ...changes,
  };
}

describe('authorization_details of an authorisation', () => {
  it('a standing order: its amount and creditor, and its schedule', () => {
    const schedule = {
      startDate: '2026-12-05',
      endDate: undefined,
      frequency: 'Monthly' as const,
      executionRule: 'following' as const,
      day: 5,
      months: undefined,
    };
    assert.deepEqual(authorizationDetailsOf(authorisation('payment'), [payment({ schedule })]), [
      {
        type: 'payment_initiation',
        actions: ['initiate'],
        instructedAmount: { amount: '123.45', currency: 'NOK' },
        creditorName: 'Kari Nordmann',
        creditorAccount: { bban: '86011117947' },
        debtorAccount: { bban: '15061012343' },
        remittanceInformationUnstructured: 'Husleie',
        startDate: '2026-12-05',
        frequency: 'Monthly',
        executionRule: 'following',
        dayOfExecution: '5',
      },
    ]);
  });

  it('a cancellation says so in its actions', () => {
    const [detail] = authorizationDetailsOf(authorisation('cancellation'), [payment()])!;
    assert.deepEqual(detail!.actions, ['cancel']);
  });

  it('a basket in two currencies: a total for each, the count, and no single creditor', () => {
    const [detail] = authorizationDetailsOf(authorisation('basket'), [
      payment(),
      payment({
        id: 'p2',
        transfers: [
          { amountMinor: 1_000n, currency: 'EUR', creditorName: 'GmbH', creditorAccount: 'DE89370400440532013000' },
        ],
      }),
    ])!;
    assert.deepEqual(detail!.instructedAmounts, [
      { amount: '123.45', currency: 'NOK' },
      { amount: '10.00', currency: 'EUR' },
    ]);
    assert.equal(detail!.numberOfPayments, 2);
    assert.equal(detail!.remittanceInformationUnstructured, '2 payments, NOK 123.45 and EUR 10.00 in all');
    assert.equal(detail!.creditorName, undefined);
  });

  it('a consent on behalf of an agreement: account_information, bank-offered, with the agreement', () => {
    assert.deepEqual(authorizationDetailsOf(authorisation('consent', 'AGR-1'), []), [
      {
        type: 'account_information',
        actions: ['read'],
        access: { accounts: [], balances: [], transactions: [] },
        psuCorporateId: 'AGR-1',
      },
    ]);
  });

  it('a PSU session authorises nothing: none', () => {
    assert.equal(authorizationDetailsOf(authorisation('session'), []), undefined);
  });
});

import { randomUUID } from 'node:crypto';
import { duplicateKey, newPaymentId, type NewPayment } from '../../src/domain/payments/payment.js';
import type { TppRequestRecord } from '../../src/store/store.js';

/** A payment as the service hands it to the store, for store tests. */
export function newPayment(overrides: Partial<NewPayment> & { amountMinor?: bigint; psuKey?: string } = {}): NewPayment {
  const amount = { minor: overrides.amountMinor ?? 1_500_000n, currency: 'NOK' as const };
  const debtor = { bban: '12345678903', iban: undefined, currency: 'NOK' };
  const { amountMinor: _a, psuKey, ...rest } = overrides;
  return {
    id: newPaymentId(),
    tppId: 'PSDNO-FSA-111111111',
    service: 'payments',
    product: 'norwegian-cross-border-credit-transfers',
    status: 'RCVD',
    psu: { psuId: randomUUID(), nationalIdHash: undefined, corporateId: undefined, context: 'PRIVATE', key: psuKey ?? 'psu:one' },
    debtor,
    requestedExecutionDate: undefined,
    transfers: [{ amount, creditorName: 'Creditor AS', creditorAccount: 'SE4550000000058398257466', duplicateKey: duplicateKey({ debtor: '12345678903', creditor: 'SE4550000000058398257466', amount, executionDate: undefined, remittance: 'x' }), path: '$' }],
    fees: { total: { minor: 10_000n, currency: 'NOK' }, charged: true, conversion: undefined },
    warnings: [],
    body: { instructedAmount: { amount: '15000.00', currency: 'NOK' } },
    acceptFixes: ['amount-as-string'],
    tppRedirectUri: 'https://tpp.example/cb',
    tppSessionId: 'session-1',
    createdAt: new Date(),
    ...rest,
  };
}

export function requestFor(payment: NewPayment, requestId: string = randomUUID()): TppRequestRecord {
  return {
    tppId: payment.tppId,
    requestId,
    operation: `POST /v1/${payment.service}/${payment.product}`,
    bodySha256: 'a'.repeat(64),
    responseStatus: 201,
    responseBody: JSON.stringify({ paymentId: payment.id }),
  };
}

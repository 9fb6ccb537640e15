import { randomUUID } from 'node:crypto';
import { addDays, osloDate } from '../../src/domain/clock.js';
import { formatAmount } from '../../src/domain/money.js';
import type { NewPayment } from '../../src/domain/payments/payment.js';
import { validatePeriodicPayment } from '../../src/domain/payments/periodic-payment.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';
import { newPayment } from './new-payment.js';
import { NO_ACCOUNTS } from './payment-requests.js';

/** Standing orders (periodic payments) as a TPP creates them. */
export const PERIODIC_PATH = '/v1/periodic-payments/norwegian-domestic-credit-transfers';

/**
 * A start date a server on the real clock takes: tomorrow in Norway. The default startDate is fixed
 * for the tests that set the bank's clock, and it is in the past on the real one once Norway's date
 * has passed it (from 23:00 UTC on its eve in winter).
 */
export const tomorrowInNorway = (): string => addDays(osloDate(new Date()), 1);

/** A monthly standing order of NOK 8 500 on the 20th, from startDate, following bank days. */
export function periodicBody(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    instructedAmount: { amount: '8500.00', currency: 'NOK' },
    creditorName: 'Fjellet Borettslag',
    creditorAccount: { bban: NO_ACCOUNTS[1], currency: 'NOK' },
    creditorAddress: { street: 'Storgata', buildingNumber: '56', postalCode: '7014', city: 'Trondheim', country: 'NO' },
    debtorAccount: { bban: NO_ACCOUNTS[0], currency: 'NOK' },
    remittanceInformationUnstructured: `Husleie ${randomUUID().slice(0, 8)}`,
    startDate: '2026-12-01',
    frequency: 'Monthly',
    executionRule: 'following',
    dayOfExecution: '20',
    ...changes,
  };
}

/**
 * A standing order as the service hands it to the store, for store and process tests: from Ola's
 * current account (the default data set's) to an account of another bank, its date its first
 * execution's.
 */
export function newStandingOrder(
  schedule: Record<string, unknown>,
  options: { amountMinor?: bigint; psuKey?: string; tppId?: string; debtorBban?: string } = {},
): NewPayment {
  const body = periodicBody({
    instructedAmount: { amount: formatAmount(options.amountMinor ?? 10_000n, 'NOK'), currency: 'NOK' },
    debtorAccount: { bban: options.debtorBban ?? '15061012343', currency: 'NOK' },
    ...schedule,
  });
  const validated = validatePeriodicPayment(body, {
    today: String(body.startDate),
    rates: new ReferenceRates(SANDBOX_REFERENCE_RATES),
  }).payment;
  if (validated === undefined) throw new Error(`not a valid standing order: ${JSON.stringify(body)}`);
  return newPayment({
    ...validated,
    service: 'periodic-payments',
    product: 'norwegian-domestic-credit-transfers',
    body,
    psuKey: options.psuKey ?? `psu:${randomUUID()}`,
    ...(options.tppId === undefined ? {} : { tppId: options.tppId }),
  });
}

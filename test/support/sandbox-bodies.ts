import { ibanOf, nextBban } from './norwegian-numbers.js';

/** The body of `POST /v1/sandbox/accounts` as the platform sends it: a NOK current account with a new BBAN. */
export function sandboxAccountBody(
  customerNumber: string,
  overrides: Record<string, unknown> = {},
): Record<string, any> {
  const bban = nextBban();
  return {
    customerNumber,
    accountName: 'Brukskonto',
    bban,
    iban: ibanOf(bban),
    currency: 'NOK',
    product: 'Brukskonto',
    cashAccountType: 'CACC',
    creditLine: 0,
    balances: [{ balanceType: 'EXPECTED', balanceAmount: { amount: 10000, currency: 'NOK' } }],
    ...overrides,
  };
}

import { type OperationExamples, link } from './operation-example.js';
import { IDS, OLA, OLA_CARD } from './example-values.js';

/**
 * Test card accounts: Ola Nordmann's credit card and two purchases on it, groceries in Oslo and a
 * hotel in Stockholm paid in SEK (account information then reads them).
 */

const CARD = `/v1/sandbox/card-accounts/${IDS.cardAccount}`;

const newCard = {
  customerNumber: OLA.customerNumber,
  maskedPan: OLA_CARD.maskedPan,
  name: OLA_CARD.name,
  product: OLA_CARD.product,
  currency: 'NOK',
  creditLimit: { amount: 30000, currency: 'NOK' },
  balances: [{ balanceType: 'interimBooked', balanceAmount: { amount: -2346.61, currency: 'NOK' } }],
  expiry: '2029-11-30',
  status: 'ENABLED',
};

const card = {
  id: IDS.cardAccount,
  ...newCard,
  creditLimit: { amount: '30000.00', currency: 'NOK' },
  balances: [{ balanceType: 'interimBooked', balanceAmount: { amount: '-2346.61', currency: 'NOK' } }],
  _links: { self: link(CARD, 'GET', 'DELETE'), transactions: link(`${CARD}/transactions`, 'GET', 'POST') },
};

const groceries = {
  cardTransactionId: '2026112400187',
  terminalId: '40012877',
  transactionDate: '2026-11-24',
  bookingDate: '2026-11-25',
  valueDate: '2026-11-25',
  transactionAmount: { amount: -452.9, currency: 'NOK' },
  merchantCategoryCode: '5411',
  cardAcceptorId: '861230554',
  cardAcceptorAddress: {
    street: 'Thorvald Meyers gate',
    buildingNumber: '49',
    postalCode: '0555',
    city: 'Oslo',
    country: 'NO',
  },
  maskedPan: OLA_CARD.maskedPan,
  transactionDetails: 'REMA 1000 Grünerløkka',
  invoiced: false,
};

const hotel = {
  cardTransactionId: '2026112100533',
  transactionDate: '2026-11-21',
  bookingDate: '2026-11-23',
  valueDate: '2026-11-23',
  transactionAmount: { amount: -1893.71, currency: 'NOK' },
  originalAmount: { amount: -1850, currency: 'SEK' },
  markupFee: { amount: 32.57, currency: 'NOK' },
  markupFeePercentage: '1.75',
  merchantCategoryCode: '7011',
  cardAcceptorAddress: { city: 'Stockholm', country: 'SE' },
  maskedPan: OLA_CARD.maskedPan,
  transactionDetails: 'Hotell Kungsgatan Stockholm',
  invoiced: false,
};

const transactionPath = (id: string) => `${CARD}/transactions/${id}`;

/** Amounts read back in the answer's form: decimal text with two places. */
const asAmount = (posted: { amount: number; currency: string }) => ({
  amount: posted.amount.toFixed(2),
  currency: posted.currency,
});

const readBack = (id: string, posted: typeof groceries | typeof hotel) => ({
  id,
  ...posted,
  transactionAmount: asAmount(posted.transactionAmount),
  ...('originalAmount' in posted
    ? { originalAmount: asAmount(posted.originalAmount), markupFee: asAmount(posted.markupFee) }
    : {}),
  _links: { self: link(transactionPath(id), 'GET') },
});

const ids = [IDS.cardTransaction, IDS.otherCardTransaction];

export const sandboxCardAccountExamples: OperationExamples = {
  createSandboxCardAccount: {
    summary: 'A Mastercard Gold for Ola Nordmann with a NOK 30 000 limit',
    request: newCard,
    answer: { status: 201, body: card },
  },
  getSandboxCardAccount: {
    summary: 'Ola Nordmann’s credit card',
    answer: { status: 200, body: card },
  },
  deleteSandboxCardAccount: {
    summary: 'The card account is deleted with its transactions',
    answer: { status: 204 },
  },
  createSandboxCardAccountTransactions: {
    summary: 'Two purchases posted to the card',
    request: [groceries, hotel],
    answer: { status: 201, body: ids.map((id) => ({ id, _links: { self: link(transactionPath(id), 'GET') } })) },
  },
  getSandboxCardAccountTransactionList: {
    summary: 'The purchases on the card, in posting order',
    answer: { status: 200, body: [readBack(ids[0]!, groceries), readBack(ids[1]!, hotel)] },
  },
  getSandboxCardAccountTransaction: {
    summary: 'The purchase of groceries, as posted',
    answer: { status: 200, body: readBack(ids[0]!, groceries) },
  },
};

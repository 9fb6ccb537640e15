import { type OperationExamples, link } from './operation-example.js';
import { IDS, OLA, OLA_CARD } from './example-values.js';

/**
 * Card accounts in account information: Ola Nordmann's credit card (the sandbox examples make it and
 * post its purchases), read in the consent he gave.
 */

const CARD = `/v1/card-accounts/${IDS.cardAccount}`;

const nok = (amount: string) => ({ amount, currency: 'NOK' });

const cardAccount = {
  resourceId: IDS.cardAccount,
  maskedPan: OLA_CARD.maskedPan,
  currency: 'NOK',
  name: OLA_CARD.name,
  product: OLA_CARD.product,
  status: 'enabled',
  usage: 'PRIV',
  ownerName: OLA.name,
  creditLimit: nok('30000.00'),
  _links: {
    self: link(CARD, 'GET'),
    balances: link(`${CARD}/balances`, 'GET'),
    transactions: link(`${CARD}/transactions?bookingStatus=both`, 'GET'),
  },
};

const reference = { maskedPan: OLA_CARD.maskedPan, currency: 'NOK' };

const groceries = {
  cardTransactionId: '2026112400187',
  terminalId: '40012877',
  transactionDate: '2026-11-24',
  bookingDate: '2026-11-25',
  valueDate: '2026-11-25',
  transactionAmount: nok('-452.90'),
  merchantCategoryCode: '5411',
  cardAcceptorId: '861230554',
  cardAcceptorAddress: {
    street: 'Thorvald Meyers gate',
    buildingNumber: '49',
    postalCode: '0555',
    city: 'Oslo',
    country: 'NO',
  },
  maskedPAN: OLA_CARD.maskedPan,
  transactionDetails: 'REMA 1000 Grünerløkka',
  invoiced: false,
  proprietaryBankTransactionCode: 'R_710',
};

const hotel = {
  cardTransactionId: '2026112100533',
  transactionDate: '2026-11-21',
  bookingDate: '2026-11-23',
  valueDate: '2026-11-23',
  transactionAmount: nok('-1893.71'),
  originalAmount: { amount: '-1850.00', currency: 'SEK' },
  markupFee: nok('32.57'),
  markupFeePercentage: '1.75',
  merchantCategoryCode: '7011',
  cardAcceptorAddress: { city: 'Stockholm', country: 'SE' },
  maskedPAN: OLA_CARD.maskedPan,
  transactionDetails: 'Hotell Kungsgatan Stockholm',
  invoiced: false,
  proprietaryBankTransactionCode: 'R_710',
};

export const cardAccountExamples: OperationExamples = {
  getCardAccountList: {
    summary: 'The credit card Ola Nordmann shared',
    answer: { status: 200, body: { cardAccounts: [cardAccount] } },
  },
  readCardAccountDetails: {
    summary: 'Ola Nordmann’s credit card and its limit',
    answer: { status: 200, body: { cardAccount } },
  },
  getCardAccountBalances: {
    summary: 'What the card owes: its booked balance',
    answer: {
      status: 200,
      body: {
        cardAccount: reference,
        balances: [{ balanceType: 'interimBooked', balanceAmount: nok('-2346.61') }],
        _links: { self: link(`${CARD}/balances`, 'GET') },
      },
    },
  },
  getCardAccountTransactionList: {
    summary: 'Groceries in Oslo and a hotel in Stockholm, paid in SEK with the markup fee',
    answer: {
      status: 200,
      body: {
        cardAccount: reference,
        cardTransactions: {
          booked: [hotel, groceries],
          pending: [],
          _links: {
            self: link(`${CARD}/transactions?bookingStatus=both&dateFrom=2026-11-01`, 'GET'),
            cardAccount: link(CARD, 'GET'),
          },
        },
      },
    },
  },
};

import { DEFAULT_STANDING_ORDER } from '../../../sandbox/default-data-set.js';
import { type OperationExamples, link } from './operation-example.js';
import { EMPLOYER, HOUSING_COOPERATIVE, IDS, INGRID, INGRID_ACCOUNT, OLA, OLA_CURRENT } from './example-values.js';

/**
 * Test accounts and their history: a current account for the new customer Ingrid Berg; November's
 * salary and rent posted to Ola Nordmann's current account (account information then reads them);
 * and Per Hansen's rent, the standing order of the default data set.
 */

const NEW_ACCOUNT = `/v1/sandbox/accounts/${IDS.newAccount}`;
const OLA_ACCOUNT = `/v1/sandbox/accounts/${IDS.account}`;

const newAccount = {
  customerNumber: INGRID.customerNumber,
  accountName: 'Brukskonto',
  bban: INGRID_ACCOUNT.bban,
  iban: INGRID_ACCOUNT.iban,
  currency: 'NOK',
  product: 'Brukskonto',
  cashAccountType: 'CACC',
  creditLine: 0,
  balances: [{ balanceType: 'EXPECTED', balanceAmount: { amount: 18500, currency: 'NOK' } }],
};

const account = {
  id: IDS.newAccount,
  ...newAccount,
  creditLine: '0.00',
  balances: [{ balanceType: 'expected', balanceAmount: { amount: '18500.00', currency: 'NOK' } }],
  status: 'enabled',
  _links: {
    self: link(NEW_ACCOUNT, 'GET', 'DELETE'),
    transactions: link(`${NEW_ACCOUNT}/transactions`, 'GET', 'POST'),
  },
};

const own = { iban: OLA_CURRENT.iban, bban: OLA_CURRENT.bban };
const employer = { iban: EMPLOYER.iban, bban: EMPLOYER.bban };
const cooperative = { iban: HOUSING_COOPERATIVE.iban, bban: HOUSING_COOPERATIVE.bban };

/** As posted: the account is the creditor of a credit, the debtor of a debit. */
const salary = {
  amount: 38250,
  currency: 'NOK',
  valueDate: '2026-11-25',
  bookingDate: '2026-11-25',
  remittanceInformationUnstructured: 'Lønn november',
  creditorName: OLA.name,
  creditorAccount: own,
  debtorName: EMPLOYER.name,
  debtorAccount: employer,
  purposeCode: 'SALA',
  bankTransactionCode: 'PMNT-RCDT-SALA',
};

const rent = {
  amount: -8500,
  currency: 'NOK',
  valueDate: '2026-11-20',
  bookingDate: '2026-11-20',
  remittanceInformationUnstructured: 'Husleie november',
  creditorName: HOUSING_COOPERATIVE.name,
  creditorAccount: cooperative,
  debtorName: OLA.name,
  debtorAccount: own,
  purposeCode: 'OTHR',
  bankTransactionCode: 'PMNT-ICDT-DMCT',
};

const transactionPath = (id: string) => `${OLA_ACCOUNT}/transactions/${id}`;

/** A posted transaction read back: every field present, the ultimate parties empty when not posted. */
const readBack = (id: string, posted: Record<string, unknown>) => ({
  id,
  ...posted,
  ultimateDebtor: '',
  ultimateCreditor: '',
  _links: { self: link(transactionPath(id), 'GET') },
});

const perOrder = `/v1/periodic-payments/norwegian-domestic-credit-transfers/${IDS.perStandingOrder}`;
const { body: perRent } = DEFAULT_STANDING_ORDER;

export const sandboxAccountExamples: OperationExamples = {
  createSandboxAccount: {
    summary: 'A current account for Ingrid Berg with NOK 18 500',
    request: newAccount,
    answer: { status: 201, body: account },
  },
  getSandboxAccount: {
    summary: 'Ingrid Berg’s current account and its balance now',
    answer: { status: 200, body: account },
  },
  updateSandboxAccount: {
    summary: 'Ingrid Berg’s account blocked: a payment from it is rejected AC06 when it executes',
    request: { status: 'blocked' },
    answer: { status: 200, body: { ...account, status: 'blocked' } },
  },
  deleteSandboxAccount: {
    summary: 'The account is deleted with its transactions and engagements',
    answer: { status: 204 },
  },
  createSandboxAccountTransactions: {
    summary: 'November’s salary and rent posted to Ola Nordmann’s current account',
    request: [salary, rent],
    answer: {
      status: 201,
      body: [IDS.transaction, IDS.otherTransaction].map((id) => ({
        id,
        _links: { self: link(transactionPath(id), 'GET') },
      })),
    },
  },
  getSandboxAccountTransactionList: {
    summary: 'The transactions posted to Ola Nordmann’s current account, in posting order',
    answer: { status: 200, body: [readBack(IDS.transaction, salary), readBack(IDS.otherTransaction, rent)] },
  },
  getSandboxAccountTransaction: {
    summary: 'The salary of November, as posted',
    answer: { status: 200, body: readBack(IDS.transaction, salary) },
  },
  getSandboxAccountStandingOrders: {
    summary: 'Per Hansen’s rent, running since August: its paymentId and its next execution',
    answer: {
      status: 200,
      body: [
        {
          paymentId: IDS.perStandingOrder,
          transactionStatus: 'ACTC',
          instructedAmount: perRent.instructedAmount,
          creditorName: perRent.creditorName,
          creditorAccount: perRent.creditorAccount,
          remittanceInformationUnstructured: perRent.remittanceInformationUnstructured,
          startDate: '2026-08-01',
          frequency: perRent.frequency,
          dayOfExecution: perRent.dayOfExecution,
          nextExecutionDate: '2026-12-21',
          _links: { self: link(perOrder, 'GET', 'DELETE'), status: link(`${perOrder}/status`, 'GET') },
        },
      ],
    },
  },
};

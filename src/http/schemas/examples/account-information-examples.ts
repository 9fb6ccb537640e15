import { type OperationExamples, link } from './operation-example.js';
import {
  BANK_BIC,
  EMPLOYER,
  HOUSING_COOPERATIVE,
  IDS,
  OLA,
  OLA_CURRENT,
  OLA_SAVINGS,
  POWER_BILL_KID,
  POWER_COMPANY,
  SCA_PAGE,
  SCA_TOKENS,
} from './example-values.js';

/**
 * Account information: the consent the PSU gives on the bank's page, and Ola Nordmann's accounts read
 * in it, with the transactions the sandbox examples post to his current account and his bill payment
 * waiting for the batch run.
 */

const ACCOUNT = `/v1/accounts/${IDS.account}`;
const TRANSACTIONS_QUERY = 'bookingStatus=both&dateFrom=2026-11-01';

function accountDetails(id: string, account: typeof OLA_CURRENT, names: Record<string, string>) {
  const self = `/v1/accounts/${id}`;
  return {
    resourceId: id,
    iban: account.iban,
    bban: account.bban,
    currency: account.currency,
    ...names,
    status: 'enabled',
    bic: BANK_BIC,
    usage: 'PRIV',
    ownerName: OLA.name,
    _links: {
      self: link(self, 'GET'),
      balances: link(`${self}/balances`, 'GET'),
      transactions: link(`${self}/transactions?bookingStatus=both`, 'GET'),
    },
  };
}

const current = accountDetails(IDS.account, OLA_CURRENT, {
  name: 'Brukskonto',
  product: 'Brukskonto',
  cashAccountType: 'Current',
});
const savings = accountDetails(IDS.savingsAccount, OLA_SAVINGS, {
  name: 'Sparekonto',
  product: 'Høyrentekonto',
  cashAccountType: 'Savings',
});

const own = { iban: OLA_CURRENT.iban, bban: OLA_CURRENT.bban };
const amount = (value: string) => ({ amount: value, currency: 'NOK' });

/** The salary the sandbox example posts; the read of its details shows it alone. */
const salary = {
  transactionId: IDS.transaction,
  bookingDate: '2026-11-25',
  valueDate: '2026-11-25',
  transactionAmount: amount('38250.00'),
  creditorName: OLA.name,
  creditorAccount: own,
  debtorName: EMPLOYER.name,
  debtorAccount: { iban: EMPLOYER.iban, bban: EMPLOYER.bban },
  remittanceInformationUnstructured: 'Lønn november',
  remittanceInformationUnstructuredArray: ['Lønn november'],
  purposeCode: 'SALA',
  bankTransactionCode: 'PMNT-RCDT-SALA',
  proprietaryBankTransactionCode: 'R_601',
  _links: { transactionDetails: link(`${ACCOUNT}/transactions/${IDS.transaction}`, 'GET') },
};

const rent = {
  transactionId: IDS.otherTransaction,
  bookingDate: '2026-11-20',
  valueDate: '2026-11-20',
  transactionAmount: amount('-8500.00'),
  creditorName: HOUSING_COOPERATIVE.name,
  creditorAccount: { iban: HOUSING_COOPERATIVE.iban, bban: HOUSING_COOPERATIVE.bban },
  debtorName: OLA.name,
  debtorAccount: own,
  remittanceInformationUnstructured: 'Husleie november',
  remittanceInformationUnstructuredArray: ['Husleie november'],
  purposeCode: 'OTHR',
  bankTransactionCode: 'PMNT-ICDT-DMCT',
  proprietaryBankTransactionCode: 'R_600',
  _links: { transactionDetails: link(`${ACCOUNT}/transactions/${IDS.otherTransaction}`, 'GET') },
};

/** The bill payment Ola approved, booked at the next batch run: its KID shown as its message. */
const billPending = {
  bookingDate: '2026-11-26',
  transactionAmount: amount('-1489.00'),
  creditorName: POWER_COMPANY.name,
  creditorAccount: { bban: POWER_COMPANY.bban },
  debtorName: OLA.name,
  debtorAccount: own,
  remittanceInformationUnstructured: POWER_BILL_KID,
  remittanceInformationUnstructuredArray: [POWER_BILL_KID],
  bankTransactionCode: 'PMNT-ICDT-DMCT',
  proprietaryBankTransactionCode: 'R_600',
};

const balances = [
  { balanceType: 'interimBooked', balanceAmount: amount('25000.00'), referenceDate: '2026-11-26' },
  { balanceType: 'expected', balanceAmount: amount('23511.00'), referenceDate: '2026-11-26' },
  {
    balanceType: 'interimAvailable',
    balanceAmount: amount('23511.00'),
    creditLimitIncluded: true,
    referenceDate: '2026-11-26',
  },
];

export const accountInformationExamples: OperationExamples = {
  createConsent: {
    summary: 'The link the PSU follows to choose on the bank’s page which accounts the TPP may read',
    answer: { status: 201, body: { _links: { scaRedirect: link(`${SCA_PAGE}/${SCA_TOKENS.consent}`, 'GET') } } },
  },
  deleteConsent: {
    summary: 'The TPP ends the consent (terminatedByTpp); reads in it are refused from now on',
    answer: { status: 204 },
  },
  getAccountList: {
    summary: 'The two accounts Ola Nordmann shared: his current account and his savings account',
    answer: { status: 200, body: { accounts: [current, savings] } },
  },
  readAccountDetails: {
    summary: 'Ola Nordmann’s current account',
    answer: { status: 200, body: { account: current } },
  },
  getBalances: {
    summary: 'Booked, expected (less the payments waiting for the batch run) and available',
    answer: {
      status: 200,
      body: {
        account: { ...own, currency: 'NOK' },
        balances,
        _links: { self: link(`${ACCOUNT}/balances`, 'GET') },
      },
    },
  },
  getTransactionList: {
    summary: 'November on the current account: salary and rent booked, the bill payment pending',
    answer: {
      status: 200,
      body: {
        account: { ...own, currency: 'NOK' },
        transactions: {
          booked: [rent, salary],
          pending: [billPending],
          _links: {
            self: link(`${ACCOUNT}/transactions?${TRANSACTIONS_QUERY}`, 'GET'),
            account: link(ACCOUNT, 'GET'),
          },
        },
      },
    },
  },
  getTransactionDetails: {
    summary: 'The salary of November',
    answer: { status: 200, body: { transactionsDetails: salary } },
  },
};

import { DEFAULT_AGREEMENTS } from '../../../sandbox/default-data-set.js';
import { type OperationExamples, link } from './operation-example.js';
import { IDS, INGRID, KARI, NORDLYS, NORDLYS_OPERATING, OLA } from './example-values.js';

/**
 * Test customers and agreements: a new private customer, Ingrid Berg, who keeps the books of
 * Nordlys Handel AS (of the default data set) and gets to see its operating account.
 */

const CUSTOMERS = '/v1/sandbox/customers';
const AGREEMENT = `/v1/sandbox/agreements/${IDS.agreement}`;

const customerLinks = (id: string) => ({ self: link(`${CUSTOMERS}/${id}`, 'GET', 'DELETE') });

/** A default agreement as a customer engaged on it sees it: its id, name and the ids of its accounts. */
function defaultAgreement(id: string, accountIds: string[]) {
  const agreement = DEFAULT_AGREEMENTS.find((a) => a.id === id);
  if (agreement === undefined) throw new Error(`the default data set has no agreement ${id}`);
  return { id, name: agreement.name, engagements: accountIds };
}

const kari = {
  customerId: IDS.customerKari,
  customerNumber: KARI.customerNumber,
  customerType: 'PRIVATE',
  customerName: KARI.name,
  agreements: [defaultAgreement('AGR-20079518612', [IDS.fjordOperating, IDS.fjordEuro])],
  accounts: [IDS.kariAccount, IDS.kariEuroAccount],
  cardAccounts: [],
  _links: customerLinks(IDS.customerKari),
};

const ola = {
  customerId: IDS.customerOla,
  customerNumber: OLA.customerNumber,
  customerType: 'PRIVATE',
  customerName: OLA.name,
  agreements: [defaultAgreement('AGR-18129215603', [IDS.nordlysOperating, IDS.nordlysTax])],
  accounts: [IDS.account, IDS.savingsAccount],
  cardAccounts: [IDS.cardAccount],
  _links: customerLinks(IDS.customerOla),
};

const bookkeeping = {
  owner: NORDLYS.customerNumber,
  name: 'Nordlys Handel AS regnskap',
  engagements: [{ customer: INGRID.customerNumber, account: { bban: NORDLYS_OPERATING.bban }, roles: ['VIEW'] }],
};

const agreement = {
  id: IDS.agreement,
  ...bookkeeping,
  engagements: [
    {
      customer: INGRID.customerNumber,
      account: { iban: NORDLYS_OPERATING.iban, bban: NORDLYS_OPERATING.bban },
      roles: ['VIEW'],
    },
  ],
  _links: { self: link(AGREEMENT, 'GET', 'DELETE') },
};

const ingrid = {
  customerId: IDS.customer,
  customerNumber: INGRID.customerNumber,
  customerType: 'PRIVATE',
  customerName: INGRID.name,
  agreements: [],
  accounts: [],
  cardAccounts: [],
  _links: customerLinks(IDS.customer),
};

export const sandboxCustomerExamples: OperationExamples = {
  updateSandboxCustomer: {
    summary: 'Ingrid Berg may pay at most NOK 20 000 a payment: a larger one is rejected AM02 when it executes',
    request: { paymentLimit: '20000.00' },
    answer: { status: 200, body: { ...ingrid, paymentLimit: '20000.00' } },
  },
  createSandboxCustomer: {
    summary: 'A new private customer, Ingrid Berg: she logs in on the SCA page with her national identity number',
    request: { customerNumber: INGRID.customerNumber, name: INGRID.name, type: 'private' },
    answer: { status: 201, body: ingrid },
  },
  getSandboxCustomerList: {
    summary: 'The customers two at a time (?limit=2), by customer number',
    answer: { status: 200, body: [kari, ola] },
  },
  getSandboxCustomer: {
    summary: 'Ola Nordmann: his accounts, his credit card, and the agreement of Nordlys Handel AS he acts on',
    answer: { status: 200, body: ola },
  },
  deleteSandboxCustomer: {
    summary: 'The customer is deleted with their accounts, card accounts, agreements and transactions',
    answer: { status: 204 },
  },
  createSandboxAgreement: {
    summary: 'Nordlys Handel AS lets Ingrid Berg see its operating account',
    request: bookkeeping,
    answer: { status: 201, body: agreement },
  },
  getSandboxAgreement: {
    summary: 'The agreement and its engagement',
    answer: { status: 200, body: agreement },
  },
  deleteSandboxAgreement: {
    summary: 'The agreement is deleted; the accounts stay',
    answer: { status: 204 },
  },
};

import { composeIBAN } from 'ibantools';
import {
  type Account,
  type Agreement,
  type Customer,
  type Engagement,
  type EngagementRole,
  newBankId,
} from '../domain/bank.js';
import { addDays, osloDate } from '../domain/clock.js';
import { DOMESTIC } from '../domain/payment-product.js';
import { newPaymentId } from '../domain/payments/payment.js';
import { scheduleOf, validatePeriodicPayment } from '../domain/payments/periodic-payment.js';
import { executionsUntil, nextExecution } from '../domain/periodic/schedule.js';
import { ReferenceRates } from '../domain/reference-rates.js';
import type { RunningStandingOrder } from '../store/periodic-records.js';
import type { BankData } from '../store/sca-records.js';

/**
 * The sandbox's default data set, as on the platform: private customers 13039319955 and 12085592767
 * with two accounts each, and corporate customers 18129215603 and 20079518612, each with an
 * agreement on which a private customer acts; and private customer 15077934577 with a standing
 * order running (DEFAULT_STANDING_ORDER). Loaded on the first start of an empty database and by
 * POST /v1/sandbox/initialize. docs/sandbox.md lists it.
 */
export const DEFAULT_CUSTOMERS = {
  ola: { customerNumber: '13039319955', name: 'Ola Nordmann', type: 'PRIVATE' },
  kari: { customerNumber: '12085592767', name: 'Kari Nordmann', type: 'PRIVATE' },
  nordlys: { customerNumber: '18129215603', name: 'Nordlys Handel AS', type: 'CORPORATE' },
  fjord: { customerNumber: '20079518612', name: 'Fjord Eiendom AS', type: 'CORPORATE' },
  per: { customerNumber: '15077934577', name: 'Per Hansen', type: 'PRIVATE' },
} as const;

type Owner = keyof typeof DEFAULT_CUSTOMERS;

export const DEFAULT_ACCOUNTS: readonly {
  owner: Owner;
  bban: string;
  currency: string;
  name: string;
  product: string;
  cashAccountType: string;
  balance: bigint;
  creditLine: bigint;
}[] = [
  {
    owner: 'ola',
    bban: '15061012343',
    currency: 'NOK',
    name: 'Brukskonto',
    product: 'Brukskonto',
    cashAccountType: 'CACC',
    balance: 2_500_000n,
    creditLine: 0n,
  },
  {
    owner: 'ola',
    bban: '15061012351',
    currency: 'NOK',
    name: 'Sparekonto',
    product: 'Høyrentekonto',
    cashAccountType: 'SVGS',
    balance: 15_000_000n,
    creditLine: 0n,
  },
  {
    owner: 'kari',
    bban: '15061012378',
    currency: 'NOK',
    name: 'Brukskonto',
    product: 'Brukskonto',
    cashAccountType: 'CACC',
    balance: 1_200_000n,
    creditLine: 500_000n,
  },
  {
    owner: 'kari',
    bban: '15061012386',
    currency: 'EUR',
    name: 'Valutakonto EUR',
    product: 'Valutakonto',
    cashAccountType: 'CACC',
    balance: 500_000n,
    creditLine: 0n,
  },
  {
    owner: 'nordlys',
    bban: '15062056786',
    currency: 'NOK',
    name: 'Driftskonto',
    product: 'Bedriftskonto',
    cashAccountType: 'CACC',
    balance: 250_000_000n,
    creditLine: 50_000_000n,
  },
  {
    owner: 'nordlys',
    bban: '15062056794',
    currency: 'NOK',
    name: 'Skattetrekkskonto',
    product: 'Skattetrekkskonto',
    cashAccountType: 'TAXE',
    balance: 8_000_000n,
    creditLine: 0n,
  },
  {
    owner: 'fjord',
    bban: '15062056808',
    currency: 'NOK',
    name: 'Driftskonto',
    product: 'Bedriftskonto',
    cashAccountType: 'CACC',
    balance: 75_000_000n,
    creditLine: 0n,
  },
  {
    owner: 'fjord',
    bban: '15062056816',
    currency: 'EUR',
    name: 'Valutakonto EUR',
    product: 'Valutakonto',
    cashAccountType: 'CACC',
    balance: 10_000_000n,
    creditLine: 0n,
  },
  {
    owner: 'per',
    bban: '15062073540',
    currency: 'NOK',
    name: 'Brukskonto',
    product: 'Brukskonto',
    cashAccountType: 'CACC',
    balance: 4_200_000n,
    creditLine: 0n,
  },
];

/**
 * The registration numbers (a Norwegian account number's first four digits) of the sandbox bank: those
 * of the default data set's accounts. A payment to an account number there that is no account of the
 * bank is to an account that does not exist, and is rejected when it executes (AC01); accounts a TPP
 * creates under other numbers stand for accounts anywhere, and payments to other numbers leave the bank.
 */
export const SANDBOX_REGISTRATION_NUMBERS: ReadonlySet<string> = new Set(
  DEFAULT_ACCOUNTS.map((a) => a.bban.slice(0, 4)),
);

/**
 * Per Hansen's rent: a standing order of NOK 9 500 on the 20th of every month, following bank days,
 * to an account in another bank, authorised and running since the start of the month three months
 * before the bank was made, its executions up to yesterday booked on his account (whose balance is
 * the one after them). docs/sandbox.md.
 */
export const DEFAULT_STANDING_ORDER = {
  debtorBban: '15062073540',
  body: {
    instructedAmount: { amount: '9500.00', currency: 'NOK' },
    creditorName: 'Fjellet Borettslag',
    creditorAccount: { bban: '30001234575', currency: 'NOK' },
    debtorAccount: { bban: '15062073540', currency: 'NOK' },
    remittanceInformationUnstructured: 'Husleie',
    frequency: 'Monthly',
    dayOfExecution: '20',
    executionRule: 'following',
  },
  monthsRunning: 3,
} as const;

/** Agreement ids are readable, so a TPP developer can send them as PSU-Corporate-ID. */
export const DEFAULT_AGREEMENTS: readonly {
  id: string;
  owner: Owner;
  name: string;
  engagements: { person: Owner; bban: string; roles: EngagementRole[] }[];
}[] = [
  {
    id: 'AGR-18129215603',
    owner: 'nordlys',
    name: 'Nordlys Handel AS nettbank',
    engagements: [
      { person: 'ola', bban: '15062056786', roles: ['VIEW', 'REGISTER'] },
      { person: 'ola', bban: '15062056794', roles: ['VIEW'] },
    ],
  },
  {
    id: 'AGR-20079518612',
    owner: 'fjord',
    name: 'Fjord Eiendom AS nettbank',
    engagements: [
      { person: 'kari', bban: '15062056808', roles: ['VIEW', 'REGISTER'] },
      { person: 'kari', bban: '15062056816', roles: ['VIEW', 'REGISTER'] },
    ],
  },
];

export function defaultDataSet(now: Date): BankData {
  const customerIds = new Map<Owner, string>();
  const customers: (Customer & { createdAt: Date })[] = Object.entries(DEFAULT_CUSTOMERS).map(([key, c]) => {
    const id = newBankId();
    customerIds.set(key as Owner, id);
    return { id, customerNumber: c.customerNumber, name: c.name, type: c.type, createdAt: now };
  });
  const accountIds = new Map<string, string>();
  const accounts: (Account & { createdAt: Date })[] = DEFAULT_ACCOUNTS.map((a) => {
    const id = newBankId();
    accountIds.set(a.bban, id);
    return {
      id,
      customerId: customerIds.get(a.owner)!,
      bban: a.bban,
      iban: composeIBAN({ countryCode: 'NO', bban: a.bban })!,
      currency: a.currency,
      name: a.name,
      product: a.product,
      cashAccountType: a.cashAccountType,
      creditLineMinor: a.creditLine,
      balanceMinor: a.balance,
      status: 'enabled',
      createdAt: now,
    };
  });
  const agreements: (Agreement & { createdAt: Date })[] = DEFAULT_AGREEMENTS.map((a) => ({
    id: a.id,
    ownerCustomerId: customerIds.get(a.owner)!,
    name: a.name,
    createdAt: now,
  }));
  const engagements: Engagement[] = DEFAULT_AGREEMENTS.flatMap((a) =>
    a.engagements.map((e) => ({
      agreementId: a.id,
      customerId: customerIds.get(e.person)!,
      accountId: accountIds.get(e.bban)!,
      roles: e.roles,
    })),
  );
  return { customers, accounts, agreements, engagements, standingOrders: [standingOrder(now, accountIds)] };
}

/** The default standing order, running since the start of the month DEFAULT_STANDING_ORDER.monthsRunning months before `now`. */
function standingOrder(now: Date, accountIds: Map<string, string>): RunningStandingOrder {
  const today = osloDate(now);
  const start = new Date(
    Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 1 - DEFAULT_STANDING_ORDER.monthsRunning, 1),
  );
  const body = { ...DEFAULT_STANDING_ORDER.body, startDate: start.toISOString().slice(0, 10) };
  const schedule = scheduleOf(body);
  const executed = executionsUntil(schedule, addDays(today, -1));
  const validated = validatePeriodicPayment(body, { today: body.startDate, rates: new ReferenceRates({}) }).payment!;
  const next = nextExecution(schedule, executed.at(-1)?.seq);
  const authorisedAt = new Date(`${body.startDate}T09:00:00Z`);
  return {
    payment: {
      ...validated,
      requestedExecutionDate: next?.date,
      id: newPaymentId(),
      tppId: '',
      service: 'periodic-payments',
      product: DOMESTIC,
      status: next === undefined ? 'ACSC' : 'ACTC',
      psu: { psuId: undefined, nationalIdHash: undefined, corporateId: undefined, context: 'PRIVATE', key: '' },
      body,
      acceptFixes: [],
      tppRedirectUri: '',
      tppSessionId: '',
      createdAt: authorisedAt,
    },
    debtorAccountId: accountIds.get(DEFAULT_STANDING_ORDER.debtorBban)!,
    authorisedAt,
    executed,
  };
}

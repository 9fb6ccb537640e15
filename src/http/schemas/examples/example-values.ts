import { composeIBAN } from 'ibantools';
import { DEFAULT_ACCOUNTS, DEFAULT_CUSTOMERS } from '../../../sandbox/default-data-set.js';

/**
 * The values the examples share: one day, the sandbox's default customers and accounts (so that an
 * example request sent to a new sandbox bank, as "Try it out" sends it, names accounts that exist),
 * accounts of other banks, and ids in the form the server gives them.
 */

/** Thursday 26 November 2026, 11:00 in Oslo: the day every example is set on. */
export const EXAMPLE_NOW = '2026-11-26T10:00:00.000Z';
export const EXAMPLE_TODAY = '2026-11-26';

export interface ExampleAccount {
  bban: string;
  iban: string;
  currency: string;
}

/** An account of the default data set, by its owner and name; a wrong name fails at load. */
function defaultAccount(owner: keyof typeof DEFAULT_CUSTOMERS, name: string): ExampleAccount {
  const account = DEFAULT_ACCOUNTS.find((a) => a.owner === owner && a.name === name);
  if (account === undefined) throw new Error(`the default data set has no account ${name} of ${owner}`);
  return {
    bban: account.bban,
    iban: composeIBAN({ countryCode: 'NO', bban: account.bban })!,
    currency: account.currency,
  };
}

/** The PSU of the payment and account examples. */
export const OLA = DEFAULT_CUSTOMERS.ola;
export const KARI = DEFAULT_CUSTOMERS.kari;
export const NORDLYS = DEFAULT_CUSTOMERS.nordlys;
export const OLA_CURRENT = defaultAccount('ola', 'Brukskonto');
export const OLA_SAVINGS = defaultAccount('ola', 'Sparekonto');
export const KARI_CURRENT = defaultAccount('kari', 'Brukskonto');
export const NORDLYS_OPERATING = defaultAccount('nordlys', 'Driftskonto');

/** A new private customer the sandbox examples make, and her new account in this bank. */
export const INGRID = { customerNumber: '01078900497', name: 'Ingrid Berg' } as const;
export const INGRID_ACCOUNT = { bban: '15061012408', iban: 'NO9315061012408', currency: 'NOK' } as const;

/** Ola Nordmann's credit card: the sandbox examples make it, account information reads it. */
export const OLA_CARD = { maskedPan: '525412******3241', name: 'Gullkort', product: 'Mastercard Gold' } as const;

/** Accounts in other Norwegian banks (valid MOD11 account numbers), the creditors of bills and rent. */
export const POWER_COMPANY = { name: 'Fjellkraft Energi AS', bban: '90491105991', iban: 'NO6290491105991' };
export const HOUSING_COOPERATIVE = { name: 'Fjellet Borettslag', bban: '30001234575', iban: 'NO6130001234575' };
export const EMPLOYER = { name: 'Vestlandsbygg AS', bban: '32081234565', iban: 'NO2432081234565' };
export const MUNICIPALITY = { name: 'Fjellby kommune', bban: '63451234562', iban: 'NO9563451234562' };
/** KIDs (MOD10) on the power company's bill and on the municipality's property tax bill. */
export const POWER_BILL_KID = '202611047723';
export const PROPERTY_TAX_KID = '14877390469';

/** The bank's BIC, as its accounts carry it in account information (BANK_BIC's sandbox default). */
export const BANK_BIC = 'SANDNOK0';

/**
 * The address of the bank's SCA pages (PUBLIC_URL/sca): the sandbox's default, where `npm start`
 * listens. Each scaRedirect ends with a new single-use token.
 */
export const SCA_PAGE = 'http://127.0.0.1:8080/sca';

/** Ids as the server makes them: payments and baskets time-ordered in enc!! form, authorisations time-ordered. */
export const IDS = {
  domesticPayment: 'enc!!-P7MI2J-W7yBWMzC8wQtvOJS',
  straksPayment: 'enc!!-P7MI2j2u5sQ7fdwUeyPH9bH',
  sepaPayment: 'enc!!-P7MI395C2n9frpwAj6P92nc',
  crossBorderPayment: 'enc!!-P7MI3_8Zq5GRDLFhoEuXgum',
  norwegianCrossBorderPayment: 'enc!!-P7MI4-BKYZWS4wIXaAzD5JW',
  bulkPayment: 'enc!!-P7MI4QEgVxyO2J4NZygJp_8',
  periodicPayment: 'enc!!-P7MI4qHuK-mOS3OsmTDyI59',
  basket: 'enc!!-P7MI5GKK3adq97bBQ1Mivd5',
  authorisation: '-P7MI5gN--RCTee5JZhUDGLW',
  earlierAuthorisation: '-P7MI2J9Qd3xk0LwTzR1cYvE',
  cancellationAuthorisation: '-P7MI66QAjiz7nVnsEAP3Trb',
  /** Sandbox resources and the accounts of account information: 144 random bits in enc!! form. */
  customer: 'enc!!jmVPRnc0puuhdrh4ILJ_xQoQ',
  /** Ola Nordmann's current account, and his savings account. */
  account: 'enc!!ZCSnW2ZEyelyjYhsLlsCZHcv',
  savingsAccount: 'enc!!p1u2YLRLY0TfTd-ZCB1OhDjM',
  /** The account a sandbox example makes for a new customer. */
  newAccount: 'enc!!XKM4_lsqyXOG0oyrZRsMx6Rf',
  /** Per Hansen's standing order (the default data set's). */
  perStandingOrder: 'enc!!-OywYIe-nwNKPVxGzkg3EYej',
  /** The other accounts of the default data set. */
  kariAccount: 'enc!!r_A6Og_6MAsrV8u71YyruDf5',
  kariEuroAccount: 'enc!!G6vu2dPf1GuoNkUGA5qV0zSH',
  nordlysOperating: 'enc!!30j3A7XOaAD1xXhnfwmjFnec',
  nordlysTax: 'enc!!BlTvp6no1sDgOfA3Bvfb8TFV',
  fjordOperating: 'enc!!Thwa9qV_xQ6hjcFYPteMhZD_',
  fjordEuro: 'enc!!M-5iMoytz4HIOncPwv3n68ph',
  customerOla: 'enc!!w8r3hedMUb1wISzadWETsi7M',
  customerKari: 'enc!!l9p42L3fhSkOiqKDCJpou23F',
  cardAccount: 'enc!!cfMTxBL-jXrx0WmdvJfPtqcJ',
  agreement: 'enc!!1P0qfgHcJM96izPsBJKtycKy',
  transaction: 'enc!!MQuzq-rhia9tQq_kBaFtCnbv',
  otherTransaction: 'enc!!dHCuSFcg7MpqfdyvvBz2jWFM',
  cardTransaction: 'enc!!8nzui6WY0muGQkDkRIMV27wt',
  otherCardTransaction: 'enc!!LtNh6jVXASZd47ymtjUcsnx6',
} as const;

/** SCA page tokens: one per scaRedirect. */
export const SCA_TOKENS = {
  payment: '_UIyrLJfqLEGkIEFcnHotc8utjKxaX4G',
  authorisation: 'KdLuWQ1hq69EARaGOzT1CBk5V65eQHWT',
  cancellation: 'fG9KcLVFuKwpV0SpReymv8frAp7Uqrrf',
  consent: 'R0LSFATHSVuyTDbwhjpeKyrYZRpcqrRH',
  challenge: 'CFk86xk-BzsFzFB1AC7hHCQVfwRsI-2S',
} as const;

import { randomBase64url } from './random-text.js';

/** The bank's side of a PSU: customers, their accounts, and corporate agreements. */
export type CustomerType = 'PRIVATE' | 'CORPORATE';

/**
 * The sandbox bank's BIC, the default of BANK_BIC: a test BIC (ISO 9362 gives a location code whose
 * second character is 0 to test addresses), so it can be no real bank's.
 */
export const SANDBOX_BANK_BIC = 'SANDNOK0';

export interface Customer {
  id: string;
  /** National identity number (private) or organisation number (corporate): the identifier at SCA. */
  customerNumber: string;
  name: string;
  type: CustomerType;
}

/**
 * An id of something the bank keeps (a customer, an account, an agreement, a transaction, a consent):
 * opaque and unguessable (144 random bits), in the platform's enc!! form.
 */
export function newBankId(): string {
  return `enc!!${randomBase64url(18)}`;
}

/**
 * Berlin Group's accountStatus: an account is enabled, blocked (it exists; nothing is paid from or to
 * it) or deleted (closed). The sandbox's test data sets it (docs/scenarios.md); a bank's core system
 * would in production.
 */
export const ACCOUNT_STATUSES = ['enabled', 'blocked', 'deleted'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

export function isAccountStatus(value: unknown): value is AccountStatus {
  return typeof value === 'string' && (ACCOUNT_STATUSES as readonly string[]).includes(value);
}

export interface Account {
  id: string;
  customerId: string;
  bban: string;
  iban: string;
  currency: string;
  name: string;
  product: string;
  cashAccountType: string;
  creditLineMinor: bigint;
  balanceMinor: bigint;
  status: AccountStatus;
}

/** A corporate agreement: the company that owns it, and the people engaged on its accounts. */
export interface Agreement {
  id: string;
  ownerCustomerId: string;
  name: string;
}

/**
 * Roles of a person on an account of an agreement (the platform's mock-data names): VIEW reads it,
 * REGISTER registers and signs payments from it.
 */
export const ENGAGEMENT_ROLES = ['VIEW', 'REGISTER'] as const;
export type EngagementRole = (typeof ENGAGEMENT_ROLES)[number];

export interface Engagement {
  agreementId: string;
  customerId: string;
  accountId: string;
  roles: EngagementRole[];
}

/**
 * Whether the signing PSU may pay from the account: an account of their own (private context), or
 * an account of the corporate agreement they act for, on which they have the role REGISTER.
 * Returns the reason when not, for the PSU to read.
 */
export function payFromProblem(
  signer: Pick<Customer, 'id'>,
  account: Account | undefined,
  corporate: { agreement: Agreement | undefined; engagement: Engagement | undefined } | undefined,
): string | undefined {
  if (account === undefined) return 'the debtor account is not an account in this bank';
  if (corporate === undefined) {
    return account.customerId === signer.id ? undefined : `account ${account.bban} does not belong to you`;
  }
  if (corporate.agreement === undefined) return 'the corporate agreement named by the TPP does not exist';
  if (corporate.engagement === undefined)
    return `account ${account.bban} is not an account of agreement ${corporate.agreement.name} that you act for`;
  if (!corporate.engagement.roles.includes('REGISTER'))
    return `you may view account ${account.bban} in agreement ${corporate.agreement.name}, but not pay from it`;
  return undefined;
}

/** A new sandbox bank cannot be made: the server keeps `limit` already (limits.ts, MAX_SANDBOX_BANKS). */
export class BankLimitReached extends Error {
  constructor(readonly limit: number) {
    super(`the sandbox keeps ${limit} banks, the most it keeps`);
  }
}

/**
 * Who asks for a sandbox bank: the key its request was signed with (SHA-256 of the certificate's
 * SubjectPublicKeyInfo, hex), whether a CA the operator trusts issued the certificate (absent: the
 * sandbox's self-service CA), and the client address it came from (an IPv6 address's /64), with the
 * limit of new banks per address when one applies (docs/decisions/0270 and docs/decisions/0271).
 */
export interface BankOwner {
  keySha256: string;
  address: string;
  /** A trusted CA's certificate: it opens its bank whatever its key, binds none, and marks the bank as trusted. */
  trusted?: boolean;
  perAddress?: { limit: number; since: Date };
}

/**
 * What a signed request found at its TPP's bank: made now for its key (or its trusted certificate),
 * its key bound already, a bank of no key and no trusted use (made before keys were bound) now bound
 * to it, admitted by its trusted certificate; refused: a bank bound to other keys only ('foreign'),
 * or one a trusted certificate made or used that the self-service certificate's key is not bound to
 * ('foreign-trusted'); or a bank being removed after it was left unused.
 */
export type BankEntry = 'opened' | 'bound' | 'claimed' | 'trusted' | 'foreign' | 'foreign-trusted' | 'removing';

/** One address has made `limit` new sandbox banks within the last day already (limits.ts, MAX_NEW_SANDBOX_BANKS_PER_ADDRESS_PER_DAY). */
export class AddressBankLimitReached extends Error {
  constructor(readonly limit: number) {
    super(`this address has made ${limit} sandbox banks within a day, the most one address makes`);
  }
}

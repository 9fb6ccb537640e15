import { BOOKING_STATUSES } from '../../domain/booking-status.js';
import {
  AIS_TRANSACTIONS_PAGE_DEFAULT,
  AIS_TRANSACTIONS_PAGE_MAX,
  FORMATTED_TEXT_MAX_LENGTH,
} from '../../domain/limits.js';
import { CURSOR_PATTERN } from '../../domain/transaction-cursor.js';

/**
 * Account information in the Berlin Group NextGenPSD2 shapes (docs/ais.md). These schemas validate
 * nothing the TPP sends (reads have no body): they serialise the answers and document them. Every
 * field an answer can carry is listed, since the serialiser drops the others.
 */
const text = { type: 'string' } as const;
const date = { type: 'string', format: 'date' } as const;
const links = { $ref: 'Links#' } as const;
/** `_links` that always hold the links named (a schema of its own, as `required` beside a $ref is not read). */
const linksWith = (names: readonly string[], description: string) =>
  ({
    type: 'object',
    required: names,
    // Named as properties too, so that tools reading the document know what `required` speaks of.
    properties: Object.fromEntries(names.map((name) => [name, { $ref: 'Link#' }])),
    additionalProperties: { $ref: 'Link#' },
    description,
  }) as const;
const accountLinks = linksWith(
  ['self', 'balances', 'transactions'],
  'self, as the platform gives it, beside balances and transactions (?bookingStatus=both, as the platform links it)',
);
const selfLink = linksWith(['self'], 'self: the address of this answer');
const tppMessages = {
  type: 'array',
  items: { $ref: 'TppMessage#' },
  description: 'WARNINGs: an x-accept-fix name the bank does not know',
} as const;

export const aisAmountSchema = {
  $id: 'AisAmount',
  type: 'object',
  required: ['amount', 'currency'],
  properties: {
    amount: {
      type: 'string',
      description: "Decimal string with the currency's minor units; a debit is negative",
      example: '-120000.00',
    },
    currency: { type: 'string' },
  },
} as const;

const amount = { $ref: 'AisAmount#' } as const;

export const accountReferenceSchema = {
  $id: 'AisAccountReference',
  type: 'object',
  properties: { iban: text, bban: text, maskedPan: text, currency: text },
} as const;

const reference = { $ref: 'AisAccountReference#' } as const;

export const balanceSchema = {
  $id: 'Balance',
  type: 'object',
  required: ['balanceType', 'balanceAmount'],
  properties: {
    balanceType: {
      type: 'string',
      description:
        "interimBooked (what the account holds), expected (less the payments authorised and not yet executed), interimAvailable (expected plus the credit line); a card account's as given at its creation",
    },
    balanceAmount: amount,
    creditLimitIncluded: { type: 'boolean' },
    referenceDate: date,
    lastChangeDateTime: text,
    lastCommittedTransaction: text,
  },
} as const;

const balances = { type: 'array', items: { $ref: 'Balance#' } } as const;

export const accountDetailsSchema = {
  $id: 'AccountDetails',
  type: 'object',
  required: ['resourceId', 'currency', 'bic', '_links'],
  properties: {
    resourceId: { type: 'string', description: "The account's id in the paths of /v1/accounts" },
    iban: text,
    bban: text,
    currency: text,
    name: { type: 'string', description: '35 characters; 70 with x-accept-fix longer-name' },
    product: text,
    cashAccountType: {
      type: 'string',
      description:
        "The platform's name (Current, Savings, ...); the ISO 20022 code (CACC, SVGS, ...) with x-accept-fix cash-account-type-iso",
    },
    status: { type: 'string', enum: ['enabled', 'deleted', 'blocked'] },
    bic: { type: 'string', description: "The bank's BIC (BANK_BIC), as the platform's accounts carry it" },
    usage: { type: 'string', enum: ['PRIV', 'ORGA'] },
    ownerName: text,
    balances,
    _links: accountLinks,
  },
} as const;

export const cardAccountDetailsSchema = {
  $id: 'CardAccountDetails',
  type: 'object',
  required: ['resourceId', 'maskedPan', 'currency', '_links'],
  properties: {
    resourceId: text,
    maskedPan: text,
    currency: text,
    name: { type: 'string', description: '35 characters; 70 with x-accept-fix longer-name' },
    product: text,
    status: { type: 'string', enum: ['enabled', 'deleted', 'blocked'] },
    usage: { type: 'string', enum: ['PRIV', 'ORGA'] },
    ownerName: text,
    creditLimit: amount,
    balances,
    _links: accountLinks,
  },
} as const;

const accountNumbers = { type: 'object', properties: { iban: text, bban: text } } as const;

export const transactionSchema = {
  $id: 'AisTransaction',
  type: 'object',
  required: ['transactionAmount', 'proprietaryBankTransactionCode'],
  properties: {
    transactionId: {
      type: 'string',
      description: "Stable: the same on every read (booked transactions; a batch entry has its first entry's)",
    },
    batchIndicator: {
      type: 'boolean',
      description: 'x-accept-fix batch-transactions: the entry stands for the entries of one bulk payment',
    },
    batchNumberOfTransactions: { type: 'integer' },
    endToEndId: {
      type: 'string',
      description:
        "The payment's endToEndIdentification (release 1.21.18: NDCT, Straks, SEPA and standing orders), booked and pending",
    },
    bookingDate: { ...date, description: 'A pending entry has the date it is to be booked on, and no valueDate' },
    valueDate: date,
    transactionAmount: amount,
    creditorName: text,
    creditorAccount: accountNumbers,
    ultimateCreditor: text,
    debtorName: text,
    debtorAccount: accountNumbers,
    ultimateDebtor: text,
    remittanceInformationUnstructured: text,
    remittanceInformationUnstructuredArray: {
      type: 'array',
      items: text,
      description: 'The payment message as a list of one, as the platform gives it beside the text',
    },
    purposeCode: text,
    bankTransactionCode: {
      type: 'string',
      description:
        'As stored; only an ISO 20022 Domain-Family-SubFamily code with x-accept-fix bank-transaction-code-iso',
    },
    proprietaryBankTransactionCode: {
      type: 'string',
      description:
        "The platform's own code of the transaction's kind (R_710 a card purchase; docs/ais.md, Transaction codes)",
      example: 'R_710',
    },
    _links: links,
  },
} as const;

const transactions = { type: 'array', items: { $ref: 'AisTransaction#' } } as const;

export const cardTransactionSchema = {
  $id: 'CardTransaction',
  type: 'object',
  required: ['transactionAmount', 'proprietaryBankTransactionCode'],
  properties: {
    cardTransactionId: text,
    terminalId: text,
    transactionDate: date,
    bookingDate: date,
    valueDate: date,
    transactionAmount: {
      ...amount,
      description:
        "In the card account's currency (cardaccount-switch-originalamount-and-transactionamount, default since 2021-03-31)",
    },
    originalAmount: amount,
    markupFee: amount,
    markupFeePercentage: text,
    cardAcceptorId: text,
    cardAcceptorAddress: {
      type: 'object',
      properties: { street: text, buildingNumber: text, postalCode: text, city: text, country: text },
    },
    merchantCategoryCode: text,
    maskedPAN: text,
    transactionDetails: text,
    invoiced: { type: 'boolean' },
    proprietaryBankTransactionCode: {
      type: 'string',
      description: 'As posted; R_710 (a card purchase) when posted without one',
    },
  },
} as const;

export const accountListSchema = {
  $id: 'AccountList',
  type: 'object',
  required: ['accounts'],
  properties: { accounts: { type: 'array', items: { $ref: 'AccountDetails#' } }, tppMessages },
} as const;

export const accountDetailsResponseSchema = {
  $id: 'AccountDetailsResponse',
  type: 'object',
  required: ['account'],
  properties: { account: { $ref: 'AccountDetails#' }, tppMessages },
} as const;

export const balancesResponseSchema = {
  $id: 'ReadAccountBalanceResponse',
  type: 'object',
  required: ['account', 'balances', '_links'],
  properties: { account: reference, balances, _links: selfLink, tppMessages },
} as const;

export const transactionsResponseSchema = {
  $id: 'TransactionsResponse',
  type: 'object',
  required: ['account', 'transactions'],
  properties: {
    account: reference,
    transactions: {
      type: 'object',
      required: ['_links'],
      properties: {
        booked: transactions,
        pending: {
          ...transactions,
          description:
            'Payments authorised and not yet executed, as the batch run will book them; on the first page only',
        },
        information: {
          type: 'array',
          items: { type: 'object' },
          description: 'bookingStatus all: standing orders; this bank has none',
        },
        _links: linksWith(['self', 'account'], 'self (this page), account; next while more pages follow'),
      },
    },
    balances,
    tppMessages,
  },
} as const;

export const transactionDetailsResponseSchema = {
  $id: 'TransactionDetailsResponse',
  type: 'object',
  required: ['transactionsDetails'],
  properties: { transactionsDetails: { $ref: 'AisTransaction#' }, tppMessages },
} as const;

export const cardAccountListSchema = {
  $id: 'CardAccountList',
  type: 'object',
  required: ['cardAccounts'],
  properties: { cardAccounts: { type: 'array', items: { $ref: 'CardAccountDetails#' } }, tppMessages },
} as const;

export const cardAccountDetailsResponseSchema = {
  $id: 'CardAccountDetailsResponse',
  type: 'object',
  required: ['cardAccount'],
  properties: { cardAccount: { $ref: 'CardAccountDetails#' }, tppMessages },
} as const;

export const cardBalancesResponseSchema = {
  $id: 'ReadCardAccountBalanceResponse',
  type: 'object',
  required: ['cardAccount', 'balances', '_links'],
  properties: { cardAccount: reference, balances, _links: selfLink, tppMessages },
} as const;

export const cardTransactionsResponseSchema = {
  $id: 'CardAccountsTransactionsResponse',
  type: 'object',
  required: ['cardAccount', 'cardTransactions'],
  properties: {
    cardAccount: reference,
    cardTransactions: {
      type: 'object',
      required: ['_links'],
      properties: {
        booked: { type: 'array', items: { $ref: 'CardTransaction#' } },
        pending: {
          type: 'array',
          items: { $ref: 'CardTransaction#' },
          description: 'Always empty: a card transaction is booked when posted',
        },
        _links: linksWith(['self', 'cardAccount'], 'self (this page), cardAccount; next while more pages follow'),
      },
    },
    balances,
    tppMessages,
  },
} as const;

export const consentCreatedSchema = {
  $id: 'BankOfferedConsentCreated',
  type: 'object',
  required: ['_links'],
  properties: {
    _links: { ...links, description: "scaRedirect: the bank's page where the PSU chooses the accounts to share" },
    tppMessages,
  },
} as const;

export const aisSchemas = [
  aisAmountSchema,
  accountReferenceSchema,
  balanceSchema,
  accountDetailsSchema,
  cardAccountDetailsSchema,
  transactionSchema,
  cardTransactionSchema,
  accountListSchema,
  accountDetailsResponseSchema,
  balancesResponseSchema,
  transactionsResponseSchema,
  transactionDetailsResponseSchema,
  cardAccountListSchema,
  cardAccountDetailsResponseSchema,
  cardBalancesResponseSchema,
  cardTransactionsResponseSchema,
  consentCreatedSchema,
];

const withBalance = { type: 'boolean', description: 'Include the balances (default false)' } as const;

export const accountQuery = { type: 'object', properties: { withBalance } } as const;

export const transactionQuery = {
  type: 'object',
  required: ['bookingStatus', 'dateFrom'],
  properties: {
    bookingStatus: {
      type: 'string',
      enum: [...BOOKING_STATUSES],
      description: 'booked, pending, both, or all (both, and information entries, of which this bank has none)',
    },
    dateFrom: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      format: 'date',
      description:
        'First booking date. Before 90 days ago only with an SCA at most 90 days old; otherwise 401 with an scaRedirect that renews it',
    },
    dateTo: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      format: 'date',
      description: 'Last booking date (default: no end)',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: AIS_TRANSACTIONS_PAGE_MAX,
      description: `Entries per page, 1 to ${AIS_TRANSACTIONS_PAGE_MAX} (default ${AIS_TRANSACTIONS_PAGE_DEFAULT})`,
    },
    cursor: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      pattern: CURSOR_PATTERN,
      'x-rule-text': 'a position from _links.next, such as 2026-11-22.1042',
      description: 'Where the page starts: given in _links.next',
    },
    withBalance,
  },
} as const;

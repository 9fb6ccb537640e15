import { ENGAGEMENT_ROLES } from '../../domain/bank.js';
import {
  ACCOUNT_NAME_LONGER_MAX_LENGTH,
  BANK_TRANSACTION_CODE_MAX_LENGTH,
  BANK_TRANSACTION_CODE_MIN_LENGTH,
  BBAN_MAX_LENGTH,
  BUILDING_NUMBER_MAX_LENGTH,
  CITY_MAX_LENGTH,
  FORMATTED_TEXT_MAX_LENGTH,
  IBAN_MAX_LENGTH,
  INT32_MAX,
  MAX_AGREEMENT_ENGAGEMENTS,
  MAX_SANDBOX_BALANCES,
  NAME_MAX_LENGTH,
  POSTAL_CODE_MAX_LENGTH,
  REMITTANCE_UNSTRUCTURED_MAX_LENGTH,
  SANDBOX_CUSTOMERS_PAGE_MAX,
  SANDBOX_TEXT_MAX_LENGTH,
  SANDBOX_TRANSACTIONS_PAGE_DEFAULT,
  SANDBOX_TRANSACTIONS_PAGE_MAX,
  STREET_MAX_LENGTH,
} from '../../domain/limits.js';
import { CASH_ACCOUNT_TYPES, MASKED_PAN_PATTERN, MASKED_PAN_RULE } from '../../domain/sandbox-rules.js';
import { SIGNED, SIGNED_REQUIRED, headersSchema } from './header-schemas.js';

/**
 * The sandbox's mock-data API (the platform's mock-data-customer-api and mock-data-account-api):
 * request bodies as the platform's own scripts send them, and the answers. Amounts in requests may be
 * JSON numbers or decimal strings (src/domain/sandbox-amount.ts reads them without floating point);
 * amounts in answers are strings, as everywhere (Versioning 5), except the specification's Sandbox
 * transaction `amount`, an int32 of minor units.
 */

/** spec, Request headers: sandbox reads take only the signed set (and content negotiation). */
export function sandboxReadHeaders() {
  return headersSchema(SIGNED, SIGNED_REQUIRED);
}

/** Sandbox creates: the signed set with Digest; x-accept-fix for longer-name. */
export function sandboxCreateHeaders() {
  return headersSchema([...SIGNED, 'Digest', 'x-accept-fix'], [...SIGNED_REQUIRED, 'Digest']);
}

const text = (maxLength: number, description?: string) =>
  ({ type: 'string', minLength: 1, maxLength, ...(description === undefined ? {} : { description }) }) as const;
/** Free text the platform's example bodies send empty (""): an empty string is read as absent. */
const optionalText = (maxLength: number, description?: string) =>
  ({ type: 'string', maxLength, ...(description === undefined ? {} : { description }) }) as const;
const date = (description: string) =>
  ({ type: 'string', maxLength: FORMATTED_TEXT_MAX_LENGTH, format: 'date', description }) as const;

const amountValue = {
  anyOf: [{ type: 'number' }, { type: 'string', minLength: 1, maxLength: 40 }],
  'x-rule-text': 'a number or a decimal string, such as 1500.50 or "1500.50"',
  description:
    'A JSON number or a decimal string; no more fraction digits than the currency has, read without floating-point rounding',
  example: 1500.5,
} as const;

const sandboxAmountInputSchema = {
  $id: 'SandboxAmountInput',
  type: 'object',
  additionalProperties: false,
  required: ['amount', 'currency'],
  properties: { amount: amountValue, currency: { $ref: 'Currency#' } },
} as const;

const balanceInputSchema = {
  $id: 'SandboxBalanceInput',
  type: 'object',
  additionalProperties: false,
  required: ['balanceType', 'balanceAmount'],
  properties: {
    balanceType: {
      ...text(35),
      description:
        'Berlin Group balance type in any case: expected, EXPECTED, closingBooked, CLOSING_BOOKED, interimAvailable, ... (and authorised on card accounts)',
      example: 'EXPECTED',
    },
    balanceAmount: { $ref: 'SandboxAmountInput#' },
    referenceDate: date('Date the balance refers to'),
    lastChangeDateTime: { type: 'string', maxLength: FORMATTED_TEXT_MAX_LENGTH, format: 'date-time' },
    lastCommittedTransaction: optionalText(SANDBOX_TEXT_MAX_LENGTH),
    creditLimitIncluded: { type: 'boolean' },
  },
} as const;

const balanceSchema = {
  $id: 'SandboxBalance',
  type: 'object',
  required: ['balanceType', 'balanceAmount'],
  properties: {
    balanceType: { type: 'string' },
    balanceAmount: { $ref: 'Amount#' },
    referenceDate: { type: 'string', format: 'date' },
    lastChangeDateTime: { type: 'string', format: 'date-time' },
    lastCommittedTransaction: { type: 'string' },
    creditLimitIncluded: { type: 'boolean' },
  },
} as const;

/**
 * WARNINGs about the test data, on the 201 of a create only: what the sandbox took that a real bank
 * would refuse later, and what will happen (an account number that fails MOD11: payments from it are
 * refused). Left out when there is nothing to say.
 */
const warnings = {
  type: 'array',
  items: { $ref: 'TppMessage#' },
  description:
    'On the 201 of a create only: WARNING messages about test data the sandbox took that a real bank would refuse later, each saying what will happen',
} as const;

const selfLinks = {
  type: 'object',
  required: ['self'],
  properties: { self: { $ref: 'Link#' } },
  additionalProperties: { $ref: 'Link#' },
} as const;

export const sandboxCustomerCreateSchema = {
  $id: 'SandboxCustomerCreate',
  type: 'object',
  additionalProperties: false,
  required: ['customerNumber', 'name', 'type'],
  properties: {
    customerNumber: {
      ...text(11),
      description:
        'Private: a Norwegian national identity number (or D- or synthetic number). Corporate: an organisation number (9 digits), an 11-digit national identity number, or other digits such as 55555555 (taken with a WARNING). The identifier at SCA.',
      example: '01078900497',
    },
    name: text(NAME_MAX_LENGTH, "The customer's name, at most 70 characters"),
    type: {
      type: 'string',
      enum: ['private', 'corporate', 'PRIVATE', 'CORPORATE'],
      'x-rule-text': 'private or corporate',
    },
  },
} as const;

/** spec: Sandbox customer. */
export const sandboxCustomerSchema = {
  $id: 'SandboxCustomer',
  type: 'object',
  required: [
    'customerId',
    'customerNumber',
    'customerType',
    'customerName',
    'agreements',
    'accounts',
    'cardAccounts',
    '_links',
  ],
  properties: {
    customerId: { type: 'string' },
    customerNumber: { type: 'string', description: 'The identifier to use when performing SCA in test' },
    customerType: { type: 'string', enum: ['PRIVATE', 'CORPORATE'] },
    customerName: { type: 'string' },
    agreements: {
      type: 'array',
      description:
        'Agreements the customer owns (corporate) or is engaged on (a person), each with the ids of its accounts',
      items: {
        type: 'object',
        required: ['id', 'name', 'engagements'],
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          engagements: { type: 'array', items: { type: 'string' }, description: 'Account ids' },
        },
      },
    },
    accounts: { type: 'array', items: { type: 'string' }, description: 'Account ids' },
    cardAccounts: { type: 'array', items: { type: 'string' }, description: 'Card account ids' },
    tppMessages: warnings,
    _links: selfLinks,
  },
} as const;

const cashAccountType = {
  type: 'string',
  enum: [...CASH_ACCOUNT_TYPES],
  description: 'ISO 20022 ExternalCashAccountType1Code',
  'x-rule-text': 'an ISO 20022 ExternalCashAccountType1Code (CACC, SVGS, TAXE, TRAN, LOAN, CARD, OTHR, ...)',
} as const;

export const sandboxAccountCreateSchema = {
  $id: 'SandboxAccountCreate',
  type: 'object',
  additionalProperties: false,
  required: ['customerNumber', 'accountName', 'bban', 'currency', 'product', 'cashAccountType'],
  properties: {
    customerNumber: text(11, 'The owner: a customer this TPP created, or one of the default data set'),
    accountName: text(ACCOUNT_NAME_LONGER_MAX_LENGTH, 'At most 35 characters; 70 with x-accept-fix longer-name'),
    bban: {
      ...text(BBAN_MAX_LENGTH),
      description:
        'Norwegian account number: 11 digits. One whose MOD11 check digit is wrong is taken with a WARNING: it holds test transactions, but payments from or to it are refused',
      example: '90412263056',
    },
    iban: {
      ...text(IBAN_MAX_LENGTH),
      description: 'The IBAN of the bban (composed from it when left out)',
      example: 'NO2390412263056',
    },
    currency: { $ref: 'Currency#' },
    product: text(SANDBOX_TEXT_MAX_LENGTH),
    cashAccountType,
    creditLine: {
      ...amountValue,
      description: 'Credit line in the account currency, zero or more (default 0); a number or a decimal string',
    },
    balances: {
      type: 'array',
      maxItems: MAX_SANDBOX_BALANCES,
      items: { $ref: 'SandboxBalanceInput#' },
      description:
        "The first balance of type interimAvailable, expected or closingBooked (else the first one) is the account's balance; none is 0",
    },
  },
} as const;

export const sandboxAccountSchema = {
  $id: 'SandboxAccount',
  type: 'object',
  required: [
    'id',
    'customerNumber',
    'accountName',
    'bban',
    'iban',
    'currency',
    'product',
    'cashAccountType',
    'creditLine',
    'balances',
    '_links',
  ],
  properties: {
    id: { type: 'string' },
    customerNumber: { type: 'string' },
    accountName: { type: 'string' },
    bban: { type: 'string' },
    iban: { type: 'string' },
    currency: { type: 'string' },
    product: { type: 'string' },
    cashAccountType: { type: 'string' },
    creditLine: { type: 'string', description: 'Decimal string in the account currency' },
    balances: {
      type: 'array',
      items: { $ref: 'SandboxBalance#' },
      description: "The account's balance now (type expected): payments executed in the sandbox change it",
    },
    tppMessages: warnings,
    _links: selfLinks,
  },
} as const;

const accountReferenceInput = {
  type: 'object',
  additionalProperties: false,
  properties: { iban: text(IBAN_MAX_LENGTH), bban: text(BBAN_MAX_LENGTH) },
  description: 'An account by iban or bban; both must agree when given together',
} as const;

export const sandboxAgreementCreateSchema = {
  $id: 'SandboxAgreementCreate',
  type: 'object',
  additionalProperties: false,
  required: ['owner', 'name', 'engagements'],
  properties: {
    owner: text(11, 'customerNumber of the corporate customer that owns the agreement'),
    name: text(NAME_MAX_LENGTH),
    engagements: {
      type: 'array',
      maxItems: MAX_AGREEMENT_ENGAGEMENTS,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['customer', 'account', 'roles'],
        properties: {
          customer: text(11, 'customerNumber of the private customer who acts on the account'),
          account: accountReferenceInput,
          roles: {
            type: 'array',
            minItems: 1,
            maxItems: ENGAGEMENT_ROLES.length,
            uniqueItems: true,
            items: { type: 'string', enum: [...ENGAGEMENT_ROLES] },
            description: 'VIEW sees the account; REGISTER also registers and signs payments from it',
          },
        },
      },
    },
  },
} as const;

const engagedAccount = {
  type: 'object',
  required: ['iban', 'bban'],
  properties: { iban: { type: 'string' }, bban: { type: 'string' } },
} as const;

export const sandboxAgreementSchema = {
  $id: 'SandboxAgreement',
  type: 'object',
  required: ['id', 'owner', 'name', 'engagements', '_links'],
  properties: {
    id: { type: 'string', description: 'Send it as PSU-Corporate-ID' },
    owner: { type: 'string' },
    name: { type: 'string' },
    engagements: {
      type: 'array',
      items: {
        type: 'object',
        required: ['customer', 'account', 'roles'],
        properties: {
          customer: { type: 'string' },
          account: engagedAccount,
          roles: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    _links: selfLinks,
  },
} as const;

const cardExtras = {
  cardId: optionalText(SANDBOX_TEXT_MAX_LENGTH),
  cardIdVNo: optionalText(SANDBOX_TEXT_MAX_LENGTH),
  accountNumber: optionalText(SANDBOX_TEXT_MAX_LENGTH),
  expiry: date('Expiry of the card'),
  status: optionalText(35, 'Such as ENABLED or BLOCKED'),
} as const;

export const sandboxCardAccountCreateSchema = {
  $id: 'SandboxCardAccountCreate',
  type: 'object',
  additionalProperties: false,
  required: ['customerNumber', 'maskedPan', 'name', 'product', 'currency'],
  properties: {
    customerNumber: text(11),
    maskedPan: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      pattern: MASKED_PAN_PATTERN,
      'x-rule-text': MASKED_PAN_RULE,
      example: '525412******3241',
    },
    name: text(ACCOUNT_NAME_LONGER_MAX_LENGTH, 'At most 35 characters; 70 with x-accept-fix longer-name'),
    product: text(SANDBOX_TEXT_MAX_LENGTH),
    currency: { $ref: 'Currency#' },
    creditLimit: { $ref: 'SandboxAmountInput#' },
    balances: { type: 'array', maxItems: MAX_SANDBOX_BALANCES, items: { $ref: 'SandboxBalanceInput#' } },
    ...cardExtras,
  },
} as const;

export const sandboxCardAccountSchema = {
  $id: 'SandboxCardAccount',
  type: 'object',
  required: ['id', 'customerNumber', 'maskedPan', 'name', 'product', 'currency', 'creditLimit', 'balances', '_links'],
  properties: {
    id: { type: 'string' },
    customerNumber: { type: 'string' },
    maskedPan: { type: 'string' },
    name: { type: 'string' },
    product: { type: 'string' },
    currency: { type: 'string' },
    creditLimit: { $ref: 'Amount#' },
    balances: { type: 'array', items: { $ref: 'SandboxBalance#' } },
    cardId: { type: 'string' },
    cardIdVNo: { type: 'string' },
    accountNumber: { type: 'string' },
    expiry: { type: 'string', format: 'date' },
    status: { type: 'string' },
    _links: selfLinks,
  },
} as const;

const cardAcceptorAddress = {
  type: 'object',
  additionalProperties: false,
  properties: {
    street: optionalText(STREET_MAX_LENGTH),
    buildingNumber: optionalText(BUILDING_NUMBER_MAX_LENGTH),
    postalCode: optionalText(POSTAL_CODE_MAX_LENGTH),
    city: optionalText(CITY_MAX_LENGTH),
    country: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      pattern: '^([A-Z]{2})?$',
      'x-rule-text': 'an ISO 3166-1 alpha-2 country code',
    },
  },
} as const;

export const sandboxCardTransactionCreateSchema = {
  $id: 'SandboxCardTransactionCreate',
  type: 'object',
  additionalProperties: false,
  required: ['cardTransactionId', 'transactionAmount', 'bookingDate'],
  properties: {
    cardTransactionId: text(SANDBOX_TEXT_MAX_LENGTH),
    terminalId: optionalText(SANDBOX_TEXT_MAX_LENGTH),
    transactionDate: date('Date of the purchase; not after today'),
    bookingDate: date('Not after today, nor after valueDate'),
    valueDate: date('Not after today'),
    transactionAmount: { $ref: 'SandboxAmountInput#' },
    originalAmount: { $ref: 'SandboxAmountInput#' },
    merchantCategoryCode: optionalText(
      SANDBOX_TEXT_MAX_LENGTH,
      "Usually an ISO 18245 code of 4 digits; any text is stored as given (the platform's scripts send BOB and TEST)",
    ),
    markupFee: { $ref: 'SandboxAmountInput#' },
    markupFeePercentage: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      pattern: '^(\\d{1,3}(\\.\\d{1,4})?)?$',
      'x-rule-text': 'a percentage such as "2" or "1.75"',
    },
    cardAcceptorId: optionalText(SANDBOX_TEXT_MAX_LENGTH),
    cardAcceptorAddress,
    maskedPan: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      pattern: `^$|${MASKED_PAN_PATTERN}`,
      'x-rule-text': MASKED_PAN_RULE,
    },
    transactionDetails: optionalText(REMITTANCE_UNSTRUCTURED_MAX_LENGTH),
    invoiced: {
      anyOf: [{ type: 'boolean' }, { type: 'string', enum: ['', 'true', 'false'] }],
      'x-rule-text': 'true or false',
    },
    proprietaryBankTransactionCode: optionalText(35),
  },
} as const;

export const sandboxCardTransactionSchema = {
  $id: 'SandboxCardTransaction',
  type: 'object',
  required: ['id', 'cardTransactionId', 'transactionAmount', 'bookingDate', '_links'],
  properties: {
    id: { type: 'string' },
    cardTransactionId: { type: 'string' },
    terminalId: { type: 'string' },
    transactionDate: { type: 'string', format: 'date' },
    bookingDate: { type: 'string', format: 'date' },
    valueDate: { type: 'string', format: 'date' },
    transactionAmount: { $ref: 'Amount#' },
    originalAmount: { $ref: 'Amount#' },
    merchantCategoryCode: { type: 'string' },
    markupFee: { $ref: 'Amount#' },
    markupFeePercentage: { type: 'string' },
    cardAcceptorId: { type: 'string' },
    cardAcceptorAddress: {
      type: 'object',
      properties: {
        street: { type: 'string' },
        buildingNumber: { type: 'string' },
        postalCode: { type: 'string' },
        city: { type: 'string' },
        country: { type: 'string' },
      },
    },
    maskedPan: { type: 'string' },
    transactionDetails: { type: 'string' },
    invoiced: { type: 'boolean' },
    proprietaryBankTransactionCode: { type: 'string' },
    _links: selfLinks,
  },
} as const;

export const sandboxTransactionCreateSchema = {
  $id: 'SandboxTransactionCreate',
  type: 'object',
  additionalProperties: false,
  required: [
    'amount',
    'currency',
    'valueDate',
    'bookingDate',
    'remittanceInformationUnstructured',
    'creditorName',
    'creditorAccount',
    'debtorName',
    'debtorAccount',
    'purposeCode',
    'bankTransactionCode',
  ],
  properties: {
    amount: {
      ...amountValue,
      description:
        'In units of the account currency (1500 is NOK 1 500), not zero; read back as posted, with its sign. The direction is the side the account is on, not the sign. At most 2147483647 units either way (int32).',
    },
    currency: { $ref: 'Currency#' },
    valueDate: date('Not after today (Norwegian time, by the sandbox clock)'),
    bookingDate: date('Not after today, nor after valueDate'),
    remittanceInformationUnstructured: text(REMITTANCE_UNSTRUCTURED_MAX_LENGTH),
    creditorId: optionalText(35, 'Accepted as the platform sends it; not stored'),
    creditorName: text(NAME_MAX_LENGTH),
    creditorAccount: {
      ...accountReferenceInput,
      description: 'The account itself on a credit to it (then the debtor is outside this bank)',
    },
    ultimateCreditor: optionalText(NAME_MAX_LENGTH),
    debtorName: text(NAME_MAX_LENGTH),
    debtorAccount: {
      ...accountReferenceInput,
      description: 'The account itself on a debit of it; on a credit, an account outside this bank',
    },
    ultimateDebtor: optionalText(NAME_MAX_LENGTH),
    purposeCode: text(
      SANDBOX_TEXT_MAX_LENGTH,
      'Plain text, as the specification types it (the platform\'s scripts send "code"); stored as given',
    ),
    bankTransactionCode: {
      type: 'string',
      minLength: BANK_TRANSACTION_CODE_MIN_LENGTH,
      maxLength: BANK_TRANSACTION_CODE_MAX_LENGTH,
      description: 'ISO 20022 bank transaction code, 4 to 14 characters',
      example: 'PMNT',
    },
  },
} as const;

/** spec: Sandbox transaction; every field is present. */
export const sandboxTransactionSchema = {
  $id: 'SandboxTransaction',
  type: 'object',
  required: [
    'id',
    'amount',
    'currency',
    'valueDate',
    'remittanceInformationUnstructured',
    'creditorName',
    'creditorAccount',
    'debtorName',
    'debtorAccount',
    'bankTransactionCode',
    'ultimateDebtor',
    'ultimateCreditor',
    'purposeCode',
    'bookingDate',
    '_links',
  ],
  properties: {
    id: { type: 'string' },
    amount: {
      type: 'number',
      description:
        'In units of the currency, as posted, with its sign: 1500 is NOK 1 500, -250.5 is NOK -250.50. An int32 in the specification: whole amounts are integers; an amount with minor units keeps them. The bank books executed payments with positive amounts. Debit or credit is the side the account is on (debtorAccount or creditorAccount), not the sign',
    },
    currency: { type: 'string' },
    valueDate: { type: 'string' },
    remittanceInformationUnstructured: { type: 'string' },
    creditorName: { type: 'string' },
    creditorAccount: engagedAccount,
    debtorName: { type: 'string' },
    debtorAccount: engagedAccount,
    bankTransactionCode: {
      type: 'string',
      minLength: BANK_TRANSACTION_CODE_MIN_LENGTH,
      maxLength: BANK_TRANSACTION_CODE_MAX_LENGTH,
    },
    ultimateDebtor: { type: 'string' },
    ultimateCreditor: { type: 'string' },
    purposeCode: { type: 'string' },
    bookingDate: { type: 'string' },
    _links: selfLinks,
  },
} as const;

export const sandboxCreatedSchema = {
  $id: 'SandboxCreated',
  type: 'object',
  required: ['id', '_links'],
  properties: { id: { type: 'string' }, tppMessages: warnings, _links: selfLinks },
} as const;

export const sandboxInitializedSchema = {
  $id: 'SandboxInitialized',
  type: 'object',
  required: ['deletedCustomers', 'defaultDataSet'],
  properties: {
    deletedCustomers: {
      type: 'integer',
      description: 'Customers of this TPP deleted, with their accounts, card accounts, agreements and transactions',
    },
    defaultDataSet: {
      type: 'object',
      required: ['customers', 'accounts', 'agreements'],
      properties: {
        customers: {
          type: 'array',
          items: { type: 'string' },
          description: 'Customer numbers of the default data set, restored',
        },
        accounts: { type: 'integer' },
        agreements: { type: 'integer' },
      },
    },
  },
} as const;

export const transactionListQuery = {
  type: 'object',
  properties: {
    fromDate: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      format: 'date',
      description: 'Earliest booking date',
    },
    toDate: {
      type: 'string',
      maxLength: FORMATTED_TEXT_MAX_LENGTH,
      format: 'date',
      description: 'Latest booking date',
    },
    offset: {
      type: 'integer',
      minimum: 0,
      maximum: INT32_MAX,
      description: 'Transactions skipped before counting the limit (default 0)',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: SANDBOX_TRANSACTIONS_PAGE_MAX,
      description: `Transactions returned, 1 to ${SANDBOX_TRANSACTIONS_PAGE_MAX} (default ${SANDBOX_TRANSACTIONS_PAGE_DEFAULT})`,
    },
  },
} as const;

export const customerListQuery = {
  type: 'object',
  properties: {
    offset: { type: 'integer', minimum: 0, maximum: INT32_MAX, description: 'Customers skipped (default 0)' },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: SANDBOX_CUSTOMERS_PAGE_MAX,
      description: `Customers returned, 1 to ${SANDBOX_CUSTOMERS_PAGE_MAX} (default ${SANDBOX_CUSTOMERS_PAGE_MAX})`,
    },
  },
} as const;

export const sandboxSchemas = [
  sandboxAmountInputSchema,
  balanceInputSchema,
  balanceSchema,
  sandboxCustomerCreateSchema,
  sandboxCustomerSchema,
  sandboxAccountCreateSchema,
  sandboxAccountSchema,
  sandboxAgreementCreateSchema,
  sandboxAgreementSchema,
  sandboxCardAccountCreateSchema,
  sandboxCardAccountSchema,
  sandboxCardTransactionCreateSchema,
  sandboxCardTransactionSchema,
  sandboxTransactionCreateSchema,
  sandboxTransactionSchema,
  sandboxCreatedSchema,
  sandboxInitializedSchema,
];

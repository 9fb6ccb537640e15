import {
  BANK_TRANSACTION_CODE_MAX_LENGTH,
  BANK_TRANSACTION_CODE_MIN_LENGTH,
  NAME_MAX_LENGTH,
  REMITTANCE_UNSTRUCTURED_MAX_LENGTH,
  SANDBOX_TEXT_MAX_LENGTH,
} from '../../../domain/limits.js';
import {
  accountReferenceInput,
  amountValue,
  date,
  engagedAccount,
  optionalText,
  selfLinks,
  text,
} from './sandbox-schema-parts.js';

/** A test transaction on an account, as posted: a debit or a credit by the side the account is on. */

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

import type { Json } from '../../domain/json.js';
import {
  type Fixes,
  accountNameOf,
  bankTransactionCodeOf,
  cardAmountsOf,
  cashAccountTypeOf,
} from '../../domain/ais-fixes.js';
import type { Currency } from '../../domain/currency.js';
import { formatAmount } from '../../domain/money.js';
import { cardTransactionCode, proprietaryTransactionCode } from '../../domain/proprietary-transaction-code.js';
import type { AisAccount, AisCardAccount, AisCardTransaction, AisTransaction } from '../../store/ais-records.js';
import type { SandboxTransaction } from '../../store/sandbox-records.js';

/**
 * The Berlin Group NextGenPSD2 shapes of account information (AccountDetails, Balance, Transactions,
 * CardAccountDetails, CardTransaction), amounts as strings with the currency's minor units. Empty
 * texts of the stored data are left out rather than answered as "".
 */

/** An entry of `_links`. */
type Link = { href: string; verbs: string[] };

const get = (href: string): Link => ({ href, verbs: ['GET'] });
const amount = (minor: bigint, currency: string) => ({ amount: formatAmount(minor, currency as Currency), currency });

/** `_links` of an answer about one resource: only its own address (balances). */
export function selfLinks(href: string): Json {
  return { self: get(href) };
}

export function accountPath(id: string): string {
  return `/v1/accounts/${encodeURIComponent(id)}`;
}

export function cardAccountPath(id: string): string {
  return `/v1/card-accounts/${encodeURIComponent(id)}`;
}

/** AccountReference of an account: both its numbers and its currency. */
export function accountReference(account: AisAccount): Json {
  return { iban: account.iban, bban: account.bban, currency: account.currency };
}

export function cardAccountReference(card: AisCardAccount): Json {
  return { maskedPan: card.maskedPan, currency: card.currency };
}

/**
 * The links of an account or card account, as the platform gives them: `self` beside Berlin Group's
 * `balances` and `transactions`, whose link names the platform's default listing (both booked and pending).
 */
function accountLinks(path: string): Json {
  return {
    self: get(path),
    balances: get(`${path}/balances`),
    transactions: get(`${path}/transactions?bookingStatus=both`),
  };
}

/** An account's details; `bic` is the bank's (BANK_BIC), as on the platform's accounts. */
export function accountDetails(account: AisAccount, fixes: Fixes, balances: Json[] | undefined, bic: string): Json {
  return {
    resourceId: account.id,
    iban: account.iban,
    bban: account.bban,
    currency: account.currency,
    name: accountNameOf(account.name, fixes),
    product: account.product,
    cashAccountType: cashAccountTypeOf(account.cashAccountType, fixes),
    // Berlin Group's accountStatus, as the bank holds it (the sandbox's test data sets it).
    status: account.status,
    bic,
    usage: account.ownerType === 'CORPORATE' ? 'ORGA' : 'PRIV',
    ownerName: account.ownerName,
    ...(balances === undefined ? {} : { balances }),
    _links: accountLinks(accountPath(account.id)),
  };
}

/**
 * An account's balances: interimBooked is what it holds (the balance given at creation, moved by every
 * executed payment); expected takes off the payments authorised and not yet executed (their debits in
 * the account's currency, fees included); interimAvailable adds the credit line to that.
 */
export function accountBalances(account: AisAccount, pendingDebitMinor: bigint, today: string): Json[] {
  const expected = account.balanceMinor - pendingDebitMinor;
  return [
    {
      balanceType: 'interimBooked',
      balanceAmount: amount(account.balanceMinor, account.currency),
      referenceDate: today,
    },
    { balanceType: 'expected', balanceAmount: amount(expected, account.currency), referenceDate: today },
    {
      balanceType: 'interimAvailable',
      balanceAmount: amount(expected + account.creditLineMinor, account.currency),
      creditLimitIncluded: true,
      referenceDate: today,
    },
  ];
}

/** Whether a transaction takes money from the account (the account is its debtor) rather than bringing it in. */
export function isDebitOf(t: SandboxTransaction, account: AisAccount): boolean {
  return (
    (t.debtorIban !== '' && t.debtorIban === account.iban) || (t.debtorBban !== '' && t.debtorBban === account.bban)
  );
}

/**
 * A booked transaction. Its amount is signed from the account's side (a debit negative), whatever sign
 * it was posted with: the side the account is on says debit or credit (docs/decisions/0208 and docs/decisions/0164).
 */
export function bookedTransaction(t: SandboxTransaction, account: AisAccount, fixes: Fixes): Json {
  const moved = t.amountMinor < 0n ? -t.amountMinor : t.amountMinor;
  return {
    transactionId: t.id,
    ...texts({ endToEndId: t.endToEndId }),
    bookingDate: t.bookingDate,
    valueDate: t.valueDate,
    transactionAmount: amount(isDebitOf(t, account) ? -moved : moved, t.currency),
    ...parties(t),
    ...transactionCodes(t.bankTransactionCode, fixes),
    _links: { transactionDetails: get(`${accountPath(account.id)}/transactions/${encodeURIComponent(t.id)}`) },
  };
}

/**
 * The entries of one bulk payment on its debtor account as one batch entry (x-accept-fix
 * batch-transactions): the total, the number of entries, the first entry's id.
 */
export function batchTransaction(members: readonly AisTransaction[], fixes: Fixes): Json {
  const first = members[0]!;
  const total = members.reduce((sum, t) => sum + (t.amountMinor < 0n ? -t.amountMinor : t.amountMinor), 0n);
  return {
    transactionId: first.id,
    batchIndicator: true,
    batchNumberOfTransactions: members.length,
    bookingDate: first.bookingDate,
    valueDate: first.valueDate,
    transactionAmount: amount(-total, first.currency),
    ...texts({ debtorName: first.debtorName, ultimateDebtor: first.ultimateDebtor }),
    debtorAccount: counterpart(first.debtorIban, first.debtorBban),
    ...transactionCodes(first.bankTransactionCode, fixes),
  };
}

/**
 * A pending transaction: a debit the batch run will book, as it will book it (no id: its booked one is
 * given then). Like the platform's pending entries it has the date it is to be booked on as
 * `bookingDate`, and no `valueDate` (docs/decisions/0249).
 */
export function pendingTransaction(
  entry: {
    amountMinor: bigint;
    currency: string;
    bookingDate: string;
    creditorName: string;
    creditorIban: string;
    creditorBban: string;
    remittance: string;
    ultimateDebtor: string;
    purposeCode: string;
    endToEndId: string;
    bankTransactionCode: string;
  },
  account: AisAccount,
  fixes: Fixes,
): Json {
  return {
    ...texts({ endToEndId: entry.endToEndId }),
    bookingDate: entry.bookingDate,
    transactionAmount: amount(-entry.amountMinor, entry.currency),
    ...texts({ creditorName: entry.creditorName }),
    ...(entry.creditorIban === '' && entry.creditorBban === ''
      ? {}
      : { creditorAccount: counterpart(entry.creditorIban, entry.creditorBban) }),
    ...texts({ debtorName: account.ownerName, ultimateDebtor: entry.ultimateDebtor }),
    debtorAccount: { iban: account.iban, bban: account.bban },
    ...remittance(entry.remittance),
    ...texts({ purposeCode: entry.purposeCode }),
    ...transactionCodes(entry.bankTransactionCode, fixes),
  };
}

/**
 * The codes of a transaction: Berlin Group's `bankTransactionCode` as bank-transaction-code-iso has it,
 * and the platform's own code of its kind, which the platform's answers carry whatever the change.
 */
function transactionCodes(code: string, fixes: Fixes): Json {
  return {
    ...bankTransactionCodeOf(code, fixes),
    proprietaryBankTransactionCode: proprietaryTransactionCode(code),
  };
}

/** The payment message, and as the platform also gives it: a one-line `remittanceInformationUnstructuredArray`. */
function remittance(text: string): Json {
  return text === '' ? {} : { remittanceInformationUnstructured: text, remittanceInformationUnstructuredArray: [text] };
}

function parties(t: SandboxTransaction): Json {
  return {
    ...texts({ creditorName: t.creditorName }),
    ...(t.creditorIban === '' && t.creditorBban === ''
      ? {}
      : { creditorAccount: counterpart(t.creditorIban, t.creditorBban) }),
    ...texts({ ultimateCreditor: t.ultimateCreditor, debtorName: t.debtorName }),
    ...(t.debtorIban === '' && t.debtorBban === '' ? {} : { debtorAccount: counterpart(t.debtorIban, t.debtorBban) }),
    ...texts({ ultimateDebtor: t.ultimateDebtor }),
    ...remittance(t.remittance),
    ...texts({ purposeCode: t.purposeCode }),
  };
}

function counterpart(iban: string, bban: string): Json {
  return { ...(iban === '' ? {} : { iban }), ...(bban === '' ? {} : { bban }) };
}

/** The fields whose text is not empty. */
function texts(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ''));
}

const CARD_STATUSES = new Set(['enabled', 'deleted', 'blocked']);

/** A card account's details: Berlin Group's card account has no `bic`; its links are as an account's. */
export function cardAccountDetails(card: AisCardAccount, fixes: Fixes, balances: Json[] | undefined): Json {
  const status = typeof card.body.status === 'string' ? card.body.status.toLowerCase() : 'enabled';
  return {
    resourceId: card.id,
    maskedPan: card.maskedPan,
    currency: card.currency,
    name: accountNameOf(card.name, fixes),
    product: card.product,
    status: CARD_STATUSES.has(status) ? status : 'enabled',
    usage: card.ownerType === 'CORPORATE' ? 'ORGA' : 'PRIV',
    ownerName: card.ownerName,
    creditLimit: amount(card.creditLimitMinor, card.currency),
    ...(balances === undefined ? {} : { balances }),
    _links: accountLinks(cardAccountPath(card.id)),
  };
}

/** A card account's balances as they were given at its creation (a card account has no ledger). */
export function cardBalances(card: AisCardAccount): Json[] {
  return Array.isArray(card.body.balances) ? (card.body.balances as Json[]) : [];
}

const CARD_TRANSACTION_FIELDS = [
  'cardTransactionId',
  'terminalId',
  'transactionDate',
  'bookingDate',
  'valueDate',
  'markupFee',
  'markupFeePercentage',
  'cardAcceptorId',
  'cardAcceptorAddress',
  'merchantCategoryCode',
  'transactionDetails',
  'invoiced',
] as const;

/** A card transaction as posted, its amounts as cardaccount-switch-originalamount-and-transactionamount has them. */
export function cardTransaction(t: AisCardTransaction, fixes: Fixes): Json {
  const body = t.body;
  const view: Json = {};
  for (const field of CARD_TRANSACTION_FIELDS) if (body[field] !== undefined) view[field] = body[field];
  const amounts = cardAmountsOf(
    { transactionAmount: body.transactionAmount, originalAmount: body.originalAmount },
    fixes,
  );
  return {
    ...view,
    ...amounts,
    ...(typeof body.maskedPan === 'string' ? { maskedPAN: body.maskedPan } : {}),
    proprietaryBankTransactionCode: cardTransactionCode(body.proprietaryBankTransactionCode),
  };
}

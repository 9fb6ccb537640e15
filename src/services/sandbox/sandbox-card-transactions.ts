import type { SandboxDataStore } from '../../store/sandbox-data-store.js';
import type { Json } from '../../domain/json.js';
import type { Problem } from '../../domain/api-error.js';
import { osloDate } from '../../domain/clock.js';
import { isCurrency } from '../../domain/currency.js';
import { formatAmount } from '../../domain/money.js';
import type { TppIdentity } from '../../domain/psp-role.js';
import type { SandboxAmountRules } from '../../domain/sandbox-amount.js';
import { newBankId } from '../../domain/bank.js';
import type { NewSandboxCardTransaction, SandboxCardTransaction } from '../../store/sandbox-records.js';
import type { Banks } from '../banks.js';
import {
  type ListQuery,
  amountOf,
  asObject,
  currencyProblem,
  dateProblems,
  pageOf,
  reject,
  unknown,
  withoutEmpty,
} from './sandbox-input.js';
import { cardTransactionLink } from './sandbox-links.js';
import type { SandboxLookup } from './sandbox-lookup.js';

/** Card transactions of a card account: post, list, read. */
export class SandboxCardTransactions {
  constructor(
    private readonly store: SandboxDataStore,
    private readonly banks: Banks,
    private readonly lookup: SandboxLookup,
  ) {}

  async addCardTransactions(
    tpp: TppIdentity,
    cardAccountId: string,
    body: unknown,
    schemaProblems: Problem[],
  ): Promise<Json[]> {
    const card = await this.lookup.visibleCardAccount(tpp, cardAccountId);
    // One reading of the bank's clock for the whole post (each reading is a query).
    const now = await this.banks.now(tpp.id);
    const today = osloDate(now);
    const problems: Problem[] = [];
    const transactions: NewSandboxCardTransaction[] = [];
    for (const [index, entry] of (Array.isArray(body) ? body : []).entries()) {
      const path = `$[${index}]`;
      const t = asObject(entry);
      problems.push(...dateProblems(t, path, today, ['transactionDate', 'bookingDate', 'valueDate']));
      const amounts = readCardAmounts(t, path, card.currency, problems);
      // A posting with a problem is refused whole: nothing more to build (ids cost a random draw each).
      if (schemaProblems.length > 0 || problems.length > 0) continue;
      transactions.push({
        id: newBankId(),
        bookingDate: t.bookingDate as string,
        body: cardTransactionBody(t, amounts),
      });
    }
    reject(schemaProblems, problems);
    const stored = await this.store.addSandboxCardTransactions(card.id, transactions, now);
    if (stored === undefined) throw unknown('mockCardAccountId', 'card account', cardAccountId);
    return stored.map((t) => ({ id: t.id, _links: { self: cardTransactionLink(card.id, t.id) } }));
  }

  async listCardTransactions(tpp: TppIdentity, cardAccountId: string, query: ListQuery): Promise<Json[]> {
    const card = await this.lookup.visibleCardAccount(tpp, cardAccountId);
    return (await this.store.listSandboxCardTransactions(card.id, pageOf(query))).map(cardTransactionView);
  }

  async readCardTransaction(tpp: TppIdentity, cardAccountId: string, transactionId: string): Promise<Json> {
    const card = await this.lookup.visibleCardAccount(tpp, cardAccountId);
    const transaction = await this.store.findSandboxCardTransaction(card.id, transactionId);
    if (transaction === undefined)
      throw unknown('transactionId', 'transaction', transactionId, `of card account ${cardAccountId}`);
    return cardTransactionView(transaction);
  }
}

/** The posting's three amounts, normalised; only the transaction amount must be in the card's currency. */
function readCardAmounts(t: Json, path: string, cardCurrency: string, problems: Problem[]): CardAmounts {
  const signed = { negative: true, zero: false };
  return {
    transactionAmount: cardAmount(t.transactionAmount, `${path}.transactionAmount`, cardCurrency, signed, problems),
    originalAmount: cardAmount(t.originalAmount, `${path}.originalAmount`, undefined, signed, problems),
    markupFee: cardAmount(t.markupFee, `${path}.markupFee`, undefined, { negative: false, zero: true }, problems),
  };
}

interface CardAmounts {
  transactionAmount: Json | undefined;
  originalAmount: Json | undefined;
  markupFee: Json | undefined;
}

/** A card transaction's amount object, normalised (amount as a string); the currency is checked against the card's where given. */
function cardAmount(
  value: unknown,
  path: string,
  currency: string | undefined,
  rules: SandboxAmountRules,
  problems: Problem[],
): Json | undefined {
  if (value === undefined) return undefined;
  const given = asObject(value);
  if (!isCurrency(given.currency)) return undefined;
  if (currency !== undefined && given.currency !== currency) {
    problems.push(currencyProblem(`${path}.currency`, given.currency, currency, 'the card account'));
    return undefined;
  }
  const minor = amountOf(given.amount, given.currency, `${path}.amount`, rules, problems);
  return minor === undefined ? undefined : { amount: formatAmount(minor, given.currency), currency: given.currency };
}

/** What a card transaction stores and answers with, as posted: empty texts and an empty address left out. */
function cardTransactionBody(t: Json, amounts: CardAmounts): Json {
  const address = t.cardAcceptorAddress === undefined ? undefined : withoutEmpty(asObject(t.cardAcceptorAddress));
  return withoutEmpty({
    cardTransactionId: t.cardTransactionId,
    terminalId: t.terminalId,
    transactionDate: t.transactionDate,
    bookingDate: t.bookingDate,
    valueDate: t.valueDate,
    transactionAmount: amounts.transactionAmount,
    originalAmount: amounts.originalAmount,
    merchantCategoryCode: t.merchantCategoryCode,
    markupFee: amounts.markupFee,
    markupFeePercentage: t.markupFeePercentage,
    cardAcceptorId: t.cardAcceptorId,
    cardAcceptorAddress: address !== undefined && Object.keys(address).length > 0 ? address : undefined,
    maskedPan: t.maskedPan,
    transactionDetails: t.transactionDetails,
    invoiced: invoicedOf(t.invoiced),
    proprietaryBankTransactionCode: t.proprietaryBankTransactionCode,
  });
}

/** `invoiced` as a boolean: the platform's scripts send it as text too, and empty when unknown. */
function invoicedOf(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  return value === false || value === 'false' ? false : undefined;
}

function cardTransactionView(transaction: SandboxCardTransaction): Json {
  return {
    id: transaction.id,
    ...transaction.body,
    _links: { self: cardTransactionLink(transaction.cardAccountId, transaction.id) },
  };
}

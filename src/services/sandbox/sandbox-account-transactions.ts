import type { LedgerStore } from '../../store/ledger-store.js';
import type { SandboxDataStore } from '../../store/sandbox-data-store.js';
import { type Json, withWarnings } from '../../domain/json.js';
import type { Problem } from '../../domain/api-error.js';
import { osloDate } from '../../domain/clock.js';
import { type Currency, isCurrency } from '../../domain/currency.js';
import type { TppIdentity } from '../../domain/psp-role.js';
import { sandboxTransactionAmount } from '../../domain/sandbox-amount.js';
import { type CounterpartAccount, counterpartAccount, transactionDirection } from '../../domain/sandbox-rules.js';
import { newBankId } from '../../domain/bank.js';
import type { NewSandboxTransaction, SandboxTransaction } from '../../store/sandbox-records.js';
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
  asWarnings,
} from './sandbox-input.js';
import { transactionLink } from './sandbox-links.js';
import type { SandboxLookup } from './sandbox-lookup.js';

/** Transactions of an account: post, list (endpoint 5), read. */
export class SandboxAccountTransactions {
  constructor(
    private readonly store: LedgerStore & SandboxDataStore,
    private readonly banks: Banks,
    private readonly lookup: SandboxLookup,
  ) {}

  /**
   * Posts test transactions to an account: history, so the balance stays as it is. The direction
   * follows from the side the account is on, never from the amount's sign, which is kept as posted
   * (sandbox-rules.ts transactionDirection). Dates are not after today, and the booking date not
   * after the value date (the platform's rule).
   */
  async addTransactions(
    tpp: TppIdentity,
    accountId: string,
    body: unknown,
    schemaProblems: Problem[],
  ): Promise<Json[]> {
    const account = await this.lookup.visibleAccount(tpp, accountId, 'mockAccountId');
    // One reading of the bank's clock for the whole post (each reading is a query).
    const now = await this.banks.now(tpp.id);
    const today = osloDate(now);
    const inThisBank = this.membershipOf(this.banks.of(tpp.id));
    const problems: Problem[] = [];
    const warnings: Problem[][] = [];
    const transactions: NewSandboxTransaction[] = [];
    for (const [index, entry] of (Array.isArray(body) ? body : []).entries()) {
      const path = `$[${index}]`;
      const t = asObject(entry);
      const { amount, creditor, debtor } = readPosting(t, path, account.currency, today, problems);
      if (creditor?.account === undefined || debtor?.account === undefined) continue;
      const debtorIban = debtor.account.iban;
      const debtorInThisBank = debtorIban !== account.iban && (await inThisBank(debtorIban));
      const direction = transactionDirection(
        { iban: account.iban, bban: account.bban },
        { debtor: debtor.account, creditor: creditor.account, debtorInThisBank },
        path,
      );
      if ('problem' in direction) problems.push(direction.problem);
      // The account's own number was judged when it was created; a warning goes with the other side only.
      const other = 'direction' in direction && direction.direction === 'debit' ? creditor : debtor;
      warnings.push(other.warnings);
      // A posting with a problem is refused whole: nothing more to build (ids cost a random draw each).
      if (amount === undefined || schemaProblems.length > 0 || problems.length > 0) continue;
      transactions.push(newTransaction(t, amount, account.currency, creditor.account, debtor.account));
    }
    reject(schemaProblems, problems);
    const stored = await this.store.addSandboxTransactions(account.id, transactions, now);
    if (stored === undefined) throw unknown('mockAccountId', 'account', accountId);
    return stored.map((t, index) =>
      withWarnings(
        { id: t.id, _links: { self: transactionLink(account.id, t.id) } },
        asWarnings(warnings[index] ?? []),
      ),
    );
  }

  /** spec, endpoint 5: the account's transactions in posting order, a page at a time. */
  async listTransactions(tpp: TppIdentity, accountId: string, query: ListQuery): Promise<Json[]> {
    const account = await this.lookup.visibleAccount(tpp, accountId, 'mockAccountId');
    return (await this.store.listSandboxTransactions(account.id, pageOf(query))).map(transactionView);
  }

  async readTransaction(tpp: TppIdentity, accountId: string, transactionId: string): Promise<Json> {
    const account = await this.lookup.visibleAccount(tpp, accountId, 'mockAccountId');
    const transaction = await this.store.findSandboxTransaction(account.id, transactionId);
    if (transaction === undefined)
      throw unknown('transactionId', 'transaction', transactionId, `of account ${accountId}`);
    return transactionView(transaction);
  }

  /** Whether an IBAN is an account of the bank: looked up once per request (a post names the same few counterparts many times). */
  private membershipOf(bank: string): (iban: string) => Promise<boolean> {
    const known = new Map<string, boolean>();
    return async (iban) => {
      let found = known.get(iban);
      if (found === undefined) {
        found = (await this.store.findAccount(bank, { iban })) !== undefined;
        known.set(iban, found);
      }
      return found;
    };
  }
}

/**
 * What one posting says on its own, its problems added to `problems` in the order of its fields: the
 * amount in the account's currency, and both sides, each with the warnings its number earns.
 */
function readPosting(t: Json, path: string, accountCurrency: string, today: string, problems: Problem[]) {
  if (isCurrency(t.currency) && t.currency !== accountCurrency)
    problems.push(currencyProblem(`${path}.currency`, t.currency, accountCurrency, 'the account'));
  const amount =
    t.amount === undefined
      ? undefined
      : amountOf(
          t.amount,
          accountCurrency as Currency,
          `${path}.amount`,
          { negative: true, zero: false, int32: true },
          problems,
        );
  problems.push(...dateProblems(t, path, today, ['bookingDate', 'valueDate']));
  const creditor = sideOf(t.creditorAccount, `${path}.creditorAccount`);
  const debtor = sideOf(t.debtorAccount, `${path}.debtorAccount`);
  problems.push(...(creditor?.problems ?? []), ...(debtor?.problems ?? []));
  return { amount, creditor, debtor };
}

/** A side of the transaction, when the posting gives it as an object (the schema has said what else is wrong with it). */
function sideOf(value: unknown, path: string) {
  return typeof value === 'object' && value !== null ? counterpartAccount(asObject(value), path) : undefined;
}

/** The transaction a valid posting stores; the schema has made sure of every field read here. */
function newTransaction(
  t: Json,
  amountMinor: bigint,
  currency: string,
  creditor: CounterpartAccount,
  debtor: CounterpartAccount,
): NewSandboxTransaction {
  return {
    id: newBankId(),
    amountMinor,
    currency,
    bookingDate: t.bookingDate as string,
    valueDate: t.valueDate as string,
    remittance: t.remittanceInformationUnstructured as string,
    creditorName: t.creditorName as string,
    creditorIban: creditor.iban,
    creditorBban: creditor.bban,
    debtorName: t.debtorName as string,
    debtorIban: debtor.iban,
    debtorBban: debtor.bban,
    bankTransactionCode: t.bankTransactionCode as string,
    ultimateDebtor: (t.ultimateDebtor as string | undefined) ?? '',
    ultimateCreditor: (t.ultimateCreditor as string | undefined) ?? '',
    purposeCode: t.purposeCode as string,
  };
}

/** spec: Sandbox transaction, every field; amount in the currency's units with its sign, as posted (sandbox-amount.ts). */
function transactionView(t: SandboxTransaction): Json {
  return {
    id: t.id,
    amount: sandboxTransactionAmount(t.amountMinor, t.currency as Currency),
    currency: t.currency,
    valueDate: t.valueDate,
    remittanceInformationUnstructured: t.remittance,
    creditorName: t.creditorName,
    creditorAccount: { iban: t.creditorIban, bban: t.creditorBban },
    debtorName: t.debtorName,
    debtorAccount: { iban: t.debtorIban, bban: t.debtorBban },
    bankTransactionCode: t.bankTransactionCode,
    ultimateDebtor: t.ultimateDebtor,
    ultimateCreditor: t.ultimateCreditor,
    purposeCode: t.purposeCode,
    bookingDate: t.bookingDate,
    _links: { self: transactionLink(t.accountId, t.id) },
  };
}

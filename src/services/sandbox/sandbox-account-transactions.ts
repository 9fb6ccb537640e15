import { type Json, withWarnings } from '../../domain/json.js';
import type { Problem } from '../../domain/api-error.js';
import { osloDate } from '../../domain/clock.js';
import { type Currency, isCurrency } from '../../domain/currency.js';
import type { TppIdentity } from '../../domain/psp-role.js';
import { sandboxTransactionAmount } from '../../domain/sandbox-amount.js';
import { counterpartAccount, transactionDirection } from '../../domain/sandbox-rules.js';
import { newBankId } from '../../domain/bank.js';
import type { NewSandboxTransaction, SandboxTransaction } from '../../store/sandbox-records.js';
import type { Store } from '../../store/store.js';
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
    private readonly store: Store,
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
    const problems: Problem[] = [];
    const warnings: Problem[][] = [];
    /** Whether a debtor IBAN is an account of this bank: looked up once per request (a post names the same few counterparts many times). */
    const inThisBank = new Map<string, boolean>();
    const transactions: NewSandboxTransaction[] = [];
    const currency = account.currency as Currency;
    for (const [index, entry] of (Array.isArray(body) ? body : []).entries()) {
      const path = `$[${index}]`;
      const t = asObject(entry);
      if (isCurrency(t.currency) && t.currency !== account.currency)
        problems.push(currencyProblem(`${path}.currency`, t.currency, account.currency, 'the account'));
      const amount =
        t.amount === undefined
          ? undefined
          : amountOf(t.amount, currency, `${path}.amount`, { negative: true, zero: false, int32: true }, problems);
      problems.push(...dateProblems(t, path, today, ['bookingDate', 'valueDate']));
      const creditor =
        typeof t.creditorAccount === 'object' && t.creditorAccount !== null
          ? counterpartAccount(asObject(t.creditorAccount), `${path}.creditorAccount`)
          : undefined;
      const debtor =
        typeof t.debtorAccount === 'object' && t.debtorAccount !== null
          ? counterpartAccount(asObject(t.debtorAccount), `${path}.debtorAccount`)
          : undefined;
      problems.push(...(creditor?.problems ?? []), ...(debtor?.problems ?? []));
      if (creditor?.account === undefined || debtor?.account === undefined) continue;
      const posted = { iban: account.iban, bban: account.bban };
      const debtorIban = debtor.account.iban;
      if (debtorIban !== account.iban && !inThisBank.has(debtorIban))
        inThisBank.set(
          debtorIban,
          (await this.store.findAccount(this.banks.of(tpp.id), { iban: debtorIban })) !== undefined,
        );
      const debtorInThisBank = inThisBank.get(debtorIban) ?? false;
      const direction = transactionDirection(
        posted,
        { debtor: debtor.account, creditor: creditor.account, debtorInThisBank },
        path,
      );
      if ('problem' in direction) problems.push(direction.problem);
      // The account's own number was judged when it was created; a warning goes with the other side only.
      const other = 'direction' in direction && direction.direction === 'debit' ? creditor : debtor;
      warnings.push(other.warnings);
      // A posting with a problem is refused whole: nothing more to build (ids cost a random draw each).
      if (amount === undefined || schemaProblems.length > 0 || problems.length > 0) continue;
      transactions.push({
        id: newBankId(),
        amountMinor: amount,
        currency: account.currency,
        bookingDate: t.bookingDate as string,
        valueDate: t.valueDate as string,
        remittance: t.remittanceInformationUnstructured as string,
        creditorName: t.creditorName as string,
        creditorIban: creditor.account.iban,
        creditorBban: creditor.account.bban,
        debtorName: t.debtorName as string,
        debtorIban: debtor.account.iban,
        debtorBban: debtor.account.bban,
        bankTransactionCode: t.bankTransactionCode as string,
        ultimateDebtor: (t.ultimateDebtor as string | undefined) ?? '',
        ultimateCreditor: (t.ultimateCreditor as string | undefined) ?? '',
        purposeCode: t.purposeCode as string,
      });
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

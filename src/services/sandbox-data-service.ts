import { acceptedFixes } from '../domain/accept-fix.js';
import { ApiError, type Problem, toTppMessage } from '../domain/api-error.js';
import { type CustomerType, ENGAGEMENT_ROLES, type EngagementRole } from '../domain/bank.js';
import { isCalendarDate, osloDate } from '../domain/clock.js';
import { type Currency, isCurrency } from '../domain/currency.js';
import { ACCOUNT_NAME_LONGER_MAX_LENGTH, ACCOUNT_NAME_MAX_LENGTH, SANDBOX_CUSTOMERS_PAGE_MAX, SANDBOX_TRANSACTIONS_PAGE_DEFAULT } from '../domain/limits.js';
import { formatAmount } from '../domain/money.js';
import type { TppIdentity } from '../domain/psp-role.js';
import { type SandboxAmountRules, parseSandboxAmount, sandboxTransactionAmount } from '../domain/sandbox-amount.js';
import {
  type BalanceType, balanceTypeOf, counterpartAccount, currentBalanceIndex, customerNumberFindings, ownAccountFindings, transactionDirection,
} from '../domain/sandbox-rules.js';
import { DEFAULT_CUSTOMERS, defaultDataSet, newBankId } from '../sandbox/default-data-set.js';
import type {
  NewSandboxCardTransaction, NewSandboxTransaction, SandboxAccount, SandboxAgreement, SandboxCardAccount, SandboxCardTransaction, SandboxCustomer,
  SandboxCustomerHoldings, SandboxTransaction, TransactionPage,
} from '../store/sandbox-records.js';
import type { Store } from '../store/store.js';
import type { Banks } from './banks.js';

type Json = Record<string, unknown>;
type Link = { href: string; verbs: string[] };

export interface ListQuery {
  fromDate?: string;
  toDate?: string;
  offset?: number;
  limit?: number;
}

/**
 * The sandbox's test data, as the platform's mock-data API: customers, accounts, agreements, card
 * accounts and their transactions (docs/sandbox.md), each TPP in its own sandbox bank (banks.ts): its
 * copy of the default data set and what it creates, which POST /v1/sandbox/initialize resets.
 */
export class SandboxDataService {
  constructor(private readonly store: Store, private readonly banks: Banks) {}

  // ---- Customers ----

  async createCustomer(tpp: TppIdentity, body: unknown, schemaProblems: Problem[]): Promise<Json> {
    const problems: Problem[] = [];
    const warnings: Problem[] = [];
    const b = asObject(body);
    const type = typeof b.type === 'string' ? customerTypeOf(b.type) : undefined;
    if (typeof b.customerNumber === 'string' && type !== undefined) {
      const found = customerNumberFindings(b.customerNumber, type, '$.customerNumber');
      problems.push(...found.problems);
      warnings.push(...found.warnings);
    }
    reject(schemaProblems, problems);
    const customerNumber = b.customerNumber as string;
    const customer = { id: newBankId(), customerNumber, name: b.name as string, type: type!, tppId: tpp.id, createdAt: await this.banks.now(tpp.id) };
    if (!(await this.store.createSandboxCustomer(this.banks.of(tpp.id), customer))) {
      const existing = await this.store.findSandboxCustomer(this.banks.of(tpp.id), { customerNumber });
      const whose = existing === undefined ? '' : existing.tppId === undefined ? ' (a customer of the default data set)' : existing.tppId === tpp.id ? ` (your customer ${existing.id})` : ' (created by another TPP)';
      throw conflict('$.customerNumber', `$.customerNumber: a customer with number ${customerNumber} exists already${whose}; customer numbers are unique in your sandbox bank`);
    }
    return withWarnings(customerView(customer, { agreements: [], accountIds: [], cardAccountIds: [] }), warnings);
  }

  async readCustomer(tpp: TppIdentity, customerId: string): Promise<Json> {
    const customer = await this.visibleCustomer(tpp, customerId);
    const holdings = await this.store.sandboxCustomerHoldings(this.banks.of(tpp.id), [customer.id]);
    return customerView(customer, holdings.get(customer.id)!);
  }

  async listCustomers(tpp: TppIdentity, query: { offset?: number; limit?: number }): Promise<Json[]> {
    const customers = await this.store.listSandboxCustomers(this.banks.of(tpp.id), query.offset ?? 0, query.limit ?? SANDBOX_CUSTOMERS_PAGE_MAX);
    const holdings = await this.store.sandboxCustomerHoldings(this.banks.of(tpp.id), customers.map((c) => c.id));
    return customers.map((c) => customerView(c, holdings.get(c.id)!));
  }

  /** Removes the customer with its accounts, card accounts, agreements, transactions and PSU sessions. */
  async deleteCustomer(tpp: TppIdentity, customerId: string): Promise<void> {
    const customer = await this.visibleCustomer(tpp, customerId);
    if (!(await this.store.deleteSandboxCustomer(this.banks.of(tpp.id), customer.id))) throw unknown('customerId', 'customer', customerId);
  }

  // ---- Accounts ----

  async createAccount(tpp: TppIdentity, body: unknown, acceptFix: string | undefined, schemaProblems: Problem[]): Promise<Json> {
    const b = asObject(body);
    const now = await this.banks.now(tpp.id);
    const problems: Problem[] = [];
    const owner = await this.namedCustomer(tpp, b.customerNumber, '$.customerNumber', problems);
    const nameProblem = accountNameProblem(b.accountName, '$.accountName', acceptFix, osloDate(now));
    if (nameProblem !== undefined) problems.push(nameProblem);
    const numbers = ownAccountFindings(b.bban, b.iban);
    problems.push(...numbers.problems);
    const currency = isCurrency(b.currency) ? b.currency : undefined;
    let creditLineMinor = 0n;
    let balanceMinor = 0n;
    if (currency !== undefined) {
      if (b.creditLine !== undefined) creditLineMinor = amountOf(b.creditLine, currency, '$.creditLine', { negative: false, zero: true }, problems) ?? 0n;
      balanceMinor = balancesOf(b.balances, currency, problems).balanceMinor;
    }
    reject(schemaProblems, problems);

    const bban = b.bban as string;
    const iban = numbers.iban!;
    const conflicts: Problem[] = [];
    if (await this.store.findAccount(this.banks.of(tpp.id), { bban })) conflicts.push({ code: 'CONFLICT', path: '$.bban', text: `$.bban: account ${bban} exists already; account numbers are unique in your sandbox bank` });
    if (typeof b.iban === 'string' && await this.store.findAccount(this.banks.of(tpp.id), { iban })) conflicts.push({ code: 'CONFLICT', path: '$.iban', text: `$.iban: account ${iban} exists already; account numbers are unique in your sandbox bank` });
    if (conflicts.length > 0) throw ApiError.of(conflicts);

    const account = {
      id: newBankId(), customerId: owner!.id, bban, iban, currency: currency!, name: b.accountName as string, product: b.product as string,
      cashAccountType: b.cashAccountType as string, creditLineMinor, balanceMinor, createdAt: now,
    };
    if (!(await this.store.createSandboxAccount(this.banks.of(tpp.id), account))) throw conflict('$.bban', `$.bban: account ${bban} (${iban}) exists already; account numbers are unique in your sandbox bank`);
    return withWarnings(accountView({ ...account, customerNumber: owner!.customerNumber, customerType: owner!.type, customerTppId: owner!.tppId, transactionCount: 0 }), numbers.warnings);
  }

  async readAccount(tpp: TppIdentity, accountId: string): Promise<Json> {
    return accountView(await this.visibleAccount(tpp, accountId, 'mockAccountId'));
  }

  async deleteAccount(tpp: TppIdentity, accountId: string): Promise<void> {
    const account = await this.visibleAccount(tpp, accountId, 'mockAccountId');
    if (!(await this.store.deleteSandboxAccount(this.banks.of(tpp.id), account.id))) throw unknown('mockAccountId', 'account', accountId);
  }

  // ---- Agreements ----

  async createAgreement(tpp: TppIdentity, body: unknown, schemaProblems: Problem[]): Promise<Json> {
    const b = asObject(body);
    const problems: Problem[] = [];
    const owner = await this.namedCustomer(tpp, b.owner, '$.owner', problems);
    if (owner !== undefined && owner.type !== 'CORPORATE') {
      problems.push({ code: 'FORMAT_ERROR', path: '$.owner', text: `$.owner: customer ${owner.customerNumber} is a private customer; the owner of an agreement is a corporate customer` });
    }
    const engagements: { customerId: string; accountId: string; roles: EngagementRole[] }[] = [];
    const seen = new Map<string, number>();
    const entries = Array.isArray(b.engagements) ? b.engagements : [];
    for (const [index, entry] of entries.entries()) {
      const path = `$.engagements[${index}]`;
      const e = asObject(entry);
      const person = await this.namedCustomer(tpp, e.customer, `${path}.customer`, problems);
      if (person !== undefined && person.type !== 'PRIVATE') {
        problems.push({ code: 'FORMAT_ERROR', path: `${path}.customer`, text: `${path}.customer: customer ${person.customerNumber} is a corporate customer; the people engaged on an agreement are private customers` });
      }
      const account = await this.engagedAccount(tpp, asObject(e.account), `${path}.account`, owner, problems);
      const roles = Array.isArray(e.roles) && e.roles.length > 0 && e.roles.every((role) => (ENGAGEMENT_ROLES as readonly unknown[]).includes(role)) ? e.roles as EngagementRole[] : undefined;
      if (person === undefined || account === undefined || roles === undefined) continue;
      const key = `${person.id}|${account.id}`;
      const earlier = seen.get(key);
      if (earlier !== undefined) {
        problems.push({ code: 'FORMAT_ERROR', path, text: `${path} repeats the engagement of customer ${person.customerNumber} on account ${account.bban} ($.engagements[${earlier}]); give each person's roles on an account once` });
        continue;
      }
      seen.set(key, index);
      engagements.push({ customerId: person.id, accountId: account.id, roles });
    }
    reject(schemaProblems, problems);
    const id = newBankId();
    await this.store.createSandboxAgreement(this.banks.of(tpp.id), { id, ownerCustomerId: owner!.id, name: b.name as string, tppId: tpp.id, createdAt: await this.banks.now(tpp.id), engagements });
    return agreementView((await this.store.findSandboxAgreement(this.banks.of(tpp.id), id))!);
  }

  async readAgreement(tpp: TppIdentity, agreementId: string): Promise<Json> {
    return agreementView(await this.visibleAgreement(tpp, agreementId));
  }

  async deleteAgreement(tpp: TppIdentity, agreementId: string): Promise<void> {
    const agreement = await this.visibleAgreement(tpp, agreementId);
    if (!(await this.store.deleteSandboxAgreement(this.banks.of(tpp.id), agreement.id))) throw unknown('agreementId', 'agreement', agreementId);
  }

  // ---- Card accounts ----

  async createCardAccount(tpp: TppIdentity, body: unknown, acceptFix: string | undefined, schemaProblems: Problem[]): Promise<Json> {
    const b = asObject(body);
    const now = await this.banks.now(tpp.id);
    const problems: Problem[] = [];
    const owner = await this.namedCustomer(tpp, b.customerNumber, '$.customerNumber', problems);
    const nameProblem = accountNameProblem(b.name, '$.name', acceptFix, osloDate(now));
    if (nameProblem !== undefined) problems.push(nameProblem);
    const currency = isCurrency(b.currency) ? b.currency : undefined;
    let creditLimitMinor = 0n;
    let balances: { balanceMinor: bigint; view: Json[] } = { balanceMinor: 0n, view: [] };
    if (currency !== undefined) {
      const limit = asObject(b.creditLimit);
      if (b.creditLimit !== undefined && isCurrency(limit.currency)) {
        if (limit.currency !== currency) problems.push(currencyProblem('$.creditLimit.currency', limit.currency, currency, 'the card account'));
        else creditLimitMinor = amountOf(limit.amount, currency, '$.creditLimit.amount', { negative: false, zero: true }, problems) ?? 0n;
      }
      balances = balancesOf(b.balances, currency, problems);
    }
    reject(schemaProblems, problems);

    const maskedPan = b.maskedPan as string;
    const cardBody: Json = withoutEmpty({
      customerNumber: owner!.customerNumber, maskedPan, name: b.name, product: b.product, currency,
      creditLimit: { amount: formatAmount(creditLimitMinor, currency!), currency },
      balances: balances.view,
      cardId: b.cardId, cardIdVNo: b.cardIdVNo, accountNumber: b.accountNumber, expiry: b.expiry, status: b.status,
    });
    const card = {
      id: newBankId(), customerId: owner!.id, maskedPan, name: b.name as string, product: b.product as string, currency: currency!,
      creditLimitMinor, balanceMinor: balances.balanceMinor, body: cardBody, createdAt: now,
    };
    if (!(await this.store.createSandboxCardAccount(this.banks.of(tpp.id), card))) throw conflict('$.maskedPan', `$.maskedPan: a card account with masked card number ${maskedPan} exists already`);
    return cardAccountView({ ...card, customerNumber: owner!.customerNumber, customerTppId: owner!.tppId });
  }

  async readCardAccount(tpp: TppIdentity, cardAccountId: string): Promise<Json> {
    return cardAccountView(await this.visibleCardAccount(tpp, cardAccountId));
  }

  async deleteCardAccount(tpp: TppIdentity, cardAccountId: string): Promise<void> {
    const card = await this.visibleCardAccount(tpp, cardAccountId);
    if (!(await this.store.deleteSandboxCardAccount(this.banks.of(tpp.id), card.id))) throw unknown('mockCardAccountId', 'card account', cardAccountId);
  }

  async addCardTransactions(tpp: TppIdentity, cardAccountId: string, body: unknown, schemaProblems: Problem[]): Promise<Json[]> {
    const card = await this.visibleCardAccount(tpp, cardAccountId);
    const today = osloDate(await this.banks.now(tpp.id));
    const problems: Problem[] = [];
    const transactions: NewSandboxCardTransaction[] = [];
    for (const [index, entry] of (Array.isArray(body) ? body : []).entries()) {
      const path = `$[${index}]`;
      const t = asObject(entry);
      problems.push(...dateProblems(t, path, today, ['transactionDate', 'bookingDate', 'valueDate']));
      const transactionAmount = this.cardAmount(t.transactionAmount, `${path}.transactionAmount`, card.currency, { negative: true, zero: false }, problems);
      const originalAmount = this.cardAmount(t.originalAmount, `${path}.originalAmount`, undefined, { negative: true, zero: false }, problems);
      const markupFee = this.cardAmount(t.markupFee, `${path}.markupFee`, undefined, { negative: false, zero: true }, problems);
      const address = t.cardAcceptorAddress === undefined ? undefined : withoutEmpty(asObject(t.cardAcceptorAddress));
      transactions.push({
        id: newBankId(),
        bookingDate: t.bookingDate as string,
        body: withoutEmpty({
          cardTransactionId: t.cardTransactionId, terminalId: t.terminalId, transactionDate: t.transactionDate, bookingDate: t.bookingDate, valueDate: t.valueDate,
          transactionAmount, originalAmount, merchantCategoryCode: t.merchantCategoryCode, markupFee, markupFeePercentage: t.markupFeePercentage,
          cardAcceptorId: t.cardAcceptorId, cardAcceptorAddress: address !== undefined && Object.keys(address).length > 0 ? address : undefined,
          maskedPan: t.maskedPan, transactionDetails: t.transactionDetails,
          invoiced: t.invoiced === true || t.invoiced === 'true' ? true : t.invoiced === false || t.invoiced === 'false' ? false : undefined,
          proprietaryBankTransactionCode: t.proprietaryBankTransactionCode,
        }),
      });
    }
    reject(schemaProblems, problems);
    const stored = await this.store.addSandboxCardTransactions(card.id, transactions, await this.banks.now(tpp.id));
    if (stored === undefined) throw unknown('mockCardAccountId', 'card account', cardAccountId);
    return stored.map((t) => ({ id: t.id, _links: { self: cardTransactionLink(card.id, t.id) } }));
  }

  async listCardTransactions(tpp: TppIdentity, cardAccountId: string, query: ListQuery): Promise<Json[]> {
    const card = await this.visibleCardAccount(tpp, cardAccountId);
    return (await this.store.listSandboxCardTransactions(card.id, pageOf(query))).map(cardTransactionView);
  }

  async readCardTransaction(tpp: TppIdentity, cardAccountId: string, transactionId: string): Promise<Json> {
    const card = await this.visibleCardAccount(tpp, cardAccountId);
    const transaction = await this.store.findSandboxCardTransaction(card.id, transactionId);
    if (transaction === undefined) throw unknown('transactionId', 'transaction', transactionId, `of card account ${cardAccountId}`);
    return cardTransactionView(transaction);
  }

  // ---- Account transactions ----

  /**
   * Posts test transactions to an account: history, so the balance stays as it is. The direction
   * follows from the side the account is on, never from the amount's sign, which is kept as posted
   * (sandbox-rules.ts transactionDirection). Dates are not after today, and the booking date not
   * after the value date (the platform's rule).
   */
  async addTransactions(tpp: TppIdentity, accountId: string, body: unknown, schemaProblems: Problem[]): Promise<Json[]> {
    const account = await this.visibleAccount(tpp, accountId, 'mockAccountId');
    const today = osloDate(await this.banks.now(tpp.id));
    const problems: Problem[] = [];
    const warnings: Problem[][] = [];
    /** Whether a debtor IBAN is an account of this bank: looked up once per request (a post names the same few counterparts many times). */
    const inThisBank = new Map<string, boolean>();
    const transactions: NewSandboxTransaction[] = [];
    const currency = account.currency as Currency;
    for (const [index, entry] of (Array.isArray(body) ? body : []).entries()) {
      const path = `$[${index}]`;
      const t = asObject(entry);
      if (isCurrency(t.currency) && t.currency !== account.currency) problems.push(currencyProblem(`${path}.currency`, t.currency, account.currency, 'the account'));
      const amount = t.amount === undefined ? undefined : amountOf(t.amount, currency, `${path}.amount`, { negative: true, zero: false, int32: true }, problems);
      problems.push(...dateProblems(t, path, today, ['bookingDate', 'valueDate']));
      const creditor = typeof t.creditorAccount === 'object' && t.creditorAccount !== null ? counterpartAccount(asObject(t.creditorAccount), `${path}.creditorAccount`) : undefined;
      const debtor = typeof t.debtorAccount === 'object' && t.debtorAccount !== null ? counterpartAccount(asObject(t.debtorAccount), `${path}.debtorAccount`) : undefined;
      problems.push(...creditor?.problems ?? [], ...debtor?.problems ?? []);
      if (creditor?.account === undefined || debtor?.account === undefined) continue;
      const posted = { iban: account.iban, bban: account.bban };
      const debtorIban = debtor.account.iban;
      if (debtorIban !== account.iban && !inThisBank.has(debtorIban)) inThisBank.set(debtorIban, await this.store.findAccount(this.banks.of(tpp.id), { iban: debtorIban }) !== undefined);
      const debtorInThisBank = inThisBank.get(debtorIban) ?? false;
      const direction = transactionDirection(posted, { debtor: debtor.account, creditor: creditor.account, debtorInThisBank }, path);
      if ('problem' in direction) problems.push(direction.problem);
      // The account's own number was judged when it was created; a warning goes with the other side only.
      const other = 'direction' in direction && direction.direction === 'debit' ? creditor : debtor;
      warnings.push(other.warnings);
      if (amount === undefined) continue;
      transactions.push({
        id: newBankId(), amountMinor: amount, currency: account.currency, bookingDate: t.bookingDate as string, valueDate: t.valueDate as string,
        remittance: t.remittanceInformationUnstructured as string, creditorName: t.creditorName as string, creditorIban: creditor.account.iban,
        creditorBban: creditor.account.bban, debtorName: t.debtorName as string, debtorIban: debtor.account.iban, debtorBban: debtor.account.bban,
        bankTransactionCode: t.bankTransactionCode as string, ultimateDebtor: (t.ultimateDebtor as string | undefined) ?? '',
        ultimateCreditor: (t.ultimateCreditor as string | undefined) ?? '', purposeCode: t.purposeCode as string,
      });
    }
    reject(schemaProblems, problems);
    const stored = await this.store.addSandboxTransactions(account.id, transactions, await this.banks.now(tpp.id));
    if (stored === undefined) throw unknown('mockAccountId', 'account', accountId);
    return stored.map((t, index) => withWarnings({ id: t.id, _links: { self: transactionLink(account.id, t.id) } }, warnings[index] ?? []));
  }

  /** spec, endpoint 5: the account's transactions in posting order, a page at a time. */
  async listTransactions(tpp: TppIdentity, accountId: string, query: ListQuery): Promise<Json[]> {
    const account = await this.visibleAccount(tpp, accountId, 'mockAccountId');
    return (await this.store.listSandboxTransactions(account.id, pageOf(query))).map(transactionView);
  }

  async readTransaction(tpp: TppIdentity, accountId: string, transactionId: string): Promise<Json> {
    const account = await this.visibleAccount(tpp, accountId, 'mockAccountId');
    const transaction = await this.store.findSandboxTransaction(account.id, transactionId);
    if (transaction === undefined) throw unknown('transactionId', 'transaction', transactionId, `of account ${accountId}`);
    return transactionView(transaction);
  }

  // ---- Initialize ----

  /** Removes the TPP's own test data and restores the default data set for everyone. */
  async initialize(tpp: TppIdentity): Promise<Json> {
    const defaults = defaultDataSet(await this.banks.now(tpp.id));
    const result = await this.store.initializeSandbox(this.banks.of(tpp.id), defaults);
    return {
      deletedCustomers: result.deletedCustomers,
      defaultDataSet: { customers: Object.values(DEFAULT_CUSTOMERS).map((c) => c.customerNumber), accounts: defaults.accounts.length, agreements: defaults.agreements.length },
    };
  }

  // ---- Helpers ----

  private async visibleCustomer(tpp: TppIdentity, customerId: string): Promise<SandboxCustomer> {
    const customer = await this.store.findSandboxCustomer(this.banks.of(tpp.id), { id: customerId });
    if (customer === undefined || !sees(tpp, customer.tppId)) throw unknown('customerId', 'customer', customerId);
    return customer;
  }

  private async visibleAccount(tpp: TppIdentity, accountId: string, param: string): Promise<SandboxAccount> {
    const account = await this.store.findSandboxAccount(this.banks.of(tpp.id), accountId);
    if (account === undefined || !sees(tpp, account.customerTppId)) throw unknown(param, 'account', accountId);
    return account;
  }

  private async visibleAgreement(tpp: TppIdentity, agreementId: string): Promise<SandboxAgreement> {
    const agreement = await this.store.findSandboxAgreement(this.banks.of(tpp.id), agreementId);
    if (agreement === undefined || !sees(tpp, agreement.tppId) || !sees(tpp, agreement.ownerTppId)) throw unknown('agreementId', 'agreement', agreementId);
    return agreement;
  }

  private async visibleCardAccount(tpp: TppIdentity, cardAccountId: string): Promise<SandboxCardAccount> {
    const card = await this.store.findSandboxCardAccount(this.banks.of(tpp.id), cardAccountId);
    if (card === undefined || !sees(tpp, card.customerTppId)) throw unknown('mockCardAccountId', 'card account', cardAccountId);
    return card;
  }

  /** The customer a body names by customer number, when this TPP sees it; else a problem at the path. */
  private async namedCustomer(tpp: TppIdentity, customerNumber: unknown, path: string, problems: Problem[]): Promise<SandboxCustomer | undefined> {
    if (typeof customerNumber !== 'string') return undefined;
    const customer = await this.store.findSandboxCustomer(this.banks.of(tpp.id), { customerNumber });
    if (customer === undefined || !sees(tpp, customer.tppId)) {
      problems.push({ code: 'FORMAT_ERROR', path, text: `${path}: no customer ${customerNumber} is known to this TPP (create it with POST /v1/sandbox/customers, or use one of the default data set)` });
      return undefined;
    }
    return customer;
  }

  /** An account of an engagement: in this bank, and the agreement owner's. */
  private async engagedAccount(tpp: TppIdentity, reference: Json, path: string, owner: SandboxCustomer | undefined, problems: Problem[]): Promise<SandboxAccount | undefined> {
    const { iban, bban } = reference;
    if (iban === undefined && bban === undefined) {
      problems.push({ code: 'FORMAT_ERROR', path, text: `${path} needs an iban or a bban to identify the account` });
      return undefined;
    }
    const byIban = typeof iban === 'string' ? await this.store.findAccount(this.banks.of(tpp.id), { iban }) : undefined;
    const byBban = typeof bban === 'string' ? await this.store.findAccount(this.banks.of(tpp.id), { bban }) : undefined;
    if (typeof iban === 'string' && byIban === undefined) {
      problems.push({ code: 'FORMAT_ERROR', path: `${path}.iban`, text: `${path}.iban: no account ${iban} is in this bank` });
      return undefined;
    }
    if (typeof bban === 'string' && byBban === undefined) {
      problems.push({ code: 'FORMAT_ERROR', path: `${path}.bban`, text: `${path}.bban: no account ${bban} is in this bank` });
      return undefined;
    }
    if (byIban !== undefined && byBban !== undefined && byIban.id !== byBban.id) {
      problems.push({ code: 'FORMAT_ERROR', path: `${path}.bban`, text: `${path}.bban ${bban} and ${path}.iban ${iban} name different accounts` });
      return undefined;
    }
    // Neither is a string: the schema's problem at the field says so; there is no account to look up.
    const found = byIban ?? byBban;
    if (found === undefined) return undefined;
    const account = await this.store.findSandboxAccount(this.banks.of(tpp.id), found.id);
    if (account === undefined) return undefined;
    if (owner !== undefined && account.customerId !== owner.id) {
      problems.push({ code: 'FORMAT_ERROR', path, text: `${path}: account ${account.bban} is not an account of the agreement's owner ${owner.customerNumber}; an agreement engages people on the owner's accounts` });
      return undefined;
    }
    return account;
  }

  /** A card transaction's amount object, normalised (amount as a string); the currency is checked against the card's where given. */
  private cardAmount(value: unknown, path: string, currency: string | undefined, rules: SandboxAmountRules, problems: Problem[]): Json | undefined {
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
}

// ---- Views ----

function customerView(customer: SandboxCustomer, holdings: SandboxCustomerHoldings): Json {
  return {
    customerId: customer.id,
    customerNumber: customer.customerNumber,
    customerType: customer.type,
    customerName: customer.name,
    agreements: holdings.agreements.map((a) => ({ id: a.id, name: a.name, engagements: a.accountIds })),
    accounts: holdings.accountIds,
    cardAccounts: holdings.cardAccountIds,
    _links: { self: link(`/v1/sandbox/customers/${encodeURIComponent(customer.id)}`, 'GET', 'DELETE') },
  };
}

function accountView(account: SandboxAccount): Json {
  const currency = account.currency as Currency;
  const self = `/v1/sandbox/accounts/${encodeURIComponent(account.id)}`;
  return {
    id: account.id,
    customerNumber: account.customerNumber,
    accountName: account.name,
    bban: account.bban,
    iban: account.iban,
    currency: account.currency,
    product: account.product,
    cashAccountType: account.cashAccountType,
    creditLine: formatAmount(account.creditLineMinor, currency),
    balances: [{ balanceType: 'expected', balanceAmount: { amount: formatAmount(account.balanceMinor, currency), currency } }],
    _links: { self: link(self, 'GET', 'DELETE'), transactions: link(`${self}/transactions`, 'GET', 'POST') },
  };
}

function agreementView(agreement: SandboxAgreement): Json {
  return {
    id: agreement.id,
    owner: agreement.ownerCustomerNumber,
    name: agreement.name,
    engagements: agreement.engagements.map((e) => ({ customer: e.customerNumber, account: { iban: e.iban, bban: e.bban }, roles: e.roles })),
    _links: { self: link(`/v1/sandbox/agreements/${encodeURIComponent(agreement.id)}`, 'GET', 'DELETE') },
  };
}

function cardAccountView(card: SandboxCardAccount): Json {
  const self = `/v1/sandbox/card-accounts/${encodeURIComponent(card.id)}`;
  return { id: card.id, ...card.body, _links: { self: link(self, 'GET', 'DELETE'), transactions: link(`${self}/transactions`, 'GET', 'POST') } };
}

function cardTransactionView(transaction: SandboxCardTransaction): Json {
  return { id: transaction.id, ...transaction.body, _links: { self: cardTransactionLink(transaction.cardAccountId, transaction.id) } };
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

/**
 * A create's answer with the warnings about its test data: WARNING tppMessages beside the resource,
 * saying what the sandbox took and what will happen later (docs/sandbox.md). Without warnings, the
 * resource alone.
 */
function withWarnings(view: Json, warnings: readonly Problem[]): Json {
  return warnings.length === 0 ? view : { ...view, tppMessages: warnings.map((w) => toTppMessage(w, 'WARNING')) };
}

function link(href: string, ...verbs: string[]): Link {
  return { href, verbs };
}

function transactionLink(accountId: string, id: string): Link {
  return link(`/v1/sandbox/accounts/${encodeURIComponent(accountId)}/transactions/${encodeURIComponent(id)}`, 'GET');
}

function cardTransactionLink(cardAccountId: string, id: string): Link {
  return link(`/v1/sandbox/card-accounts/${encodeURIComponent(cardAccountId)}/transactions/${encodeURIComponent(id)}`, 'GET');
}

// ---- Rules ----

function sees(tpp: TppIdentity, ownerTppId: string | undefined): boolean {
  return ownerTppId === undefined || ownerTppId === tpp.id;
}

function asObject(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Json : {};
}

function customerTypeOf(text: string): CustomerType | undefined {
  const upper = text.toUpperCase();
  return upper === 'PRIVATE' || upper === 'CORPORATE' ? upper : undefined;
}

/** spec, Limits: the name of account and card account details is 35 characters, 70 with accept-fix longer-name. */
function accountNameProblem(name: unknown, path: string, acceptFix: string | undefined, today: string): Problem | undefined {
  if (typeof name !== 'string') return undefined;
  const length = [...name].length;
  if (length <= ACCOUNT_NAME_MAX_LENGTH || length > ACCOUNT_NAME_LONGER_MAX_LENGTH) return undefined;
  if (acceptedFixes(acceptFix, today).active.has('longer-name')) return undefined;
  return { code: 'FORMAT_ERROR', path, text: `${path} must be at most ${ACCOUNT_NAME_MAX_LENGTH} characters long (it is ${length}); ${ACCOUNT_NAME_LONGER_MAX_LENGTH} with x-accept-fix longer-name` };
}

function amountOf(value: unknown, currency: Currency, path: string, rules: SandboxAmountRules, problems: Problem[]): bigint | undefined {
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  const result = parseSandboxAmount(value, currency, rules);
  if (result.ok) return result.minor;
  problems.push({ code: 'FORMAT_ERROR', path, text: `${path} ${result.reason}` });
  return undefined;
}

function currencyProblem(path: string, given: string, expected: string, of: string): Problem {
  return { code: 'FORMAT_ERROR', path, text: `${path} is ${given}, but ${of} is in ${expected}: give amounts in the currency of ${of}` };
}

/**
 * The balances of an account or card account: each type one the sandbox knows, each in the account's
 * currency. The first of type interimAvailable, expected or closingBooked (else the first) is the
 * account's balance.
 */
function balancesOf(value: unknown, currency: Currency, problems: Problem[]): { balanceMinor: bigint; view: Json[] } {
  if (!Array.isArray(value)) return { balanceMinor: 0n, view: [] };
  const types: (BalanceType | undefined)[] = [];
  const amounts: (bigint | undefined)[] = [];
  const view: Json[] = [];
  for (const [index, entry] of value.entries()) {
    const path = `$.balances[${index}]`;
    const balance = asObject(entry);
    const type = typeof balance.balanceType === 'string' ? balanceTypeOf(balance.balanceType) : undefined;
    if (typeof balance.balanceType === 'string' && type === undefined) {
      problems.push({ code: 'FORMAT_ERROR', path: `${path}.balanceType`, text: `${path}.balanceType '${balance.balanceType}' is not a balance type: closingBooked, expected, openingBooked, interimAvailable, interimBooked, forwardAvailable, nonInvoiced or authorised (any case, EXPECTED as well)` });
    }
    types.push(type);
    const amount = asObject(balance.balanceAmount);
    let minor: bigint | undefined;
    if (isCurrency(amount.currency)) {
      if (amount.currency !== currency) problems.push(currencyProblem(`${path}.balanceAmount.currency`, amount.currency, currency, 'the account'));
      else minor = amountOf(amount.amount, currency, `${path}.balanceAmount.amount`, { negative: true, zero: true }, problems);
    }
    amounts.push(minor);
    view.push(withoutEmpty({
      balanceType: type, balanceAmount: minor === undefined ? undefined : { amount: formatAmount(minor, currency), currency },
      referenceDate: balance.referenceDate, lastChangeDateTime: balance.lastChangeDateTime, lastCommittedTransaction: balance.lastCommittedTransaction,
      creditLimitIncluded: balance.creditLimitIncluded,
    }));
  }
  const index = currentBalanceIndex(types);
  return { balanceMinor: index === undefined ? 0n : amounts[index] ?? 0n, view };
}

/** The platform's rule: dates not after today (Norway, business clock), and the booking date not after the value date. */
function dateProblems(t: Json, path: string, today: string, fields: readonly string[]): Problem[] {
  const problems: Problem[] = [];
  for (const field of fields) {
    const value = t[field];
    if (typeof value === 'string' && isCalendarDate(value) && value > today) {
      problems.push({ code: 'FORMAT_ERROR', path: `${path}.${field}`, text: `${path}.${field} ${value} is after today (${today}, Norwegian time): test transactions are history` });
    }
  }
  const { bookingDate, valueDate } = t;
  if (typeof bookingDate === 'string' && typeof valueDate === 'string' && isCalendarDate(bookingDate) && isCalendarDate(valueDate) && bookingDate > valueDate) {
    problems.push({ code: 'FORMAT_ERROR', path: `${path}.bookingDate`, text: `${path}.bookingDate ${bookingDate} is after ${path}.valueDate ${valueDate}; the booking date must not be after the value date` });
  }
  return problems;
}

/** The platform's example bodies send optional text empty (""): read as absent, and left out of answers. */
function withoutEmpty(object: Json): Json {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined && value !== ''));
}

function pageOf(query: ListQuery): TransactionPage {
  if (query.fromDate !== undefined && query.toDate !== undefined && query.fromDate > query.toDate) {
    throw ApiError.of([{ code: 'FORMAT_ERROR', path: 'query:toDate', text: `query parameter toDate ${query.toDate} is before fromDate ${query.fromDate}` }]);
  }
  return { fromDate: query.fromDate, toDate: query.toDate, offset: query.offset ?? 0, limit: query.limit ?? SANDBOX_TRANSACTIONS_PAGE_DEFAULT };
}

/**
 * Answers every problem at once: the schema's and the rules'. A rule's problem under a field the
 * schema already refused says nothing new and is left out.
 */
/**
 * The schema's problems, and the service's own on fields the schema did not already refuse (nor a
 * field around them). Linear: each path's ancestors are looked up in a set, not compared with every
 * refused path (10 000 of each took seconds).
 */
function reject(schemaProblems: readonly Problem[], problems: readonly Problem[]): void {
  const refused = new Set(schemaProblems.map((p) => p.path).filter((p): p is string => p !== undefined));
  const covered = (path: string | undefined) => path !== undefined && refused.size > 0 && pathAndAncestors(path).some((p) => refused.has(p));
  const all = [...schemaProblems, ...problems.filter((p) => !covered(p.path))];
  if (all.length > 0) throw ApiError.of(all);
}

/** `$.a[0].b` → `$.a[0].b`, `$.a[0]`, `$.a`, `$`: the path cut before each `.` and `[` (outside quoted names too: a cut inside one only adds a path no problem has). */
function pathAndAncestors(path: string): string[] {
  const paths = [path];
  for (let i = path.length - 1; i > 0; i--) {
    const c = path[i];
    if (c === '.' || c === '[') paths.push(path.slice(0, i));
  }
  return paths;
}

function conflict(path: string, text: string): ApiError {
  return ApiError.of([{ code: 'CONFLICT', path, text }]);
}

function unknown(param: string, kind: string, id: string, of = ''): ApiError {
  const text = `no ${kind} ${id}${of === '' ? '' : ` ${of}`} is known to this TPP`;
  return ApiError.of([{ code: 'RESOURCE_UNKNOWN', path: `path:${param}`, text }]);
}

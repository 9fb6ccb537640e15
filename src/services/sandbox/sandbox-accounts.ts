import type { LedgerStore } from '../../store/ledger-store.js';
import type { SandboxDataStore } from '../../store/sandbox-data-store.js';
import { type Json, withWarnings } from '../../domain/json.js';
import { ApiError, type Problem } from '../../domain/api-error.js';
import { osloDate } from '../../domain/clock.js';
import { type Currency, isCurrency } from '../../domain/currency.js';
import { formatAmount } from '../../domain/money.js';
import type { TppIdentity } from '../../domain/psp-role.js';
import { ownAccountFindings } from '../../domain/sandbox-rules.js';
import { type AccountStatus, isAccountStatus, newBankId } from '../../domain/bank.js';
import type { SandboxAccount } from '../../store/sandbox-records.js';
import type { Banks } from '../banks.js';
import {
  accountNameProblem,
  amountOf,
  asObject,
  balancesOf,
  conflict,
  reject,
  unknown,
  asWarnings,
} from './sandbox-input.js';
import { link } from './sandbox-links.js';
import type { SandboxLookup } from './sandbox-lookup.js';

/** Sandbox accounts: create, read, delete. */
export class SandboxAccounts {
  constructor(
    private readonly store: LedgerStore & SandboxDataStore,
    private readonly banks: Banks,
    private readonly lookup: SandboxLookup,
  ) {}

  async createAccount(
    tpp: TppIdentity,
    body: unknown,
    acceptFix: string | undefined,
    schemaProblems: Problem[],
  ): Promise<Json> {
    const b = asObject(body);
    const now = await this.banks.now(tpp.id);
    const problems: Problem[] = [];
    const owner = await this.lookup.namedCustomer(tpp, b.customerNumber, '$.customerNumber', problems);
    const nameProblem = accountNameProblem(b.accountName, '$.accountName', acceptFix, osloDate(now));
    if (nameProblem !== undefined) problems.push(nameProblem);
    const numbers = ownAccountFindings(b.bban, b.iban);
    problems.push(...numbers.problems);
    const currency = isCurrency(b.currency) ? b.currency : undefined;
    let creditLineMinor = 0n;
    let balanceMinor = 0n;
    if (currency !== undefined) {
      if (b.creditLine !== undefined)
        creditLineMinor =
          amountOf(b.creditLine, currency, '$.creditLine', { negative: false, zero: true }, problems) ?? 0n;
      balanceMinor = balancesOf(b.balances, currency, problems).balanceMinor;
    }
    reject(schemaProblems, problems);

    const bban = b.bban as string;
    const iban = numbers.iban!;
    await this.refuseTakenNumbers(tpp, bban, iban, typeof b.iban === 'string');

    const account = {
      id: newBankId(),
      customerId: owner!.id,
      bban,
      iban,
      currency: currency!,
      name: b.accountName as string,
      product: b.product as string,
      cashAccountType: b.cashAccountType as string,
      creditLineMinor,
      balanceMinor,
      status: accountStatusOf(b.status),
      createdAt: now,
    };
    if (!(await this.store.createSandboxAccount(this.banks.of(tpp.id), account)))
      throw conflict(
        '$.bban',
        `$.bban: account ${bban} (${iban}) exists already; account numbers are unique in your sandbox bank`,
      );
    return withWarnings(
      accountView({
        ...account,
        customerNumber: owner!.customerNumber,
        customerType: owner!.type,
        transactionCount: 0,
      }),
      asWarnings(numbers.warnings),
    );
  }

  /** A 409 naming each of the account's numbers (its IBAN when the body gave it) the TPP's bank has already. */
  private async refuseTakenNumbers(tpp: TppIdentity, bban: string, iban: string, ibanGiven: boolean): Promise<void> {
    const conflicts: Problem[] = [];
    if (await this.store.findAccount(this.banks.of(tpp.id), { bban }))
      conflicts.push({
        code: 'CONFLICT',
        path: '$.bban',
        text: `$.bban: account ${bban} exists already; account numbers are unique in your sandbox bank`,
      });
    if (ibanGiven && (await this.store.findAccount(this.banks.of(tpp.id), { iban })))
      conflicts.push({
        code: 'CONFLICT',
        path: '$.iban',
        text: `$.iban: account ${iban} exists already; account numbers are unique in your sandbox bank`,
      });
    if (conflicts.length > 0) throw ApiError.of(conflicts);
  }

  async readAccount(tpp: TppIdentity, accountId: string): Promise<Json> {
    return accountView(await this.lookup.visibleAccount(tpp, accountId, 'mockAccountId'));
  }

  /**
   * PATCH: a test changes the account's status (blocked, deleted: a payment from or to it is then
   * rejected when it executes). A body the schema refused is refused whole, as the customer's PATCH
   * does; the answer is the account as it is now.
   */
  async updateAccount(tpp: TppIdentity, accountId: string, body: unknown, schemaProblems: Problem[]): Promise<Json> {
    reject(schemaProblems, []);
    const status = accountStatusOf(asObject(body).status);
    if (!(await this.store.updateSandboxAccountStatus(this.banks.of(tpp.id), accountId, status)))
      throw unknown('mockAccountId', 'account', accountId);
    return this.readAccount(tpp, accountId);
  }

  async deleteAccount(tpp: TppIdentity, accountId: string): Promise<void> {
    if (!(await this.store.deleteSandboxAccount(this.banks.of(tpp.id), accountId)))
      throw unknown('mockAccountId', 'account', accountId);
  }
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
    balances: [
      { balanceType: 'expected', balanceAmount: { amount: formatAmount(account.balanceMinor, currency), currency } },
    ],
    status: account.status,
    _links: {
      self: link(self, 'GET', 'DELETE'),
      transactions: link(`${self}/transactions`, 'GET', 'POST'),
    },
  };
}

/** The status a body gives (any case, as the schema takes it); enabled when it gives none. */
function accountStatusOf(value: unknown): AccountStatus {
  const status = typeof value === 'string' ? value.toLowerCase() : 'enabled';
  return isAccountStatus(status) ? status : 'enabled';
}

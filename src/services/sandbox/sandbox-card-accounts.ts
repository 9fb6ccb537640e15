import type { SandboxDataStore } from '../../store/sandbox-data-store.js';
import type { Json } from '../../domain/json.js';
import type { Problem } from '../../domain/api-error.js';
import { osloDate } from '../../domain/clock.js';
import { isCurrency } from '../../domain/currency.js';
import { formatAmount } from '../../domain/money.js';
import type { TppIdentity } from '../../domain/psp-role.js';
import { newBankId } from '../../domain/bank.js';
import type { SandboxCardAccount } from '../../store/sandbox-records.js';
import type { Banks } from '../banks.js';
import {
  accountNameProblem,
  amountOf,
  asObject,
  balancesOf,
  currencyProblem,
  reject,
  unknown,
  withoutEmpty,
} from './sandbox-input.js';
import { link } from './sandbox-links.js';
import type { SandboxLookup } from './sandbox-lookup.js';

/** Sandbox card accounts: create, read, delete. */
export class SandboxCardAccounts {
  constructor(
    private readonly store: SandboxDataStore,
    private readonly banks: Banks,
    private readonly lookup: SandboxLookup,
  ) {}

  async createCardAccount(
    tpp: TppIdentity,
    body: unknown,
    acceptFix: string | undefined,
    schemaProblems: Problem[],
  ): Promise<Json> {
    const b = asObject(body);
    const now = await this.banks.now(tpp.id);
    const problems: Problem[] = [];
    const owner = await this.lookup.namedCustomer(tpp, b.customerNumber, '$.customerNumber', problems);
    const nameProblem = accountNameProblem(b.name, '$.name', acceptFix, osloDate(now));
    if (nameProblem !== undefined) problems.push(nameProblem);
    const currency = isCurrency(b.currency) ? b.currency : undefined;
    let creditLimitMinor = 0n;
    let balances: { balanceMinor: bigint; view: Json[] } = { balanceMinor: 0n, view: [] };
    if (currency !== undefined) {
      const limit = asObject(b.creditLimit);
      if (b.creditLimit !== undefined && isCurrency(limit.currency)) {
        if (limit.currency !== currency)
          problems.push(currencyProblem('$.creditLimit.currency', limit.currency, currency, 'the card account'));
        else
          creditLimitMinor =
            amountOf(limit.amount, currency, '$.creditLimit.amount', { negative: false, zero: true }, problems) ?? 0n;
      }
      balances = balancesOf(b.balances, currency, problems);
    }
    reject(schemaProblems, problems);

    const maskedPan = b.maskedPan as string;
    const cardBody: Json = withoutEmpty({
      customerNumber: owner!.customerNumber,
      maskedPan,
      name: b.name,
      product: b.product,
      currency,
      creditLimit: { amount: formatAmount(creditLimitMinor, currency!), currency },
      balances: balances.view,
      cardId: b.cardId,
      cardIdVNo: b.cardIdVNo,
      accountNumber: b.accountNumber,
      expiry: b.expiry,
      status: b.status,
    });
    const card = {
      id: newBankId(),
      customerId: owner!.id,
      maskedPan,
      name: b.name as string,
      product: b.product as string,
      currency: currency!,
      creditLimitMinor,
      balanceMinor: balances.balanceMinor,
      body: cardBody,
      createdAt: now,
    };
    // Masked card numbers need not be unique; only a new id already taken fails, which is a fault.
    if (!(await this.store.createSandboxCardAccount(this.banks.of(tpp.id), card)))
      throw new Error(`card account id ${card.id} is taken`);
    return cardAccountView({ ...card, customerNumber: owner!.customerNumber });
  }

  async readCardAccount(tpp: TppIdentity, cardAccountId: string): Promise<Json> {
    return cardAccountView(await this.lookup.visibleCardAccount(tpp, cardAccountId));
  }

  async deleteCardAccount(tpp: TppIdentity, cardAccountId: string): Promise<void> {
    if (!(await this.store.deleteSandboxCardAccount(this.banks.of(tpp.id), cardAccountId)))
      throw unknown('mockCardAccountId', 'card account', cardAccountId);
  }
}

function cardAccountView(card: SandboxCardAccount): Json {
  const self = `/v1/sandbox/card-accounts/${encodeURIComponent(card.id)}`;
  return {
    id: card.id,
    ...card.body,
    _links: { self: link(self, 'GET', 'DELETE'), transactions: link(`${self}/transactions`, 'GET', 'POST') },
  };
}

import type { LedgerStore } from '../../store/ledger-store.js';
import type { SandboxDataStore } from '../../store/sandbox-data-store.js';
import type { Json } from '../../domain/json.js';
import type { Problem } from '../../domain/api-error.js';
import type { TppIdentity } from '../../domain/psp-role.js';
import type {
  SandboxAccount,
  SandboxAgreement,
  SandboxCardAccount,
  SandboxCustomer,
} from '../../store/sandbox-records.js';
import type { Banks } from '../banks.js';
import { unknown } from './sandbox-input.js';

/** The part of the sandbox bank a TPP sees: resources by id, customers by number, accounts of an engagement. */
export class SandboxLookup {
  constructor(
    private readonly store: LedgerStore & SandboxDataStore,
    private readonly banks: Banks,
  ) {}

  async visibleCustomer(tpp: TppIdentity, customerId: string): Promise<SandboxCustomer> {
    const customer = await this.store.findSandboxCustomer(this.banks.of(tpp.id), { id: customerId });
    if (customer === undefined) throw unknown('customerId', 'customer', customerId);
    return customer;
  }

  async visibleAccount(tpp: TppIdentity, accountId: string, param: string): Promise<SandboxAccount> {
    const account = await this.store.findSandboxAccount(this.banks.of(tpp.id), accountId);
    if (account === undefined) throw unknown(param, 'account', accountId);
    return account;
  }

  async visibleAgreement(tpp: TppIdentity, agreementId: string): Promise<SandboxAgreement> {
    const agreement = await this.store.findSandboxAgreement(this.banks.of(tpp.id), agreementId);
    if (agreement === undefined) throw unknown('agreementId', 'agreement', agreementId);
    return agreement;
  }

  async visibleCardAccount(tpp: TppIdentity, cardAccountId: string): Promise<SandboxCardAccount> {
    const card = await this.store.findSandboxCardAccount(this.banks.of(tpp.id), cardAccountId);
    if (card === undefined) throw unknown('mockCardAccountId', 'card account', cardAccountId);
    return card;
  }

  /** The customer a body names by customer number, when this TPP sees it; else a problem at the path. */
  async namedCustomer(
    tpp: TppIdentity,
    customerNumber: unknown,
    path: string,
    problems: Problem[],
  ): Promise<SandboxCustomer | undefined> {
    if (typeof customerNumber !== 'string') return undefined;
    const customer = await this.store.findSandboxCustomer(this.banks.of(tpp.id), { customerNumber });
    if (customer === undefined) {
      problems.push({
        code: 'FORMAT_ERROR',
        path,
        text: `${path}: no customer ${customerNumber} is known to this TPP (create it with POST /v1/sandbox/customers, or use one of the default data set)`,
      });
      return undefined;
    }
    return customer;
  }

  /** An account of an engagement: in this bank, and the agreement owner's. */
  async engagedAccount(
    tpp: TppIdentity,
    reference: Json,
    path: string,
    owner: SandboxCustomer | undefined,
    problems: Problem[],
  ): Promise<SandboxAccount | undefined> {
    const { iban, bban } = reference;
    if (iban === undefined && bban === undefined) {
      problems.push({ code: 'FORMAT_ERROR', path, text: `${path} needs an iban or a bban to identify the account` });
      return undefined;
    }
    const byIban = typeof iban === 'string' ? await this.store.findAccount(this.banks.of(tpp.id), { iban }) : undefined;
    const byBban = typeof bban === 'string' ? await this.store.findAccount(this.banks.of(tpp.id), { bban }) : undefined;
    if (typeof iban === 'string' && byIban === undefined) {
      problems.push({
        code: 'FORMAT_ERROR',
        path: `${path}.iban`,
        text: `${path}.iban: no account ${iban} is in this bank`,
      });
      return undefined;
    }
    if (typeof bban === 'string' && byBban === undefined) {
      problems.push({
        code: 'FORMAT_ERROR',
        path: `${path}.bban`,
        text: `${path}.bban: no account ${bban} is in this bank`,
      });
      return undefined;
    }
    if (byIban !== undefined && byBban !== undefined && byIban.id !== byBban.id) {
      problems.push({
        code: 'FORMAT_ERROR',
        path: `${path}.bban`,
        text: `${path}.bban ${bban} and ${path}.iban ${iban} name different accounts`,
      });
      return undefined;
    }
    // Neither is a string: the schema's problem at the field says so; there is no account to look up.
    const found = byIban ?? byBban;
    if (found === undefined) return undefined;
    const account = await this.store.findSandboxAccount(this.banks.of(tpp.id), found.id);
    if (account === undefined) return undefined;
    if (owner !== undefined && account.customerId !== owner.id) {
      problems.push({
        code: 'FORMAT_ERROR',
        path,
        text: `${path}: account ${account.bban} is not an account of the agreement's owner ${owner.customerNumber}; an agreement engages people on the owner's accounts`,
      });
      return undefined;
    }
    return account;
  }
}

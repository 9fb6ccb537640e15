import type { ConsentStore } from '../store/consent-store.js';
import type { ScaStore } from '../store/sca-store.js';
import type { BindingStore } from '../store/binding-store.js';
import type { BankCore } from '../core/bank-core.js';
import type { ReferenceRates } from '../domain/reference-rates.js';
import { AisAccess } from './ais/ais-access.js';
import { AisAccounts } from './ais/ais-accounts.js';
import { AisCardAccounts } from './ais/ais-card-accounts.js';
import { AisConsents } from './ais/ais-consents.js';
import { AisPending } from './ais/ais-pending.js';
import { AisTransactions } from './ais/ais-transactions.js';
import type { Banks } from './banks.js';
import type { ScaService } from './sca-service.js';

export type { AisRequest } from './ais/ais-access.js';
export type { TransactionListQuery } from './ais/transaction-query.js';

/**
 * Account information as the Tietoevry platform offers it (docs/ais.md): consents the PSU gives on
 * the bank's page, and reads of the accounts, card accounts, balances and transactions they share,
 * from the same store in the sandbox (each TPP's own bank) and in production. One service per
 * resource under services/ais/, made together because every read goes through one AisAccess (its
 * rules, the count of unattended reads, the WARNINGs).
 */
export class AisService {
  readonly consents: AisConsents;
  readonly accounts: AisAccounts;
  readonly transactions: AisTransactions;
  readonly cardAccounts: AisCardAccounts;

  /** `bic`: the bank's BIC, which its accounts carry (BANK_BIC). */
  constructor(
    store: ConsentStore & ScaStore & BindingStore,
    core: BankCore,
    banks: Banks,
    rates: ReferenceRates,
    sca: ScaService,
    bic: string,
  ) {
    this.consents = new AisConsents(store, core, banks, sca);
    const access = new AisAccess(store, core, banks, this.consents);
    const pending = new AisPending(core, rates);
    this.accounts = new AisAccounts(access, pending, bic);
    this.transactions = new AisTransactions(core, access, pending);
    this.cardAccounts = new AisCardAccounts(core, access);
  }
}

import { BankBulk } from './sandbox/bank-bulk.js';
import type { LedgerStore } from '../store/ledger-store.js';
import type { SandboxDataStore } from '../store/sandbox-data-store.js';
import type { SnapshotStore } from '../store/snapshot-records.js';
import type { Banks } from './banks.js';
import { SandboxLookup } from './sandbox/sandbox-lookup.js';
import { SandboxCustomers } from './sandbox/sandbox-customers.js';
import { SandboxAccounts } from './sandbox/sandbox-accounts.js';
import { SandboxAgreements } from './sandbox/sandbox-agreements.js';
import { SandboxCardAccounts } from './sandbox/sandbox-card-accounts.js';
import { SandboxCardTransactions } from './sandbox/sandbox-card-transactions.js';
import { SandboxAccountTransactions } from './sandbox/sandbox-account-transactions.js';
import { SandboxStandingOrders } from './sandbox/sandbox-standing-orders.js';
import { SandboxInitialize } from './sandbox/sandbox-initialize.js';
import { SandboxSnapshots } from './sandbox/sandbox-snapshots.js';
import { SandboxScenarios } from './sandbox/sandbox-scenarios.js';

export type { ListQuery } from './sandbox/sandbox-input.js';

/**
 * The sandbox's test data, as the platform's mock-data API (docs/sandbox.md): one service per resource
 * under services/sandbox/, made together because they share the TPP's view of its bank (SandboxLookup).
 */
export class SandboxDataService {
  readonly customers: SandboxCustomers;
  readonly accounts: SandboxAccounts;
  readonly agreements: SandboxAgreements;
  readonly cardAccounts: SandboxCardAccounts;
  readonly cardTransactions: SandboxCardTransactions;
  readonly accountTransactions: SandboxAccountTransactions;
  readonly initializer: SandboxInitialize;
  readonly standingOrders: SandboxStandingOrders;
  readonly snapshots: SandboxSnapshots;
  /** Scenarios on demand: the rules a TPP's test arms (docs/scenarios.md). */
  readonly scenarios: SandboxScenarios;

  constructor(store: LedgerStore & SandboxDataStore & SnapshotStore, banks: Banks) {
    const lookup = new SandboxLookup(store, banks);
    this.customers = new SandboxCustomers(store, banks, lookup);
    this.accounts = new SandboxAccounts(store, banks, lookup);
    this.agreements = new SandboxAgreements(store, banks, lookup);
    this.cardAccounts = new SandboxCardAccounts(store, banks, lookup);
    this.cardTransactions = new SandboxCardTransactions(store, banks, lookup);
    this.accountTransactions = new SandboxAccountTransactions(store, banks, lookup);
    // One for both: a TPP's rate of bulk operations counts saves, restores and initializes together.
    const bulk = new BankBulk(store, banks);
    this.initializer = new SandboxInitialize(store, banks, bulk);
    this.standingOrders = new SandboxStandingOrders(store, banks, lookup);
    this.snapshots = new SandboxSnapshots(store, banks, bulk);
    this.scenarios = new SandboxScenarios(store, banks);
  }
}

import type { SandboxDataStore } from '../../store/sandbox-data-store.js';
import type { Json } from '../../domain/json.js';
import type { TppIdentity } from '../../domain/psp-role.js';
import { DEFAULT_CUSTOMERS, defaultDataSet } from '../../sandbox/default-data-set.js';
import type { Banks } from '../banks.js';
import type { BankBulk } from './bank-bulk.js';

/** POST /v1/sandbox/initialize: the TPP's test data back to the default data set. */
export class SandboxInitialize {
  constructor(
    private readonly store: SandboxDataStore,
    private readonly banks: Banks,
    private readonly bulk: BankBulk,
  ) {}

  /** Resets the TPP's sandbox bank to the default data set; other banks are untouched (the console gives only the id). */
  async initialize(tpp: Pick<TppIdentity, 'id'>): Promise<Json> {
    const defaults = defaultDataSet(await this.banks.now(tpp.id));
    const result = await this.bulk.run(tpp.id, 'initialize', () =>
      this.store.initializeSandbox(this.banks.of(tpp.id), defaults),
    );
    return {
      deletedCustomers: result.deletedCustomers,
      defaultDataSet: {
        customers: Object.values(DEFAULT_CUSTOMERS).map((c) => c.customerNumber),
        accounts: defaults.accounts.length,
        agreements: defaults.agreements.length,
      },
    };
  }
}

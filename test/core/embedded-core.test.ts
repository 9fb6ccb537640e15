import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedCore } from '../../src/core/embedded/embedded-core.js';
import { LedgerPayments } from '../../src/core/embedded/ledger-payments.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';
import { defaultDataSet } from '../../src/sandbox/default-data-set.js';
import { Banks } from '../../src/services/banks.js';
import { BatchRunner } from '../../src/services/batch-runner.js';
import { InstantExecution } from '../../src/services/instant-execution.js';
import { type DatabaseLocation, openStore } from '../../src/store/open-store.js';
import { createMigratedTestDatabase } from '../support/postgres.js';
import { type CoreUnderTest, coreContract } from './core-contract.js';

/** The embedded core over a store, production's bank ('') with the default data set, and its batch. */
async function embedded(location: DatabaseLocation, cleanUp: () => Promise<void>): Promise<CoreUnderTest> {
  const store = await openStore(location);
  await store.migrate();
  const now = new Date();
  await store.openBank('', now, defaultDataSet);
  const banks = new Banks(store, 'production');
  const rates = new ReferenceRates(SANDBOX_REFERENCE_RATES);
  const runner = new BatchRunner(store, banks, rates);
  const instant = new InstantExecution(store, rates, 'production');
  const payments = new LedgerPayments(store, {
    now: async (bank) => (await banks.clockOfBank(bank)).now(),
    rates,
    executeInstant: (bank, ids, now) => instant.execute(bank, ids, now),
  });
  return {
    core: new EmbeddedCore(store, payments),
    store,
    runBatch: async () => {
      await runner.runNow('');
    },
    close: async () => {
      await store.close();
      await cleanUp();
    },
  };
}

coreContract('embedded, on SQLite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'embedded-core-'));
  return embedded({ kind: 'sqlite', path: join(dir, 'core.db') }, () => rm(dir, { recursive: true, force: true }));
});

coreContract('embedded, on PostgreSQL', async () => {
  const database = await createMigratedTestDatabase();
  return embedded({ kind: 'postgres', url: database.url }, () => database.drop());
});

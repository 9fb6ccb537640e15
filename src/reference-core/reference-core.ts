import type { FastifyInstance } from 'fastify';
import { EmbeddedCore } from '../core/embedded/embedded-core.js';
import { LedgerPayments } from '../core/embedded/ledger-payments.js';
import type { CoreKey } from '../core/http/core-signature.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../domain/reference-rates.js';
import { defaultDataSet } from '../sandbox/default-data-set.js';
import { Banks, PRODUCTION_BANK } from '../services/banks.js';
import { BatchRunner, BatchScheduler } from '../services/batch-runner.js';
import { InstantExecution } from '../services/instant-execution.js';
import { type DatabaseLocation, openStore } from '../store/open-store.js';
import type { Store } from '../store/store.js';
import { wrapStoreMethods } from '../store/store-wrapper.js';
import type { ExecutionOutcome } from '../store/ledger-records.js';
import type { PeriodicOutcome } from '../store/periodic-records.js';
import { CallbackPusher } from './callback-pusher.js';
import { CoreStats } from './core-stats.js';
import type { Faults } from './faults.js';
import { referenceCoreApp } from './reference-core-app.js';

export interface ReferenceCoreSettings {
  host: string;
  /** 0 picks a free port. */
  port: number;
  database: DatabaseLocation;
  key: CoreKey;
  /** The server's POST /core/v1/status-reports; undefined: no pushes, the server polls. */
  callbackUrl: URL | undefined;
  faults: Faults;
  logger?: boolean;
}

export interface ReferenceCore {
  /** Where it listens, e.g. `http://127.0.0.1:8090`. */
  url: string;
  app: FastifyInstance;
  /** Its database, for tests that add data (card accounts) or read it. */
  store: Store;
  faults: { current: Faults };
  stats: CoreStats;
  close(): Promise<void>;
}

/** Statuses with which the ledger's executePayments reports a payment it executed (in full, in part, or rejected). */
const EXECUTED: ReadonlySet<string> = new Set(['ACSC', 'PART', 'RJCT']);

/**
 * The reference core (`npm run core`, docs/core.md): a separate process that serves the contract of
 * docs/core-api.yaml over its own database, with the embedded ledger as production's one bank (''),
 * made with the sandbox's default data set on its first start. Its batch runs at the bank's batch
 * times by the wall clock (and on POST /admin/run-batch), and the status changes are pushed to the
 * server's callback when CALLBACK_URL is set.
 */
export async function startReferenceCore(settings: ReferenceCoreSettings): Promise<ReferenceCore> {
  const stats = new CoreStats();
  const opened = await openStore(settings.database);
  await opened.migrate();
  const store = countedStore(opened, stats);
  await store.openBank(PRODUCTION_BANK, new Date(), defaultDataSet);
  const banks = new Banks(store, 'production');
  const rates = new ReferenceRates(SANDBOX_REFERENCE_RATES);
  const runner = new BatchRunner(store, banks, rates);
  const instant = new InstantExecution(store, rates, 'production');
  const core = new EmbeddedCore(
    store,
    new LedgerPayments(store, {
      now: async (bank) => (await banks.clockOfBank(bank)).now(),
      rates,
      executeInstant: (bank, paymentIds, now) => instant.execute(bank, paymentIds, now),
    }),
  );
  const faults = { current: settings.faults };
  let pusher: CallbackPusher | undefined;
  const app = referenceCoreApp({
    core,
    key: settings.key,
    stats,
    faults,
    // The slots and standing-order days that have come (as the schedule would run them), then a run now.
    runBatch: async () => {
      await runner.catchUpBank(PRODUCTION_BANK);
      return runner.runNow(PRODUCTION_BANK);
    },
    changed: () => pusher?.nudge(),
    logger: settings.logger ?? false,
  });
  const scheduler = new BatchScheduler(runner, (error) => app.log.error({ err: error }, 'batch run failed'));
  if (settings.callbackUrl !== undefined) {
    pusher = new CallbackPusher(
      core,
      settings.callbackUrl,
      settings.key,
      () => faults.current,
      stats,
      (reason) => app.log.warn({ reason }, 'status reports not pushed; trying again'),
      store,
    );
  }
  await app.listen({ host: settings.host, port: settings.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : settings.port;
  scheduler.start();
  await pusher?.start();
  return {
    url: `http://${settings.host.includes(':') ? `[${settings.host}]` : settings.host}:${port}`,
    app,
    store,
    faults,
    stats,
    close: async () => {
      await pusher?.stop();
      await scheduler.stop();
      await app.close();
      await store.close();
    },
  };
}

/** The store, with every execution the ledger makes counted as it returns it: a payment executed twice shows in the stats. */
function countedStore(opened: Store, stats: CoreStats): Store {
  return wrapStoreMethods(opened, (name, call) => {
    if (name === 'executePayments')
      return async (...args: unknown[]) => {
        const outcomes = (await call(args)) as ExecutionOutcome[];
        stats.executed(outcomes.filter((o) => EXECUTED.has(o.status)).map((o) => o.paymentId));
        return outcomes;
      };
    if (name === 'executePeriodicPayments')
      return async (...args: unknown[]) => {
        const outcomes = (await call(args)) as PeriodicOutcome[];
        stats.executedPeriodic(outcomes);
        return outcomes;
      };
    return undefined;
  });
}

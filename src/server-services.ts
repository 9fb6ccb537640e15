import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config/config.js';
import { SANDBOX_BANK_TOUCH_EVERY_MS, SANDBOX_BULK_OPERATIONS_PER_TPP_PER_MINUTE } from './domain/limits.js';
import type { NationalIdKey } from './domain/psu.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from './domain/reference-rates.js';
import type { BankCore } from './core/bank-core.js';
import type { ServerMetrics } from './metrics/server-metrics.js';
import { readSandboxCaFiles, sandboxCaFilesIn } from './security/sandbox-ca.js';
import { AisService } from './services/ais-service.js';
import { AisConsentPage } from './services/ais/ais-consent-page.js';
import { Banks } from './services/banks.js';
import { BatchRunner, BatchScheduler } from './services/batch-runner.js';
import type { CoreLink } from './services/core-handover/core-link.js';
import { InstantExecution } from './services/instant-execution.js';
import { PaymentInitiationService } from './services/payment-initiation-service.js';
import { noIdentityProvider, sandboxIdentityProvider } from './services/psu-identity.js';
import { RetentionJob } from './services/retention-job.js';
import { ConsentExpiry } from './services/consent-expiry.js';
import type { BankFacts } from './services/bank-facts.js';
import { SandboxCertificateService } from './services/sandbox-certificate-service.js';
import { SandboxDataService } from './services/sandbox-data-service.js';
import { type PsuLoginProvider, ScaService } from './services/sca-service.js';
import { SigningBasketService } from './services/signing-basket-service.js';
import type { Store } from './store/store.js';

/** The use cases the app serves, and the scheduler of the batch runs (started once the server listens). */
export function makeServices(
  config: Config,
  store: Store,
  core: BankCore,
  link: CoreLink | undefined,
  nationalIdKey: NationalIdKey,
  metrics: ServerMetrics | undefined,
  log: () => FastifyBaseLogger | undefined,
  psuLogin: PsuLoginProvider | undefined,
  facts?: BankFacts,
) {
  const rates =
    config.referenceRates === ''
      ? new ReferenceRates(SANDBOX_REFERENCE_RATES)
      : ReferenceRates.parse(config.referenceRates);
  const banks = banksOf(config, store, facts);
  const sca = new ScaService(
    store,
    core,
    banks,
    // A sandbox pointed at an identity provider has no codes: the PSU logs in there, as in production.
    config.mode === 'sandbox' && psuLogin === undefined ? sandboxIdentityProvider : noIdentityProvider,
    config.publicUrl,
    nationalIdKey,
    new AisConsentPage(store, core, banks),
    // A bank's own core executes a Straks payment when it is handed over, at once.
    link === undefined ? new InstantExecution(store, rates, config.mode) : undefined,
    link?.relay,
    psuLogin,
  );
  const runner = new BatchRunner(
    store,
    banks,
    rates,
    config.batchTimes,
    config.batchChunkSize,
    (slot, outcomes) => log()?.debug({ slot, outcomes }, 'batch chunk executed'),
    (result, seconds) => metrics?.observeBatchRun(result, seconds),
  );
  const scheduler = new BatchScheduler(runner, (error) => log()?.error({ err: error }, 'batch run failed'));
  const inSandbox = config.mode === 'sandbox';
  const retention = retentionOf(config, store, log);
  const consents = new ConsentExpiry(store, banks, (error) => log()?.error({ err: error }, 'consent expiry failed'));
  return {
    scheduler,
    retention,
    consents,
    app: {
      payments: new PaymentInitiationService(store, core, banks, rates, sca),
      sca,
      baskets: new SigningBasketService(store, banks, sca),
      ais: new AisService(store, core, banks, rates, sca, config.bankBic),
      sandbox: new SandboxDataService(store, banks),
      banks,
      time: inSandbox ? { banks, runner, scheduler, consents } : undefined,
      certificates: inSandbox
        ? new SandboxCertificateService(() =>
            readSandboxCaFiles(config.sandboxCaFiles ?? sandboxCaFilesIn(config.dataDir)),
          )
        : undefined,
    },
  };
}

/**
 * In the sandbox each TPP has a bank of its own, made with the default data set on its first signed
 * request, with a clock it moves forward; production has one bank and follows the wall clock.
 */
function banksOf(config: Config, store: Store, facts: BankFacts | undefined): Banks {
  return new Banks(
    store,
    config.mode,
    undefined,
    undefined,
    {
      newBanksPerAddressPerDay: config.sandboxBanksPerAddress,
      idleDays: config.sandboxBankIdleDays,
      touchEveryMs: SANDBOX_BANK_TOUCH_EVERY_MS,
      bulkOperationsPerMinute: SANDBOX_BULK_OPERATIONS_PER_TPP_PER_MINUTE,
    },
    facts,
  );
}

/** On every instance; each hour's run is claimed, so one instance does it (docs/retention.md). */
function retentionOf(config: Config, store: Store, log: () => FastifyBaseLogger | undefined): RetentionJob {
  return new RetentionJob(
    store,
    { mode: config.mode, idleDays: config.sandboxBankIdleDays, bookkeepingYears: config.bookkeepingYears },
    undefined,
    (report) => log()?.info({ retention: report }, 'retention run'),
    (error) => log()?.error({ err: error }, 'retention run failed'),
  );
}

import { performance } from 'node:perf_hooks';
import { ConfigError, loadConfig, redactPassword } from './config/config.js';
import { SHUTDOWN_GRACE_MS } from './domain/limits.js';
import { systemClock } from './domain/clock.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from './domain/reference-rates.js';
import { buildApp } from './http/app.js';
import { PaymentInitiationService } from './services/payment-initiation-service.js';
import { noIdentityProvider, sandboxIdentityProvider } from './services/psu-identity.js';
import { ScaService } from './services/sca-service.js';
import { SigningBasketService } from './services/signing-basket-service.js';
import { AisService } from './services/ais-service.js';
import { SandboxDataService } from './services/sandbox-data-service.js';
import { BatchRunner, BatchScheduler } from './services/batch-runner.js';
import { Banks } from './services/banks.js';
import { ensureSandboxCa } from './security/sandbox-ca.js';
import { NationalIdKeyError, ensureNationalIdKey, nationalIdKeyFingerprint } from './security/national-id-key.js';
import { TppAuthenticator } from './security/tpp-authenticator.js';
import { TrustStore, TrustStoreError, readTrustedCertificates } from './security/trust-store.js';
import { openStore } from './store/open-store.js';

/** A CA the server must not trust (unreadable, not a CA, weak) stops the start, as any configuration error. */
function refuseTrust(error: unknown): never {
  if (error instanceof TrustStoreError) {
    process.stderr.write(`Invalid configuration:\n  - ${error.message}\n`);
    process.exit(2);
  }
  throw error;
}

/** Starts the server: configuration, database and migrations, trust, HTTP; stops on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }

  const anchors = await readTrustedCertificates(config.trustedCaCertPaths).catch(refuseTrust);
  const store = await openStore(config.database);
  const [, sandboxCa, nationalIdKey] = await Promise.all([
    store.migrate(),
    config.mode === 'sandbox' ? ensureSandboxCa(config.dataDir).catch(refuseTrust) : Promise.resolve(undefined),
    ensureNationalIdKey(config.dataDir, config.psuIdentityKeyFile).catch((error: unknown) => {
      if (!(error instanceof NationalIdKeyError)) throw error;
      process.stderr.write(`Invalid configuration:\n  - ${error.message}\n`);
      process.exit(2);
    }),
  ]);
  // Instances on one database must hash national identity numbers with one key: another key would recognise no PSU.
  const fingerprint = nationalIdKeyFingerprint(nationalIdKey);
  if (await store.claimKeyFingerprint('psu-identity', fingerprint, systemClock.now()) !== fingerprint) {
    process.stderr.write(`Invalid configuration:\n  - the key for national identity numbers (${config.psuIdentityKeyFile ?? `${config.dataDir}/psu-identity.key`}) is not the one this database's data was stored with; give every instance the same key file (PSU_IDENTITY_KEY_FILE)\n`);
    process.exit(2);
  }
  const trustStore = new TrustStore(sandboxCa === undefined ? anchors : [...anchors, sandboxCa]);
  const authenticator = new TppAuthenticator({ trustStore, dateSkewSeconds: config.dateSkewSeconds });
  const rates = config.referenceRates === '' ? new ReferenceRates(SANDBOX_REFERENCE_RATES) : ReferenceRates.parse(config.referenceRates);
  // In the sandbox each TPP has a bank of its own, made with the default data set on its first signed
  // request, with a clock it moves forward; production has one bank and follows the wall clock.
  const banks = new Banks(store, config.mode);
  const sca = new ScaService(store, banks, config.mode === 'sandbox' ? sandboxIdentityProvider : noIdentityProvider, config.publicUrl, nationalIdKey);
  const payments = new PaymentInitiationService(store, banks, rates, sca);
  const baskets = new SigningBasketService(store, banks, sca);
  const ais = new AisService(store, banks, rates, sca);
  const sandbox = new SandboxDataService(store, banks);
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  const runner = new BatchRunner(store, banks, rates, config.batchTimes, config.batchChunkSize, (slot, outcomes) => app?.log.debug({ slot, outcomes }, 'batch chunk executed'));
  const scheduler = new BatchScheduler(runner, (error) => app?.log.error({ err: error }, 'batch run failed'));
  const time = config.mode === 'sandbox' ? { banks, runner, scheduler } : undefined;
  app = await buildApp({ config, store, authenticator, payments, sca, baskets, ais, sandbox, banks, time });
  app.addHook('onClose', async () => {
    await scheduler.stop();
    await store.close();
  });

  await app.listen({ port: config.port, host: config.host });
  // Slots missed while the server was down run now; then the scheduler wakes at each slot.
  void scheduler.wake();
  app.log.info({
    mode: config.mode,
    database: config.database.kind === 'sqlite' ? `sqlite:${config.database.path}` : redactPassword(config.database.url),
    trustedCas: trustStore.anchors.map((a) => a.name),
    startupMs: Math.round(performance.now()),
  }, 'ready');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'shutting down: no new requests; finishing those in flight');
    const force = setTimeout(() => {
      app.log.error({ graceMs: SHUTDOWN_GRACE_MS }, 'requests still running after the grace period: exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    app.close().then(() => {
      app.log.info('stopped');
      process.exit(0);
    }, (error: unknown) => {
      app.log.error({ err: error }, 'error while stopping');
      process.exit(1);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

// First: it starts making the sandbox CA before the rest is loaded.
import { type EarlyStart, earlyStart } from './early-start.js';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { type Config, ConfigError, redactPassword } from './config/config.js';
import { serverVersion } from './config/server-version.js';
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from './heap-growth.js';
import { PLATFORM_API_VERSION } from './domain/platform-api.js';
import { STORE_CLOSE_WAIT_MS, WARM_UP_DELAY_MS } from './domain/limits.js';
import { systemClock } from './domain/clock.js';
import type { NationalIdKey } from './domain/psu.js';
import { buildApp } from './http/app.js';
import { CoreLink } from './services/core-handover/core-link.js';
import { type CoreKey, CoreKeyError } from './core/http/core-signature.js';
import type { PsuLoginProvider } from './services/sca-service.js';
import { OidcClientKeyError, oidcClientAuth } from './services/sca/oidc-client-auth.js';
import { OidcRelyingParty } from './services/sca/oidc-relying-party.js';
import { PROVIDER_CALLBACK_PATH } from './http/routes/sca-page-routes.js';
import type { ParsedCertificate } from './security/tpp-certificate.js';
import {
  NATIONAL_ID_KEY_FILE,
  NationalIdKeyError,
  ensureNationalIdKey,
  nationalIdKeyFingerprint,
} from './security/national-id-key.js';
import { TppAuthenticator } from './security/tpp-authenticator.js';
import { TrustStore, TrustStoreError, readTrustedCertificates } from './security/trust-store.js';
import { LazyRevocationChecker } from './security/revocation/lazy-revocation-checker.js';
import { RevocationConfigError } from './security/revocation/revocation-config-error.js';
import { openStore } from './store/open-store.js';
import { openCore } from './core/open-core.js';
import type { BankCore } from './core/bank-core.js';
import type { Store } from './store/store.js';
import { closingStore } from './store/closing-store.js';
import { ServerMetrics } from './metrics/server-metrics.js';
import { type MetricsListener, listenForMetrics } from './metrics/metrics-listener.js';
import { EXIT_CODE, logStartFailure, reasonOf } from './start-failure.js';
import { makeServices } from './server-services.js';
import { type ServerNotifications, serverNotifications } from './server-notifications.js';
import { BankFacts } from './services/bank-facts.js';
import { NotificationSigningKeyError } from './security/notification-signing-key.js';
import { stopOnSignals } from './stop-on-signals.js';

/** A configuration the server cannot start with: said on stderr, and exit code 2. */
function refuseStart(reason: string): never {
  process.stderr.write(`Invalid configuration:\n  - ${reason}\n`);
  process.exit(EXIT_CODE.configuration);
}

/**
 * A database the server cannot open or migrate stops the start with one JSON log line that says why,
 * and exit code 3: an operator's first start without PostgreSQL up is told so, not shown a stack.
 */
function databaseUnavailable(config: Config, step: 'open' | 'migrate') {
  return (error: unknown): never => {
    logStartFailure('the database is not available: the server was not started', {
      database:
        config.database.kind === 'sqlite' ? `sqlite:${config.database.path}` : redactPassword(config.database.url),
      step,
      ...reasonOf(error),
      exitCode: EXIT_CODE.database,
    });
    process.exit(EXIT_CODE.database);
  };
}

/** A CA the server must not trust (unreadable, not a CA, weak) stops the start, as any configuration error. */
function refuseTrust(error: unknown): never {
  if (error instanceof TrustStoreError) refuseStart(error.message);
  throw error;
}

/**
 * Milliseconds each phase of the start took, written in the 'ready' line (bench/cold-start.ts reads
 * it): Node's own boot, loading the bundle, then each step of main. The steps run in parallel are
 * timed each from the moment they began.
 */
const phases: Record<string, number> = {
  boot: Math.round(performance.nodeTiming.bootstrapComplete),
  load: Math.round(performance.now() - performance.nodeTiming.bootstrapComplete),
};
let phaseStarted = performance.now();
function phaseDone(name: string): void {
  const now = performance.now();
  phases[name] = Math.round(now - phaseStarted);
  phaseStarted = now;
}
async function timed<T>(name: string, work: Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work;
  } finally {
    phases[name] = Math.round(performance.now() - started);
  }
}

/** Starts the server: configuration, database and migrations, trust, HTTP; stops on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const start = configuredStart();
  const { config } = start;
  // On a first start the sandbox CA was made as the start began (early-start.ts); it is trusted before the server listens.
  const sandboxCa = sandboxCaOf(start);
  const anchors = await readTrustedCertificates(config.trustedCaCertPaths).catch(refuseTrust);
  phaseDone('config');
  const metrics = config.metrics === 'off' ? undefined : new ServerMetrics();
  const { store: stored, nationalIdKey } = await openServerData(config, metrics);
  // The batch run and the CRLs' refresh log through the app, which is built after them.
  let app: FastifyInstance | undefined;
  const { trustStore, revocation, authenticator } = await trustOf(config, anchors, () => app?.log);
  // A key file that cannot be read or holds no usable key is a configuration error (exit 2).
  const { core, key: coreKey } = await openCore(config.core, stored).catch((error: unknown) => {
    if (error instanceof CoreKeyError) refuseStart(`CORE_KEY_FILE: ${error.message}`);
    throw error;
  });
  const notifications = await notificationsOf(config, stored, () => app?.log);
  const { facts, store } = bankFactsOf(config, notifications.store, () => app?.log);
  const link = coreLinkOf(config, store, core, coreKey, () => app?.log);
  const psuLogin = await psuLoginProvider(config);
  const services = makeServices(config, store, core, link, nationalIdKey, metrics, () => app?.log, psuLogin, facts);
  phaseDone('services');
  app = await buildApp({
    config,
    store,
    authenticator,
    ...services.app,
    ...(metrics === undefined ? {} : { metrics: { collector: metrics, serve: config.metrics === 'api-port' } }),
    ...(link === undefined ? {} : { coreCallbacks: link.callbacks }),
    notificationKeys: notifications.jwks,
  });
  app.addHook('onClose', async () => revocation.stop());
  phaseDone('buildApp');
  const ca = await sandboxCa;
  if (ca !== undefined) trustStore.addSelfService(ca);
  phaseDone('waitForSandboxCa');
  // Stopped before the store closes, in listen's one onClose hook: Fastify runs its onClose hooks
  // last added first. Sends in flight finish; rows not yet sent wait in the database.
  const beforeStoreCloses = [
    () => services.retention.stop(),
    () => services.consents.stop(),
    ...(facts === undefined ? [] : [() => facts.stop()]),
    ...(link === undefined ? [] : [() => link.stop()]),
    () => notifications.relay.stop(),
  ];
  const metricsListener = await listen(
    app,
    config,
    metrics,
    [() => services.scheduler.stop(), ...beforeStoreCloses],
    store,
  );
  phaseDone('listen');
  // A bank's own core executes the payments (docs/core.md): this server hands them over and runs no batch.
  if (link !== undefined) link.start();
  // Slots missed while the server was down run now; then the scheduler wakes at each slot.
  else void services.scheduler.wake();
  services.retention.start();
  services.consents.start();
  facts?.start();
  void notifications.start();
  revocation.start(config.revocationRefreshSeconds * 1000);
  warmUpLater(app, revocation);
  const heapLimited = limitHeapGrowth();
  app.log.info(readyLine(config, trustStore, metricsListener, heapLimited), 'ready');
  stopOnSignals(app);
}

/** The database, opened and migrated, and the key national identity numbers are hashed with, claimed in it. */
async function openServerData(
  config: Config,
  metrics: ServerMetrics | undefined,
): Promise<{ store: Store; nationalIdKey: NationalIdKey }> {
  const store = await openServerStore(config, metrics).catch(databaseUnavailable(config, 'open'));
  phaseDone('openStore');
  const [, nationalIdKey] = await Promise.all([
    timed('migrate', store.migrate().catch(databaseUnavailable(config, 'migrate'))),
    timed('nationalIdKey', readNationalIdKey(config)),
  ]);
  phaseDone('migrateAndKey');
  await claimNationalIdKey(store, config, nationalIdKey);
  phaseDone('keyFingerprint');
  // A restore a crash interrupted (SQLite writes one in slices) is finished before any request sees its bank.
  await store.finishRestores(new Date());
  phaseDone('finishRestores');
  return { store, nationalIdKey };
}

/**
 * In the sandbox, what every signed request needs of its bank, held in the process, and the store
 * through which the process's own changes forget it at once (services/bank-facts.ts).
 */
function bankFactsOf(
  config: Config,
  store: Store,
  log: () => FastifyBaseLogger | undefined,
): { facts: BankFacts | undefined; store: Store } {
  if (config.mode !== 'sandbox') return { facts: undefined, store };
  const facts = new BankFacts(store, (error) => log()?.error({ err: error }, 'bank facts check failed'));
  return { facts, store: facts.watch(store) };
}

/** The notifications to TPPs (server-notifications.ts); a signing key the server cannot use stops the start. */
function notificationsOf(
  config: Config,
  store: Store,
  log: () => FastifyBaseLogger | undefined,
): Promise<ServerNotifications> {
  return serverNotifications(config, store, systemClock, (level, fields, message) =>
    log()?.[level](fields, message),
  ).catch((error: unknown) => {
    if (error instanceof NotificationSigningKeyError) refuseStart(error.message);
    throw error;
  });
}

/** Whom the server trusts: the CAs, their CRLs (refreshed on a schedule), and the TPP certificates they issued. */
async function trustOf(config: Config, anchors: ParsedCertificate[], log: () => FastifyBaseLogger | undefined) {
  const trustStore = new TrustStore(anchors);
  // Failed reads of CRLs and OCSP answers are logged through the app, which is built after this.
  const revocation = new LazyRevocationChecker({
    onRefreshFailed: (where, reason) =>
      log()?.warn(
        { where, reason },
        'a CRL or OCSP answer could not be read again; the last good one is used while it may be',
      ),
  });
  await revocation.addFiles(config.crlFiles, anchors).catch((error: unknown) => {
    if (error instanceof RevocationConfigError) refuseStart(error.message);
    throw error;
  });
  const authenticator = new TppAuthenticator({ trustStore, dateSkewSeconds: config.dateSkewSeconds, revocation });
  return { trustStore, revocation, authenticator };
}

type ConfiguredStart = Exclude<EarlyStart, { configError: unknown }>;

/** The configuration early-start.ts read; one the server cannot start with stops it here, with exit code 2. */
function configuredStart(): ConfiguredStart {
  if (!('configError' in earlyStart)) return earlyStart;
  if (earlyStart.configError instanceof ConfigError) {
    process.stderr.write(`${earlyStart.configError.message}\n`);
    process.exit(EXIT_CODE.configuration);
  }
  throw earlyStart.configError;
}

/** The sandbox CA early-start.ts is making (undefined in production), timed; one the server must not trust stops the start. */
function sandboxCaOf({ sandboxCa, sandboxCaStarted }: ConfiguredStart): Promise<ParsedCertificate | undefined> {
  const trusted = sandboxCa.catch(refuseTrust).finally(() => {
    phases.sandboxCa = Math.round(performance.now() - sandboxCaStarted);
  });
  // Its failure is met where main() awaits it; until then it must not count as unhandled.
  trusted.catch(() => undefined);
  return trusted;
}

/** The database, its calls timed for the metrics (when on) and awaited, up to a limit, when it closes. */
async function openServerStore(config: Config, metrics: ServerMetrics | undefined): Promise<Store> {
  return closingStore(
    await openStore(config.database),
    STORE_CLOSE_WAIT_MS,
    metrics === undefined ? undefined : (method) => metrics.storeCallTimer(method),
  );
}

/** The key national identity numbers are hashed with; one the server cannot read or use stops the start. */
function readNationalIdKey(config: Config): Promise<NationalIdKey> {
  return ensureNationalIdKey(config.dataDir, config.psuIdentityKeyFile).catch((error: unknown) => {
    if (!(error instanceof NationalIdKeyError)) throw error;
    refuseStart(error.message);
  });
}

/** Instances on one database must hash national identity numbers with one key: another key would recognise no PSU. */
async function claimNationalIdKey(store: Store, config: Config, nationalIdKey: NationalIdKey): Promise<void> {
  const fingerprint = nationalIdKeyFingerprint(nationalIdKey);
  if ((await store.claimKeyFingerprint('psu-identity', fingerprint, systemClock.now())) !== fingerprint) {
    refuseStart(
      `the key for national identity numbers (${config.psuIdentityKeyFile ?? join(config.dataDir, NATIONAL_ID_KEY_FILE)}) is not the one this database's data was stored with; give every instance the same key file (PSU_IDENTITY_KEY_FILE)`,
    );
  }
}

/**
 * The bank's identity provider, where PSUs log in (PSU_OIDC_…): none in a sandbox that names none.
 * Its metadata is discovered at the first log-in, so a provider down at start does not stop the
 * server; a client key it cannot use does.
 */
async function psuLoginProvider(config: Config): Promise<PsuLoginProvider | undefined> {
  const settings = config.psuOidc;
  if (settings === undefined) return undefined;
  const clientAuth = await oidcClientAuth(settings.clientAuth).catch((error: unknown) => {
    if (error instanceof OidcClientKeyError) refuseStart(error.message);
    throw error;
  });
  return {
    client: new OidcRelyingParty(settings, clientAuth, `${config.publicUrl}${PROVIDER_CALLBACK_PATH}`),
    rule: { acrValues: settings.acrValues, identityClaim: settings.identityClaim },
  };
}

/**
 * With a bank's own core (CORE_URL): the relay of authorised payments, the poller of its reports and
 * its callback's check, started once the server listens; none with the embedded core.
 */
function coreLinkOf(
  config: Config,
  store: Store,
  core: BankCore,
  key: CoreKey | undefined,
  log: () => FastifyBaseLogger | undefined,
): CoreLink | undefined {
  if (config.core.kind !== 'http' || key === undefined) return undefined;
  return new CoreLink(store, core, key, config.core.pollSeconds, systemClock, (level, fields, message) =>
    log()?.[level](fields, message),
  );
}

/** Listens for the API (and the metrics, on a port of their own); closing the app closes the rest. */
async function listen(
  app: FastifyInstance,
  config: Config,
  metrics: ServerMetrics | undefined,
  /** What runs on the store, stopped in this order before it closes. */
  stops: readonly (() => unknown)[],
  store: Store,
): Promise<MetricsListener | undefined> {
  let metricsListener: MetricsListener | undefined;
  app.addHook('onClose', async () => {
    await metricsListener?.close();
    for (const stop of stops) await stop();
    await store.close();
  });
  await app.listen({ port: config.port, host: config.host });
  if (metrics !== undefined && typeof config.metrics === 'object')
    metricsListener = await listenForMetrics(metrics, config.host, config.metrics.port);
  return metricsListener;
}

/**
 * Warms the validators up and loads the revocation checker's module after listening and a short
 * pause (WARM_UP_DELAY_MS): the start is not delayed, the first requests are not held by its first
 * steps, and requests that come later take turns with it.
 */
function warmUpLater(app: FastifyInstance, revocation: LazyRevocationChecker): void {
  setTimeout(() => {
    const began = performance.now();
    Promise.all([app.warmUp(), revocation.load()]).then(
      () => app.log.info({ ms: Math.round(performance.now() - began) }, 'warmed up'),
      (error: unknown) => app.log.warn({ err: error }, 'warm-up failed'),
    );
  }, WARM_UP_DELAY_MS).unref();
}

/** What the 'ready' line says: where the server keeps its data, whom it trusts, and how its start went. */
function readyLine(
  config: Config,
  trustStore: TrustStore,
  metricsListener: MetricsListener | undefined,
  heapLimited: boolean,
) {
  return {
    mode: config.mode,
    version: { server: serverVersion(), api: PLATFORM_API_VERSION },
    database:
      config.database.kind === 'sqlite' ? `sqlite:${config.database.path}` : redactPassword(config.database.url),
    trustedCas: trustStore.anchors.map((a) => a.name),
    // Where PSUs log in, and the acr their log-in must have (none: not checked, which production should not be).
    psuLogin:
      config.psuOidc === undefined
        ? 'the sandbox form'
        : { issuer: config.psuOidc.issuer, acrValues: config.psuOidc.acrValues },
    metrics:
      metricsListener !== undefined
        ? `${metricsListener.url}/metrics`
        : config.metrics === 'api-port'
          ? '/metrics'
          : 'off',
    startupMs: Math.round(performance.now()),
    phases,
    // Where Node's module compile cache is kept, or why it is off (scripts/server-loader.ts); absent when not run from the bundle.
    compileCache: (globalThis as Record<symbol, unknown>)[Symbol.for('psd2.compileCache')],
    // The process settings of scripts/start.env, which `npm start` gives; absent ones mean a slower first touch of memory.
    nodeFlags: process.execArgv,
    glibcTunables: process.env.GLIBC_TUNABLES,
    // Set as the start ends, not as a flag (src/heap-growth.ts); absent when V8 did not take it.
    ...(heapLimited ? { heapGrowingPercent: HEAP_GROWING_PERCENT } : {}),
  };
}

main().catch((error: unknown) => {
  logStartFailure('failed to start', { ...reasonOf(error), stack: (error as Error).stack, exitCode: EXIT_CODE.fault });
  process.exit(EXIT_CODE.fault);
});

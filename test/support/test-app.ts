import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse, RouteOptions } from 'fastify';
import type { Mode, TrustProxy } from '../../src/config/config.js';
import { type Clock, systemClock } from '../../src/domain/clock.js';
import type { NationalIdKey } from '../../src/domain/psu.js';
import { BatchRunner, BatchScheduler } from '../../src/services/batch-runner.js';
import { type BankTenancy, Banks, DEFAULT_TENANCY } from '../../src/services/banks.js';
import { ReferenceRates, SANDBOX_REFERENCE_RATES } from '../../src/domain/reference-rates.js';
import { buildApp } from '../../src/http/app.js';
import { DEFAULT_CUSTOMERS, defaultDataSet } from '../../src/sandbox/default-data-set.js';
import { SANDBOX_BANK_BIC, newBankId } from '../../src/domain/bank.js';
import { InstantExecution } from '../../src/services/instant-execution.js';
import { PaymentInitiationService } from '../../src/services/payment-initiation-service.js';
import { noIdentityProvider, sandboxIdentityProvider } from '../../src/services/psu-identity.js';
import { type PsuLoginProvider, ScaService } from '../../src/services/sca-service.js';
import type { PsuOidcSettings } from '../../src/config/psu-oidc-settings.js';
import { oidcClientAuth } from '../../src/services/sca/oidc-client-auth.js';
import { OidcRelyingParty } from '../../src/services/sca/oidc-relying-party.js';
import { PROVIDER_CALLBACK_PATH } from '../../src/http/routes/sca-page-routes.js';
import { SigningBasketService } from '../../src/services/signing-basket-service.js';
import { AisService } from '../../src/services/ais-service.js';
import { AisConsentPage } from '../../src/services/ais/ais-consent-page.js';
import { SandboxDataService } from '../../src/services/sandbox-data-service.js';
import { SandboxCertificateService } from '../../src/services/sandbox-certificate-service.js';
import { TppAuthenticator } from '../../src/security/tpp-authenticator.js';
import { TrustStore } from '../../src/security/trust-store.js';
import type { RevocationChecker } from '../../src/security/revocation/revocation-checker.js';
import { parseCertificate, readPemCertificates } from '../../src/security/tpp-certificate.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { type SignOptions, signRequest } from '../../src/toolkit/request-signer.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { closingStore } from '../../src/store/closing-store.js';
import { STORE_CLOSE_WAIT_MS } from '../../src/domain/limits.js';
import { openCore } from '../../src/core/open-core.js';
import type { BankCore } from '../../src/core/bank-core.js';
import { HandoverRelay } from '../../src/services/core-handover/handover-relay.js';
import type { CoreCallbacks } from '../../src/http/routes/core-callback-routes.js';
import type { ServerMetrics } from '../../src/metrics/server-metrics.js';
import { OTHER_PSU_ID, PSU_ID } from './psu-ids.js';
import { type TestDatabase, createMigratedTestDatabase } from './postgres.js';
import { readRunShared, saveRunShared } from './run-shared.js';
import { OTHER_TPP_ID, TPP_ID, type TppFixtures, tppFixtures } from './tpp-fixtures.js';
import { ConsentExpiry } from '../../src/services/consent-expiry.js';
import { BankFacts } from '../../src/services/bank-facts.js';
import type { Jwks } from '../../src/security/notification-signer.js';

/** The address SCA links point to in tests (no server listens there unless a test starts one). */
export const PUBLIC_URL = 'http://127.0.0.1:8080';

export interface TestApp {
  app: FastifyInstance;
  store: Store;
  fixtures: TppFixtures;
  /** The base clock (the wall clock unless the test gave one); each sandbox bank's clock is it plus the bank's offset. */
  clock: Clock;
  banks: Banks;
  /** The batch run, for tests that execute payments. */
  runner: BatchRunner;
  /** Every route of the app as it was added (HEAD routes of GETs included). */
  routes: RouteOptions[];
  /** The hand-over of authorised payments, when the app has a bank's own core (TestAppOptions.core). */
  relay: HandoverRelay | undefined;
  /** A new PSU (a customer of its own with a session with the test TPP): its PSU-ID. */
  newPsu(as?: CertificateAndKey): Promise<string>;
  /** Sends a request signed as TPP `as` (the default test TPP). */
  signed(request: SignedInject): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface SignedInject {
  method: string;
  url: string;
  /** An object is sent as JSON; a string or Buffer is sent as it is. */
  body?: unknown;
  headers?: Record<string, string>;
  as?: CertificateAndKey;
  sign?: Partial<SignOptions>;
  /** Changes the signed headers before sending, to test what the server does with them. */
  tamper?: (headers: Record<string, string>) => void;
}

export interface TestAppOptions {
  store?: Store;
  /** Without a store: the engine of the one the app makes and owns (default sqlite; postgres gets a database of its own, dropped at close). */
  engine?: 'sqlite' | 'postgres';
  mode?: Mode;
  /** Registers extra routes before the app is ready. */
  routes?: (app: FastifyInstance) => void;
  logger?: Parameters<typeof buildApp>[0]['logger'];
  clock?: Clock;
  /** Load the default data set and the test PSUs' sessions (default true). */
  seed?: boolean;
  /** The address SCA links point to; a browser test listens there. */
  publicUrl?: string;
  /** The installation's key for national identity numbers (default: a new random one). */
  nationalIdKey?: NationalIdKey;
  /** The bank's reference rates (default: the sandbox table, which has every currency). */
  rates?: ReferenceRates;
  /** Count requests, store calls, batch runs and SCA outcomes here, and serve GET /metrics, as the server does. */
  metrics?: ServerMetrics;
  /**
   * Check every schema and compile it at once; false compiles as the server does (src/http/schema-compiler/precompiled.ts).
   * Default: true for the first app of its kind in the test process (or in a run of scripts/run-tests.ts) and
   * for an app with routes of its own.
   */
  checkSchemas?: boolean;
  /** The bank's BIC its accounts carry (default: the sandbox's, as BANK_BIC's default). */
  bankBic?: string;
  /** More CAs to trust (PEM), besides the test CA. */
  extraCas?: readonly string[];
  /** Check revocation with this (default: not checked). */
  revocation?: RevocationChecker;
  /** The most sandbox banks (src/domain/limits.ts MAX_SANDBOX_BANKS when left out). */
  maxBanks?: number;
  /** TRUST_PROXY's value (default: no proxy trusted). */
  trustProxy?: TrustProxy;
  /** The sandbox's rules for shared banks (services/banks.ts DEFAULT_TENANCY for what is left out). */
  tenancy?: Partial<BankTenancy>;
  /** The bank's core (default: the embedded one over the app's store); one of kind 'http' gets a relay (TestApp.relay). */
  core?: (store: Store) => BankCore;
  /** GET /.well-known/jwks.json answers these keys (a test of notifications: server-notifications.ts). */
  notificationKeys?: () => Promise<Jwks>;
  /** With a core of kind 'http': the callback's signature check (the callback is served as the server serves it). */
  coreCallbackVerify?: CoreCallbacks['verify'];
  /** The PSU logs in at this identity provider (the PSU_OIDC_… settings; test/support/test-idp.ts runs one). */
  identityProvider?: PsuOidcSettings;
}

/**
 * The kinds of app (what decides its routes: the mode, the metrics route, the core's callback, the PSU's
 * identity provider) whose route schemas an app of this test process has checked already.
 */
const checkedSchemas = new Set<string>();

/** Under this name (run-shared.ts) a run's files learn that one of them checked the schemas of a kind of app. */
const schemasCheckedName = (kind: string) =>
  `schemas-checked-${createHash('sha256').update(kind).digest('hex').slice(0, 16)}.json`;

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const fixtures = await tppFixtures();
  let dir: string | undefined;
  let database: TestDatabase | undefined;
  let store = options.store;
  if (store === undefined && options.engine === 'postgres') {
    database = await createMigratedTestDatabase();
    store = PostgresStore.open(database.url);
    await store.migrate();
  } else if (store === undefined) {
    dir = mkdtempSync(join(tmpdir(), 'psd2-app-'));
    store = SqliteStore.open(join(dir, 'test.db'));
    await store.migrate();
  }
  const metrics = options.metrics;
  // As main.ts does when there are metrics: every store call timed (and awaited at close).
  if (metrics !== undefined)
    store = closingStore(store, STORE_CLOSE_WAIT_MS, (method) => metrics.storeCallTimer(method));
  const mode = options.mode ?? 'sandbox';
  // As main.ts does in the sandbox: the banks' facts held in the process, this app's own changes
  // forgotten at once, another's within BANK_FACTS_CHECK_MS.
  const facts = mode === 'sandbox' ? new BankFacts(store) : undefined;
  if (facts !== undefined) {
    store = facts.watch(store);
    facts.start();
  }
  const parsePem = (pem: string) => parseCertificate(readPemCertificates(pem)[0]!);
  const trustStore = new TrustStore([fixtures.ca.certPem, ...(options.extraCas ?? [])].map(parsePem));
  // In the sandbox the test CA stands for its self-service CA (it issues POST /v1/sandbox/certificates's
  // certificates below), listed in TRUSTED_CA_CERTS too; the extra CAs are the operator's own.
  if (mode === 'sandbox') trustStore.addSelfService(parsePem(fixtures.ca.certPem));
  // Each TPP's sandbox bank has a clock of its own: the base clock plus the offset the clock routes move.
  const clock = options.clock ?? systemClock;
  // Tests save, restore and initialize far more often than a TPP may: the rate's own test sets it.
  const tenancy = { ...DEFAULT_TENANCY, bulkOperationsPerMinute: 100_000, ...options.tenancy };
  const banks = new Banks(store, mode, clock, options.maxBanks, tenancy, facts);
  const rates = options.rates ?? new ReferenceRates(SANDBOX_REFERENCE_RATES);
  const runner = new BatchRunner(store, banks, rates, undefined, undefined, undefined, (result, seconds) =>
    metrics?.observeBatchRun(result, seconds),
  );
  const scheduler = new BatchScheduler(runner, (error) => {
    throw error;
  });
  if (options.seed !== false) {
    // Each test TPP's bank (production's one bank) with the default data set, and Ola's session there.
    for (const [tppId, psuId] of [
      [TPP_ID, PSU_ID],
      [OTHER_TPP_ID, OTHER_PSU_ID],
    ] as const) {
      await store.openBank(banks.of(tppId), clock.now(), defaultDataSet);
      const ola = (await store.findCustomer(banks.of(tppId), {
        customerNumber: DEFAULT_CUSTOMERS.ola.customerNumber,
      }))!;
      await store.recordSca(tppId, ola.id, clock.now(), undefined, psuId);
    }
  }
  const publicUrl = options.publicUrl ?? PUBLIC_URL;
  const routes: RouteOptions[] = [];
  // Apps of one kind have the same route schemas: the first of each kind in a test process, or in a run
  // of scripts/run-tests.ts, checks them against the meta-schema and compiles them all at once
  // (docs/decisions/0028), which costs seconds; a later one compiles each route's on its first request,
  // as the server does without precompiled code. A test's own routes are checked in every app that has them.
  const schemasKey = JSON.stringify([
    mode,
    options.metrics !== undefined,
    options.core !== undefined,
    options.identityProvider !== undefined,
  ]);
  const checkSchemas =
    options.checkSchemas ??
    (options.routes !== undefined ||
      !(checkedSchemas.has(schemasKey) || readRunShared<boolean>(schemasCheckedName(schemasKey)) === true));
  const core = options.core?.(store) ?? (await openCore({ kind: 'embedded' }, store)).core;
  const relay =
    core.kind === 'http' ? new HandoverRelay(store, core, `test-${randomUUID()}`, clock, () => undefined) : undefined;
  const psuLogin: PsuLoginProvider | undefined =
    options.identityProvider === undefined
      ? undefined
      : {
          client: new OidcRelyingParty(
            options.identityProvider,
            await oidcClientAuth(options.identityProvider.clientAuth),
            `${publicUrl}${PROVIDER_CALLBACK_PATH}`,
          ),
          rule: options.identityProvider,
        };
  const sca = new ScaService(
    store,
    core,
    banks,
    psuLogin === undefined ? sandboxIdentityProvider : noIdentityProvider,
    publicUrl,
    options.nationalIdKey ?? { bytes: randomBytes(32) },
    new AisConsentPage(store, core, banks),
    relay === undefined ? new InstantExecution(store, rates, mode) : undefined,
    relay,
    psuLogin,
  );
  const app = await buildApp({
    config: { mode, logLevel: 'silent', publicUrl, trustProxy: options.trustProxy ?? false },
    store,
    sca,
    payments: new PaymentInitiationService(store, core, banks, rates, sca),
    // The test CA stands for the sandbox CA: the certificates it issues over HTTP are trusted.
    ...(mode === 'sandbox'
      ? {
          time: { banks, runner, scheduler, consents: new ConsentExpiry(store, banks) },
          certificates: new SandboxCertificateService(async () => fixtures.ca),
        }
      : {}),
    banks,
    baskets: new SigningBasketService(store, banks, sca),
    ais: new AisService(store, core, banks, rates, sca, options.bankBic ?? SANDBOX_BANK_BIC),
    sandbox: new SandboxDataService(store, banks),
    authenticator: new TppAuthenticator({
      trustStore,
      dateSkewSeconds: 300,
      ...(options.revocation === undefined ? {} : { revocation: options.revocation }),
    }),
    logger: options.logger ?? false,
    ...(options.notificationKeys === undefined ? {} : { notificationKeys: options.notificationKeys }),
    ...(metrics === undefined ? {} : { metrics: { collector: metrics, serve: true } }),
    checkSchemas,
    ...(relay === undefined
      ? {}
      : {
          coreCallbacks: {
            verify: options.coreCallbackVerify ?? (() => 'no key'),
            apply: async (reports) => {
              await store!.applyCoreReports(reports, clock.now());
            },
          },
        }),
    onRoute: (route) => routes.push(route),
  });
  options.routes?.(app);
  await app.ready();
  if (checkSchemas && !checkedSchemas.has(schemasKey)) {
    checkedSchemas.add(schemasKey);
    saveRunShared(schemasCheckedName(schemasKey), true);
  }
  // As at a server's start: later clock moves run the batch slots they pass.
  if (options.seed !== false) await scheduler.wake();
  const ownedStore = store;
  return {
    app,
    store,
    fixtures,
    clock,
    banks,
    runner,
    routes,
    relay,
    newPsu: async (as = fixtures.tpp) => {
      const customerId = newBankId();
      await ownedStore.saveBankData(banks.of(as === fixtures.otherTpp ? OTHER_TPP_ID : TPP_ID), {
        customers: [
          {
            id: customerId,
            customerNumber: `T${randomUUID()}`,
            name: 'Test Person',
            type: 'PRIVATE',
            createdAt: clock.now(),
          },
        ],
        accounts: [],
        agreements: [],
        engagements: [],
      });
      return (
        await ownedStore.recordSca(
          as === fixtures.otherTpp ? OTHER_TPP_ID : TPP_ID,
          customerId,
          clock.now(),
          undefined,
          randomUUID(),
        )
      ).psuId;
    },
    signed: (request) => {
      const body =
        request.body === undefined
          ? undefined
          : typeof request.body === 'string' || Buffer.isBuffer(request.body)
            ? request.body
            : JSON.stringify(request.body);
      const headers = signRequest({
        method: request.method,
        url: request.url,
        body,
        headers: request.headers,
        credentials: request.as ?? fixtures.tpp,
        ...request.sign,
      });
      if (body !== undefined) headers['content-type'] ??= 'application/json';
      request.tamper?.(headers);
      return app.inject({ method: request.method as 'GET', url: request.url, headers, payload: body });
    },
    close: async () => {
      await relay?.stop();
      await scheduler.stop();
      await facts?.stop();
      await app.close();
      if (options.store === undefined) await ownedStore.close();
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      await database?.drop();
    },
  };
}

/** The error body every error answer has. */
export function assertErrorBody(response: LightMyRequestResponse, status: number, code: string): ErrorBodyJson {
  const body = response.json() as ErrorBodyJson;
  if (
    response.statusCode !== status ||
    body.code !== code ||
    body.status !== status ||
    typeof body.id !== 'string' ||
    body.system !== 'psd2-pis'
  ) {
    throw new Error(`expected ${status} ${code} with an error body, got ${response.statusCode}: ${response.body}`);
  }
  return body;
}

export interface ErrorBodyJson {
  id: string;
  system: string;
  status: number;
  code: string;
  message?: string;
  tppMessages?: { category: string; code: string; path?: string; text?: string }[];
}

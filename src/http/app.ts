import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import Fastify, {
  type FastifyInstance,
  type FastifyRequest,
  type FastifyHttpOptions,
  type FastifyServerOptions,
  LogController,
  type RouteOptions,
} from 'fastify';
import fastifyCompress from '@fastify/compress';
import type { Config, TrustProxy } from '../config/config.js';
import { ApiError, type TppMessage, publishTppMessages } from '../domain/api-error.js';
import {
  COMPRESSION_MIN_BYTES,
  CONNECTIONS_CHECK_INTERVAL_MS,
  HEADERS_MAX_BYTES,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  PATH_PARAMETER_MAX_LENGTH,
  REQUEST_TIMEOUT_MS,
  RESOURCE_BODY_LIMIT_BYTES,
} from '../domain/limits.js';
import type { TppAuthenticator } from '../security/tpp-authenticator.js';
import type { PaymentInitiationService } from '../services/payment-initiation-service.js';
import type { ScaService } from '../services/sca-service.js';
import type { SigningBasketService } from '../services/signing-basket-service.js';
import type { AisService } from '../services/ais-service.js';
import type { Store } from '../store/store.js';
import { answerClientError } from './client-errors.js';
import { sendError, sendFailure, shuttingDown } from './error-response.js';
import './fastify-types.js';
import { negotiate, reportLanguage } from './hooks/negotiation.js';
import { keepRawJsonBodies } from './hooks/request-body.js';
import { registerOperationHooks } from './hooks/operation-hooks.js';
import { withoutDecompressionOfNoBody } from './hooks/no-body-decompression.js';
import { OperationCatalogue } from './hooks/scenario-faults.js';
import { awaitBindingFlush } from './hooks/replay-guard.js';
import { checkRequestLimits } from './hooks/request-limits.js';
import { serializerFactory } from './schema-compiler/serializers.js';
import { sharedSchemaBucket } from './schema-compiler/shared-schemas.js';
import type { SchemaRecorder } from './schema-compiler/precompiled.js';
import { logRequest } from './hooks/request-log.js';
import { makeRequestLoggersLazy } from './request-logger.js';
import { ClientGoneError, isClientGone } from './client-gone.js';
import { registerRequestMetrics } from './hooks/request-metrics.js';
import type { ServerMetrics } from '../metrics/server-metrics.js';
import { registerAbsoluteLocation } from './hooks/absolute-location.js';
import { SANDBOX_ADDRESS_PREFIX, registerSandboxAddressLinks, routeSandboxAddress } from './hooks/sandbox-address.js';
import { registerDocumentation } from './routes/documentation.js';
import { registerHealth } from './routes/health.js';
import { type CoreCallbacks, registerCoreCallbackRoutes } from './routes/core-callback-routes.js';
import { registerPaymentRoutes } from './routes/payment-routes.js';
import { registerAuthorisationRoutes } from './routes/authorisation-routes.js';
import { registerNotificationKeys } from './routes/notification-keys-route.js';
import type { Jwks } from '../security/notification-signer.js';
import { registerPeriodicPaymentRoutes } from './routes/periodic-payment-routes.js';
import { PeriodicPaymentService } from '../services/periodic-payment-service.js';
import { periodicPaymentSchemas } from './schemas/periodic-payment-schemas.js';
import { registerAisAccountRoutes } from './routes/ais-account-routes.js';
import { registerAisCardAccountRoutes } from './routes/ais-card-account-routes.js';
import { registerAisConsentRoutes } from './routes/ais-consent-routes.js';
import { aisSchemas } from './schemas/ais-schemas.js';
import { sharedSchemasOf } from './schemas/common-schemas.js';
import { paymentSchemas } from './schemas/payment-schemas.js';
import { authorisationSchemas } from './schemas/authorisation-schemas.js';
import { singlePaymentSchemas } from './schemas/single-payment-schemas.js';
import { basketSchemas } from './schemas/signing-basket-schemas.js';
import { registerScaPages } from './routes/sca-page-routes.js';
import { registerSigningBasketRoutes } from './routes/signing-basket-routes.js';
import { type SandboxTime, batchRunSchema, registerSandboxClockRoutes } from './routes/sandbox-clock-routes.js';
import { registerSandboxRoutes } from './routes/sandbox-routes.js';
import { registerSandboxKeyRoutes } from './routes/sandbox-key-routes.js';
import { BankKeys } from '../services/bank-keys.js';
import { registerSandboxCertificateRoutes } from './routes/sandbox-certificate-routes.js';
import { registerSandboxConsoleLinkRoutes } from './routes/sandbox-console-link-routes.js';
import { registerSandboxDocsLinkRoutes } from './routes/sandbox-docs-link-routes.js';
import { registerConsolePages } from './routes/console-page-routes.js';
import { ConsoleAccess } from './console-pages/console-access.js';
import { ConsoleSessions } from '../services/console/console-sessions.js';
import { SandboxConsole } from '../services/console/sandbox-console.js';
import { SandboxClock } from '../services/sandbox/sandbox-clock.js';
import { registerSandboxSnapshotRoutes } from './routes/sandbox-snapshot-routes.js';
import { sandboxSchemas } from './schemas/sandbox-schemas.js';
import type { SandboxDataService } from '../services/sandbox-data-service.js';
import type { SandboxCertificateService } from '../services/sandbox-certificate-service.js';
import type { Banks } from '../services/banks.js';
import { RequestReplayGuard } from '../services/request-replay-guard.js';
import type { RouteValidator } from './schema-compiler/route-validator.js';
import { createValidatorCompiler } from './schema-compiler/validator-compiler.js';
import { warmUp } from './schema-compiler/warm-up.js';
import { routeOptionsOf } from './route-options.js';

export interface AppDependencies {
  /** The client timeouts default to HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS. */
  config: Pick<Config, 'mode' | 'logLevel' | 'publicUrl'> &
    Partial<Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'trustProxy'>>;
  store: Store;
  authenticator: TppAuthenticator;
  payments: PaymentInitiationService;
  sca: ScaService;
  baskets: SigningBasketService;
  /** Account information: consents and the reads they authorise (docs/ais.md). */
  ais: AisService;
  /** The sandbox's test data (mock-data API); its routes exist in sandbox mode only. */
  sandbox: SandboxDataService;
  /** The banks: each TPP's own in the sandbox, made on its first signed request (src/services/banks.ts). */
  banks: Banks;
  /** The sandbox's business clock and batch runs; sandbox mode only. */
  time?: SandboxTime;
  /** TPP certificates from the sandbox CA over HTTP; sandbox mode only. */
  certificates?: SandboxCertificateService;
  /** The metrics to count requests and SCA outcomes in, and whether GET /metrics is served on this port. */
  metrics?: { collector: ServerMetrics; serve: boolean };
  /** Extra pino options (tests send logs to a stream they read). */
  logger?: FastifyServerOptions['logger'];
  /** Check every route schema against the JSON Schema meta-schema while building (tests do). */
  checkSchemas?: boolean;
  /** Told of every route as it is added (the fuzz test drives each one). */
  onRoute?: (route: RouteOptions) => void;
  /** Compile every validator and serializer and hand over its standalone code (the build, scripts/precompile-schemas.ts). */
  recordSchemas?: SchemaRecorder;
  /** The callback of a bank's own core (CORE_URL): its status reports (docs/core.md); none with the embedded core. */
  coreCallbacks?: CoreCallbacks;
  /** The public keys notifications are signed with, for GET /.well-known/jwks.json; none in a test app without notifications. */
  notificationKeys?: () => Promise<Jwks>;
}

/**
 * The HTTP application. Each cross-cutting concern is one hook: onRequest limits and negotiation →
 * preValidation, on an API operation, one hook of steps: authentication, the TPP's bank, the replay
 * guard, body parsing and validation, the request context (hooks/operation-hooks.ts) → handler →
 * preSerialization tppMessage codes into the specification's list → onSend the binding's flush,
 * Content-Language → onResponse one log line.
 */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify(serverOptions(deps));
  makeRequestLoggersLazy(app.log);
  for (const [name, empty] of REQUEST_DECORATIONS) app.decorateRequest(name, empty);
  const schemas = [
    ...sharedSchemasOf(deps.config.mode),
    ...paymentSchemas,
    ...authorisationSchemas,
    ...singlePaymentSchemas,
    ...periodicPaymentSchemas,
    ...basketSchemas,
    ...aisSchemas,
    batchRunSchema,
    ...(deps.config.mode === 'sandbox' ? sandboxSchemas : []),
  ];
  for (const schema of schemas) app.addSchema(schema);
  // Validation runs in our hook over every part at once; Fastify's per-part validation is off
  // (compilersFactory below: its Ajv compiler is not even loaded).
  app.setValidatorCompiler(acceptEveryPart);
  const recorder = deps.recordSchemas;
  const compile = createValidatorCompiler(schemas, {
    checkSchemas: deps.checkSchemas === true,
    ...(recorder === undefined ? {} : { record: (key, code) => recorder.validator(key, code) }),
  });
  const validators: RouteValidator[] = [];
  // main.ts calls it once the server listens (warm-up.ts); tests need not.
  app.decorate('warmUp', () => warmUp(validators));
  if (deps.onRoute !== undefined) app.addHook('onRoute', deps.onRoute);
  // The operations a sandbox scenario may name, noted as the routes are added (hooks/scenario-faults.ts).
  const catalogue = new OperationCatalogue();
  registerOperationHooks(app, {
    scenarios: deps.config.mode === 'sandbox' ? { service: deps.sandbox.scenarios, catalogue } : undefined,
    authenticator: deps.authenticator,
    banks: deps.banks,
    replayGuard: new RequestReplayGuard(deps.store),
    nationalIdKey: deps.sca.nationalIdKey,
    compileValidator: (schema) => {
      const validator = compile(schema);
      validators.push(validator);
      return validator;
    },
  });
  // Before the compression plugin, so that on a failed flush the answer is replaced before it is compressed.
  app.addHook('onSend', awaitBindingFlush);
  app.addHook('onRoute', withoutDecompressionOfNoBody);
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESSION_MIN_BYTES,
    encodings: ['gzip', 'br', 'deflate'],
  });
  keepRawJsonBodies(app);
  registerRequestHooks(app);
  if (deps.metrics !== undefined) registerRequestMetrics(app, deps.metrics.collector, { serve: deps.metrics.serve });
  if (deps.config.mode === 'sandbox') registerSandboxAddressLinks(app);
  registerAbsoluteLocation(app, deps.config.publicUrl);
  app.setErrorHandler((error, request, reply) => sendFailure(request, reply, error));
  app.setNotFoundHandler((request, reply) => sendError(request, reply, noOperation(request, deps.config.mode)));
  await registerRoutes(app, deps, catalogue);
  return app;
}

/** Request decorations and their values before any hook sets them (fastify-types.ts). */
const REQUEST_DECORATIONS: [string, unknown][] = [
  ['authentication', null],
  ['rawBody', null],
  ['retry', false],
  ['bindingDurable', null],
  ['requestContext', null],
  ['locale', 'en'],
  ['errorCode', null],
  ['schemaProblems', null],
  ['signatureExplanation', null],
  ['scenario', null],
  ['routeOptionsRead', null],
  ['bankRelease', null],
];

function serverOptions(deps: AppDependencies): FastifyHttpOptions<Server> {
  const recorder = deps.recordSchemas;
  return {
    logger: deps.logger ?? { level: deps.config.logLevel },
    // One line per request is written by our onResponse hook instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    // Behind a load balancer the client is named by X-Forwarded-For, believed only from the proxies
    // TRUST_PROXY names (request.ip: the logs, the certificate endpoint's limit per address).
    trustProxy: trustedProxies(deps.config.trustProxy ?? false),
    // Routes whose body carries a list set BODY_LIMIT_BYTES themselves.
    bodyLimit: RESOURCE_BODY_LIMIT_BYTES,
    // A client that stops sending, or sends a byte at a time, is answered 408 and closed after these
    // limits (Node checks every CONNECTIONS_CHECK_INTERVAL_MS); an idle keep-alive connection is closed.
    http: {
      maxHeaderSize: HEADERS_MAX_BYTES,
      headersTimeout: deps.config.headersTimeoutMs ?? HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: CONNECTIONS_CHECK_INTERVAL_MS,
    },
    requestTimeout: deps.config.requestTimeoutMs ?? REQUEST_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Our own hook answers 503 in the error body while closing (Fastify's own answer has another shape).
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: PATH_PARAMETER_MAX_LENGTH },
    // Sandbox mode also answers at the platform's sandbox address, /api-sandbox/v1 (hooks/sandbox-address.ts).
    ...(deps.config.mode === 'sandbox' ? { rewriteUrl: routeSandboxAddress } : {}),
    schemaController: {
      bucket: sharedSchemaBucket,
      compilersFactory: {
        // Typed after Ajv's compiled functions; Fastify calls what it returns as setValidatorCompiler's.
        buildValidator: (() => acceptEveryPart) as unknown as BuildValidator,
        buildSerializer: serializerFactory(
          recorder === undefined ? undefined : (key, code) => recorder.serializer(key, code),
        ),
      },
    },
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, request, reply) => sendError(request, reply, new ApiError('BAD_REQUEST', error.message)),
  };
}

type BuildValidator = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>['buildValidator'];

/** Fastify's validator of a route's part: every part passes, since our own hook validates them all. */
function acceptEveryPart(): () => true {
  return () => true;
}

/**
 * Fastify 5 refuses a hop count (it trusts no proxy then): a client that reaches the server past the
 * balancer could name itself in X-Forwarded-For. Where clients cannot, as behind a bank's gateway, a
 * count is what the operator knows, so TRUST_PROXY=N trusts the N nearest hops as proxy-addr used to
 * (docs/decisions/0258); addresses are the safer setting.
 */
function trustedProxies(trustProxy: TrustProxy): FastifyServerOptions['trustProxy'] {
  if (typeof trustProxy !== 'number') return trustProxy;
  return (_address: string, hop: number) => hop < trustProxy;
}

/** The hooks of every request that are not an API operation's own (those are hooks/operation-hooks.ts). */
function registerRequestHooks(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Hooks that never wait are written with `done`: an async one costs every request a promise and a
  // turn of the microtask queue (docs/decisions/0346).
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      // Headers sent and the connection reset: nothing is done for a client that is gone.
      if (isClientGone(request)) throw new ClientGoneError();
      if (closing) throw shuttingDown();
      checkRequestLimits(request);
      request.log.debug({ method: request.method, path: request.url.split('?')[0] }, 'request received');
      if (routeOptionsOf(request).config.api !== undefined) negotiate(request);
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });
  app.addHook('preSerialization', (_request, _reply, payload: unknown, done) =>
    done(null, publishedMessagesOf(payload)),
  );
  app.addHook('onSend', (request, reply, payload, done) => {
    // A keep-alive connection would hold the shutdown open after its last answer.
    if (closing) reply.header('Connection', 'close');
    // Every answer echoes it (Berlin Group), a path no operation serves too: the TPP matches its log by it.
    const requestId = request.headers['x-request-id'];
    if (typeof requestId === 'string') reply.header('X-Request-ID', requestId);
    if (routeOptionsOf(request).config.api !== undefined) reportLanguage(request, reply);
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    logRequest(request, reply);
    done();
  });
}

/** What a path no operation answers is told; production says so of a sandbox path. */
function noOperation(request: FastifyRequest, mode: Config['mode']): ApiError {
  const path = request.originalUrl.split('?')[0]!;
  const sandboxOnly =
    mode === 'production' && (path.startsWith('/v1/sandbox') || path.startsWith(`${SANDBOX_ADDRESS_PREFIX}/`));
  const text = sandboxOnly
    ? `${request.method} ${path} belongs to the sandbox, which production does not serve`
    : `no operation ${request.method} ${path}`;
  return new ApiError('NOT_FOUND', text);
}

async function registerRoutes(
  app: FastifyInstance,
  deps: AppDependencies,
  catalogue: OperationCatalogue,
): Promise<void> {
  const sandbox = deps.config.mode === 'sandbox';
  await registerDocumentation(app, { sandbox, publicUrl: deps.config.publicUrl });
  registerHealth(app, deps.store, deps.config.mode);
  if (deps.notificationKeys !== undefined) registerNotificationKeys(app, deps.notificationKeys);
  if (deps.coreCallbacks !== undefined) registerCoreCallbackRoutes(app, deps.coreCallbacks);
  registerPaymentRoutes(app, deps.payments);
  registerPeriodicPaymentRoutes(app, deps.payments, new PeriodicPaymentService(deps.payments, deps.store));
  registerSigningBasketRoutes(app, deps.baskets);
  registerAuthorisationRoutes(app, deps.payments, deps.baskets);
  registerAisConsentRoutes(app, deps.ais);
  registerAisAccountRoutes(app, deps.ais);
  registerAisCardAccountRoutes(app, deps.ais);
  const secureCookies = deps.config.publicUrl.startsWith('https:');
  const clock =
    sandbox && deps.time !== undefined
      ? new SandboxClock(deps.time.banks, deps.time.runner, deps.time.scheduler, deps.time.consents)
      : undefined;
  if (clock !== undefined) registerSandboxClockRoutes(app, clock);
  if (sandbox) registerSandboxRoutes(app, deps.sandbox, catalogue);
  const bankKeys = new BankKeys(deps.store, deps.banks);
  if (sandbox) registerSandboxKeyRoutes(app, bankKeys);
  if (clock !== undefined) registerSandboxSnapshotRoutes(app, deps.sandbox.snapshots, clock);
  if (sandbox && deps.certificates !== undefined) await registerSandboxCertificateRoutes(app, deps.certificates);
  if (clock !== undefined) {
    // The sandbox console (docs/console.md): its links and sessions expire by the wall clock.
    const wallClock = { now: () => deps.banks.wallNow() };
    const access = new ConsoleAccess(deps.sca.nationalIdKey, wallClock);
    registerSandboxConsoleLinkRoutes(app, access, deps.config.publicUrl);
    const docsLinks = new ConsoleAccess(deps.sca.nationalIdKey, wallClock, 'docs');
    registerSandboxDocsLinkRoutes(app, docsLinks, bankKeys, deps.config.publicUrl);
    await registerConsolePages(app, new SandboxConsole(deps.store, deps.banks, deps.sandbox, clock, catalogue), {
      access,
      sessions: new ConsoleSessions(deps.store, deps.banks, wallClock),
      banks: deps.banks,
      secureCookies,
    });
  }
  await registerScaPages(app, deps.sca, {
    sandbox,
    secureCookies,
    onOutcome: (outcome) => deps.metrics?.collector.observeScaOutcome(outcome),
  });
}

/**
 * Every answer's tppMessages (warnings of a created payment, the reason of a status, those of any
 * route added later) carry a code of the specification's list: mapped here, as the answer is written.
 * Error bodies are mapped already (errorBody); mapping again changes nothing.
 */
function publishedMessagesOf(payload: unknown): unknown {
  if (
    typeof payload !== 'object' ||
    payload === null ||
    !('tppMessages' in payload) ||
    !Array.isArray(payload.tppMessages)
  )
    return payload;
  return { ...payload, tppMessages: publishTppMessages(payload.tppMessages as TppMessage[]) };
}

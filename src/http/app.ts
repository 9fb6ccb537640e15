import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController, type RouteOptions } from 'fastify';
import fastifyAccepts from '@fastify/accepts';
import fastifyCompress from '@fastify/compress';
import type { Config } from '../config/config.js';
import { ApiError, type TppMessage, publishTppMessages } from '../domain/api-error.js';
import {
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
import { errorBody, sendError, sendFailure, shuttingDown } from './error-response.js';
import { StoreClosedError } from '../store/closing-store.js';
import './fastify-types.js';
import { negotiate, reportLanguage } from './hooks/negotiation.js';
import { turn } from './body/turn.js';
import { isLargeBody, keepRawJsonBodies, parseBody } from './hooks/request-body.js';
import { checkRequestLimits } from './hooks/request-limits.js';
import { serializerFactory } from './schema-compiler/serializers.js';
import type { SchemaRecorder } from './schema-compiler/precompiled.js';
import { logRequest } from './hooks/request-log.js';
import { registerRequestMetrics } from './hooks/request-metrics.js';
import type { ServerMetrics } from '../metrics/server-metrics.js';
import { SANDBOX_ADDRESS_PREFIX, registerSandboxAddressLinks, routeSandboxAddress } from './hooks/sandbox-address.js';
import { registerDocumentation } from './routes/documentation.js';
import { registerHealth } from './routes/health.js';
import { registerPaymentRoutes } from './routes/payment-routes.js';
import { registerAisAccountRoutes } from './routes/ais-account-routes.js';
import { registerAisCardAccountRoutes } from './routes/ais-card-account-routes.js';
import { registerAisConsentRoutes } from './routes/ais-consent-routes.js';
import { aisSchemas } from './schemas/ais-schemas.js';
import { sharedSchemas } from './schemas/common-schemas.js';
import { paymentSchemas } from './schemas/payment-schemas.js';
import { basketSchemas } from './schemas/signing-basket-schemas.js';
import { registerScaPages } from './routes/sca-page-routes.js';
import { registerSigningBasketRoutes } from './routes/signing-basket-routes.js';
import { type SandboxTime, batchRunSchema, registerSandboxClockRoutes } from './routes/sandbox-clock-routes.js';
import { registerSandboxRoutes } from './routes/sandbox-routes.js';
import { registerSandboxCertificateRoutes } from './routes/sandbox-certificate-routes.js';
import { sandboxSchemas } from './schemas/sandbox-schemas.js';
import type { SandboxDataService } from '../services/sandbox-data-service.js';
import type { SandboxCertificateService } from '../services/sandbox-certificate-service.js';
import type { Banks } from '../services/banks.js';
import { RequestReplayGuard } from '../services/request-replay-guard.js';
import type { RouteValidator } from './schema-compiler/route-validator.js';
import { createValidatorCompiler } from './schema-compiler/validator-compiler.js';
import { warmUp } from './schema-compiler/warm-up.js';

export interface AppDependencies {
  /** The client timeouts default to HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS. */
  config: Pick<Config, 'mode' | 'logLevel' | 'publicUrl'> &
    Partial<Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs'>>;
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
}

/**
 * The HTTP application. Each cross-cutting concern is one hook, in this order:
 * onRequest negotiation → preValidation authentication → preValidation body parsing and validation
 * → handler → preSerialization tppMessage codes into the specification's list → onSend Content-Language
 * → onResponse one log line.
 */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? { level: deps.config.logLevel },
    // One line per request is written by our onResponse hook instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
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
      compilersFactory: {
        buildSerializer: serializerFactory(
          deps.recordSchemas === undefined ? undefined : (key, code) => deps.recordSchemas!.serializer(key, code),
        ),
      },
    },
    clientErrorHandler: answerClientError,
    frameworkErrors: (error, request, reply) => sendError(request, reply, new ApiError('BAD_REQUEST', error.message)),
  });

  app.decorateRequest('tpp', null);
  app.decorateRequest('rawBody', null);
  app.decorateRequest('bodySha256', null);
  app.decorateRequest('retry', false);
  app.decorateRequest('bindingDurable', null);
  app.decorateRequest('locale', 'en');
  app.decorateRequest('errorCode', null);
  app.decorateRequest('schemaProblems', null);
  const sandboxOnlySchemas = deps.config.mode === 'sandbox' ? sandboxSchemas : [];
  const schemas = [
    ...sharedSchemas,
    ...paymentSchemas,
    ...basketSchemas,
    ...aisSchemas,
    batchRunSchema,
    ...sandboxOnlySchemas,
  ];
  for (const schema of schemas) app.addSchema(schema);

  // Validation runs in our hook over every part at once; Fastify's per-part validation is off.
  app.setValidatorCompiler(() => () => true);
  const compileValidator = createValidatorCompiler(schemas, {
    checkSchemas: deps.checkSchemas === true,
    ...(deps.recordSchemas === undefined ? {} : { record: (key, code) => deps.recordSchemas!.validator(key, code) }),
  });
  const validators: RouteValidator[] = [];
  // main.ts calls it once the server listens (warm-up.ts); tests need not.
  app.decorate('warmUp', () => warmUp(validators));
  app.addHook('onRoute', (route) => {
    deps.onRoute?.(route);
    if (route.config?.api !== undefined && route.schema !== undefined) {
      const validator = compileValidator(route.schema);
      validators.push(validator);
      route.config = { ...route.config, validator };
    }
  });

  await app.register(fastifyAccepts);
  // Nothing is answered before the request's X-Request-ID binding is on disk: a crash after the
  // answer must not free a captured request's signature for another operation. Added before the
  // compression plugin, so that on a failed flush the answer is replaced before it is compressed.
  app.addHook('onSend', async (request, reply, payload) => {
    const bindingDurable = request.bindingDurable;
    if (bindingDurable === null) return payload;
    request.bindingDurable = null;
    try {
      await bindingDurable;
      return payload;
    } catch (error) {
      // Nothing of the answer it replaces stays: no Location of a resource that may not be on disk.
      reply.removeHeader('location');
      const closed = error instanceof StoreClosedError;
      if (!closed) request.log.error({ err: error }, 'the X-Request-ID binding could not be made durable');
      const refusal = closed ? shuttingDown() : new ApiError('SYSTEM_ERROR', 'the request could not be recorded');
      reply.code(refusal.status).type('application/json');
      return JSON.stringify(errorBody(request, refusal));
    }
  });
  await app.register(fastifyCompress, { global: true, threshold: 0, encodings: ['gzip', 'br', 'deflate'] });
  keepRawJsonBodies(app);

  const replayGuard = new RequestReplayGuard(deps.store);
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request) => {
    if (closing) throw shuttingDown();
    checkRequestLimits(request);
    request.log.debug({ method: request.method, path: request.url.split('?')[0] }, 'request received');
    if (request.routeOptions.config.api !== undefined) negotiate(request);
  });
  app.addHook('preValidation', async (request) => {
    const api = request.routeOptions.config.api;
    if (api === undefined) return;
    if (api.auth !== null) {
      // The body's joining (Fastify's) and its digest are steps of their own for a large body.
      if (isLargeBody(request)) await turn();
      // The target as the client sent and signed it, /api-sandbox prefix included.
      const target = request.originalUrl;
      const { tpp, signatureAcceptableUntil, bodySha256 } = deps.authenticator.authenticate(
        { method: request.method, target, headers: request.headers, body: request.rawBody ?? undefined },
        api.auth,
      );
      request.tpp = tpp;
      // A TPP's first signed request in the sandbox makes its bank (a copy of the default data set).
      await deps.banks.ensure(tpp.id);
      request.bodySha256 = bodySha256;
      try {
        request.retry =
          'retry' ===
          (await replayGuard.admit({
            tppId: tpp.id,
            requestId: request.headers['x-request-id'] as string,
            method: request.method,
            target,
            bodySha256: request.bodySha256,
            scope: api.auth.testData === true ? 'test-data' : 'strict',
            expiresAt: signatureAcceptableUntil,
          }));
      } finally {
        // The binding (this request's, or the earlier one a refusal rests on) is committed; its flush
        // runs while the request goes on, and the answer, a refusal too, waits for it.
        request.bindingDurable = deps.store.durable();
        request.bindingDurable.catch(() => undefined); // awaited in onSend; not an unhandled rejection meanwhile
      }
    }
    const large = await parseBody(request);
    const problems =
      (await request.routeOptions.config.validator?.(
        { headers: request.headers, params: request.params, query: request.query, body: request.body },
        large,
      )) ?? [];
    if (large) await turn();
    if (api.deferSchemaProblems === true) request.schemaProblems = problems;
    else if (problems.length > 0) throw ApiError.of(problems);
  });
  app.addHook('preSerialization', async (_request, _reply, payload: unknown) => publishedMessagesOf(payload));
  app.addHook('onSend', async (request, reply) => {
    // A keep-alive connection would hold the shutdown open after its last answer.
    if (closing) reply.header('Connection', 'close');
    if (request.routeOptions.config.api === undefined) return;
    reportLanguage(request, reply);
    const requestId = request.headers['x-request-id'];
    if (typeof requestId === 'string') reply.header('X-Request-ID', requestId);
  });
  app.addHook('onResponse', async (request, reply) => logRequest(request, reply));
  if (deps.metrics !== undefined) registerRequestMetrics(app, deps.metrics.collector, { serve: deps.metrics.serve });
  if (deps.config.mode === 'sandbox') registerSandboxAddressLinks(app);

  app.setErrorHandler((error, request, reply) => sendFailure(request, reply, error));
  app.setNotFoundHandler((request, reply) => {
    const path = request.originalUrl.split('?')[0];
    const sandboxOnly =
      deps.config.mode === 'production' &&
      (path!.startsWith('/v1/sandbox') || path!.startsWith(`${SANDBOX_ADDRESS_PREFIX}/`));
    const text = sandboxOnly
      ? `${request.method} ${path} belongs to the sandbox, which production does not serve`
      : `no operation ${request.method} ${path}`;
    return sendError(request, reply, new ApiError('NOT_FOUND', text));
  });

  await registerDocumentation(app, { sandbox: deps.config.mode === 'sandbox' });
  registerHealth(app, deps.store, deps.config.mode);
  registerPaymentRoutes(app, deps.payments);
  registerSigningBasketRoutes(app, deps.baskets);
  registerAisConsentRoutes(app, deps.ais);
  registerAisAccountRoutes(app, deps.ais);
  registerAisCardAccountRoutes(app, deps.ais);
  if (deps.config.mode === 'sandbox' && deps.time !== undefined) registerSandboxClockRoutes(app, deps.time);
  if (deps.config.mode === 'sandbox') registerSandboxRoutes(app, deps.sandbox);
  if (deps.config.mode === 'sandbox' && deps.certificates !== undefined)
    await registerSandboxCertificateRoutes(app, deps.certificates);
  await registerScaPages(app, deps.sca, {
    sandbox: deps.config.mode === 'sandbox',
    secureCookies: deps.config.publicUrl.startsWith('https:'),
    onOutcome: (outcome) => deps.metrics?.collector.observeScaOutcome(outcome),
  });
  return app;
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

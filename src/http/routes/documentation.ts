import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifyPlugin from 'fastify-plugin';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import { ApiError } from '../../domain/api-error.js';
import { PLATFORM_API_VERSION } from '../../domain/platform-api.js';
import { sendError } from '../error-response.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { SANDBOX_ADDRESS_PREFIX } from '../hooks/sandbox-address.js';
import { withExamples } from '../schemas/examples/document-examples.js';
import { operationIdOfRoute } from '../schemas/operation-ids.js';
import { SIGNATURE_SECURITY_SCHEMES, securityOf } from '../schemas/security-schemes.js';
import { TRY_IT_SIGNER_JS } from '../reference/try-it-signer.js';
import { forTryItOut } from '../reference/page-document.js';

/**
 * The OpenAPI 3 document, generated from the same route schemas that validate requests, at
 * /v1/openapi.json, and a browsable reference at /docs. Both are public: documentation is not an
 * operation on anyone's data (docs/decisions/0014).
 */
export async function registerDocumentation(
  app: FastifyInstance,
  options: { sandbox: boolean; publicUrl: string },
): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Payment initiation and sandbox interface',
        version: PLATFORM_API_VERSION,
        description:
          'PSD2 payment initiation (Berlin Group NextGenPSD2 style, as on the Tietoevry Open Banking platform) and its sandbox. Every /v1 operation but the sandbox certificate is signed with a TPP certificate (components.securitySchemes says how). In the sandbox, "Try it out" on /docs gets a certificate from the sandbox and signs each request in the browser.',
      },
      // The paths are under /v1 once; the sandbox also answers at the platform's address, as a second server.
      ...(options.sandbox ? { servers: SANDBOX_SERVERS } : {}),
      components: { securitySchemes: SIGNATURE_SECURITY_SCHEMES },
    },
    // Each operation's stable operationId and whether it is signed, from the route as added.
    transform: ({ schema, url, route }) => {
      if (schema === undefined) return { schema, url };
      const operationId = operationIdOfRoute(route.method, url);
      return {
        schema: { ...schema, ...(operationId === undefined ? {} : { operationId }), security: securityOf(route) },
        url,
      };
    },
    // Every operation's example request and answer, and the error answers it can give (schemas/examples/).
    transformObject: (generated) =>
      'openapiObject' in generated ? withExamples(generated.openapiObject) : generated.swaggerObject,
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`) },
  });

  app.get(
    '/v1/openapi.json',
    {
      // The links in its examples are the examples' own, the same at the sandbox's address.
      config: { api: { auth: null }, linksAsWritten: true },
      schema: { hide: true, response: { 200: { type: 'object', additionalProperties: true }, ...errorResponses() } },
    },
    async () => app.swagger(),
  );

  const reference = lazyReference(app, options.sandbox ? tryItPage(options.publicUrl) : undefined);
  app.get('/docs', { schema: { hide: true } }, reference);
  app.get('/docs/*', { schema: { hide: true } }, reference);
}

/** Sandbox mode's two addresses of every path (hooks/sandbox-address.ts); production has only the first. */
const SANDBOX_SERVERS = [
  { url: '/', description: 'This server: /v1/...' },
  {
    url: SANDBOX_ADDRESS_PREFIX,
    description: "The platform's sandbox address: /api-sandbox/v1/..., whose answers link under /api-sandbox/v1",
  },
];

/** Answer headers the reference's own server sets that belong to its answer, not to the connection. */
const FORWARDED_HEADERS = ['content-type', 'location', 'cache-control', 'etag', 'last-modified', 'vary'];

/**
 * /docs is served by Swagger UI in a Fastify instance of its own, built on the first request for it.
 * Its plugin and the static-file, MIME and glob code it brings are a large part of the bundle, which
 * every start would load for a page few open (docs/decisions/0106); a
 * reference nobody opens costs nothing. The instance reads the document from this app.
 */
function lazyReference(
  app: FastifyInstance,
  tryIt: TryItPage | undefined,
): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  let reference: Promise<FastifyInstance> | undefined;
  return async (request, reply) => {
    reference ??= buildReference(app, tryIt);
    const answer = await (await reference).inject({ method: 'GET', url: request.url });
    // The reference's own refusals (no such file, a path it will not serve) have Fastify's shape; ours is the error body.
    if (answer.statusCode >= 400) {
      const path = request.url.split('?')[0];
      return sendError(
        request,
        reply,
        answer.statusCode === 404 || answer.statusCode === 403
          ? new ApiError('NOT_FOUND', `the reference has no page ${path}`)
          : new ApiError('BAD_REQUEST', `the reference cannot serve ${path}`),
      );
    }
    for (const name of FORWARDED_HEADERS) {
      const value = answer.headers[name];
      if (value !== undefined) reply.header(name, value);
    }
    return reply.code(answer.statusCode).send(answer.rawPayload);
  };
}

async function buildReference(app: FastifyInstance, tryIt: TryItPage | undefined): Promise<FastifyInstance> {
  const { default: fastifySwaggerUi } = await import('@fastify/swagger-ui');
  const reference = Fastify({ logger: false });
  // Swagger UI depends on @fastify/swagger by name: this stands in for it, with this app's document.
  await reference.register(
    fastifyPlugin(
      async (instance: FastifyInstance) => {
        instance.decorate('swagger', ((options?: { yaml?: boolean }) =>
          app.swagger(options as { yaml: true })) as FastifyInstance['swagger']);
      },
      { name: '@fastify/swagger' },
    ),
  );
  await reference.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true, ...(tryIt === undefined ? {} : TRY_IT_CONFIG) },
    ...tryIt,
    // Located through the package rather than the plugin's own folder, so the bundled server finds it too.
    baseDir: swaggerUiStaticDir(),
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG) },
  });
  await reference.ready();
  return reference;
}

/**
 * Sandbox mode only: "Try it out" signs in the browser (reference/try-it-signer.ts). Swagger UI calls
 * the interceptor before each request; it is sent to the page as its source text, so it only hands
 * over to the script the page loads.
 */
const TRY_IT_CONFIG: Pick<FastifySwaggerUiOptions['uiConfig'] & object, 'requestInterceptor'> = {
  requestInterceptor: (request) => {
    const page = globalThis as unknown as { psd2SignRequest?: (request: unknown) => Promise<typeof request> };
    return page.psd2SignRequest === undefined ? request : page.psd2SignRequest(request);
  },
};

function tryItPage(publicUrl: string) {
  return {
    theme: { title: 'Sandbox API reference', js: [{ filename: 'try-it-signer.js', content: TRY_IT_SIGNER_JS }] },
    // The page sets the signature's headers itself, and fills in the others a create needs.
    transformSpecification: (document: Readonly<Record<string, unknown>>) =>
      forTryItOut(document as Record<string, unknown>, publicUrl),
  };
}
type TryItPage = ReturnType<typeof tryItPage>;

function swaggerUiStaticDir(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static');
}

/** A plain mark in place of the plugin's own logo, which it would read from its folder at every start. */
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="32"><text x="0" y="24" font-family="sans-serif" font-size="20" fill="#ffffff">PSD2 PIS</text></svg>';

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { errorResponses } from '../schemas/common-schemas.js';

/**
 * The OpenAPI 3 document, generated from the same route schemas that validate requests, at
 * /v1/openapi.json, and a browsable reference at /docs. Both are public: documentation is not an
 * operation on anyone's data (docs/decisions.md).
 */
export async function registerDocumentation(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Payment initiation and sandbox interface',
        version: '1.21.20',
        description: 'PSD2 payment initiation (Berlin Group NextGenPSD2 style, as on the Tietoevry Open Banking platform) and its sandbox. Every /v1 operation is signed: see the README for how to sign a request.',
      },
      components: {},
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`) },
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    // Located through the package rather than the plugin's own folder, so the bundled server finds it too.
    baseDir: swaggerUiStaticDir(),
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG) },
  });

  app.get('/v1/openapi.json', {
    config: { api: { auth: null } },
    schema: { hide: true, response: { 200: { type: 'object', additionalProperties: true }, ...errorResponses() } },
  }, async () => app.swagger());
}

function swaggerUiStaticDir(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static');
}

/** A plain mark in place of the plugin's own logo, which it would read from its folder at every start. */
const LOGO_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="32"><text x="0" y="24" font-family="sans-serif" font-size="20" fill="#ffffff">PSD2 PIS</text></svg>';

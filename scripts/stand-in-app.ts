import type { FastifyInstance } from 'fastify';
import type { Mode } from '../src/config/config.js';
import { type AppDependencies, buildApp } from '../src/http/app.js';

/**
 * The app as the server builds it, with every route and schema, but with stand-ins for its
 * services: for the build's steps that read the routes (their compiled schemas, the OpenAPI
 * document) and never call an operation.
 */
export async function buildStandInApp(
  mode: Mode,
  recordSchemas?: AppDependencies['recordSchemas'],
): Promise<FastifyInstance> {
  const unused = {} as never;
  const app = await buildApp({
    config: { mode, logLevel: 'silent', publicUrl: 'http://localhost:8080' },
    store: unused,
    authenticator: unused,
    payments: unused,
    sca: unused,
    baskets: unused,
    ais: unused,
    sandbox: unused,
    banks: unused,
    ...(mode === 'sandbox' ? { time: unused, certificates: unused } : {}),
    ...(recordSchemas === undefined ? {} : { recordSchemas }),
  });
  await app.ready();
  return app;
}

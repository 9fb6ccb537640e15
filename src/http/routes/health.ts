import type { FastifyInstance } from 'fastify';
import type { Mode } from '../../config/config.js';
import { serverVersion } from '../../config/server-version.js';
import { HEALTH_CHECK_TIMEOUT_MS } from '../../domain/limits.js';
import { PLATFORM_API_VERSION } from '../../domain/platform-api.js';
import { migrations } from '../../store/migrations/index.js';
import type { Store } from '../../store/store.js';

/**
 * GET /health: 200 when the server and its database answer, 503 when the database does not; with the
 * server's version (package.json) and the platform API version it follows, two different things.
 * GET /health/live: the process answers (a liveness probe: restart it when it does not).
 * GET /health/ready: the database answers and has every migration this server knows (a readiness
 * probe: send it requests only then). While the server shuts down every route, these included, is 503.
 */
export function registerHealth(app: FastifyInstance, store: Store, mode: Mode): void {
  const version = { server: serverVersion(), api: PLATFORM_API_VERSION };
  app.get('/health/live', { schema: { hide: true, response: { 200: liveSchema } } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'live' };
  });

  app.get(
    '/health/ready',
    { schema: { hide: true, response: { 200: readySchema, 503: readySchema } } },
    async (_request, reply) => {
      const known = Object.keys(migrations);
      let missing: string[] | undefined;
      let problem: string | undefined;
      try {
        const applied = new Set(await withTimeout(store.appliedMigrations(), HEALTH_CHECK_TIMEOUT_MS));
        missing = known.filter((name) => !applied.has(name));
        if (missing.length > 0) problem = `the database lacks migration ${missing.join(', ')}`;
      } catch (error) {
        problem = `the database does not answer: ${(error as Error).message}`;
      }
      reply.header('Cache-Control', 'no-store');
      return reply.code(problem === undefined ? 200 : 503).send({
        status: problem === undefined ? 'ready' : 'not-ready',
        database: { kind: store.kind, status: missing === undefined ? 'down' : 'up' },
        migrations: {
          known: known.length,
          ...(missing === undefined ? {} : { applied: known.length - missing.length }),
        },
        ...(problem === undefined ? {} : { reason: problem }),
      });
    },
  );

  app.get(
    '/health',
    {
      // A probe's answer is some hundred bytes: compressing it gains nothing, and @fastify/compress's
      // first look at an answer (is it a fetch Response?) loads Node's fetch internals, which the first
      // probe after a start would wait for (bench/README.md, the cold start).
      compress: false,
      schema: {
        hide: true,
        response: {
          '2xx': healthSchema,
          503: healthSchema,
        },
      },
    },
    async (_request, reply) => {
      const started = performance.now();
      let database: { kind: string; status: 'up' | 'down'; latencyMs: number; error?: string };
      try {
        await withTimeout(store.ping(), HEALTH_CHECK_TIMEOUT_MS);
        database = { kind: store.kind, status: 'up', latencyMs: elapsed(started) };
      } catch (error) {
        database = { kind: store.kind, status: 'down', latencyMs: elapsed(started), error: (error as Error).message };
      }
      reply.header('Cache-Control', 'no-store');
      return reply
        .code(database.status === 'up' ? 200 : 503)
        .send({ status: database.status === 'up' ? 'ok' : 'unavailable', mode, version, database });
    },
  );
}

const healthSchema = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    mode: { type: 'string' },
    version: { type: 'object', properties: { server: { type: 'string' }, api: { type: 'string' } } },
    database: {
      type: 'object',
      properties: {
        kind: { type: 'string' },
        status: { type: 'string' },
        latencyMs: { type: 'number' },
        error: { type: 'string' },
      },
    },
  },
} as const;

const liveSchema = { type: 'object', properties: { status: { type: 'string' } } } as const;

const readySchema = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    database: { type: 'object', properties: { kind: { type: 'string' }, status: { type: 'string' } } },
    migrations: { type: 'object', properties: { known: { type: 'integer' }, applied: { type: 'integer' } } },
    reason: { type: 'string' },
  },
} as const;

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

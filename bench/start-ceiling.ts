import { flushCompileCache } from 'node:module';
import Fastify from 'fastify';

/**
 * The floor under a cold start on this machine: a bare Fastify app with one route, `GET /health`,
 * bundled and started as `npm start` starts the server (bench/start-ceiling-bundle.ts): the same
 * Node, flags and memory settings, one CommonJS file behind the same loader, with Node's compile
 * cache. What the server's start takes beyond it is the server's own code: its larger bundle, its
 * routes and validators, its store and keys. No top-level await: the bundle is CommonJS.
 */
const app = Fastify({ logger: false });
app.get('/health', async () => ({ status: 'UP' }));
app.listen({ port: Number(process.env.PORT ?? 8190), host: '127.0.0.1' }).then(
  // As the server does once ready (src/heap-growth.ts): the bench stops it with a signal, before
  // Node would write the cache at exit, and the next start would compile it afresh.
  () => flushCompileCache(),
  (error: unknown) => {
    process.stderr.write(`start ceiling: ${String(error)}\n`);
    process.exit(1);
  },
);

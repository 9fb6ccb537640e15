import type { FastifyInstance } from 'fastify';
import { SHUTDOWN_GRACE_MS, SIGNAL_ECHO_WINDOW_MS } from './domain/limits.js';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * On SIGTERM or SIGINT: no new requests, those in flight finish within SHUTDOWN_GRACE_MS; a second
 * signal, or the grace period running out, exits at once. The same signal again within
 * SIGNAL_ECHO_WINDOW_MS is the first one delivered twice (`npm start` forwards what the process group
 * got too), not a second: taken for one, a Ctrl-C under `npm start` would drop the requests in flight.
 */
export function stopOnSignals(app: FastifyInstance): void {
  let first: { signal: string; at: number } | undefined;
  const stop = (signal: string) => {
    const now = performance.now();
    if (first !== undefined) {
      if (signal === first.signal && now - first.at < SIGNAL_ECHO_WINDOW_MS) {
        app.log.info(
          { signal, afterMs: Math.round(now - first.at) },
          'same signal again at once (npm start forwards what the process group got): still finishing the requests in flight',
        );
        return;
      }
      app.log.warn({ signal }, 'second signal: exiting without waiting');
      process.exit(1);
    }
    first = { signal, at: now };
    app.log.info({ signal }, 'shutting down: no new requests; finishing those in flight');
    const force = setTimeout(() => {
      app.log.error({ graceMs: SHUTDOWN_GRACE_MS }, 'requests still running after the grace period: exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    app.close().then(
      () => {
        app.log.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  for (const signal of SIGNALS) process.on(signal, () => stop(signal));
}

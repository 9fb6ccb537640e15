import type { FastifyInstance } from 'fastify';
import type { ServerMetrics } from '../../metrics/server-metrics.js';
import { routeOptionsOf } from '../route-options.js';

/** The route label of a request no route matched: one series for them all, whatever path was asked for. */
const UNMATCHED_ROUTE = '(none)';

/**
 * Every answered request in psd2_http_request_duration_seconds (onResponse), labelled by the route
 * pattern (`/v1/payments/:paymentProduct/:paymentId`, never the path with its ids) and the status;
 * and, when the metrics are served on the API's port, GET /metrics (docs/decisions/0178).
 */
export function registerRequestMetrics(
  app: FastifyInstance,
  metrics: ServerMetrics,
  options: { serve: boolean },
): void {
  app.addHook('onResponse', (request, reply, done) => {
    // A sandbox scenario's answer (a 500 on demand, a 429, a delay) is counted apart: "any 5xx is a bug" holds for the rest.
    if (request.scenario !== null) metrics.observeScenarioAnswer(request.scenario, reply.statusCode);
    else
      metrics.observeRequest(
        request.method,
        routeOptionsOf(request).url ?? UNMATCHED_ROUTE,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
    done();
  });
  if (!options.serve) return;
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    const text = await metrics.scrape();
    return reply.header('Cache-Control', 'no-store').type(metrics.contentType).send(text);
  });
}

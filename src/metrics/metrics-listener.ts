import { type Server, createServer } from 'node:http';
import { HEADERS_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../domain/limits.js';
import type { ServerMetrics } from './server-metrics.js';

export interface MetricsListener {
  /** Its address, such as http://127.0.0.1:9464. */
  url: string;
  close(): Promise<void>;
}

/**
 * GET /metrics on a port of its own (METRICS_PORT), so that a bank exposes it to its monitoring and
 * not to TPPs. Nothing else is served there: any other request is a plain 404, any other method 405.
 */
export async function listenForMetrics(metrics: ServerMetrics, host: string, port: number): Promise<MetricsListener> {
  // The API's client limits: a slow or idle client of this port is closed as one of the API's is.
  const server: Server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS },
    (request, response) => {
      const path = (request.url ?? '').split('?')[0];
      if (path !== '/metrics') {
        response
          .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
          .end('this port serves GET /metrics only\n');
        return;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response
          .writeHead(405, { 'content-type': 'text/plain; charset=utf-8', allow: 'GET, HEAD' })
          .end('GET /metrics\n');
        return;
      }
      metrics.scrape().then(
        (text) =>
          response
            .writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' })
            .end(request.method === 'HEAD' ? undefined : text),
        (error: unknown) =>
          response
            .writeHead(500, { 'content-type': 'text/plain; charset=utf-8' })
            .end(`metrics could not be collected: ${(error as Error).message}\n`),
      );
    },
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

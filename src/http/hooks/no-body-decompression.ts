import type { RouteOptions } from 'fastify';

/**
 * A GET, HEAD or DELETE carries no body to decompress: its route goes without @fastify/compress's
 * preParsing hook, which refused a Content-Encoding it did not know for a body that was not sent,
 * and with no other, without that stage of Fastify's hook machinery (docs/decisions/0371).
 */
export function withoutDecompressionOfNoBody(route: RouteOptions): void {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (
    route.decompress === undefined &&
    methods.every((method) => method === 'GET' || method === 'HEAD' || method === 'DELETE')
  )
    route.decompress = false;
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { routeOptionsOf } from '../route-options.js';

/**
 * The platform's sandbox address: the Tietoevry platform serves its sandbox API
 * under /api-sandbox/v1/..., and its developer proxy and scripts call that path. In sandbox mode the
 * server answers there too. Every route is registered once, under /v1: the address is mapped onto it
 * before routing (Fastify's rewriteUrl), and the answer's links are given the address the request
 * came to. Production does not serve it (docs/decisions/0150 and docs/decisions/0154).
 */
export const SANDBOX_ADDRESS_PREFIX = '/api-sandbox';

const MAPPED = `${SANDBOX_ADDRESS_PREFIX}/v1/`;

/**
 * rewriteUrl for sandbox mode: /api-sandbox/v1/... is routed as /v1/...; anything else as sent.
 * Fastify keeps the target as sent in request.originalUrl: signatures and the replay guard use that.
 */
export function routeSandboxAddress(raw: IncomingMessage): string {
  const url = raw.url ?? '/';
  return url.startsWith(MAPPED) ? url.slice(SANDBOX_ADDRESS_PREFIX.length) : url;
}

/** The prefix of the address this request came to: '/api-sandbox', or '' for /v1 itself. */
function addressPrefixOf(request: FastifyRequest): string {
  return request.originalUrl !== request.url && request.originalUrl.startsWith(MAPPED) ? SANDBOX_ADDRESS_PREFIX : '';
}

/**
 * Gives the links of an answer to a request under /api-sandbox/v1 that address: every `_links` href
 * and the Location header that is a path under /v1. Absolute links (the SCA page) stay as they are,
 * and so do the links of a route's examples (`linksAsWritten`: the OpenAPI document). Services build
 * their links under /v1 only, and what they store (an idempotent answer) stays so.
 */
export function registerSandboxAddressLinks(app: FastifyInstance): void {
  app.addHook('preSerialization', (request, _reply, payload, done) => {
    const prefix = addressPrefixOf(request);
    done(
      null,
      prefix === '' || routeOptionsOf(request).config.linksAsWritten === true
        ? payload
        : withPrefixedLinks(payload, prefix),
    );
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const prefix = addressPrefixOf(request);
    const location = reply.getHeader('location');
    if (prefix !== '' && typeof location === 'string' && location.startsWith('/v1/'))
      reply.header('location', `${prefix}${location}`);
    done(null, payload);
  });
}

/** A copy of the answer in which each `_links` href under /v1 starts with the prefix. */
function withPrefixedLinks(value: unknown, prefix: string): unknown {
  if (Array.isArray(value)) return value.map((item) => withPrefixedLinks(item, prefix));
  if (value === null || typeof value !== 'object' || value instanceof Date || Buffer.isBuffer(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] =
      key === '_links' && item !== null && typeof item === 'object'
        ? prefixedLinks(item as Record<string, unknown>, prefix)
        : withPrefixedLinks(item, prefix);
  }
  return copy;
}

function prefixedLinks(links: Record<string, unknown>, prefix: string): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, link] of Object.entries(links)) {
    const href = (link as { href?: unknown } | null)?.href;
    copy[name] =
      typeof href === 'string' && href.startsWith('/v1/') ? { ...(link as object), href: `${prefix}${href}` } : link;
  }
  return copy;
}

import type { FastifyRequest } from 'fastify';

/**
 * The request's route options, read from Fastify once per request. Fastify's `request.routeOptions`
 * is a getter that builds a new object of fourteen fields, and asks the router for its version
 * constraint, on every read; a signed request's hooks read it six times (docs/decisions/0361).
 */
export function routeOptionsOf(request: FastifyRequest): FastifyRequest['routeOptions'] {
  return (request.routeOptionsRead ??= request.routeOptions);
}

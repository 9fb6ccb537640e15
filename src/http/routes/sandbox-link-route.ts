import type { FastifyInstance } from 'fastify';
import type { ConsoleAccess } from '../console-pages/console-access.js';
import { signedRequestOf } from '../hooks/authenticate.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { sandboxReadHeaders } from '../schemas/sandbox-schemas.js';
import { SANDBOX_BANK_READ_AUTH, SANDBOX_TAGS } from './sandbox-route-parts.js';

/** What a one-time link's route says of it, in its OpenAPI entry. */
export interface LinkRoute {
  url: string;
  summary: string;
  description: string;
  /** What opening the link does, and an example of it. */
  href: { description: string; example: string };
  /** What the link no longer does after its expiry. */
  expires: string;
  /** The absolute address of the link that carries the token. */
  address: (token: string) => string;
}

/**
 * A signed POST that answers a one-time link for the TPP that signs it (the console's, /docs's):
 * signed as every sandbox operation, by any PSD2 role, taking no body. The link names the key that
 * signed the request, so it opens nothing once that key is unbound. It stores nothing, so a retry
 * with the same X-Request-ID gets a link of its own.
 */
export function registerLinkRoute(app: FastifyInstance, access: ConsoleAccess, route: LinkRoute): void {
  app.post(
    route.url,
    {
      config: { api: { auth: SANDBOX_BANK_READ_AUTH } },
      schema: {
        summary: route.summary,
        description: route.description,
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        response: {
          201: {
            type: 'object',
            required: ['href', 'expiresAt'],
            properties: {
              href: { type: 'string', ...route.href },
              expiresAt: { type: 'string', format: 'date-time', description: route.expires },
            },
          },
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const signed = signedRequestOf(request);
      const { token, expiresAt } = access.link(signed.tpp.id, signed.keySha256);
      return reply.code(201).send({ href: route.address(token), expiresAt: expiresAt.toISOString() });
    },
  );
}

import type { FastifyInstance } from 'fastify';
import { CONSOLE_LINK_TTL_MS, CONSOLE_SESSION_TTL_MS } from '../../domain/limits.js';
import type { ConsoleAccess } from '../console-pages/console-access.js';
import { signedRequestOf } from '../hooks/authenticate.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { sandboxReadHeaders } from '../schemas/sandbox-schemas.js';
import { SANDBOX_BANK_READ_AUTH, SANDBOX_TAGS } from './sandbox-route-parts.js';

const consoleLinkSchema = {
  type: 'object',
  required: ['href', 'expiresAt'],
  properties: {
    href: {
      type: 'string',
      description: `Open it in a browser: it opens this TPP's console once, within ${CONSOLE_LINK_TTL_MS / 60_000} minutes, and the browser keeps a session of ${CONSOLE_SESSION_TTL_MS / 3_600_000} hours`,
      example: 'http://127.0.0.1:8080/console/enter?token=eyJ0Ijoi…',
    },
    expiresAt: { type: 'string', format: 'date-time', description: 'The link cannot be opened after this instant' },
  },
} as const;

/**
 * POST /v1/sandbox/console-links (docs/console.md): a short-lived link to the sandbox console of the
 * TPP that signs the request, and of no other. Signed as every sandbox operation, by any PSD2 role;
 * it stores nothing, so a retry with the same X-Request-ID gets a link of its own.
 */
export function registerSandboxConsoleLinkRoutes(app: FastifyInstance, access: ConsoleAccess, publicUrl: string): void {
  app.post(
    '/v1/sandbox/console-links',
    {
      config: { api: { auth: SANDBOX_BANK_READ_AUTH } },
      schema: {
        summary: "Get a link to this TPP's sandbox console: its bank in a browser",
        description:
          'Takes no body, so Digest is optional here (checked when sent). The link is absolute, at PUBLIC_URL/console/enter, and opens the console once; `npm run -s tpp -- console` asks for it.',
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        response: { 201: consoleLinkSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      // The link names the key that signed for it: unbinding that key ends the sessions it opens.
      const signed = signedRequestOf(request);
      const { token, expiresAt } = access.link(signed.tpp.id, signed.keySha256);
      return reply.code(201).send({
        href: `${publicUrl}/console/enter?token=${encodeURIComponent(token)}`,
        expiresAt: expiresAt.toISOString(),
      });
    },
  );
}

import type { FastifyInstance } from 'fastify';
import { CONSOLE_LINK_TTL_MS, CONSOLE_SESSION_TTL_MS } from '../../domain/limits.js';
import type { ConsoleAccess } from '../console-pages/console-access.js';
import { registerLinkRoute } from './sandbox-link-route.js';

/**
 * POST /v1/sandbox/console-links (docs/console.md): a short-lived link to the sandbox console of the
 * TPP that signs the request, and of no other.
 */
export function registerSandboxConsoleLinkRoutes(app: FastifyInstance, access: ConsoleAccess, publicUrl: string): void {
  registerLinkRoute(app, access, {
    url: '/v1/sandbox/console-links',
    summary: "Get a link to this TPP's sandbox console: its bank in a browser",
    description:
      'Takes no body, so Digest is optional here (checked when sent). The link is absolute, at PUBLIC_URL/console/enter, and opens the console once; `npm run -s tpp -- console` asks for it.',
    href: {
      description: `Open it in a browser: it opens this TPP's console once, within ${CONSOLE_LINK_TTL_MS / 60_000} minutes, and the browser keeps a session of ${CONSOLE_SESSION_TTL_MS / 3_600_000} hours`,
      example: 'http://127.0.0.1:8080/console/enter?token=eyJ0Ijoi…',
    },
    expires: 'The link cannot be opened after this instant',
    address: (token) => `${publicUrl}/console/enter?token=${encodeURIComponent(token)}`,
  });
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import { CONSOLE_LINK_TTL_MS, CONSOLE_SESSION_TTL_MS } from '../../domain/limits.js';
import { CONSOLE_SESSION_COOKIE } from '../console-pages/console-access.js';
import type { ConsoleMessage } from '../console-pages/console-message-texts.js';
import type { ConsoleScope } from './console-scope.js';

/**
 * The console's way in (docs/console.md): GET /console/enter?token=… opens a link from POST
 * /v1/sandbox/console-links once, gives the browser the TPP's session cookie and redirects to the
 * console; a link that opens nothing is answered with a page that says why.
 */
export function registerConsoleEntry(pages: FastifyInstance, { options, cookie, show }: ConsoleScope): void {
  pages.get<{ Querystring: { token?: unknown } }>('/enter', { schema: { hide: true } }, async (request, reply) => {
    const token = typeof request.query.token === 'string' ? request.query.token : '';
    const found = options.access.enter(token);
    const entry =
      found.outcome === 'valid'
        ? await options.sessions.open(found.link)
        : // An expired link opened at another instance, or before this one forgot it, is still "used"
          // while the database remembers it (until the retention job removes it).
          found.outcome === 'expired' && (await options.sessions.linkUsed(found.nonce))
          ? { outcome: 'used' as const }
          : found;
    if (entry.outcome === 'entered') {
      reply.setCookie(CONSOLE_SESSION_COOKIE, entry.cookie, { ...cookie, maxAge: CONSOLE_SESSION_TTL_MS / 1000 });
      // The token leaves the address bar (and the browser's history) with the redirect.
      return toConsole(reply);
    }
    // The browser that opened the link goes back to the console it has (the link from its history).
    if (entry.outcome === 'used') {
      const session = await options.sessions.sessionOf(request.cookies[CONSOLE_SESSION_COOKIE]);
      const linkTpp = found.outcome === 'valid' ? found.link.tppId : 'tppId' in found ? found.tppId : '';
      if (session?.tppId === linkTpp) return toConsole(reply);
    }
    if (entry.outcome === 'busy') return show(request, reply, { kind: 'message', message: 'busy' }, { status: 503 });
    // This TPP's own limit (issue 40): 429, a client's excess, not the sandbox's fault.
    if (entry.outcome === 'too-many') {
      reply.header('Retry-After', String(Math.ceil(CONSOLE_LINK_TTL_MS / 1000)));
      return show(request, reply, { kind: 'message', message: 'too-many-links' }, { status: 429 });
    }
    // A link whose key was unbound since it was given opens nothing, as a link never given.
    const message: ConsoleMessage = entry.outcome === 'key-unbound' ? 'link-invalid' : `link-${entry.outcome}`;
    return show(request, reply, { kind: 'message', message }, { status: 401 });
  });
}

/** The way from the link to the console: a redirect kept by no cache and passing the link's address to no one. */
function toConsole(reply: FastifyReply): FastifyReply {
  return reply
    .code(303)
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('Location', '/console')
    .send();
}

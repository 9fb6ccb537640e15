import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConsoleSession } from '../../services/console/console-sessions.js';
import { CONSOLE_SESSION_COOKIE } from '../console-pages/console-access.js';
import { holdBank, leaveBank, leaveBankOnAbort } from '../hooks/tpp-bank.js';
import { registerConsoleActionRoutes } from './console-action-routes.js';
import { registerConsoleNotificationRoutes } from './console-notification-routes.js';
import type { ConsoleScope } from './console-scope.js';
import { registerConsoleToolRoutes } from './console-tool-routes.js';
import { registerConsoleViewRoutes } from './console-view-routes.js';
import { routeOptionsOf } from '../route-options.js';

/**
 * The console's pages behind its session cookie: each request's session is found before its body is
 * read, and every page and form acts in that TPP's bank alone.
 */
export function registerSignedInPages(signedIn: FastifyInstance, scope: ConsoleScope): void {
  const { options, show, sessions, bank, cookie } = scope;
  const sessionOf = (request: FastifyRequest): ConsoleSession => sessions.get(request)!;
  // Before the body is read: without the TPP's session, in the database now (signed out, its
  // key unbound, its bank removed: none), nothing of the console answers.
  signedIn.addHook('onRequest', async (request, reply) => {
    const session = await options.sessions.sessionOf(request.cookies[CONSOLE_SESSION_COOKIE]);
    if (session === undefined) return show(request, reply, { kind: 'message', message: 'signed-out' }, { status: 401 });
    if (!(await options.banks.noteUse(session.tppId)))
      return show(request, reply, { kind: 'message', message: 'bank-gone' }, { status: 401 });
    sessions.set(request, session);
    // A page of the bank waits while a bulk operation changes it, as the bank's API requests do.
    if (routeOptionsOf(request).config.bulk !== true)
      await holdBank(options.banks, request, options.banks.of(session.tppId));
    return undefined;
  });
  signedIn.addHook('onResponse', leaveBank);
  signedIn.addHook('onRequestAbort', leaveBankOnAbort);

  const pages = { pages: signedIn, bank, show, sessionOf };
  registerConsoleViewRoutes(pages);
  registerConsoleActionRoutes(pages);
  registerConsoleToolRoutes(pages);
  registerConsoleNotificationRoutes(pages);

  // Ends the session on the server, for every instance: the cookie is worth nothing after.
  signedIn.post(
    '/sign-out',
    { preHandler: signedIn.csrfProtection, schema: { hide: true } },
    async (request, reply) => {
      await options.sessions.end(sessionOf(request));
      return reply.clearCookie(CONSOLE_SESSION_COOKIE, cookie).code(303).header('Location', '/console').send();
    },
  );
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import { ApiError } from '../../domain/api-error.js';
import { CONSOLE_FORM_BODY_MAX_BYTES } from '../../domain/limits.js';
import type { SandboxConsole } from '../../services/console/sandbox-console.js';
import type { ConsoleSession } from '../../services/console/console-sessions.js';
import { endForGoneClient, isClientGone } from '../client-gone.js';
import { registerConsoleEntry } from './console-entry-route.js';
import { type ConsolePageOptions, type ConsoleScope, type ShowPage, pageShower } from './console-scope.js';
import { registerSignedInPages } from './console-signed-in-routes.js';

/**
 * The sandbox console (docs/console.md), sandbox mode only: a TPP developer's view of its own bank,
 * and the buttons that drive it. A link from POST /v1/sandbox/console-links opens it once and gives
 * the browser a session cookie for that TPP; every page and form needs the cookie and acts in that
 * TPP's bank alone. Plain HTML forms with a CSRF token bound to the session, no script, as the SCA
 * pages (sca-page-routes.ts).
 */
export async function registerConsolePages(
  app: FastifyInstance,
  bank: SandboxConsole,
  options: ConsolePageOptions,
): Promise<void> {
  const scope: ConsoleScope = {
    bank,
    options,
    cookie: { path: '/console', httpOnly: true, sameSite: 'strict', secure: options.secureCookies },
    show: pageShower(),
    sessions: new WeakMap<FastifyRequest, ConsoleSession>(),
  };
  await app.register(
    async (pages) => {
      await registerFormPlugins(pages, scope);
      answerAsPages(pages, scope.show);
      registerConsoleEntry(pages, scope);
      await pages.register(async (signedIn) => registerSignedInPages(signedIn, scope));
    },
    { prefix: '/console' },
  );
}

/** Cookies, posted forms, and CSRF tokens bound to the session. */
async function registerFormPlugins(pages: FastifyInstance, { cookie, sessions }: ConsoleScope): Promise<void> {
  await pages.register(fastifyCookie);
  await pages.register(fastifyFormbody, { bodyLimit: CONSOLE_FORM_BODY_MAX_BYTES });
  await pages.register(fastifyCsrf, {
    cookieKey: 'console_csrf',
    cookieOpts: { ...cookie, signed: false },
    // A token is good for the session it was made for alone (issue 40): another session's CSRF
    // cookie and token, a consistent pair, are refused with this session's cookie. What binds is
    // the session's id, a hash of a secret only its browser holds; the library asks for an HMAC
    // key as well, which this binding does not need to be secret.
    getUserInfo: (request) => sessions.get(request)?.id ?? '',
    csrfOpts: { hmacKey: 'binds a sandbox console CSRF token to its session' },
  });
}

/** A form that fails its CSRF check, or any fault, is answered as a page, never as JSON; so is an address the console has no page at. */
function answerAsPages(pages: FastifyInstance, show: ShowPage): void {
  pages.setErrorHandler(async (error, request, reply) => {
    if (isClientGone(request)) return endForGoneClient(request, reply, error);
    const status = (error as { statusCode?: number }).statusCode ?? (error instanceof ApiError ? error.status : 500);
    if (status >= 500) request.log.error({ err: error }, 'unexpected fault on a console page');
    const failed = status >= 400 && status < 500;
    return show(
      request,
      reply,
      { kind: 'message', message: failed ? 'form-invalid' : 'fault' },
      {
        status: failed ? 403 : 500,
      },
    );
  });
  pages.setNotFoundHandler((request, reply) =>
    show(request, reply, { kind: 'message', message: 'not-found' }, { status: 404 }),
  );
}

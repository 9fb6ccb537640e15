import { holdBank, leaveBank } from '../hooks/tpp-bank.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import { ApiError } from '../../domain/api-error.js';
import {
  CONSOLE_CONSENTS_LISTED,
  CONSOLE_FORM_BODY_MAX_BYTES,
  CONSOLE_PAYMENTS_LISTED,
  CONSOLE_SESSION_TTL_MS,
  SANDBOX_CLOCK_MAX_ADVANCE_SECONDS,
  CONSOLE_LINK_TTL_MS,
} from '../../domain/limits.js';
import type { Banks } from '../../services/banks.js';
import type { SandboxConsole } from '../../services/console/sandbox-console.js';
import { endForGoneClient, isClientGone } from '../client-gone.js';
import type { ConsoleSession, ConsoleSessions } from '../../services/console/console-sessions.js';
import { CONSOLE_SESSION_COOKIE, type ConsoleAccess } from '../console-pages/console-access.js';
import { type ConsolePage, renderConsolePage } from '../console-pages/console-page-renderer.js';
import { CONSOLE_TEXTS, type ConsoleMessage } from '../console-pages/console-texts.js';
import { noticeOf, seeAfter } from '../console-pages/console-forms.js';
import { fieldsOf } from '../page-forms.js';
import { registerConsoleToolRoutes } from './console-tool-routes.js';
import { languageOf } from '../hooks/negotiation.js';
import { setPageHeaders } from '../page-frame.js';

interface ConsolePageOptions {
  access: ConsoleAccess;
  sessions: ConsoleSessions;
  banks: Banks;
  secureCookies: boolean;
}

/** Answers a page: HTML in the developer's language, never cached, framed or given a referrer. */
export type ShowPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  page: ConsolePage,
  options?: { status?: number; session?: ConsoleSession },
) => FastifyReply;

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
  const cookie = { path: '/console', httpOnly: true, sameSite: 'strict', secure: options.secureCookies } as const;
  const show = pageShower();
  /** The session of each signed-in request, found in its first hook. */
  const sessions = new WeakMap<FastifyRequest, ConsoleSession>();
  await app.register(
    async (pages) => {
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

      // A form that fails its CSRF check, or any fault, is answered as a page, never as JSON.
      pages.setErrorHandler(async (error, request, reply) => {
        if (isClientGone(request)) return endForGoneClient(request, reply, error);
        const status =
          (error as { statusCode?: number }).statusCode ?? (error instanceof ApiError ? error.status : 500);
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
        if (entry.outcome === 'busy')
          return show(request, reply, { kind: 'message', message: 'busy' }, { status: 503 });
        // This TPP's own limit (issue 40): 429, a client's excess, not the sandbox's fault.
        if (entry.outcome === 'too-many') {
          reply.header('Retry-After', String(Math.ceil(CONSOLE_LINK_TTL_MS / 1000)));
          return show(request, reply, { kind: 'message', message: 'too-many-links' }, { status: 429 });
        }
        // A link whose key was unbound since it was given opens nothing, as a link never given.
        const message: ConsoleMessage = entry.outcome === 'key-unbound' ? 'link-invalid' : `link-${entry.outcome}`;
        return show(request, reply, { kind: 'message', message }, { status: 401 });
      });

      await pages.register(async (signedIn) => {
        const sessionOf = (request: FastifyRequest): ConsoleSession => sessions.get(request)!;
        // Before the body is read: without the TPP's session, in the database now (signed out, its
        // key unbound, its bank removed: none), nothing of the console answers.
        signedIn.addHook('onRequest', async (request, reply) => {
          const session = await options.sessions.sessionOf(request.cookies[CONSOLE_SESSION_COOKIE]);
          if (session === undefined)
            return show(request, reply, { kind: 'message', message: 'signed-out' }, { status: 401 });
          if (!(await options.banks.noteUse(session.tppId)))
            return show(request, reply, { kind: 'message', message: 'bank-gone' }, { status: 401 });
          sessions.set(request, session);
          // A page of the bank waits while a bulk operation changes it, as the bank's API requests do.
          if (request.routeOptions.config.bulk !== true)
            await holdBank(options.banks, request, options.banks.of(session.tppId));
          return undefined;
        });
        signedIn.addHook('onResponse', leaveBank);
        signedIn.addHook('onRequestAbort', leaveBank);
        const signed = (request: FastifyRequest) => ({ session: sessionOf(request) });

        signedIn.get<{ Querystring: Record<string, unknown> }>('', { schema: { hide: true } }, async (request, reply) =>
          show(
            request,
            reply,
            {
              kind: 'overview',
              clock: await bank.readClock(sessionOf(request).tppId),
              notice: noticeOf(request.query),
            },
            signed(request),
          ),
        );
        signedIn.get('/customers', { schema: { hide: true } }, async (request, reply) =>
          show(
            request,
            reply,
            { kind: 'customers', ...(await bank.customers(sessionOf(request).tppId)) },
            signed(request),
          ),
        );
        signedIn.get('/payments', { schema: { hide: true } }, async (request, reply) =>
          show(
            request,
            reply,
            {
              kind: 'payments',
              payments: await bank.payments(sessionOf(request).tppId),
              limit: CONSOLE_PAYMENTS_LISTED,
            },
            signed(request),
          ),
        );
        signedIn.get<{ Params: { paymentId: string } }>(
          '/payments/:paymentId',
          { schema: { hide: true } },
          async (request, reply) => {
            try {
              const story = await bank.payment(sessionOf(request).tppId, request.params.paymentId);
              return show(request, reply, { kind: 'payment', story }, signed(request));
            } catch (error) {
              if (!(error instanceof ApiError) || error.code !== 'RESOURCE_UNKNOWN') throw error;
              return show(
                request,
                reply,
                { kind: 'message', message: 'payment-unknown' },
                { ...signed(request), status: 404 },
              );
            }
          },
        );
        signedIn.get('/consents', { schema: { hide: true } }, async (request, reply) =>
          show(
            request,
            reply,
            {
              kind: 'consents',
              consents: await bank.consents(sessionOf(request).tppId),
              limit: CONSOLE_CONSENTS_LISTED,
            },
            signed(request),
          ),
        );

        const form = { preHandler: signedIn.csrfProtection, schema: { hide: true } };
        const bulkForm = { ...form, config: { bulk: true } };
        /** The overview again, telling why an action was refused (400). */
        const refused = async (request: FastifyRequest, reply: FastifyReply, problem: string) =>
          show(
            request,
            reply,
            { kind: 'overview', clock: await bank.readClock(sessionOf(request).tppId), problem },
            { ...signed(request), status: 400 },
          );

        signedIn.post('/clock', form, async (request, reply) => {
          const { amount, unit } = fieldsOf(request.body, ['amount', 'unit']);
          const texts = CONSOLE_TEXTS[languageOf(request)].clock;
          const hoursPer = unit === 'days' ? 24 : 1;
          const max = Math.floor(SANDBOX_CLOCK_MAX_ADVANCE_SECONDS / 3600 / hoursPer);
          const count = /^\d{1,7}$/.test(amount) ? Number(amount) : 0;
          if ((unit !== 'hours' && unit !== 'days') || count < 1 || count > max)
            return refused(request, reply, texts.badAmount(max, unit === 'days' ? texts.days : texts.hours));
          try {
            const moved = await bank.moveClock(sessionOf(request).tppId, count * hoursPer);
            const runs = [...moved.batchRuns, ...moved.standingOrders];
            return seeAfter(reply, '/console', {
              kind: 'clock-moved',
              batchRuns: moved.batchRuns.length,
              executed: runs.reduce((n, r) => n + r.executed + r.partial, 0),
              rejected: runs.reduce((n, r) => n + r.rejected, 0),
            });
          } catch (error) {
            // A move the clock cannot make (past its last instant): the API's words, on the page.
            if (error instanceof ApiError && error.status === 400) return refused(request, reply, error.message);
            throw error;
          }
        });

        signedIn.post('/batch-runs', form, async (request, reply) => {
          const run = await bank.runBatch(sessionOf(request).tppId);
          return seeAfter(reply, '/console', {
            kind: 'batch-run',
            executed: run.executed + run.partial,
            rejected: run.rejected,
          });
        });

        signedIn.post('/reset', bulkForm, async (request, reply) => {
          if (fieldsOf(request.body, ['confirm']).confirm !== 'yes')
            return refused(request, reply, CONSOLE_TEXTS[languageOf(request)].reset.confirmNeeded);
          await bank.reset(sessionOf(request).tppId);
          return seeAfter(reply, '/console', { kind: 'reset' });
        });

        registerConsoleToolRoutes({ pages: signedIn, bank, show, sessionOf });

        // Ends the session on the server, for every instance: the cookie is worth nothing after.
        signedIn.post('/sign-out', form, async (request, reply) => {
          await options.sessions.end(sessionOf(request));
          return reply.clearCookie(CONSOLE_SESSION_COOKIE, cookie).code(303).header('Location', '/console').send();
        });
      });
    },
    { prefix: '/console' },
  );
}

function pageShower(): ShowPage {
  return (request, reply, page, options = {}) => {
    // The way in carries its token in the address: no page passes the address on (no Referer).
    setPageHeaders(reply, "'self'");
    const language = languageOf(request);
    // A page of the way in has no form; one refused before the cookie plugin read the cookies (a
    // limit crossed in the first hook) has none to make a token from.
    const csrf = options.session === undefined ? '' : reply.generateCsrf({ userInfo: options.session.id });
    const html = renderConsolePage(page, { language, csrf, tppId: options.session?.tppId });
    return reply
      .code(options.status ?? 200)
      .header('Content-Language', language)
      .type('text/html; charset=utf-8')
      .send(html);
  };
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

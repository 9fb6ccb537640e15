import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Banks } from '../../services/banks.js';
import type { ConsoleSession, ConsoleSessions } from '../../services/console/console-sessions.js';
import type { SandboxConsole } from '../../services/console/sandbox-console.js';
import type { ConsoleAccess } from '../console-pages/console-access.js';
import { type ConsolePage, renderConsolePage } from '../console-pages/console-page-renderer.js';
import { languageOf } from '../hooks/negotiation.js';
import { setPageHeaders } from '../page-frame.js';

/** What the console's routes are given (app.ts). */
export interface ConsolePageOptions {
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

/** What every route of the console shares (console-page-routes.ts makes it). */
export interface ConsoleScope {
  bank: SandboxConsole;
  options: ConsolePageOptions;
  /** The options of the console's cookies: its session's and its CSRF token's. */
  cookie: { path: string; httpOnly: true; sameSite: 'strict'; secure: boolean };
  show: ShowPage;
  /** The session of each signed-in request, found in its first hook. */
  sessions: WeakMap<FastifyRequest, ConsoleSession>;
}

/** What the console's signed-in pages share with the routes of its views, actions and tools. */
export interface SignedInPages {
  /** The scope whose every request has the TPP's session (console-signed-in-routes.ts). */
  pages: FastifyInstance;
  bank: SandboxConsole;
  show: ShowPage;
  sessionOf: (request: FastifyRequest) => ConsoleSession;
}

export function pageShower(): ShowPage {
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

import { CoreUnavailable } from '../../core/bank-core.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import { ApiError } from '../../domain/api-error.js';
import type { ScaDecision, ScaMessage, ScaPage, ScaService } from '../../services/sca-service.js';
import { AIS_SHAREABLE_ACCOUNTS_MAX, SCA_FORM_BODY_MAX_BYTES } from '../../domain/limits.js';
import { endForGoneClient, isClientGone } from '../client-gone.js';
import { languageOf } from '../hooks/negotiation.js';
import { setPageHeaders } from '../page-frame.js';
import { fieldsOf, formOf } from '../page-forms.js';
import { renderScaPage } from '../sca-pages/sca-page-renderer.js';
import { StepBinding } from '../sca-pages/step-binding.js';

/** Where the identity provider sends the browser back: PUBLIC_URL and this path is the redirect URI registered with it. */
export const PROVIDER_CALLBACK_PATH = '/sca/oidc/callback';

interface ScaPageOptions {
  sandbox: boolean;
  secureCookies: boolean;
  onOutcome?: (outcome: ScaMessage) => void;
}

/** Answers a page of the flow: the next page as HTML, the way back to the TPP as a redirect. */
type ShowPage = (request: FastifyRequest, reply: FastifyReply, page: ScaPage, statusOverride?: number) => unknown;

/**
 * The PSU's pages: open the scaRedirect link, log in, approve or decline. Plain HTML forms, so a
 * script can complete the flow with curl (README). Every form carries a CSRF token (cookie and
 * field) and a single-use step token; the pages allow no script and are never cached or framed.
 */
export async function registerScaPages(app: FastifyInstance, sca: ScaService, options: ScaPageOptions): Promise<void> {
  await app.register(async (pages) => {
    await pages.register(fastifyCookie);
    await pages.register(fastifyFormbody, { bodyLimit: SCA_FORM_BODY_MAX_BYTES });
    await pages.register(fastifyCsrf, {
      cookieOpts: { path: '/sca', httpOnly: true, sameSite: 'lax', secure: options.secureCookies, signed: false },
    });
    const binding = new StepBinding(sca.nationalIdKey, options.secureCookies);
    const show = pageShower(options, binding);
    /** The step token of the posted form; one not rendered for this browser is a 403 page and uses nothing up. */
    const stepOf = (request: FastifyRequest, field: string): string => {
      const step = binding.unbind(field, request);
      if (step === undefined) throw new ApiError('FORBIDDEN', 'the form was not rendered for this browser');
      return step;
    };

    answerFaultsAsPages(pages, show);

    pages.get<{ Params: { token: string } }>('/sca/:token', { schema: { hide: true } }, async (request, reply) => {
      if (!sca.logsInAtProvider) return show(request, reply, await sca.open(request.params.token));
      // The state is the login step's token bound to this browser: only it can complete the log-in.
      const page = await sca.openAtProvider(request.params.token, (step) => binding.bind(step, request, reply));
      if (page.kind !== 'provider') return show(request, reply, page);
      setPageHeaders(reply, "'self' https: http:");
      return reply.code(303).header('Location', page.url).send();
    });

    // The identity provider sends the browser back here (docs/sca.md, "Production log-in").
    // GET only: a HEAD (a link checker's) would spend the code and the log-in step without showing the PSU anything.
    pages.get(PROVIDER_CALLBACK_PATH, { schema: { hide: true }, exposeHeadRoute: false }, async (request, reply) => {
      const at = request.url.indexOf('?');
      const query = new URLSearchParams(at < 0 ? '' : request.url.slice(at + 1));
      const state = query.get('state') ?? '';
      return show(request, reply, await sca.providerCallback(binding.unbind(state, request), state, query));
    });

    pages.post('/sca/login', { preHandler: pages.csrfProtection, schema: { hide: true } }, async (request, reply) => {
      const form = fieldsOf(request.body, ['step', 'customerNumber', 'code', 'decision']);
      const step = stepOf(request, form.step);
      if (form.decision === 'cancel') return show(request, reply, await sca.cancelLogin(step));
      return show(request, reply, await sca.login(step, form.customerNumber, form.code));
    });

    pages.post(
      '/sca/decision',
      { preHandler: pages.csrfProtection, schema: { hide: true } },
      async (request, reply) => {
        const form = fieldsOf(request.body, ['step', 'decision']);
        const accounts = valuesOf(request.body, 'account', AIS_SHAREABLE_ACCOUNTS_MAX);
        return show(request, reply, await sca.decide(stepOf(request, form.step), decisionOf(form.decision), accounts));
      },
    );
  });
}

/** A form that fails its CSRF check, or any fault, is answered as a page, never as JSON. */
function answerFaultsAsPages(pages: FastifyInstance, show: ShowPage): void {
  pages.setErrorHandler(async (error, request, reply) => {
    if (isClientGone(request)) return endForGoneClient(request, reply, error);
    // The bank's core did not answer (docs/core.md): the PSU is told to try again; no fault of this server's.
    if (error instanceof CoreUnavailable) {
      request.log.warn({ reason: error.reason }, "the bank's core is not available");
      reply.header('Retry-After', String(error.retryAfterSeconds));
      return show(request, reply, { kind: 'message', message: 'bank-unavailable', returnUrl: undefined }, 503);
    }
    const status = (error as { statusCode?: number }).statusCode ?? (error instanceof ApiError ? error.status : 500);
    if (status >= 500) request.log.error({ err: error }, 'unexpected fault on an SCA page');
    return show(
      request,
      reply,
      { kind: 'message', message: 'form-invalid', returnUrl: undefined },
      status >= 400 && status < 500 ? 403 : 500,
    );
  });
}

function pageShower(options: ScaPageOptions, binding: StepBinding): ShowPage {
  return async (request, reply, page, statusOverride) => {
    setPageHeaders(reply, "'self' https: http:");
    // A message or the way back to the TPP ends the PSU's visit; a log-in or confirmation page does not.
    if (page.kind === 'message' || page.kind === 'redirect')
      options.onOutcome?.(page.kind === 'message' ? page.message : page.outcome);
    // Why the identity provider's answer was refused: a code or the library's words, never a token or an identity number.
    if (page.kind === 'message' && page.reason !== undefined)
      request.log.warn({ scaOutcome: page.message, reason: page.reason }, 'PSU log-in at the identity provider failed');
    if (page.kind === 'redirect') return reply.code(303).header('Location', page.url).send();
    const language = languageOf(request);
    // A message has no form; and a request refused before the cookie plugin read its cookies (a
    // limit crossed in the first hook) has none to make a token from.
    const csrf = page.kind === 'message' ? '' : reply.generateCsrf();
    // Each form's step token is bound to the browser the page is rendered for.
    const shown = 'step' in page ? { ...page, step: binding.bind(page.step, request, reply) } : page;
    const html = renderScaPage(shown, { language, csrf, sandbox: options.sandbox });
    const status = statusOverride ?? (page.kind === 'message' ? messageStatus(page.message) : 200);
    return reply.code(status).header('Content-Language', language).type('text/html; charset=utf-8').send(html);
  };
}

/** A used or expired link is gone (410); a refused log-in is forbidden (403); a provider that did not answer, unavailable (503). */
function messageStatus(message: ScaMessage): number {
  if (message === 'link-invalid' || message === 'link-expired') return 410;
  if (message === 'login-refused') return 403;
  if (message === 'idp-unavailable') return 503;
  return 200;
}

/** A field sent once per ticked box (a consent's accounts), as text, at most `max` of them, each bounded. */
function valuesOf(body: unknown, name: string, max: number): string[] {
  const value = formOf(body)[name];
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values
    .filter((v): v is string => typeof v === 'string')
    .slice(0, max)
    .map((v) => v.slice(0, 100));
}

/** The button pressed; anything but approve or withdraw declines, the answer that gives nothing away. */
function decisionOf(value: string): ScaDecision {
  return value === 'approve' || value === 'withdraw' ? value : 'decline';
}

import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/api-error.js';
import { NOTIFICATION_LOG_ENTRIES } from '../../domain/limits.js';
import { noticeOf, seeAfter } from '../console-pages/console-forms.js';
import { NOTIFICATION_TEXTS } from '../console-pages/notification-texts.js';
import { languageOf } from '../hooks/negotiation.js';
import type { SignedInPages } from './console-scope.js';

/**
 * The console's delivery log (docs/notifications.md, "In the sandbox"): the TPP's notifications with
 * their tries, and a button that sends one again. Only the signed-in TPP's events are listed or sent
 * (docs/decisions/0338).
 */
export function registerConsoleNotificationRoutes({ pages, bank, show, sessionOf }: SignedInPages): void {
  const signed = (request: FastifyRequest) => ({ session: sessionOf(request) });
  const logPage = async (request: FastifyRequest) =>
    ({
      kind: 'notifications',
      notifications: await bank.notifications(sessionOf(request).tppId),
      limit: NOTIFICATION_LOG_ENTRIES,
    }) as const;

  pages.get<{ Querystring: Record<string, unknown> }>(
    '/notifications',
    { schema: { hide: true } },
    async (request, reply) =>
      show(request, reply, { ...(await logPage(request)), notice: noticeOf(request.query) }, signed(request)),
  );

  pages.post<{ Params: { eventId: string } }>(
    '/notifications/:eventId/resend',
    { preHandler: pages.csrfProtection, schema: { hide: true } },
    async (request, reply) => {
      try {
        await bank.resendNotification(sessionOf(request).tppId, request.params.eventId);
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== 'RESOURCE_UNKNOWN') throw error;
        // Another TPP's event, or none: the log again, saying so; nothing is sent.
        const problem = NOTIFICATION_TEXTS[languageOf(request)].unknown(request.params.eventId);
        return show(request, reply, { ...(await logPage(request)), problem }, { ...signed(request), status: 404 });
      }
      return seeAfter(reply, '/console/notifications', { kind: 'notification-resent' });
    },
  );
}

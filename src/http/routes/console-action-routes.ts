import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/api-error.js';
import { SANDBOX_CLOCK_MAX_ADVANCE_SECONDS } from '../../domain/limits.js';
import { seeAfter } from '../console-pages/console-forms.js';
import { CONSOLE_TEXTS } from '../console-pages/console-texts.js';
import { languageOf } from '../hooks/negotiation.js';
import { fieldsOf } from '../page-forms.js';
import type { SignedInPages } from './console-scope.js';

/** The overview's buttons: move the bank's clock, run its batch now, reset it to the default data set. */
export function registerConsoleActionRoutes({ pages, bank, show, sessionOf }: SignedInPages): void {
  const signed = (request: FastifyRequest) => ({ session: sessionOf(request) });
  const form = { preHandler: pages.csrfProtection, schema: { hide: true } };
  const bulkForm = { ...form, config: { bulk: true } };
  /** The overview again, telling why an action was refused (400). */
  const refused = async (request: FastifyRequest, reply: FastifyReply, problem: string) =>
    show(
      request,
      reply,
      { kind: 'overview', clock: await bank.readClock(sessionOf(request).tppId), problem },
      { ...signed(request), status: 400 },
    );

  pages.post('/clock', form, async (request, reply) => {
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

  pages.post('/batch-runs', form, async (request, reply) => {
    const run = await bank.runBatch(sessionOf(request).tppId);
    return seeAfter(reply, '/console', {
      kind: 'batch-run',
      executed: run.executed + run.partial,
      rejected: run.rejected,
    });
  });

  pages.post('/reset', bulkForm, async (request, reply) => {
    if (fieldsOf(request.body, ['confirm']).confirm !== 'yes')
      return refused(request, reply, CONSOLE_TEXTS[languageOf(request)].reset.confirmNeeded);
    await bank.reset(sessionOf(request).tppId);
    return seeAfter(reply, '/console', { kind: 'reset' });
  });
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/api-error.js';
import { MAX_SANDBOX_SNAPSHOTS_PER_BANK, SANDBOX_TEXT_MAX_LENGTH } from '../../domain/limits.js';
import { formText, noticeOf, problemText, seeAfter } from '../console-pages/console-forms.js';
import { formOf } from '../page-forms.js';
import type { ConsolePage } from '../console-pages/console-page-renderer.js';
import { isScenarioKind, readScenarioForm } from '../console-pages/scenario-form.js';
import { SCENARIO_TEXTS } from '../console-pages/scenario-texts.js';
import { SNAPSHOT_TEXTS } from '../console-pages/snapshot-texts.js';
import { languageOf } from '../hooks/negotiation.js';
import type { SignedInPages } from './console-scope.js';

type Params = { Params: { id: string } };

/**
 * The console's snapshots and scenarios (docs/console.md): save, restore and delete a snapshot of the
 * TPP's bank, arm and disarm a scenario in it, through the services of POST /v1/sandbox/snapshots and
 * POST /v1/sandbox/scenarios, so that the same rules and limits answer. A refusal of theirs is told
 * on the page, in their words.
 */
export function registerConsoleToolRoutes(pages: SignedInPages): void {
  const tools = toolsOf(pages);
  registerSnapshotRoutes(tools);
  registerScenarioRoutes(tools);
}

/** What the routes of the console's tools share: their forms, their pages, and how a refusal is told on them. */
function toolsOf({ pages, bank, show, sessionOf }: SignedInPages) {
  const signed = (request: FastifyRequest) => ({ session: sessionOf(request) });
  const tppOf = (request: FastifyRequest) => sessionOf(request).tppId;
  const form = { preHandler: pages.csrfProtection, schema: { hide: true } };
  const bulkForm = { ...form, config: { bulk: true } };

  const snapshotsPage = async (request: FastifyRequest) =>
    ({
      kind: 'snapshots',
      snapshots: await bank.snapshots(tppOf(request)),
      limit: MAX_SANDBOX_SNAPSHOTS_PER_BANK,
    }) as const;
  const scenariosPage = async (request: FastifyRequest, chosen: unknown) =>
    ({
      kind: 'scenarios',
      armed: await bank.scenarios(tppOf(request)),
      chosen: isScenarioKind(chosen) ? chosen : undefined,
      operations: [...bank.operations.faultable],
    }) as const;
  /** The page again, saying why the action was refused (with the refusal's status, a 4xx). */
  const refused = (request: FastifyRequest, reply: FastifyReply, page: ConsolePage, problem: string, status = 400) =>
    show(request, reply, { ...page, problem }, { ...signed(request), status });
  /** Runs an action; a refusal of the bank's services (4xx) goes back to the page, anything else is a fault. */
  const acting = async (
    request: FastifyRequest,
    reply: FastifyReply,
    page: () => Promise<ConsolePage>,
    action: () => Promise<FastifyReply>,
  ) => {
    try {
      return await action();
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      return refused(request, reply, await page(), problemText(error), error.status);
    }
  };

  return { pages, bank, show, signed, tppOf, form, bulkForm, snapshotsPage, scenariosPage, refused, acting };
}

type Tools = ReturnType<typeof toolsOf>;

/** The snapshots page: save the bank as it is, restore it, delete a snapshot. */
function registerSnapshotRoutes({
  pages,
  bank,
  show,
  signed,
  tppOf,
  form,
  bulkForm,
  snapshotsPage,
  refused,
  acting,
}: Tools): void {
  pages.get<{ Querystring: Record<string, unknown> }>(
    '/snapshots',
    { schema: { hide: true } },
    async (request, reply) =>
      show(request, reply, { ...(await snapshotsPage(request)), notice: noticeOf(request.query) }, signed(request)),
  );

  pages.post('/snapshots', bulkForm, async (request, reply) => {
    const given = formText(formOf(request.body).name, SANDBOX_TEXT_MAX_LENGTH);
    if (given === null)
      return refused(
        request,
        reply,
        await snapshotsPage(request),
        SNAPSHOT_TEXTS[languageOf(request)].badName(SANDBOX_TEXT_MAX_LENGTH),
      );
    return acting(
      request,
      reply,
      () => snapshotsPage(request),
      async () => {
        await bank.saveSnapshot(tppOf(request), given);
        return seeAfter(reply, '/console/snapshots', { kind: 'snapshot-saved' });
      },
    );
  });

  pages.post<Params>('/snapshots/:id/restore', bulkForm, async (request, reply) =>
    acting(
      request,
      reply,
      () => snapshotsPage(request),
      async () => {
        await bank.restoreSnapshot(tppOf(request), request.params.id);
        return seeAfter(reply, '/console/snapshots', { kind: 'snapshot-restored' });
      },
    ),
  );

  pages.post<Params>('/snapshots/:id/delete', form, async (request, reply) =>
    acting(
      request,
      reply,
      () => snapshotsPage(request),
      async () => {
        await bank.deleteSnapshot(tppOf(request), request.params.id);
        return seeAfter(reply, '/console/snapshots', { kind: 'snapshot-deleted' });
      },
    ),
  );
}

/** The scenarios page: arm a scenario of a kind with its form, disarm one. */
function registerScenarioRoutes({
  pages,
  bank,
  show,
  signed,
  tppOf,
  form,
  scenariosPage,
  refused,
  acting,
}: Tools): void {
  pages.get<{ Querystring: Record<string, unknown> }>(
    '/scenarios',
    { schema: { hide: true } },
    async (request, reply) =>
      show(
        request,
        reply,
        { ...(await scenariosPage(request, request.query.kind)), notice: noticeOf(request.query) },
        signed(request),
      ),
  );

  pages.post('/scenarios', form, async (request, reply) => {
    const fields = formOf(request.body);
    const kind = fields.kind;
    const page = () => scenariosPage(request, kind);
    if (!isScenarioKind(kind))
      return refused(
        request,
        reply,
        await page(),
        SCENARIO_TEXTS[languageOf(request)].wrong([SCENARIO_TEXTS[languageOf(request)].kindLabel]),
      );
    const texts = SCENARIO_TEXTS[languageOf(request)];
    const reading = readScenarioForm(
      kind,
      fields,
      (await bank.readClock(tppOf(request))).now,
      bank.operations.faultable,
    );
    if ('wrong' in reading)
      return refused(request, reply, await page(), texts.wrong(reading.wrong.map((name) => texts.fields[name].label)));
    return acting(request, reply, page, async () => {
      await bank.armScenario(tppOf(request), reading.body);
      return seeAfter(reply, '/console/scenarios', { kind: 'scenario-armed' });
    });
  });

  pages.post<Params>('/scenarios/:id/disarm', form, async (request, reply) =>
    acting(
      request,
      reply,
      () => scenariosPage(request, undefined),
      async () => {
        await bank.disarmScenario(tppOf(request), request.params.id);
        return seeAfter(reply, '/console/scenarios', { kind: 'scenario-disarmed' });
      },
    ),
  );
}

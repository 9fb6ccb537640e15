import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../domain/api-error.js';
import { osloDate } from '../../domain/clock.js';
import type { BatchRunResult, BatchRunner, BatchScheduler } from '../../services/batch-runner.js';
import type { BankClock, Banks } from '../../services/banks.js';
import { isStandingOrderRun } from '../../services/periodic-runner.js';
import { FORMATTED_TEXT_MAX_LENGTH, SANDBOX_CLOCK_LATEST } from '../../domain/limits.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { SIGNED, SIGNED_REQUIRED, headersSchema } from '../schemas/header-schemas.js';
import { contextOf } from '../hooks/request-context.js';

/** At most ten years forward in one move: far enough for any test, and a bound on the batch catch-up. */
const MAX_ADVANCE_SECONDS = 10 * 366 * 86_400;

export interface SandboxTime {
  banks: Banks;
  runner: BatchRunner;
  scheduler: BatchScheduler;
}

const clockSchema = {
  type: 'object',
  properties: {
    now: { type: 'string', format: 'date-time' },
    today: { type: 'string', format: 'date', description: 'The business date in Norway' },
    timeZone: { type: 'string' },
    offsetSeconds: { type: 'integer', description: 'How far the sandbox clock is ahead of the wall clock' },
    batchTimes: { type: 'array', items: { type: 'string' } },
    nextBatchRun: { type: 'string', format: 'date-time' },
    batchRuns: { type: 'array', items: { $ref: 'BatchRun#' } },
    standingOrders: {
      type: 'array',
      items: { $ref: 'BatchRun#' },
      description:
        "The standing orders' executions the move passed, per day (slot periodic:<date>), booked when the day begins, not by the batch runs",
    },
  },
} as const;

export const batchRunSchema = {
  $id: 'BatchRun',
  type: 'object',
  properties: {
    slot: { type: 'string' },
    executed: { type: 'integer', description: 'Payments executed in full (ACSC)' },
    partial: { type: 'integer', description: 'Bulk payments executed in part (PART)' },
    rejected: { type: 'integer', description: 'Payments rejected (RJCT), for example without funds' },
  },
} as const;

/** A move and a batch run change the bank, so they carry a Digest (of the empty body for a run). */
const SIGNED_WITH_DIGEST = headersSchema([...SIGNED, 'Digest'], [...SIGNED_REQUIRED, 'Digest']);

/** The body of a clock move: one of the two. */
interface ClockMove {
  advanceSeconds?: number;
  to?: string;
}

/**
 * The sandbox's business clock and batch runs (docs/sandbox.md): a TPP reads its bank's clock, moves
 * it forward (its bank's batch slots passed on the way run), or runs its bank's batch now, so its
 * tests run in seconds and always the same way, whatever other TPPs do.
 */
export function registerSandboxClockRoutes(app: FastifyInstance, time: SandboxTime): void {
  const view = (clock: BankClock, runs?: BatchRunResult[]) => {
    const now = clock.now();
    return {
      now: now.toISOString(),
      today: osloDate(now),
      timeZone: 'Europe/Oslo',
      offsetSeconds: Math.round(clock.offsetMs / 1000),
      batchTimes: [...time.runner.times],
      nextBatchRun: time.runner.nextSlot(now).toISOString(),
      ...(runs === undefined
        ? {}
        : {
            batchRuns: runs.filter((r) => !isStandingOrderRun(r)),
            standingOrders: runs.filter((r) => isStandingOrderRun(r)),
          }),
    };
  };
  registerClockRead(app, time, view);
  registerClockMove(app, time, view);
  registerBatchRun(app, time);
}

type ClockView = (clock: BankClock, runs?: BatchRunResult[]) => unknown;

function registerClockRead(app: FastifyInstance, time: SandboxTime, view: ClockView): void {
  app.get(
    '/v1/sandbox/clock',
    {
      config: { api: { auth: { role: 'any', digestRequired: false, testData: true } } },
      schema: {
        summary: 'Read the sandbox business clock and the batch schedule',
        tags: ['sandbox'],
        headers: headersSchema(SIGNED, SIGNED_REQUIRED),
        response: { 200: clockSchema, ...errorResponses() },
      },
    },
    async (request) => view(await time.banks.clockOfBank(contextOf(request).bank)),
  );
}

function registerClockMove(app: FastifyInstance, time: SandboxTime, view: ClockView): void {
  app.post<{ Body: ClockMove }>(
    '/v1/sandbox/clock',
    {
      config: { api: { auth: { role: 'any', digestRequired: true, testData: true } } },
      schema: {
        summary: 'Move the sandbox clock forward; the batch runs whose times are passed run, in order',
        tags: ['sandbox'],
        headers: SIGNED_WITH_DIGEST,
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: {
            advanceSeconds: { type: 'integer', minimum: 1, maximum: MAX_ADVANCE_SECONDS },
            to: {
              type: 'string',
              maxLength: FORMATTED_TEXT_MAX_LENGTH,
              format: 'date-time',
              description: "An instant after the clock's time now",
            },
          },
        },
        response: { 200: clockSchema, ...errorResponses() },
      },
    },
    async (request) => {
      const { tpp, bank } = contextOf(request);
      if (request.body.advanceSeconds !== undefined && request.body.to !== undefined) {
        throw new ApiError('FORMAT_ERROR', 'give either advanceSeconds or to, not both', [
          { code: 'FORMAT_ERROR', path: '$', text: 'give either advanceSeconds or to, not both' },
        ]);
      }
      const before = await time.banks.clockOf(tpp.id);
      const target = clockTarget(request.body, before);
      const movedFrom = before.now();
      await time.banks.advance(tpp.id, target);
      // The slots the move passes run for this TPP's bank only, every one of them however far it goes.
      const runs = await time.scheduler.wake(bank, movedFrom);
      return view(await time.banks.clockOf(tpp.id), Array.isArray(runs) ? (runs as BatchRunResult[]) : []);
    },
  );
}

/** The instant a move of one form asks for, refused when the clock cannot go there in one move. */
function clockTarget(body: ClockMove, clock: BankClock): Date {
  const target =
    body.to !== undefined ? new Date(body.to) : new Date(clock.now().getTime() + body.advanceSeconds! * 1000);
  // RFC 3339 allows second 60 (a leap second), which JavaScript's Date, and so this clock, cannot hold.
  if (Number.isNaN(target.getTime())) {
    const text = `$.to ${body.to} is a leap second or another time the clock cannot show; give an instant such as ${String(body.to).replace(/:60(?=\D|$)/, ':59')}`;
    throw new ApiError('FORMAT_ERROR', text, [{ code: 'FORMAT_ERROR', path: '$.to', text }]);
  }
  if (target.getTime() - clock.now().getTime() > MAX_ADVANCE_SECONDS * 1000) {
    throw new ApiError('FORMAT_ERROR', `the clock moves at most ${MAX_ADVANCE_SECONDS} seconds at a time`, [
      {
        code: 'FORMAT_ERROR',
        path: '$.to',
        text: `the clock moves at most ${MAX_ADVANCE_SECONDS} seconds (ten years) at a time`,
      },
    ]);
  }
  if (target.getTime() > SANDBOX_CLOCK_LATEST.getTime()) {
    const path = body.to !== undefined ? '$.to' : '$.advanceSeconds';
    const text = `${path} would move the clock to ${target.toISOString()}; the sandbox clock goes no further than ${SANDBOX_CLOCK_LATEST.toISOString()}, where its batch schedule ends`;
    throw new ApiError('FORMAT_ERROR', text, [{ code: 'FORMAT_ERROR', path, text }]);
  }
  return target;
}

function registerBatchRun(app: FastifyInstance, time: SandboxTime): void {
  app.post(
    '/v1/sandbox/batch-runs',
    {
      config: { api: { auth: { role: 'any', digestRequired: true, testData: true } } },
      schema: {
        summary: 'Run the batch now: execute every authorised payment that is due',
        tags: ['sandbox'],
        headers: SIGNED_WITH_DIGEST,
        response: { 200: { $ref: 'BatchRun#' }, ...errorResponses() },
      },
    },
    async (request) => time.runner.runNow(contextOf(request).bank),
  );
}

import { SANDBOX_BANK_CREATE_AUTH, SANDBOX_READ_AUTH } from './sandbox-route-parts.js';
import type { FastifyInstance } from 'fastify';
import type { BatchRunner, BatchScheduler } from '../../services/batch-runner.js';
import type { Banks } from '../../services/banks.js';
import type { ClockMove, ClockReading, SandboxClock } from '../../services/sandbox/sandbox-clock.js';
import { FORMATTED_TEXT_MAX_LENGTH, SANDBOX_CLOCK_MAX_ADVANCE_SECONDS } from '../../domain/limits.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { sandboxActionHeaders, sandboxReadHeaders } from '../schemas/sandbox-schemas.js';
import { contextOf } from '../hooks/request-context.js';
import type { ConsentExpiry } from '../../services/consent-expiry.js';

export interface SandboxTime {
  banks: Banks;
  runner: BatchRunner;
  scheduler: BatchScheduler;
  consents: ConsentExpiry;
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

/**
 * The sandbox's business clock and batch runs (docs/sandbox.md): a TPP reads its bank's clock, moves
 * it forward (its bank's batch slots passed on the way run), or runs its bank's batch now, so its
 * tests run in seconds and always the same way, whatever other TPPs do. The rules are SandboxClock's,
 * which the console uses too.
 */
export function registerSandboxClockRoutes(app: FastifyInstance, clock: SandboxClock): void {
  registerClockRead(app, clock);
  registerClockMove(app, clock);
  registerBatchRun(app, clock);
}

/** The clock as the answers show it. */
function clockView(reading: ClockReading) {
  return {
    now: reading.now.toISOString(),
    today: reading.today,
    timeZone: 'Europe/Oslo',
    offsetSeconds: reading.offsetSeconds,
    batchTimes: [...reading.batchTimes],
    nextBatchRun: reading.nextBatchRun.toISOString(),
  };
}

function registerClockRead(app: FastifyInstance, clock: SandboxClock): void {
  app.get(
    '/v1/sandbox/clock',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: 'Read the sandbox business clock and the batch schedule',
        tags: ['sandbox'],
        headers: sandboxReadHeaders(),
        response: { 200: clockSchema, ...errorResponses() },
      },
    },
    async (request) => clockView(await clock.read(contextOf(request).tpp.id)),
  );
}

function registerClockMove(app: FastifyInstance, clock: SandboxClock): void {
  app.post<{ Body: ClockMove }>(
    '/v1/sandbox/clock',
    {
      config: { api: { auth: SANDBOX_BANK_CREATE_AUTH } },
      schema: {
        summary: 'Move the sandbox clock forward; the batch runs whose times are passed run, in order',
        tags: ['sandbox'],
        headers: sandboxActionHeaders(),
        body: {
          type: 'object',
          additionalProperties: false,
          minProperties: 1,
          properties: {
            advanceSeconds: { type: 'integer', minimum: 1, maximum: SANDBOX_CLOCK_MAX_ADVANCE_SECONDS },
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
      const moved = await clock.move(contextOf(request).tpp.id, request.body);
      return { ...clockView(moved.clock), batchRuns: moved.batchRuns, standingOrders: moved.standingOrders };
    },
  );
}

function registerBatchRun(app: FastifyInstance, clock: SandboxClock): void {
  app.post(
    '/v1/sandbox/batch-runs',
    {
      config: { api: { auth: SANDBOX_BANK_CREATE_AUTH } },
      schema: {
        summary: 'Run the batch now: execute every authorised payment that is due',
        tags: ['sandbox'],
        headers: sandboxActionHeaders(),
        response: { 200: { $ref: 'BatchRun#' }, ...errorResponses() },
      },
    },
    async (request) => clock.runNow(contextOf(request).tpp.id),
  );
}

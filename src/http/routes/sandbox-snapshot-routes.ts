import type { FastifyInstance } from 'fastify';
import type { SandboxSnapshots } from '../../services/sandbox/sandbox-snapshots.js';
import type { SandboxClock } from '../../services/sandbox/sandbox-clock.js';
import { contextOf } from '../hooks/request-context.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { sandboxActionHeaders, sandboxReadHeaders } from '../schemas/sandbox-schemas.js';
import {
  SANDBOX_BANK_CREATE_AUTH,
  SANDBOX_TAGS,
  created,
  sandboxParams,
  SANDBOX_READ_AUTH,
} from './sandbox-route-parts.js';
import { registerSandboxReadAndDelete } from './sandbox-resource-routes.js';

type Params = { Params: { snapshotId: string } };

const COLLECTION = '/v1/sandbox/snapshots';
const ONE = `${COLLECTION}/:snapshotId`;

/**
 * Snapshots of the TPP's sandbox bank (docs/sandbox.md, "Snapshots"), sandbox mode only: save, list,
 * read, delete, restore. A restore catches the bank's batch up (SandboxClock.catchUp, as the console's
 * restore does): the restored clock and the payments waiting in the restored state set when its next run is.
 */
export function registerSandboxSnapshotRoutes(
  app: FastifyInstance,
  snapshots: SandboxSnapshots,
  clock: SandboxClock,
): void {
  app.post<{ Body: { name?: string } }>(
    COLLECTION,
    {
      config: { api: { auth: SANDBOX_BANK_CREATE_AUTH }, bulk: true },
      schema: {
        summary: "Save this TPP's sandbox bank as it is now: its data, payments, consents and clock",
        description:
          'The body is `{}`, or names the snapshot (`name`). Other TPPs’ banks are not read. Refused 409 when the bank keeps its most snapshots, or its data is more than one snapshot holds.',
        tags: SANDBOX_TAGS,
        headers: sandboxActionHeaders(),
        body: { $ref: 'SandboxSnapshotCreate#' },
        response: { 201: { $ref: 'SandboxSnapshot#' }, ...errorResponses(409, 415, 429) },
      },
    },
    async (request, reply) => created(reply, await snapshots.save(contextOf(request).tpp, request.body.name)),
  );

  app.get(
    COLLECTION,
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: "List this TPP's sandbox snapshots, oldest first",
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        response: { 200: { $ref: 'SandboxSnapshotList#' }, ...errorResponses() },
      },
    },
    async (request) => snapshots.list(contextOf(request).tpp),
  );

  registerSandboxReadAndDelete(app, {
    wholeBank: true,
    collection: 'snapshots',
    param: 'snapshotId',
    resource: 'SandboxSnapshot#',
    readSummary: 'Read a sandbox snapshot',
    deleteSummary: 'Delete a sandbox snapshot (the bank stays as it is)',
    read: (tpp, snapshotId) => snapshots.read(tpp, snapshotId),
    remove: (tpp, snapshotId) => snapshots.remove(tpp, snapshotId),
  });

  app.post<Params>(
    `${ONE}/restore`,
    {
      config: { api: { auth: SANDBOX_BANK_CREATE_AUTH }, bulk: true },
      schema: {
        summary: "Restore this TPP's sandbox bank to a snapshot: its data, payments, consents and clock as saved",
        description:
          'Takes no body; its Digest is of the empty body. Every customer, account, transaction, payment, consent, authorisation, PSU session and batch run of the bank is replaced by the snapshot’s, and the clock set to its offset (it may go back). Keys and other TPPs’ banks are not touched. Batch slots that have come by the restored clock since the snapshot’s last one run before the answer.',
        tags: SANDBOX_TAGS,
        headers: sandboxActionHeaders(),
        params: sandboxParams('snapshotId'),
        response: { 200: { $ref: 'SandboxSnapshot#' }, ...errorResponses(404, 409, 429) },
      },
    },
    async (request) => {
      const { tpp } = contextOf(request);
      const view = await snapshots.restore(tpp, request.params.snapshotId);
      await clock.catchUp(tpp.id);
      return view;
    },
  );
}

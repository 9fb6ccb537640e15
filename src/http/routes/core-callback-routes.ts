import type { FastifyInstance } from 'fastify';
import { statusReportsFromWire } from '../../core/http/core-wire.js';
import { ContractViolation } from '../../core/http/wire-values.js';
import { ApiError } from '../../domain/api-error.js';
import { CORE_CALLBACK_BODY_LIMIT_BYTES } from '../../domain/limits.js';
import type { CoreReport } from '../../store/core-records.js';
import { readSmallJsonBody } from '../body/read-json-body.js';
import { type CoreSignatureCheck, requireCoreSignature } from '../hooks/core-signature.js';

/** What the callback of a bank's own core needs: its signature checked, its reports applied. */
export interface CoreCallbacks {
  verify: CoreSignatureCheck;
  apply(reports: CoreReport[]): Promise<void>;
}

/**
 * POST /core/v1/status-reports (docs/core-api.yaml): a bank's own core tells the server what became
 * of the payments handed to it. Signed with the key shared with the core, like the server's calls to
 * it; a request not signed so is 401 and read no further. The reports apply forward only, so a
 * report sent twice, or one the polling read already, changes nothing. Not an API operation: no TPP
 * calls it, and it is not in the OpenAPI document.
 */
export function registerCoreCallbackRoutes(app: FastifyInstance, callbacks: CoreCallbacks): void {
  app.post(
    '/core/v1/status-reports',
    {
      schema: { hide: true },
      bodyLimit: CORE_CALLBACK_BODY_LIMIT_BYTES,
      preHandler: requireCoreSignature(callbacks.verify),
    },
    async (request, reply) => {
      const json = readSmallJsonBody(request.rawBody ?? Buffer.alloc(0));
      const reports = reportsOf(json);
      await callbacks.apply(reports);
      return reply.code(204).send();
    },
  );
}

/** The callback's reports, read with the contract's own checks (core-wire.ts); what is not the contract is 400, applying nothing. */
function reportsOf(json: unknown): CoreReport[] {
  try {
    return statusReportsFromWire(json);
  } catch (error) {
    if (!(error instanceof ContractViolation)) throw error;
    throw new ApiError('FORMAT_ERROR', error.message, [{ code: 'FORMAT_ERROR', path: '$', text: error.message }]);
  }
}

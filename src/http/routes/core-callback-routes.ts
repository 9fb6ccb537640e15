import type { FastifyInstance } from 'fastify';
import { reportOfJson } from '../../core/http/report-wire.js';
import { ApiError } from '../../domain/api-error.js';
import { CORE_CALLBACK_BODY_LIMIT_BYTES, CORE_CALLBACK_REPORTS_MAX } from '../../domain/limits.js';
import type { CoreReport } from '../../store/core-records.js';
import { readJsonBody } from '../body/read-json-body.js';
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
      const json = await readJsonBody(request.rawBody ?? Buffer.alloc(0), false);
      const reports = reportsOf(json);
      await callbacks.apply(reports);
      return reply.code(204).send();
    },
  );
}

function reportsOf(json: unknown): CoreReport[] {
  const list =
    typeof json === 'object' && json !== null && !Array.isArray(json)
      ? (json as { reports?: unknown }).reports
      : undefined;
  if (!Array.isArray(list) || list.length === 0 || list.length > CORE_CALLBACK_REPORTS_MAX)
    throw new ApiError(
      'FORMAT_ERROR',
      `$.reports must be an array of 1 to ${CORE_CALLBACK_REPORTS_MAX} status reports`,
      [
        {
          code: 'FORMAT_ERROR',
          path: '$.reports',
          text: `must be an array of 1 to ${CORE_CALLBACK_REPORTS_MAX} status reports`,
        },
      ],
    );
  return list.map((item, i) => {
    const report = reportOfJson(item, `$.reports[${i}]`);
    if (typeof report === 'string')
      throw new ApiError('FORMAT_ERROR', report, [{ code: 'FORMAT_ERROR', path: `$.reports[${i}]`, text: report }]);
    return report;
  });
}

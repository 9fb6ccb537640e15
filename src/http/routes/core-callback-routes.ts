import type { FastifyInstance } from 'fastify';
import { reportOfJson } from '../../core/http/report-wire.js';
import { ApiError } from '../../domain/api-error.js';
import { CORE_CALLBACK_BODY_LIMIT_BYTES, CORE_CALLBACK_REPORTS_MAX } from '../../domain/limits.js';
import type { CoreReport } from '../../store/core-records.js';
import { readJsonBody } from '../body/read-json-body.js';

/** What the callback of a bank's own core needs: its signature checked, its reports applied. */
export interface CoreCallbacks {
  /** Why the Core-Signature of a request does not hold (docs/core.md, "Signatures"), if it does not. */
  verify(header: string | undefined, method: string, pathWithQuery: string, body: Buffer): string | undefined;
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
    { schema: { hide: true }, bodyLimit: CORE_CALLBACK_BODY_LIMIT_BYTES },
    async (request, reply) => {
      const raw = request.rawBody ?? Buffer.alloc(0);
      const header = request.headers['core-signature'];
      const refused = callbacks.verify(typeof header === 'string' ? header : undefined, 'POST', request.url, raw);
      if (refused !== undefined)
        throw new ApiError(
          'SIGNATURE_INVALID',
          `the status report is not signed with the key shared with the bank's core: ${refused}`,
        );
      const json = await readJsonBody(raw, false);
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

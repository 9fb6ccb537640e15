import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/api-error.js';

/** Why a request's Core-Signature does not hold (docs/core.md, "Signatures"), if it does not. */
export type CoreSignatureCheck = (
  header: string | undefined,
  method: string,
  pathWithQuery: string,
  body: Buffer,
) => string | undefined;

/**
 * The hook of the routes a bank's own core calls: the request must be signed with the key shared
 * with the core, over its method, path and body as received; otherwise it is 401 and read no further.
 */
export function requireCoreSignature(check: CoreSignatureCheck) {
  return async (request: FastifyRequest): Promise<void> => {
    const header = request.headers['core-signature'];
    const refused = check(
      typeof header === 'string' ? header : undefined,
      request.method,
      request.url,
      request.rawBody ?? Buffer.alloc(0),
    );
    if (refused !== undefined)
      throw new ApiError(
        'SIGNATURE_INVALID',
        `the request is not signed with the key shared with the bank's core: ${refused}`,
      );
  };
}

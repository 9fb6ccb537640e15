import type { FastifyReply, FastifyRequest } from 'fastify';
import { X_REQUEST_ID_MAX_LENGTH } from '../../domain/limits.js';

/**
 * One structured line per request (onResponse). reqId, bound by Fastify to every line of the
 * request, is the `id` of an error body. No header value is logged besides X-Request-ID: the
 * certificate, signature and PSU identity headers never reach the log.
 */
export function logRequest(request: FastifyRequest, reply: FastifyReply): void {
  const xRequestId = request.headers['x-request-id'];
  const line = {
    xRequestId: typeof xRequestId === 'string' ? xRequestId.slice(0, X_REQUEST_ID_MAX_LENGTH) : undefined,
    // The connection's peer, or with TRUST_PROXY the client X-Forwarded-For names.
    clientAddress: request.ip,
    method: request.method,
    path: request.originalUrl.split('?')[0],
    status: reply.statusCode,
    durationMs: Math.round(reply.elapsedTime * 100) / 100,
    tpp: request.authentication?.tpp.id,
    code: request.errorCode ?? undefined,
    // Answered by a sandbox scenario the TPP's test armed: no fault of the server, whatever its status.
    scenario: request.scenario ?? undefined,
  };
  if (reply.statusCode >= 500 && request.scenario === null) request.log.error(line, 'request');
  else request.log.info(line, 'request');
}

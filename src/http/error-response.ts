import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type PublishedTppMessage, publishTppMessages } from '../domain/api-error.js';
import type { ErrorCode } from '../domain/error-catalogue.js';
import { RESOURCE_BODY_LIMIT_BYTES } from '../domain/limits.js';
import { PsuAuthenticationRequired } from '../domain/sca.js';
import type { SignatureExplanation } from '../security/signature-mistakes.js';
import { StoreClosedError } from '../store/closing-store.js';
import { CoreUnavailable } from '../core/bank-core.js';
import { RetryLater } from '../domain/retry-later.js';
import { endForGoneClient, isClientGone } from './client-gone.js';
import { routeOptionsOf } from './route-options.js';

/** Answers whatever a handler threw: the SCA challenge, or the error body. */
export function sendFailure(request: FastifyRequest, reply: FastifyReply, error: unknown): FastifyReply {
  // A dropped connection is no fault, whatever failed for want of it.
  if (isClientGone(request)) return endForGoneClient(request, reply, error);
  if (error instanceof PsuAuthenticationRequired) return sendChallenge(request, reply, error);
  // The bank's core is down, slow or broken: the TPP is told when to try again, and it is no fault of this server's.
  if (error instanceof CoreUnavailable || error instanceof RetryLater)
    reply.header('Retry-After', String(error.retryAfterSeconds));
  return sendError(request, reply, toApiError(error, request));
}

/** The `system` of every error body: which system answered. */
export const SYSTEM_NAME = 'psd2-pis';

export interface ErrorBody {
  id: string;
  system: string;
  status: number;
  code: string;
  message?: string;
  tppMessages?: PublishedTppMessage[];
  /** Sandbox only: what did not match in a refused TPP authentication (docs/errors.md, "Why was my signature refused?"). */
  signatureExplanation?: SignatureExplanation;
}

/**
 * The specification's error body; its id is the request's id, which the request's log line carries.
 * `code` is the precise catalogue code (SIGNATURE_INVALID); each tppMessage's code is one of the
 * specification's list (publishTppMessages).
 */
export function errorBody(request: FastifyRequest, error: ApiError): ErrorBody {
  if (error.code === 'SYSTEM_ERROR') {
    // Nothing about an internal fault reaches the client: its detail is in the log under this id.
    return { id: request.id, system: SYSTEM_NAME, status: error.status, code: error.code };
  }
  const body: ErrorBody = {
    id: request.id,
    system: SYSTEM_NAME,
    status: error.status,
    code: error.code,
    message: error.message,
    tppMessages: publishTppMessages(error.tppMessages),
  };
  // Set by the authentication hook in the sandbox only, on the refusal this body answers.
  const explanation = request.signatureExplanation ?? null;
  if (explanation !== null) body.signatureExplanation = explanation;
  return body;
}

/**
 * spec, endpoints 1 and 3: 401 "authentication needed" is a challenge, not an error body: an object
 * with `_links.scaRedirect`. The PSU follows it and the TPP repeats its request afterwards.
 */
export function sendChallenge(
  request: FastifyRequest,
  reply: FastifyReply,
  challenge: PsuAuthenticationRequired,
): FastifyReply {
  request.errorCode = 'SCA_REQUIRED';
  request.log.info({ reason: challenge.message }, 'PSU sent to SCA');
  const messages = challenge.tppMessages.length === 0 ? {} : { tppMessages: publishTppMessages(challenge.tppMessages) };
  return reply
    .code(401)
    .type('application/json; charset=utf-8')
    .send({ ...messages, _links: { scaRedirect: { href: challenge.scaRedirect, verbs: ['GET'] } } });
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  request.errorCode = error.code;
  return reply.code(error.status).type('application/json; charset=utf-8').send(errorBody(request, error));
}

/**
 * Turns whatever was thrown into an ApiError: our own pass through; Fastify's request errors
 * (body too large, wrong media type, bad URL) get the code of their status; anything else is a
 * fault of ours and becomes 500 SYSTEM_ERROR, logged in full.
 */
export function toApiError(error: unknown, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreClosedError) return shuttingDown();
  if (error instanceof CoreUnavailable) {
    request.log.warn({ reason: error.reason }, "the bank's core is not available");
    return new ApiError(
      'SERVICE_UNAVAILABLE',
      `the bank's systems do not answer just now; send the request again in ${error.retryAfterSeconds} seconds (Retry-After)`,
    );
  }
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(
        'PAYLOAD_TOO_LARGE',
        `the body is larger than ${routeOptionsOf(request).bodyLimit ?? RESOURCE_BODY_LIMIT_BYTES} bytes, the most this operation accepts`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Content-Type '${request.headers['content-type'] ?? ''}' is not supported; send the body as application/json`,
        [
          {
            code: 'UNSUPPORTED_MEDIA_TYPE',
            path: 'header:Content-Type',
            text: `Content-Type '${request.headers['content-type'] ?? ''}' is not supported; send the body as application/json`,
          },
        ],
      );
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('FORMAT_ERROR', 'Content-Length does not match the body that was sent');
    default:
      break;
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code: ErrorCode =
      status === 404
        ? 'NOT_FOUND'
        : status === 413
          ? 'PAYLOAD_TOO_LARGE'
          : status === 415
            ? 'UNSUPPORTED_MEDIA_TYPE'
            : 'BAD_REQUEST';
    return new ApiError(code, fastifyError.message ?? 'the request cannot be served');
  }
  request.log.error({ err: error }, 'unexpected fault');
  return new ApiError('SYSTEM_ERROR', 'unexpected fault');
}

/** The answer to a request that comes, or still needs the database, once the server is shutting down. */
export function shuttingDown(): ApiError {
  return new ApiError('SERVICE_UNAVAILABLE', 'the server is shutting down; send the request again');
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/api-error.js';
import type { AuthRequirement } from '../../security/tpp-authenticator.js';
import type { RequestReplayGuard } from '../../services/request-replay-guard.js';
import { StoreClosedError } from '../../store/closing-store.js';
import { errorBody, shuttingDown } from '../error-response.js';
import { signedRequestOf } from './authenticate.js';
import type { SometimesWaiting } from './waits-only-when-needed.js';

/**
 * preValidation of a signed operation, after authentication (and the TPP's bank): binds the
 * request's X-Request-ID to what it asks for, or refuses it (409) when it was first used for another
 * request, before the request does anything (services/request-replay-guard.ts). Notes whether the
 * request is a retry of the one bound.
 */
export function guardReplay(guard: RequestReplayGuard, requirement: AuthRequirement): SometimesWaiting {
  // A whole bank's operation is bound as production's are (issue 40); the other test-data operations may share an X-Request-ID.
  const scope = requirement.testData === true && requirement.wholeBank !== true ? 'test-data' : 'strict';
  return async (request) => {
    const signed = signedRequestOf(request);
    try {
      request.retry =
        'retry' ===
        (await guard.admit({
          tppId: signed.tpp.id,
          requestId: signed.requestId,
          method: request.method,
          target: request.originalUrl,
          bodySha256: signed.bodySha256,
          scope,
          expiresAt: signed.signatureAcceptableUntil,
        }));
    } finally {
      // The binding (this request's, or the earlier one a refusal rests on) is committed; its flush
      // runs while the request goes on, and the answer, a refusal too, waits for it.
      request.bindingDurable = guard.durable();
      request.bindingDurable.catch(() => undefined); // awaited in onSend; not an unhandled rejection meanwhile
    }
  };
}

/**
 * onSend, before compression (so that on a failed flush the answer is replaced before it is
 * compressed): nothing is answered before the request's X-Request-ID binding is on disk. A crash
 * after the answer must not free a captured request's signature for another operation.
 */
export async function awaitBindingFlush(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const bindingDurable = request.bindingDurable;
  if (bindingDurable === null) return payload;
  request.bindingDurable = null;
  try {
    await bindingDurable;
    return payload;
  } catch (error) {
    // Nothing of the answer it replaces stays: no Location of a resource that may not be on disk.
    reply.removeHeader('location');
    const closed = error instanceof StoreClosedError;
    if (!closed) request.log.error({ err: error }, 'the X-Request-ID binding could not be made durable');
    const refusal = closed ? shuttingDown() : new ApiError('SYSTEM_ERROR', 'the request could not be recorded');
    reply.code(refusal.status).type('application/json');
    return JSON.stringify(errorBody(request, refusal));
  }
}

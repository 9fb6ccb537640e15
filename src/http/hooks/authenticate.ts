import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { AuthRequirement, TppAuthenticator } from '../../security/tpp-authenticator.js';
import type { SignedRequest } from '../fastify-types.js';
import { turn } from '../body/turn.js';
import { isLargeBody } from './request-body.js';

/**
 * preValidation of a signed operation, first: the certificate (revocation included), Signature, Digest,
 * Date, X-Request-ID and the PSD2 role the operation needs (the specification's Authentication part; each failure names
 * its header, docs/errors.md). The hooks after it read what it established (`signedRequestOf`).
 */
export function authenticate(
  authenticator: TppAuthenticator,
  requirement: AuthRequirement,
): preValidationAsyncHookHandler {
  return async (request) => {
    // The body's joining (Fastify's) and its digest are steps of their own for a large body.
    if (isLargeBody(request)) await turn();
    const checked = authenticator.authenticateUnrevoked(
      // The target as the client sent and signed it, /api-sandbox prefix included.
      {
        method: request.method,
        target: request.originalUrl,
        headers: request.headers,
        body: request.rawBody ?? undefined,
      },
      requirement,
    );
    // A promise only when the certificate's CRL must be fetched first (docs/security.md, section 9).
    const authentication = checked instanceof Promise ? await checked : checked;
    request.authentication = { ...authentication, requestId: requestIdOf(request) };
  };
}

/** X-Request-ID, which the authenticator required; sent twice, the one text the signature covered. */
function requestIdOf(request: FastifyRequest): string {
  const value = request.headers['x-request-id'];
  if (value === undefined) throw new Error('the authenticator let a request without X-Request-ID pass');
  return Array.isArray(value) ? value.join(', ') : value;
}

/** What the authentication hook established; a hook of a signed operation after it reads it here. */
export function signedRequestOf(request: FastifyRequest): SignedRequest {
  const signed = request.authentication;
  if (signed === null)
    throw new Error(`${request.method} ${request.url}: a hook of signed operations ran before authentication`);
  return signed;
}

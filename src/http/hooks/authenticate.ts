import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/api-error.js';
import type { SignatureExplanation } from '../../security/signature-mistakes.js';
import type { SignedRequest as RequestToCheck } from '../../security/signed-request.js';
import type { AuthRequirement, Authentication, TppAuthenticator } from '../../security/tpp-authenticator.js';
import type { SignedRequest } from '../fastify-types.js';
import { turn } from '../body/turn.js';
import { isLargeBody } from './request-body.js';
import type { SometimesWaiting } from './waits-only-when-needed.js';

/**
 * preValidation of a signed operation, first: the certificate (revocation included), Signature, Digest,
 * Date, X-Request-ID and the PSD2 role the operation needs (the specification's Authentication part; each failure names
 * its header, docs/errors.md). The hooks after it read what it established (`signedRequestOf`).
 * With `explain` (the sandbox only) a refusal also carries what did not match
 * (`request.signatureExplanation`, docs/errors.md "Why was my signature refused?").
 */
export function authenticate(
  authenticator: TppAuthenticator,
  requirement: AuthRequirement,
  explain: boolean,
): SometimesWaiting {
  const check = (request: FastifyRequest): Promise<void> | undefined => {
    // The target as the client sent and signed it, /api-sandbox prefix included.
    const toCheck: RequestToCheck = {
      method: request.method,
      target: request.originalUrl,
      headers: request.headers,
      body: request.rawBody ?? undefined,
    };
    const refused = (error: unknown): never => {
      // A refusal of the request (4xx), not the bank's own trouble (503: a CRL that cannot be had).
      if (explain && error instanceof ApiError && error.status < 500)
        explainRefusal(request, () => authenticator.explain(toCheck, requirement, error));
      throw error;
    };
    let checked: Authentication | Promise<Authentication>;
    try {
      checked = authenticator.authenticateUnrevoked(toCheck, requirement);
    } catch (error) {
      return refused(error);
    }
    const establish = (authentication: Authentication) => {
      request.authentication = { ...authentication, requestId: requestIdOf(request) };
    };
    // A promise only when the certificate's CRL must be fetched first (docs/security.md, section 9).
    if (checked instanceof Promise) return checked.then(establish, refused);
    establish(checked);
    return undefined;
  };
  // The body's joining (Fastify's) and its digest are steps of their own for a large body.
  return (request) => (isLargeBody(request) ? turn().then(() => check(request)) : check(request));
}

/**
 * Sets the explanation of a refusal. A fault of the explainer is logged and the refusal answered
 * without it: an aid to the TPP must never turn a 4xx into a 500.
 */
function explainRefusal(request: FastifyRequest, explain: () => SignatureExplanation): void {
  try {
    request.signatureExplanation = explain();
  } catch (fault) {
    request.log.error({ err: fault }, 'the signature explainer failed; the refusal is answered without it');
  }
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

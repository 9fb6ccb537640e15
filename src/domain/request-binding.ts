/**
 * What a signed request asked for, bound to its X-Request-ID on first use.
 *
 * The signature covers the headers of Authentication 4 (date, digest, x-request-id, psu-id,
 * psu-corporate-id, tpp-redirect-uri) but neither the method nor the path nor the query. A captured
 * request could otherwise be sent again as another operation (a status read replayed as a DELETE of
 * another payment, or as the sandbox's initialize) and its signature would still verify. Binding the
 * X-Request-ID to method, target and body on first use makes every signed header set good for one
 * request only; an exact retry still passes (docs/security.md, section 1).
 */
export interface RequestBinding {
  tppId: string;
  requestId: string;
  method: string;
  /** Path and query exactly as received. */
  target: string;
  /** SHA-256 (hex) of the body bytes as received; of the empty body when there is none. */
  bodySha256: string;
  /**
   * 'test-data' for the sandbox's test-data operations, which may share one X-Request-ID among
   * themselves (the platform's setup scripts send one literal value on every call); 'strict' for
   * every operation that also exists in production.
   */
  scope: 'strict' | 'test-data';
  /** After this instant the signature can no longer be accepted, so neither can a replay of it. */
  expiresAt: Date;
}

/**
 * Why a request may not use an X-Request-ID bound earlier; undefined when it may (an exact retry,
 * or test-data operations sharing one). The first use decides: an X-Request-ID first used on an
 * operation of production stays bound to it everywhere, the sandbox included.
 */
export function bindingConflict(earlier: RequestBinding, request: RequestBinding): string | undefined {
  if (
    earlier.method === request.method &&
    earlier.target === request.target &&
    earlier.bodySha256 === request.bodySha256
  )
    return undefined;
  if (earlier.scope === 'test-data' && request.scope === 'test-data') return undefined;
  const sameTarget = earlier.method === request.method && earlier.target === request.target;
  return requestIdReusedText(request.requestId, `${earlier.method} ${earlier.target}`, sameTarget);
}

/**
 * The one wording of an X-Request-ID used for another request: `earlierOperation` is what it was
 * first used for, `sameOperation` whether only the body differs. The binding refuses it while the
 * signature could be replayed; the stored answer of a create refuses it after that
 * (payment-initiation-service.ts replay).
 */
export function requestIdReusedText(requestId: string, earlierOperation: string, sameOperation: boolean): string {
  const earlier = sameOperation ? `for ${earlierOperation} with a different body` : `for ${earlierOperation}`;
  return (
    `X-Request-ID '${requestId}' was used before by this TPP ${earlier}; each X-Request-ID is bound to the request it was first signed for ` +
    '(method, path with query and body). A retry must repeat that request exactly; every new request needs a new X-Request-ID'
  );
}

/**
 * How long a signature stays acceptable. With a Date header the server accepts it only within the
 * allowed skew of that date; without one, as long as the certificate that made it is valid.
 */
export function signatureAcceptableUntil(
  dateMillis: number | undefined,
  dateSkewSeconds: number,
  certificateNotAfter: Date,
): Date {
  if (dateMillis === undefined) return certificateNotAfter;
  return new Date(Math.min(dateMillis + dateSkewSeconds * 1000, certificateNotAfter.getTime()));
}

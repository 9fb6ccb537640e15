import { headerError } from './header-error.js';

export type RequestHeaders = Record<string, string | string[] | undefined>;

/** What the authenticator needs of an HTTP request. */
export interface SignedRequest {
  method: string;
  /** Path and query exactly as received, for the (request-target) pseudo-header. */
  target: string;
  headers: RequestHeaders;
  /** Raw body bytes as received; undefined when the request has none. */
  body: Uint8Array | undefined;
}

/** Headers that must be covered by the signature whenever the request carries them (specification, Authentication 4). */
export const SIGNED_WHEN_PRESENT = [
  'date',
  'digest',
  'x-request-id',
  'psu-id',
  'psu-corporate-id',
  'tpp-redirect-uri',
] as const;

/** The draft-cavage signing string: `name: value` lines in the order of the headers parameter. */
export function buildSigningString(request: SignedRequest, names: readonly string[]): string {
  return names
    .map((name) => {
      const value = signedValueOf(request, name);
      if (value === undefined) {
        throw headerError(
          'SIGNATURE_INVALID',
          'Signature',
          `signs header '${name}', but the request has no such header`,
        );
      }
      return `${name}: ${value}`;
    })
    .join('\n');
}

/** A header's value in the signing string; undefined when the request lacks the header. */
export function signedValueOf(request: SignedRequest, name: string): string | undefined {
  if (name === '(request-target)') return `${request.method.toLowerCase()} ${request.target}`;
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

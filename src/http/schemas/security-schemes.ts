import type { RouteOptions } from 'fastify';

/**
 * How a TPP authenticates, as OpenAPI 3.0 can say it: the HTTP signature (draft-cavage, the bank's
 * Authentication part) is not one of its schemes, so it is described as the two headers it travels in,
 * with the rules in words. Every signed operation requires both; the unsigned ones say none.
 */
export const SIGNATURE_SECURITY_SCHEMES = {
  tppSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'Signature',
    description: [
      'HTTP signature (draft-cavage-http-signatures-10) with the private key of the TPP certificate sent in TPP-Signature-Certificate:',
      '`keyId="SN=<certificate serial, hex>,CA=<issuer DN>",algorithm="rsa-sha256",headers="date digest x-request-id psu-id tpp-redirect-uri",signature="<base64>"`.',
      'The signature is RSA-SHA256 (PKCS#1 v1.5) over the lines `name: value` of the listed headers, in that order, joined by `\\n`.',
      'Every one of date, digest, x-request-id, psu-id, psu-corporate-id and tpp-redirect-uri that the request carries must be listed; (request-target) may be.',
      'Digest is `SHA-256=` (or `SHA-512=`) and the base64 of the hash of the body bytes as sent, required on every operation with a body.',
      'Date, when sent, is signed and may be at most DATE_SKEW_SECONDS (default 300) from the server clock. Each X-Request-ID is bound to the request first signed with it.',
    ].join(' '),
  },
  tppSignatureCertificate: {
    type: 'apiKey',
    in: 'header',
    name: 'TPP-Signature-Certificate',
    description:
      'The TPP signing certificate (an eIDAS QSealC with PSD2 roles, or one the sandbox issues at POST /v1/sandbox/certificates): base64 of its DER, or of its PEM text.',
  },
} as const;

const SIGNED = [{ tppSignature: [], tppSignatureCertificate: [] }];

/** The security requirement of a route: both headers when it is signed, none when it is not. */
export function securityOf(route: Pick<RouteOptions, 'config'>): typeof SIGNED | [] {
  const api = (route.config as { api?: { auth?: unknown } } | undefined)?.api;
  return api?.auth === null || api?.auth === undefined ? [] : SIGNED;
}

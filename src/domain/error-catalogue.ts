/**
 * Every error code the server can answer with, its HTTP status, and when it is used.
 * This table is the one place a code is bound to a status; docs/errors.md is checked against it.
 *
 * The specification lists the codes of its TppMessage and pairs some with statuses. It has no code
 * for a failed TPP authentication (bad signature, untrusted certificate) nor for content negotiation;
 * for those the Berlin Group NextGenPSD2 codes are used as the error body's `code` (see
 * docs/decisions/0001). A tppMessage's code is always one of the specification's list: see
 * TPP_MESSAGE_CODE_OF below.
 */
export const ERROR_CATALOGUE = {
  FORMAT_ERROR: {
    status: 400,
    when: 'A header, parameter or body field is present but malformed or breaks a rule of the specification; the tppMessages name each field.',
  },
  HTTP_HEADER_REQUIRED: { status: 400, when: 'A header the operation requires is missing.' },
  QUERY_PARAMETER_REQUIRED: { status: 400, when: 'A query parameter the operation requires is missing.' },
  BAD_REQUEST: {
    status: 400,
    when: 'The request cannot be served as sent for a reason that is not a field format (for example a body sent to an operation that takes none).',
  },
  KID_MISSING: { status: 400, when: 'A structured remittance reference (KID/OCR) is required but missing.' },
  KID_INVALID: { status: 400, when: 'A KID/OCR reference fails its MOD10 and MOD11 check digit test.' },
  EXECUTION_DATE_INVALID: {
    status: 400,
    when: 'requestedExecutionDate is in the past or too far ahead, or ahead on a Straks payment (executed at once).',
  },
  REFERENCE_MIX_INVALID: {
    status: 400,
    when: 'A bulk or periodic payment, or a Straks payment (executed at its own SCA), was put in a signing basket.',
  },
  PAYMENT_FAILED: { status: 400, when: 'The bank refused the payment for a business reason stated in the message.' },
  CERTIFICATE_INVALID: {
    status: 401,
    when: "TPP-Signature-Certificate is not issued by a trusted CA, lacks the PSD2 QCStatement or organisation identifier, is one a qualified trust service would never issue (weak key, broken signature hash, bytes after the DER, a PSD2 role given by name only), or is unknown to its CA's OCSP responder.",
  },
  CERTIFICATE_REVOKED: {
    status: 401,
    when: "TPP-Signature-Certificate is revoked: its CA's OCSP responder (the one the certificate names) says so, or its CA's CRL (at the certificate's distribution point, or a CRL file the bank reads) lists it.",
  },
  CERTIFICATE_EXPIRED: {
    status: 401,
    when: 'TPP-Signature-Certificate (or its issuing CA) is outside its validity period.',
  },
  SIGNATURE_INVALID: {
    status: 401,
    when: 'The Signature does not verify: wrong key, keyId naming another certificate, algorithm not fitting the key, a required header left unsigned, or Date outside the allowed skew.',
  },
  ROLE_INVALID: {
    status: 401,
    when: 'The certificate does not carry the PSD2 role the operation needs (PSP_PI for payment initiation and signing baskets, PSP_AI for account information).',
  },
  PSU_CREDENTIALS_INVALID: { status: 401, when: 'The PSU identification sent does not match a known PSU.' },
  FORBIDDEN: {
    status: 403,
    when: "The TPP is authenticated but the operation is not allowed for it (in the sandbox: its certificate's key is not bound to the bank of its organisation identifier).",
  },
  CONSENT_UNKNOWN: {
    status: 403,
    when: 'Account information: the consent of the session was ended, withdrawn by the PSU or ended by the TPP (a new one is asked with POST /v1/bank-offered-consents); or DELETE /v1/consents/{consentId} names no consent of this TPP.',
  },
  PRODUCT_INVALID: {
    status: 403,
    when: 'The payment product exists, but not in the form addressed (for example a bulk cross-border transfer).',
  },
  NOT_FOUND: {
    status: 404,
    when: 'No operation exists at this method and path (in production mode this includes every /v1/sandbox route).',
  },
  RESOURCE_UNKNOWN: { status: 404, when: 'The addressed resource does not exist, or was created by another TPP.' },
  PRODUCT_UNKNOWN: { status: 404, when: 'The payment product in the path is not offered by this bank.' },
  REQUESTED_FORMATS_INVALID: {
    status: 406,
    when: 'Accept, Accept-Charset or Accept-Encoding rule out everything the server can produce (JSON, UTF-8, gzip/deflate/br/identity).',
  },
  CANCELLATION_INVALID: {
    status: 405,
    when: 'The payment can no longer be cancelled: it is executed, rejected or cancelled already.',
  },
  REFERENCE_STATUS_INVALID: {
    status: 409,
    when: 'A payment named in the request is not in a state for it: already authorised, rejected or cancelled, or already in a signing basket; not yet authorised, for a cancellation authorisation; or it has the most authorisations it can have.',
  },
  CONFLICT: {
    status: 409,
    when: "The X-Request-ID was used before by this TPP for a different request, or the payment equals a recent one of the same PSU (logical duplicate) and allowLogicalDuplicate is not true, or a sandbox customer number, account number or masked card number is taken, or a sandbox snapshot cannot be saved (the most a bank keeps, or more rows or bytes than one holds) or restored (saved before a migration since), or the key to unbind is its sandbox bank's last.",
  },
  REQUEST_TIMEOUT: { status: 408, when: 'The request did not arrive in full in time.' },
  PAYLOAD_TOO_LARGE: { status: 400, when: 'The body is larger than the server accepts.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, when: 'The body is not sent as application/json.' },
  ACCESS_EXCEEDED: {
    status: 429,
    when: "Account information read a fifth time in a Norwegian day without the PSU present (no PSU-IP-Address): PSD2 RTS article 36(5) allows four. In the sandbox also: certificates asked for too often, a new TPP when the sandbox keeps MAX_SANDBOX_BANKS banks already or its address made its banks of the day, a bank with MAX_SANDBOX_SCENARIOS_ARMED scenarios armed, and a TPP's own bank-throttled scenario (docs/scenarios.md).",
  },
  HEADERS_TOO_LARGE: { status: 431, when: 'The request headers are larger than the server reads.' },
  SYSTEM_ERROR: {
    status: 500,
    when: "An unexpected fault in the server. The body carries only id, system, status and code; the fault is logged in full under that id. In the sandbox also a TPP's own bank-error scenario (docs/scenarios.md), logged as the scenario.",
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    when: "The server is shutting down or its database cannot be reached, or the OCSP answer or CRL of the TPP certificate's CA cannot be had (the revocation status cannot be established); retry later. In the sandbox also a TPP's own bank-maintenance scenario, with Retry-After (docs/scenarios.md).",
  },
} as const satisfies Record<string, { status: number; when: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function statusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, value);
}

/** spec, Errors: the values allowed in the `code` of a TppMessage, in the specification's order. */
export const TPP_MESSAGE_CODES = [
  'SYSTEM_ERROR',
  'BAD_REQUEST',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'HTTP_HEADER_REQUIRED',
  'QUERY_PARAMETER_REQUIRED',
  'SCA_NOT_FOUND',
  'SCA_EXPIRED',
  'SCA_INVALID',
  'FORMAT_ERROR',
  'RESOURCE_UNKNOWN',
  'PSU_CREDENTIALS_INVALID',
  'CONSENT_UNKNOWN',
  'CONSENT_INVALID',
  'CONSENT_EXPIRED',
  'ACCESS_EXCEEDED',
  'PRODUCT_UNKNOWN',
  'PRODUCT_INVALID',
  'KID_MISSING',
  'KID_INVALID',
  'PAYMENT_FAILED',
  'EXECUTION_DATE_INVALID',
] as const;

export type TppMessageCode = (typeof TPP_MESSAGE_CODES)[number];

/** Any code a tppMessage may be built with: a catalogue code, or one of the specification's list. */
export type MessageCode = ErrorCode | TppMessageCode;

/**
 * The code of the specification's list that a tppMessage carries for each catalogue code outside it
 * (codes in the list carry themselves). A client generated from the published enum can read every
 * answer; the precise name stays in the error body's `code` and at the end of the message's text.
 * The type lists every catalogue code outside the list: a code added to ERROR_CATALOGUE without a
 * row here fails the build. Reasons per row: docs/decisions/0169 and docs/decisions/0171.
 */
export const TPP_MESSAGE_CODE_OF: { readonly [C in Exclude<ErrorCode, TppMessageCode>]: TppMessageCode } = {
  // The request asks for something its kind of payment cannot have: not a field format.
  REFERENCE_MIX_INVALID: 'BAD_REQUEST',
  // The bank refuses this TPP identity; only another certificate helps.
  CERTIFICATE_INVALID: 'FORBIDDEN',
  CERTIFICATE_EXPIRED: 'FORBIDDEN',
  CERTIFICATE_REVOKED: 'FORBIDDEN',
  // The request is signed wrongly (key, headers, clock): the TPP fixes how it signs and sends again.
  SIGNATURE_INVALID: 'BAD_REQUEST',
  // The TPP is known but not allowed this operation: FORBIDDEN's own meaning.
  ROLE_INVALID: 'FORBIDDEN',
  // Accept headers rule out every format: the request cannot be served as sent.
  REQUESTED_FORMATS_INVALID: 'BAD_REQUEST',
  // The payment's state forbids the operation: a conflict with the resource, as CONFLICT means.
  CANCELLATION_INVALID: 'CONFLICT',
  REFERENCE_STATUS_INVALID: 'CONFLICT',
  // The request did not arrive as HTTP the server serves (incomplete, too large): not a field format.
  REQUEST_TIMEOUT: 'BAD_REQUEST',
  PAYLOAD_TOO_LARGE: 'BAD_REQUEST',
  HEADERS_TOO_LARGE: 'BAD_REQUEST',
  // Content-Type is present but not the one the specification requires: a header format.
  UNSUPPORTED_MEDIA_TYPE: 'FORMAT_ERROR',
  // The server cannot serve now; the list's only code on the server's side.
  SERVICE_UNAVAILABLE: 'SYSTEM_ERROR',
};

const LISTED: ReadonlySet<string> = new Set(TPP_MESSAGE_CODES);

function isTppMessageCode(value: string): value is TppMessageCode {
  return LISTED.has(value);
}

/**
 * The code a tppMessage is published with. A string that is neither listed nor in the catalogue can
 * only come from untyped data (the types rule it out); it is published as BAD_REQUEST.
 */
export function tppMessageCodeOf(code: string): TppMessageCode {
  if (isTppMessageCode(code)) return code;
  return Object.hasOwn(TPP_MESSAGE_CODE_OF, code)
    ? TPP_MESSAGE_CODE_OF[code as keyof typeof TPP_MESSAGE_CODE_OF]
    : 'BAD_REQUEST';
}

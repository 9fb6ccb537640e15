/**
 * Every error code the server can answer with, its HTTP status, and when it is used.
 * This table is the one place a code is bound to a status; docs/errors.md is checked against it.
 *
 * The specification lists the codes of its TppMessage and pairs some with statuses. It has no code
 * for a failed TPP authentication (bad signature, untrusted certificate) nor for content negotiation;
 * for those the Berlin Group NextGenPSD2 codes are used (see docs/decisions.md).
 */
export const ERROR_CATALOGUE = {
  FORMAT_ERROR: { status: 400, when: 'A header, parameter or body field is present but malformed or breaks a rule of the specification; the tppMessages name each field.' },
  HTTP_HEADER_REQUIRED: { status: 400, when: 'A header the operation requires is missing.' },
  QUERY_PARAMETER_REQUIRED: { status: 400, when: 'A query parameter the operation requires is missing.' },
  BAD_REQUEST: { status: 400, when: 'The request cannot be served as sent for a reason that is not a field format (for example a body sent to an operation that takes none).' },
  KID_MISSING: { status: 400, when: 'A structured remittance reference (KID/OCR) is required but missing.' },
  KID_INVALID: { status: 400, when: 'A KID/OCR reference fails its MOD10 and MOD11 check digit test.' },
  EXECUTION_DATE_INVALID: { status: 400, when: 'requestedExecutionDate is in the past or too far ahead.' },
  REFERENCE_MIX_INVALID: { status: 400, when: 'A bulk or periodic payment was put in a signing basket.' },
  PAYMENT_FAILED: { status: 400, when: 'The bank refused the payment for a business reason stated in the message.' },
  CERTIFICATE_INVALID: { status: 401, when: 'TPP-Signature-Certificate is not issued by a trusted CA, lacks the PSD2 QCStatement or organisation identifier, or is one a qualified trust service would never issue (weak key, broken signature hash, bytes after the DER, a PSD2 role given by name only).' },
  CERTIFICATE_EXPIRED: { status: 401, when: 'TPP-Signature-Certificate (or its issuing CA) is outside its validity period.' },
  SIGNATURE_INVALID: { status: 401, when: 'The Signature does not verify: wrong key, keyId naming another certificate, algorithm not fitting the key, a required header left unsigned, or Date outside the allowed skew.' },
  ROLE_INVALID: { status: 401, when: 'The certificate does not carry the PSD2 role the operation needs (PSP_PI for payment initiation and signing baskets).' },
  PSU_CREDENTIALS_INVALID: { status: 401, when: 'The PSU identification sent does not match a known PSU.' },
  FORBIDDEN: { status: 403, when: 'The TPP is authenticated but the operation is not allowed for it (for example deleting from the sandbox\'s default data set).' },
  PRODUCT_INVALID: { status: 403, when: 'The payment product exists, but not in the form addressed (for example a bulk cross-border transfer).' },
  NOT_FOUND: { status: 404, when: 'No operation exists at this method and path (in production mode this includes every /v1/sandbox route).' },
  RESOURCE_UNKNOWN: { status: 404, when: 'The addressed resource does not exist, or was created by another TPP.' },
  PRODUCT_UNKNOWN: { status: 404, when: 'The payment product in the path is not offered by this bank.' },
  REQUESTED_FORMATS_INVALID: { status: 406, when: 'Accept, Accept-Charset or Accept-Encoding rule out everything the server can produce (JSON, UTF-8, gzip/deflate/br/identity).' },
  CANCELLATION_INVALID: { status: 405, when: 'The payment can no longer be cancelled: it is executed, rejected or cancelled already.' },
  REFERENCE_STATUS_INVALID: { status: 409, when: 'A payment named in the request is not in a state for it: already authorised, rejected or cancelled, or already in a signing basket.' },
  CONFLICT: { status: 409, when: 'The X-Request-ID was used before by this TPP for a different request, or the payment equals a recent one of the same PSU (logical duplicate) and allowLogicalDuplicate is not true, or a sandbox customer number, account number or masked card number is taken.' },
  REQUEST_TIMEOUT: { status: 408, when: 'The request did not arrive in full in time.' },
  PAYLOAD_TOO_LARGE: { status: 413, when: 'The body is larger than the server accepts.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, when: 'The body is not sent as application/json.' },
  ACCESS_EXCEEDED: { status: 429, when: 'Too many requests in a short time.' },
  HEADERS_TOO_LARGE: { status: 431, when: 'The request headers are larger than the server reads.' },
  SYSTEM_ERROR: { status: 500, when: 'An unexpected fault in the server. The body carries only id, system, status and code; the fault is logged in full under that id.' },
  SERVICE_UNAVAILABLE: { status: 503, when: 'The server is shutting down or its database cannot be reached; retry later.' },
} as const satisfies Record<string, { status: number; when: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export function statusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(ERROR_CATALOGUE, value);
}

import { ApiError, type Problem } from '../domain/api-error.js';
import { HEADER_VALUE_MAX_LENGTH, X_REQUEST_ID_MAX_LENGTH } from '../domain/limits.js';
import { DigestFormatError, type DigestValue, parseDigestHeader } from './digest.js';
import { parseHttpDate } from './http-date.js';
import { type SignatureParameters, SignatureHeaderError, parseSignatureHeader } from './signature-header.js';
import type { RequestHeaders } from './signed-request.js';

/** What a request's authentication headers say, read and checked for form. */
export interface AuthHeaders {
  signature: SignatureParameters;
  certificate: string;
  /** The Date header as milliseconds, when the request carries one. */
  date: number | undefined;
  digest: DigestValue[] | undefined;
}

/** Notes a header that is there but malformed. */
type Malformed = (name: string, text: string) => void;

/** Reads the authentication headers; every missing or malformed one is reported at once. */
export function readHeaders(headers: RequestHeaders, digestRequired: boolean, dateRequired = false): AuthHeaders {
  const missing = missingHeaders(headers, digestRequired, dateRequired);
  if (missing.length > 0) throw ApiError.of(missing);

  const malformed: Problem[] = [];
  const bad: Malformed = (name, text) =>
    malformed.push({ code: 'FORMAT_ERROR', path: `header:${name}`, text: `${name} ${text}` });
  checkRequestId(single(headers, 'X-Request-ID')!, bad);
  const certificate = single(headers, 'TPP-Signature-Certificate')!;
  if (certificate.length > HEADER_VALUE_MAX_LENGTH)
    bad(
      'TPP-Signature-Certificate',
      `is ${certificate.length} characters long; at most ${HEADER_VALUE_MAX_LENGTH} are accepted`,
    );
  const signature = readSignature(single(headers, 'Signature')!, bad);
  const date = readDate(single(headers, 'Date'), bad);
  const digest = readDigest(single(headers, 'Digest'), bad);
  if (malformed.length > 0) throw ApiError.of(malformed);
  return { signature: signature!, certificate, date, digest };
}

function missingHeaders(headers: RequestHeaders, digestRequired: boolean, dateRequired: boolean): Problem[] {
  const missing: Problem[] = [];
  const required: (keyof typeof KEYS)[] = [
    'Signature',
    'TPP-Signature-Certificate',
    'X-Request-ID',
    ...(digestRequired ? (['Digest'] as const) : []),
    ...(dateRequired ? (['Date'] as const) : []),
  ];
  for (const name of required) {
    const value = single(headers, name);
    if (value === undefined || value.trim() === '') {
      missing.push({
        code: 'HTTP_HEADER_REQUIRED',
        path: `header:${name}`,
        text: `header ${name} is required${explainRequired(name)}`,
      });
    }
  }
  return missing;
}

function checkRequestId(requestId: string, bad: Malformed): void {
  if (requestId.length > X_REQUEST_ID_MAX_LENGTH)
    bad('X-Request-ID', `is ${requestId.length} characters long; at most ${X_REQUEST_ID_MAX_LENGTH} are accepted`);
  else if (!/^[\x21-\x7e]+$/.test(requestId))
    bad('X-Request-ID', 'must be printable ASCII without spaces (a UUID is recommended)');
}

function readSignature(text: string, bad: Malformed): SignatureParameters | undefined {
  if (text.length > HEADER_VALUE_MAX_LENGTH) {
    bad('Signature', `is ${text.length} characters long; at most ${HEADER_VALUE_MAX_LENGTH} are accepted`);
    return undefined;
  }
  try {
    return parseSignatureHeader(text);
  } catch (error) {
    if (!(error instanceof SignatureHeaderError)) throw error;
    bad(
      'Signature',
      `cannot be read: ${error.message}. Expected keyId="SN=<serial hex>,CA=<issuer DN>",algorithm="rsa-sha256",headers="...",signature="<base64>"`,
    );
    return undefined;
  }
}

function readDate(text: string | undefined, bad: Malformed): number | undefined {
  const date = text === undefined ? undefined : parseHttpDate(text);
  if (text !== undefined && date === undefined)
    bad('Date', `'${text}' is not an HTTP date such as '${new Date(0).toUTCString()}'`);
  return date;
}

function readDigest(text: string | undefined, bad: Malformed): DigestValue[] | undefined {
  if (text === undefined) return undefined;
  try {
    return parseDigestHeader(text);
  } catch (error) {
    if (!(error instanceof DigestFormatError)) throw error;
    bad('Digest', `cannot be used: ${error.message}`);
    return undefined;
  }
}

function explainRequired(name: string): string {
  switch (name) {
    case 'Signature':
      return ': every request is signed (draft-cavage HTTP signature with the TPP certificate)';
    case 'TPP-Signature-Certificate':
      return ': it carries the certificate that signed the request, base64-encoded';
    case 'Digest':
      return ' on create operations: SHA-256=<base64 of the SHA-256 of the body>';
    case 'Date':
      return ', signed, on an operation that opens or changes the sandbox bank as a whole: a signature without it could be replayed for as long as the certificate is valid';
    default:
      return '';
  }
}

/** The authentication headers: as the answers name them, and as Node keys them in a request's headers. */
const KEYS = {
  Signature: 'signature',
  'TPP-Signature-Certificate': 'tpp-signature-certificate',
  'X-Request-ID': 'x-request-id',
  Digest: 'digest',
  Date: 'date',
} as const;

function single(headers: RequestHeaders, name: keyof typeof KEYS): string | undefined {
  // The key as written here: one lower-cased on every request is a new string, which V8 first looks
  // up in its table of names to read the property (docs/decisions/0359).
  const value = headers[KEYS[name]];
  return Array.isArray(value) ? value.join(', ') : value;
}

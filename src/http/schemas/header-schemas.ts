import {
  DATE_HEADER_MAX_LENGTH,
  DIGEST_HEADER_MAX_LENGTH,
  FORMATTED_TEXT_MAX_LENGTH,
  FORWARDED_HEADER_MAX_LENGTH,
  HEADER_VALUE_MAX_LENGTH,
  NOTIFICATION_CONTENT_MAX_LENGTH,
  NOTIFICATION_URI_MAX_LENGTH,
  REDIRECT_URI_MAX_LENGTH,
  SESSION_ID_MAX_LENGTH,
  SHORT_HEADER_MAX_LENGTH,
  X_REQUEST_ID_MAX_LENGTH,
} from '../../domain/limits.js';
import {
  HTTP_ADDRESS_FORMAT,
  NOTIFICATION_CONTENT_FORMAT,
  NOTIFICATION_URI_FORMAT,
  PSU_ADDRESS_FORMAT,
} from '../schema-compiler/schema-formats.js';
import { NOTIFICATION_CONTENT_RULE } from '../../domain/notifications/notification-content.js';
import { NOTIFICATION_URI_RULE } from '../../domain/notifications/notification-uri.js';
import { PSU_ADDRESS_RULE } from '../../domain/psu-address.js';

/**
 * The specification's request headers (table "Request headers") with their formats. Each operation
 * picks the ones it takes and says which are required. The authentication headers are checked by
 * the authentication hook (docs/errors.md) and are listed here for the OpenAPI document.
 */
const uuid = {
  type: 'string',
  maxLength: FORMATTED_TEXT_MAX_LENGTH,
  format: 'uuid',
  'x-rule-text': 'a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6',
} as const;
const text = (maxLength: number, description: string) => ({ type: 'string', maxLength, description }) as const;

export const HEADER_DEFINITIONS = {
  'X-Request-ID': {
    type: 'string',
    minLength: 1,
    maxLength: X_REQUEST_ID_MAX_LENGTH,
    description:
      'Request identifier unique to the call, set by the TPP; a retry with the same value gets the same answer',
  },
  Date: {
    type: 'string',
    maxLength: DATE_HEADER_MAX_LENGTH,
    description:
      'HTTP date of the request, optional (signed "where available"); when present it is signed and within 300 s of the server clock',
  },
  Digest: {
    type: 'string',
    maxLength: DIGEST_HEADER_MAX_LENGTH,
    description: 'SHA-256=<base64> or SHA-512=<base64> of the body (RFC 3230, RFC 5843); required on create operations',
  },
  'TPP-Signature-Certificate': {
    type: 'string',
    maxLength: HEADER_VALUE_MAX_LENGTH,
    description: 'The signing certificate, base64 of its DER or of its PEM text',
  },
  Signature: {
    type: 'string',
    maxLength: HEADER_VALUE_MAX_LENGTH,
    description:
      'keyId="SN=<serial hex>,CA=<issuer DN>",algorithm="rsa-sha256",headers="date digest x-request-id ...",signature="<base64>" (draft-cavage; RFC 2047 form accepted)',
  },
  'x-accept-fix': text(
    500,
    'Comma-separated names of published future breaking changes to activate early (docs/accept-fix.md)',
  ),
  'TPP-Session-ID': {
    type: 'string',
    minLength: 1,
    maxLength: SESSION_ID_MAX_LENGTH,
    description: 'TPP session identifier; returned to the TPP redirect URI after SCA',
  },
  'TPP-Redirect-URI': {
    type: 'string',
    maxLength: REDIRECT_URI_MAX_LENGTH,
    format: HTTP_ADDRESS_FORMAT,
    'x-rule-text': 'an absolute http or https address (WHATWG URL)',
    description: "Where the PSU's browser returns after the SCA redirect",
  },
  'TPP-Redirect-Preferred': {
    type: 'string',
    enum: ['true', 'false'],
    description: 'false triggers biometric authentication automatically on mobile when available; default true',
  },
  'TPP-Notification-URI': {
    type: 'string',
    maxLength: NOTIFICATION_URI_MAX_LENGTH,
    format: NOTIFICATION_URI_FORMAT,
    'x-rule-text': NOTIFICATION_URI_RULE,
    description:
      "Where the bank sends the resource's status notifications (Berlin Group resource status notification; docs/notifications.md). Used when https and its host lies in the domain of the TPP's certificate (CN or SubjectAltName dNSName, or a name under one; a wildcard covers one label); in the sandbox also http://localhost or http://127.0.0.1. A URI the bank will not call is answered ASPSP-Notification-Support: false with the reason in a WARNING tppMessage, and the resource is created",
  },
  'TPP-Notification-Content-Preferred': {
    type: 'string',
    maxLength: NOTIFICATION_CONTENT_MAX_LENGTH,
    format: NOTIFICATION_CONTENT_FORMAT,
    'x-rule-text': NOTIFICATION_CONTENT_RULE,
    description:
      'What to be notified of: status=SCA,PROCESS,LAST or any of them. SCA: each scaStatus change; PROCESS: each transactionStatus or consentStatus change; LAST: the final status. Default with a TPP-Notification-URI: all three',
  },
  'TPP-Brand-Logging-Information': text(SHORT_HEADER_MAX_LENGTH, 'TPP brand shown to the PSU, for logging'),
  'PSU-ID': { ...uuid, description: 'The PSU identifier the bank issued to this TPP (returned after SCA as psu-id)' },
  'X-PSU-IDENTITY': {
    type: 'string',
    maxLength: FORMATTED_TEXT_MAX_LENGTH,
    pattern: '^\\d{11}$',
    'x-rule-text': 'an 11-digit Norwegian national identity number or D-number',
    description: "Alternative to PSU-ID: the PSU's national identity number or D-number",
  },
  'X-PSU-AuthMethod-Preferred': text(50, 'Preferred authentication method, selected if available for the PSU'),
  'PSU-Corporate-ID': {
    type: 'string',
    minLength: 1,
    maxLength: 70,
    description: 'Corporate agreement identifier; required for a corporate PSU',
  },
  'PSU-Context': { type: 'string', enum: ['PRIVATE', 'CORPORATE'], description: 'Sets the PSU context explicitly' },
  'PSU-IP-Address': {
    type: 'string',
    maxLength: 64,
    format: PSU_ADDRESS_FORMAT,
    'x-rule-text': PSU_ADDRESS_RULE,
    description:
      "IP address of the PSU, forwarded by the TPP: sent when the PSU asks (a read with it does not count against RTS 36(5)'s four a day); an address no PSU can have (unspecified, loopback in any IPv6 form, link-local, multicast, reserved, broadcast) is a 400",
  },
  'PSU-IP-Port': {
    type: 'string',
    maxLength: FORMATTED_TEXT_MAX_LENGTH,
    pattern: '^([1-9]\\d{0,3}|[1-5]\\d{4}|6[0-4]\\d{3}|65[0-4]\\d{2}|655[0-2]\\d|6553[0-5])$',
    'x-rule-text': 'a port number from 1 to 65535',
    description: 'Forwarded port, if available',
  },
  'PSU-User-Agent': text(FORWARDED_HEADER_MAX_LENGTH, 'Forwarded User-Agent, if available'),
  'PSU-Accept': text(FORWARDED_HEADER_MAX_LENGTH, 'Forwarded Accept, if available'),
  'PSU-Accept-Charset': text(FORWARDED_HEADER_MAX_LENGTH, 'Forwarded Accept-Charset, if available'),
  'PSU-Accept-Encoding': text(FORWARDED_HEADER_MAX_LENGTH, 'Forwarded Accept-Encoding, if available'),
  'PSU-Accept-Language': text(FORWARDED_HEADER_MAX_LENGTH, 'Forwarded Accept-Language, if available'),
  'PSU-HTTP-Method': {
    type: 'string',
    enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    description: 'Forwarded HTTP method, if available',
  },
  'PSU-Device-ID': { ...uuid, description: 'Forwarded device identifier (UUID), if available' },
  'PSU-Geo-Location': {
    type: 'string',
    maxLength: 64,
    pattern: '^GEO:-?(90(\\.0+)?|[1-8]?\\d(\\.\\d+)?);-?(180(\\.0+)?|(1[0-7]\\d|[1-9]?\\d)(\\.\\d+)?)$',
    'x-rule-text': 'GEO:<latitude -90 to 90>;<longitude -180 to 180>, such as GEO:59.9139;10.7522',
    description: 'Forwarded geo location, if available',
  },
} as const;

export type HeaderName = keyof typeof HEADER_DEFINITIONS;

/** The notification subscription's headers, taken by every create and every start of an authorisation (docs/notifications.md). */
const NOTIFICATION: HeaderName[] = ['TPP-Notification-URI', 'TPP-Notification-Content-Preferred'];

/**
 * The answer headers of those operations (in the OpenAPI document: response `headers`), sent when the
 * request had a TPP-Notification-URI.
 */
export const NOTIFICATION_ANSWER_HEADERS = {
  'ASPSP-Notification-Support': {
    type: 'string',
    enum: ['true', 'false'],
    description:
      'Sent when the request had a TPP-Notification-URI: true, the bank sends notifications there; false, it does not (the reason is a WARNING in tppMessages)',
  },
  'ASPSP-Notification-Content': {
    type: 'string',
    description: 'With ASPSP-Notification-Support: true, what the bank sends, such as status=SCA,PROCESS,LAST',
  },
} as const;

const FORWARDED: HeaderName[] = [
  'PSU-IP-Address',
  'PSU-IP-Port',
  'PSU-User-Agent',
  'PSU-Accept',
  'PSU-Accept-Charset',
  'PSU-Accept-Encoding',
  'PSU-Accept-Language',
  'PSU-HTTP-Method',
  'PSU-Device-ID',
  'PSU-Geo-Location',
];
export const SIGNED: HeaderName[] = ['X-Request-ID', 'Date', 'TPP-Signature-Certificate', 'Signature'];
/**
 * The headers the authentication reads whole, their length included (security/auth-headers.ts),
 * before a signed operation's validation: its validator leaves them out rather than check them again
 * (docs/decisions/0351). They stay in the operation's schema for the OpenAPI document.
 */
export const CHECKED_BY_AUTHENTICATION: ReadonlySet<string> = new Set<HeaderName>([
  'TPP-Signature-Certificate',
  'Signature',
]);
/** spec, Authentication 4: date is signed "where available"; the others are on every signed request. */
export const SIGNED_REQUIRED: HeaderName[] = ['X-Request-ID', 'TPP-Signature-Certificate', 'Signature'];

export function headersSchema(names: readonly HeaderName[], required: readonly HeaderName[]) {
  return {
    type: 'object',
    required: [...required],
    properties: Object.fromEntries(names.map((name) => [name, HEADER_DEFINITIONS[name]])),
  };
}

/** Create operations: the signed set, Digest, the TPP's session and redirect, the PSU and the forwarded PSU headers. */
export function createHeaders(options: { acceptFixRequired: boolean; brandLogging: boolean }) {
  const names: HeaderName[] = [
    ...SIGNED,
    'Digest',
    'x-accept-fix',
    'TPP-Session-ID',
    'TPP-Redirect-URI',
    'TPP-Redirect-Preferred',
    ...NOTIFICATION,
    ...(options.brandLogging ? ['TPP-Brand-Logging-Information' as const] : []),
    'PSU-ID',
    'X-PSU-IDENTITY',
    'X-PSU-AuthMethod-Preferred',
    'PSU-Corporate-ID',
    'PSU-Context',
    ...FORWARDED,
  ];
  const required: HeaderName[] = [
    ...SIGNED_REQUIRED,
    'Digest',
    'TPP-Session-ID',
    'TPP-Redirect-URI',
    'PSU-IP-Address',
    ...(options.acceptFixRequired ? ['x-accept-fix' as const] : []),
  ];
  return headersSchema(names, required);
}

/** Reads of payment resources: the signed set and the PSU headers a TPP forwards. */
export function readHeaders() {
  return headersSchema(
    [
      ...SIGNED,
      'PSU-ID',
      'PSU-Corporate-ID',
      'TPP-Redirect-URI',
      'TPP-Session-ID',
      'TPP-Redirect-Preferred',
      'X-PSU-AuthMethod-Preferred',
      ...FORWARDED,
    ],
    SIGNED_REQUIRED,
  );
}

/** Starting an authorisation (…/authorisations, …/cancellation-authorisations): a read's headers and the notification subscription's. */
export function authorisationStartHeaders() {
  const read = readHeaders();
  return headersSchema([...(Object.keys(read.properties) as HeaderName[]), ...NOTIFICATION], SIGNED_REQUIRED);
}

/** What a request that starts an SCA without a payment in it sends: the signed set, Digest, the PSU and where the browser returns. */
const SCA_START_HEADERS: readonly HeaderName[] = [
  ...SIGNED,
  'Digest',
  'TPP-Session-ID',
  'TPP-Redirect-URI',
  'TPP-Redirect-Preferred',
  ...NOTIFICATION,
  'PSU-ID',
  'X-PSU-IDENTITY',
  'X-PSU-AuthMethod-Preferred',
  'PSU-Corporate-ID',
  'PSU-Context',
  ...FORWARDED,
];

/** Creating a signing basket: the signed set, Digest, the PSU and where the browser returns after SCA. */
export function basketCreateHeaders() {
  return headersSchema([...SCA_START_HEADERS], [...SIGNED_REQUIRED, 'Digest', 'PSU-IP-Address']);
}

/**
 * Account-information reads: the signed set; the consent session (PSU-ID and TPP-Session-ID, as the
 * consent's SCA returned them), where a challenge's SCA returns to, x-accept-fix, and the forwarded
 * PSU headers (PSU-IP-Address says the PSU is present). A read without the session is a 401 challenge.
 */
export function aisReadHeaders() {
  return headersSchema(
    [
      ...SIGNED,
      'x-accept-fix',
      'PSU-ID',
      'TPP-Session-ID',
      'PSU-Corporate-ID',
      'TPP-Redirect-URI',
      'TPP-Redirect-Preferred',
      'X-PSU-AuthMethod-Preferred',
      ...FORWARDED,
    ],
    SIGNED_REQUIRED,
  );
}

/** POST /v1/bank-offered-consents: no body, so Digest is optional (checked when sent); where the PSU returns is required. */
export function consentCreateHeaders() {
  return headersSchema([...SCA_START_HEADERS], [...SIGNED_REQUIRED, 'TPP-Redirect-URI']);
}

/** DELETE /v1/consents/{consentId}: the signed set and the forwarded PSU headers; the consent is named by its session in the path. */
export function consentDeleteHeaders() {
  return headersSchema([...SIGNED, ...FORWARDED], SIGNED_REQUIRED);
}

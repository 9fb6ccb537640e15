import { TPP_MESSAGE_CODES } from '../../domain/error-catalogue.js';
import { signatureExplanationSchema } from './signature-explanation-schema.js';

/**
 * Schemas shared by every operation: the error body, links, messages. Routes refer to them with
 * $ref so the OpenAPI document names them once in components.schemas.
 */
export const tppMessageSchema = {
  $id: 'TppMessage',
  type: 'object',
  required: ['category', 'code'],
  properties: {
    category: { type: 'string', enum: ['ERROR', 'WARNING'] },
    code: {
      type: 'string',
      enum: TPP_MESSAGE_CODES,
      description:
        "One of the specification's list. Where the bank has a more precise code (SIGNATURE_INVALID), the error body's code carries it and the text starts with it.",
    },
    path: {
      type: 'string',
      description: 'JSON path of the field ($.payments[0].creditorName), or header:Name, query:name, path:name',
    },
    text: { type: 'string', maxLength: 512 },
  },
} as const;

export const errorBodySchema = {
  $id: 'Error',
  type: 'object',
  description: 'Every error answer. id is logged with the request; message is absent on 500 SYSTEM_ERROR.',
  required: ['id', 'system', 'status', 'code'],
  properties: {
    id: { type: 'string' },
    system: { type: 'string' },
    status: { type: 'integer' },
    code: {
      type: 'string',
      description:
        'The precise code of the answer (docs/errors.md): one of the TppMessage list, or a Berlin Group NextGenPSD2 code where the list has none (SIGNATURE_INVALID, CERTIFICATE_INVALID, ...).',
    },
    message: { type: 'string' },
    tppMessages: { type: 'array', items: { $ref: 'TppMessage#' } },
  },
} as const;

export const linkSchema = {
  $id: 'Link',
  type: 'object',
  required: ['href', 'verbs'],
  properties: {
    href: { type: 'string' },
    verbs: { type: 'array', items: { type: 'string', enum: ['GET', 'PUT', 'POST', 'DELETE'] } },
  },
} as const;

export const linksSchema = {
  $id: 'Links',
  type: 'object',
  additionalProperties: { $ref: 'Link#' },
} as const;

/** 401: a failed TPP authentication (the error body) or the SCA challenge (`_links.scaRedirect` only). */
export const unauthorisedSchema = {
  $id: 'Unauthorised',
  type: 'object',
  description:
    'Either the error body of a failed TPP authentication, or the SCA challenge: an object whose _links hold scaRedirect (the PSU follows it, then the TPP repeats its request with PSU-ID).',
  properties: { ...errorBodySchema.properties, _links: { $ref: 'Links#' } },
} as const;

/**
 * The sandbox's error body: the same, with the explanation of a refused signature beside it. Production
 * keeps the schemas above, so that neither its document nor its serializer knows the field.
 */
const sandboxErrorBodySchema = {
  ...errorBodySchema,
  properties: {
    ...errorBodySchema.properties,
    signatureExplanation: { $ref: 'SignatureExplanation#' },
  },
} as const;

const sandboxUnauthorisedSchema = {
  ...unauthorisedSchema,
  properties: { ...sandboxErrorBodySchema.properties, _links: { $ref: 'Links#' } },
} as const;

/** Schemas every operation refers to, as the mode has them. */
export function sharedSchemasOf(mode: 'sandbox' | 'production'): readonly object[] {
  return mode === 'sandbox'
    ? [
        tppMessageSchema,
        signatureExplanationSchema,
        sandboxErrorBodySchema,
        linkSchema,
        linksSchema,
        sandboxUnauthorisedSchema,
      ]
    : [tppMessageSchema, errorBodySchema, linkSchema, linksSchema, unauthorisedSchema];
}

/** Error answers every signed operation can give, for its response schema and the OpenAPI document. */
export function errorResponses(...statuses: number[]): Record<number, unknown> {
  const responses: Record<number, unknown> = {};
  for (const status of [400, 401, 406, 500, ...statuses]) {
    responses[status] = {
      description: ERROR_DESCRIPTIONS[status] ?? 'Error',
      $ref: status === 401 ? 'Unauthorised#' : 'Error#',
    };
  }
  return responses;
}

/** Each names the error body's precise `code`; every tppMessage code is one of the TppMessage enum (docs/errors.md). */
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request: a header, parameter or field is missing or malformed (FORMAT_ERROR, HTTP_HEADER_REQUIRED, ...), or the body is larger than the operation takes (PAYLOAD_TOO_LARGE)',
  401: 'TPP authentication failed (SIGNATURE_INVALID, CERTIFICATE_INVALID, CERTIFICATE_EXPIRED, ROLE_INVALID), or SCA needed: a body with _links.scaRedirect',
  403: 'Forbidden (PRODUCT_INVALID, FORBIDDEN), or a consent ended by the PSU or the TPP (CONSENT_UNKNOWN)',
  404: 'Not found (RESOURCE_UNKNOWN, PRODUCT_UNKNOWN)',
  406: 'Not acceptable: Accept, Accept-Charset or Accept-Encoding exclude JSON, UTF-8 or every encoding (REQUESTED_FORMATS_INVALID)',
  409: 'Conflict (CONFLICT); in the sandbox, also a bulk operation (snapshot save or restore, initialize) already running on the bank, with Retry-After',
  415: 'Body is not application/json (UNSUPPORTED_MEDIA_TYPE)',
  429: "Too many requests (ACCESS_EXCEEDED): account information read a fifth time a day without the PSU present; in the sandbox, a limit of its test data, or of a TPP's bulk operations a minute, with Retry-After",
  500: 'Server fault (SYSTEM_ERROR)',
};

import type { FastifyInstance } from 'fastify';
import fastifyRateLimit from '@fastify/rate-limit';
import { ApiError } from '../../domain/api-error.js';
import {
  ORGANISATION_IDENTIFIER_MAX_LENGTH,
  SANDBOX_CERTIFICATE_MAX_VALID_DAYS,
  SANDBOX_PUBLIC_KEY_MAX_LENGTH,
  SANDBOX_CERTIFICATE_REQUESTS_PER_ADDRESS_PER_MINUTE,
  TPP_NAME_MAX_LENGTH,
} from '../../domain/limits.js';
import { ORGANISATION_IDENTIFIER_PATTERN, ORGANISATION_IDENTIFIER_RULE } from '../../domain/organisation-identifier.js';
import { PSP_ROLE_NAMES } from '../../domain/psp-role.js';
import type {
  SandboxCertificateRequest,
  SandboxCertificateService,
} from '../../services/sandbox-certificate-service.js';
import { RULE_TEXT } from '../schema-compiler/schema-formats.js';

/** An answer with the error body (common-schemas' Error), described for this operation. */
const errorBodyResponse = (status: number, description: string) => ({ [status]: { description, $ref: 'Error#' } });
const pem = (description: string) => ({ type: 'string', description }) as const;

const certificateRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['organizationIdentifier', 'name', 'roles'],
  properties: {
    organizationIdentifier: {
      type: 'string',
      minLength: 1,
      maxLength: ORGANISATION_IDENTIFIER_MAX_LENGTH,
      pattern: ORGANISATION_IDENTIFIER_PATTERN,
      [RULE_TEXT]: ORGANISATION_IDENTIFIER_RULE,
      description:
        "The TPP's identity at the bank (ETSI TS 119 495, 5.2.1), written in the certificate's subject; the sandbox keeps a bank per identifier",
      example: 'PSDNO-FSA-123456789',
    },
    name: {
      type: 'string',
      minLength: 1,
      maxLength: TPP_NAME_MAX_LENGTH,
      pattern: '^[^\\u0000-\\u001f\\u007f]*\\S[^\\u0000-\\u001f\\u007f]*$',
      [RULE_TEXT]: `1 to ${TPP_NAME_MAX_LENGTH} characters without control characters, not only spaces`,
      description: "The TPP's name: the subject's CN and O",
      example: 'My TPP',
    },
    roles: {
      type: 'array',
      minItems: 1,
      maxItems: PSP_ROLE_NAMES.length,
      uniqueItems: true,
      items: { type: 'string', enum: PSP_ROLE_NAMES, [RULE_TEXT]: `one of ${PSP_ROLE_NAMES.join(', ')}` },
      description: 'PSD2 roles of the QCStatement, each once; PSP_PI initiates payments',
      example: ['PSP_PI', 'PSP_AI'],
    },
    publicKey: {
      type: 'string',
      minLength: 1,
      maxLength: SANDBOX_PUBLIC_KEY_MAX_LENGTH,
      description:
        'A key you hold (SPKI PEM, RSA of at least 2048 bits): the certificate is issued over it and no key is handed out. The sandbox bank of an identifier belongs to the key that made it, so a certificate renewed over that key keeps the bank (docs/security.md, Tenancy)',
    },
    validDays: {
      type: 'integer',
      minimum: 1,
      maximum: SANDBOX_CERTIFICATE_MAX_VALID_DAYS,
      description: `Days the certificate is valid from yesterday (default ${SANDBOX_CERTIFICATE_MAX_VALID_DAYS})`,
    },
  },
} as const;

const issuedCertificateSchema = {
  type: 'object',
  required: [
    'certificate',
    'keyId',
    'serialNumber',
    'organizationIdentifier',
    'name',
    'roles',
    'validFrom',
    'validTo',
    'caCertificate',
  ],
  properties: {
    certificate: pem('The TPP certificate (PEM): send it base64 in TPP-Signature-Certificate'),
    privateKey: pem(
      'Its RSA key (PKCS#8 PEM), to sign requests with; the sandbox keeps no copy. Absent when the request gave publicKey',
    ),
    keyId: { type: 'string', description: 'The keyId of the Signature header: SN=<serial>,CA=<issuer>' },
    serialNumber: { type: 'string', description: 'Serial number, hexadecimal' },
    organizationIdentifier: { type: 'string' },
    name: { type: 'string' },
    roles: { type: 'array', items: { type: 'string' } },
    validFrom: { type: 'string', format: 'date-time' },
    validTo: { type: 'string', format: 'date-time' },
    caCertificate: pem("The sandbox CA's certificate (PEM), which issued it"),
  },
} as const;

/**
 * POST /v1/sandbox/certificates, sandbox mode only: a TPP certificate and its key from the sandbox
 * CA, for a TPP with nothing but the server's address (the toolkit's `tpp cert --server`). It is
 * not signed, since the caller has no certificate yet; so it is limited per client address
 * (SANDBOX_CERTIFICATE_REQUESTS_PER_ADDRESS_PER_MINUTE), each certificate costing an RSA key.
 */
export async function registerSandboxCertificateRoutes(
  app: FastifyInstance,
  certificates: SandboxCertificateService,
): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(fastifyRateLimit, {
      max: SANDBOX_CERTIFICATE_REQUESTS_PER_ADDRESS_PER_MINUTE,
      timeWindow: 60_000,
      errorResponseBuilder: (_request, context) =>
        new ApiError(
          'ACCESS_EXCEEDED',
          `this operation answers at most ${context.max} requests a minute from one address; ask again in ${context.after} (Retry-After)`,
        ),
    });

    scope.post<{ Body: SandboxCertificateRequest }>(
      '/v1/sandbox/certificates',
      {
        config: { api: { auth: null } },
        schema: {
          summary: 'Issue a TPP certificate with PSD2 roles, and its key, from the sandbox CA (unsigned; sandbox only)',
          description: `The first step with a sandbox you reach over the network: every other /v1 operation is signed with a certificate. At most ${SANDBOX_CERTIFICATE_REQUESTS_PER_ADDRESS_PER_MINUTE} requests a minute from one address (429 ACCESS_EXCEEDED with Retry-After).`,
          tags: ['sandbox'],
          body: certificateRequestSchema,
          response: {
            201: issuedCertificateSchema,
            ...errorBodyResponse(
              400,
              'The body is not a certificate request: an organizationIdentifier, name or role that cannot be (FORMAT_ERROR)',
            ),
            ...errorBodyResponse(406, 'Accept excludes JSON (REQUESTED_FORMATS_INVALID)'),
            ...errorBodyResponse(415, 'Body is not application/json (UNSUPPORTED_MEDIA_TYPE)'),
            ...errorBodyResponse(
              429,
              `More than ${SANDBOX_CERTIFICATE_REQUESTS_PER_ADDRESS_PER_MINUTE} requests a minute from one address (ACCESS_EXCEEDED); Retry-After gives the seconds to wait`,
            ),
            ...errorBodyResponse(500, 'Server fault (SYSTEM_ERROR)'),
          },
        },
      },
      async (request, reply) => {
        const issued = await certificates.issue(request.body);
        // The answer holds a private key: no cache may keep it.
        reply.header('Cache-Control', 'no-store');
        return reply.code(201).send(issued);
      },
    );
  });
}

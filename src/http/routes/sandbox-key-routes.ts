import type { FastifyInstance } from 'fastify';
import { SANDBOX_PUBLIC_KEY_MAX_LENGTH } from '../../domain/limits.js';
import type { BankKeys } from '../../services/bank-keys.js';
import { signedRequestOf } from '../hooks/authenticate.js';
import { errorResponses } from '../schemas/common-schemas.js';
import { sandboxCreateHeaders, sandboxReadHeaders } from '../schemas/sandbox-schemas.js';
import {
  DELETED,
  SANDBOX_BANK_CREATE_AUTH,
  SANDBOX_BANK_READ_AUTH,
  SANDBOX_TAGS,
  SANDBOX_READ_AUTH,
} from './sandbox-route-parts.js';

const keyListSchema = {
  $id: 'SandboxBankKeys',
  type: 'object',
  properties: {
    keys: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          keySha256: { type: 'string', description: 'SHA-256 (hex) of the key’s SubjectPublicKeyInfo (DER)' },
          boundAt: { type: 'string', format: 'date-time' },
          current: { type: 'boolean', description: 'The key that signed this request' },
        },
      },
    },
    limit: { type: 'integer', description: 'The most keys one bank keeps' },
  },
} as const;

const keySha256Param = {
  type: 'object',
  required: ['keySha256'],
  properties: {
    keySha256: {
      type: 'string',
      minLength: 64,
      maxLength: 64,
      pattern: '^[0-9a-f]{64}$',
      description: 'SHA-256 (hex, lower case)',
    },
  },
} as const;

const bindKeyBody = {
  type: 'object',
  additionalProperties: false,
  required: ['publicKey'],
  properties: {
    publicKey: {
      type: 'string',
      minLength: 1,
      maxLength: SANDBOX_PUBLIC_KEY_MAX_LENGTH,
      description: 'The RSA public key to bind (SubjectPublicKeyInfo, PEM)',
    },
  },
} as const;

/**
 * The keys that open a TPP's sandbox bank (docs/security.md, "Tenancy"): its first request's key and
 * the keys a bound key binds. Signed like every sandbox call, so only a key bound already gets here.
 */
export function registerSandboxKeyRoutes(app: FastifyInstance, keys: BankKeys): void {
  app.addSchema(keyListSchema);
  app.get(
    '/v1/sandbox/keys',
    {
      config: { api: { auth: SANDBOX_READ_AUTH } },
      schema: {
        summary: "List the keys bound to this TPP's sandbox bank",
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        response: { 200: { $ref: 'SandboxBankKeys#' }, ...errorResponses() },
      },
    },
    async (request) => {
      const signed = signedRequestOf(request);
      return keys.list(signed.tpp.id, signed.keySha256);
    },
  );

  app.post<{ Body: { publicKey: string } }>(
    '/v1/sandbox/keys',
    {
      config: { api: { auth: SANDBOX_BANK_CREATE_AUTH } },
      schema: {
        summary: "Bind one more key to this TPP's sandbox bank, signed with a key bound already",
        description:
          "A certificate over the new key (POST /v1/sandbox/certificates with publicKey) then opens the bank too: a second developer, a CI runner, a key that replaces one. A certificate of a CA the sandbox's operator trusts (TRUSTED_CA_CERTS) binds keys as a bound key does. 201 when bound now, 200 when it was bound already.",
        tags: SANDBOX_TAGS,
        headers: sandboxCreateHeaders(),
        body: bindKeyBody,
        response: {
          200: { $ref: 'SandboxBankKeys#' },
          201: { $ref: 'SandboxBankKeys#' },
          ...errorResponses(415, 429),
        },
      },
    },
    async (request, reply) => {
      const signed = signedRequestOf(request);
      const done = await keys.bind(signed.tpp.id, signed.keySha256, request.body.publicKey);
      return reply.code(done.created ? 201 : 200).send(done.view);
    },
  );

  app.delete<{ Params: { keySha256: string } }>(
    '/v1/sandbox/keys/:keySha256',
    {
      config: { api: { auth: SANDBOX_BANK_READ_AUTH } },
      schema: {
        summary: "Unbind a key from this TPP's sandbox bank (never its last)",
        description:
          "Its certificates no longer open the bank: at once on this instance, within a minute on others. The last key stays (409), unless a certificate of a CA the operator trusts made or used the bank. The key that made the bank (the first bound) is unbound only by a request signed with it or with a trusted CA's certificate: 403.",
        tags: SANDBOX_TAGS,
        headers: sandboxReadHeaders(),
        params: keySha256Param,
        response: { ...DELETED, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      const signed = signedRequestOf(request);
      await keys.unbind(signed.tpp.id, request.params.keySha256, signed);
      return reply.code(204).send();
    },
  );
}

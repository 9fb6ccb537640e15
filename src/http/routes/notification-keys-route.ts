import type { FastifyInstance } from 'fastify';
import type { Jwks } from '../../security/notification-signer.js';

/** The JWKS's shape: each key as a JWK (RFC 7517), its members as the key type has them. */
const jwksSchema = {
  type: 'object',
  required: ['keys'],
  properties: { keys: { type: 'array', items: { type: 'object', additionalProperties: true } } },
} as const;

/**
 * GET /.well-known/jwks.json: the public keys the bank signs notifications with (docs/notifications.md,
 * "Checking a notification"), every instance's. Public, unsigned, as a JWKS is: a TPP's receiver
 * fetches it to check X-JWS-Signature, and may keep it for the hour Cache-Control allows.
 */
export function registerNotificationKeys(app: FastifyInstance, keys: () => Promise<Jwks>): void {
  app.get(
    '/.well-known/jwks.json',
    { schema: { hide: true, response: { 200: jwksSchema } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=3600');
      return keys();
    },
  );
}

import type { FastifyReply } from 'fastify';
import type { AuthRequirement } from '../../security/tpp-authenticator.js';

/** What the sandbox's test-data routes share (docs/sandbox.md). */

/** Any PSD2 role may prepare test data (docs/decisions/0013); creates carry a Digest of their body. */
export const SANDBOX_CREATE_AUTH: AuthRequirement = { role: 'any', digestRequired: true, testData: true };
export const SANDBOX_READ_AUTH: AuthRequirement = { role: 'any', digestRequired: false, testData: true };

/**
 * The operations that open or change a sandbox bank as a whole (console links, initialize, the clock,
 * batch runs, snapshots, scenarios, keys): Date required and the X-Request-ID bound strictly (issue 40).
 */
export const SANDBOX_BANK_CREATE_AUTH: AuthRequirement = { ...SANDBOX_CREATE_AUTH, wholeBank: true };
export const SANDBOX_BANK_READ_AUTH: AuthRequirement = { ...SANDBOX_READ_AUTH, wholeBank: true };

const id = { type: 'string', minLength: 1, maxLength: 100 } as const;

/** The schema of path parameters, each an id. */
export const sandboxParams = (...names: string[]) => ({
  type: 'object',
  required: names,
  properties: Object.fromEntries(names.map((name) => [name, id])),
});

export const SANDBOX_TAGS = ['sandbox'];
export const DELETED = { 204: { description: 'Deleted', type: 'null' } } as const;

/** 201 with the created resource, and its self link as Location (a list of created transactions has none). */
export function created(reply: FastifyReply, body: { _links?: { self?: { href: string } } } | unknown[]) {
  const self = Array.isArray(body) ? undefined : body._links?.self?.href;
  if (self !== undefined) reply.header('Location', self);
  return reply.code(201).send(body);
}

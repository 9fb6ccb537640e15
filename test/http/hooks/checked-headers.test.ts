import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify, { type RouteOptions } from 'fastify';
import { registerOperationHooks } from '../../../src/http/hooks/operation-hooks.js';
import type { RouteValidator } from '../../../src/http/schema-compiler/route-validator.js';
import { SIGNED, SIGNED_REQUIRED, headersSchema } from '../../../src/http/schemas/header-schemas.js';
import type { OperationHookDependencies } from '../../../src/http/hooks/operation-hooks.js';

/**
 * The certificate and Signature headers are read whole by the authentication, their length included
 * (security/auth-headers.ts), before validation: a signed operation's validator leaves them out
 * rather than check them a second time (docs/decisions/0351). An unsigned operation's keeps every header.
 */
describe("a signed operation's validator and the headers the authentication checked", () => {
  it('leaves TPP-Signature-Certificate and Signature out of a signed operation, keeps the others, and keeps all of an unsigned one', async () => {
    const compiled: { properties: Record<string, unknown>; required: string[] }[] = [];
    const app = Fastify({ exposeHeadRoutes: false });
    registerOperationHooks(app, {
      compileValidator: (schema: NonNullable<RouteOptions['schema']>) => {
        compiled.push(schema.headers as (typeof compiled)[number]);
        return (async () => []) as unknown as RouteValidator;
      },
      banks: { mode: 'production' },
    } as unknown as OperationHookDependencies);
    const schema = { headers: headersSchema(SIGNED, SIGNED_REQUIRED) };
    const handler = async () => ({});
    app.get('/signed', { schema, config: { api: { auth: { role: 'any', digestRequired: false } } } }, handler);
    app.get('/unsigned', { schema, config: { api: { auth: null } } }, handler);
    await app.ready();
    const [signed, unsigned] = compiled;
    assert.deepEqual(Object.keys(signed!.properties), ['X-Request-ID', 'Date']);
    assert.deepEqual(signed!.required, ['X-Request-ID']);
    assert.deepEqual(Object.keys(unsigned!.properties), SIGNED);
    assert.deepEqual(unsigned!.required, SIGNED_REQUIRED);
    assert.deepEqual(
      Object.keys(schema.headers.properties),
      SIGNED,
      "the route's own schema, the OpenAPI document's, keeps them",
    );
    await app.close();
  });
});

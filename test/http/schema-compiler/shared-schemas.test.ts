import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { sharedSchemaBucket } from '../../../src/http/schema-compiler/shared-schemas.js';
import { serializerFactory } from '../../../src/http/schema-compiler/serializers.js';

/**
 * The store of the schemas added with addSchema (src/http/schema-compiler/shared-schemas.ts): Fastify's
 * rules for adding, its contexts' separation, and the same schemas handed out every time, so that the
 * serializers' factory builds once for them rather than once a route.
 */
const money = { $id: 'Money', type: 'object', properties: { amount: { type: 'string' } } } as const;

describe('the shared schemas', () => {
  it("refuses a schema without an $id and one given twice, with Fastify's own errors", () => {
    const bucket = sharedSchemaBucket();
    assert.throws(() => bucket.add({ type: 'string' }), { code: 'FST_ERR_SCH_MISSING_ID' });
    bucket.add(money);
    assert.throws(() => bucket.add(money), { code: 'FST_ERR_SCH_ALREADY_PRESENT' });
  });

  it('keeps a copy of a schema as it was added: a later change to the caller’s object changes nothing', () => {
    const bucket = sharedSchemaBucket();
    const schema = { $id: 'Text', type: 'string', maxLength: 5 };
    bucket.add(schema);
    schema.maxLength = 500;
    assert.equal((bucket.getSchema('Text') as { maxLength: number }).maxLength, 5);
  });

  it('hands out the same schemas every time, and a context’s own stay out of its parent’s', () => {
    const parent = sharedSchemaBucket();
    parent.add(money);
    assert.equal(parent.getSchemas(), parent.getSchemas());
    const child = sharedSchemaBucket(parent.getSchemas());
    child.add({ $id: 'Local', type: 'string' });
    assert.deepEqual(Object.keys(child.getSchemas()), ['Money', 'Local']);
    assert.deepEqual(Object.keys(parent.getSchemas()), ['Money']);
  });

  it('in an app: the routes that share the schemas share one serializer compiler, where with Fastify’s own store each had its own', async () => {
    assert.equal(await compilersOfThreeRoutes(sharedSchemaBucket), 1);
    // Fastify's own: one for each route, and for the HEAD route it adds beside each GET.
    assert.ok((await compilersOfThreeRoutes(undefined)) >= 3);
  });
});

/** The distinct serializer compilers the factory gives three routes of the context the schema was added to; each route answers through its own. */
async function compilersOfThreeRoutes(bucket: typeof sharedSchemaBucket | undefined): Promise<number> {
  const compilers = new Set<unknown>();
  const build = serializerFactory();
  const app = Fastify({
    schemaController: {
      ...(bucket === undefined ? {} : { bucket }),
      compilersFactory: {
        buildSerializer: (schemas, options) => {
          const compiler = build(schemas, options);
          compilers.add(compiler);
          return compiler;
        },
      },
    },
  });
  app.addSchema(money);
  const paths = ['/a', '/b', '/c'];
  for (const path of paths) {
    app.get(path, { schema: { response: { 200: { $ref: 'Money#' } } } }, async () => ({ amount: '1.00', extra: 1 }));
  }
  await app.ready();
  for (const url of paths) assert.deepEqual((await app.inject({ url })).json(), { amount: '1.00' });
  await app.close();
  return compilers.size;
}

import { type FastifyServerOptions, errorCodes } from 'fastify';

type SchemaBucket = ReturnType<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['bucket']>>;

/**
 * Where Fastify keeps the schemas added with addSchema, as its own store keeps them (each copied as
 * it is added, an $id required and given once), but handed out as they are rather than copied.
 * Fastify sets up its serializer again for every route of a context it added schemas to, with all of
 * them: copied each time, they were new schemas to the serializers' factory at every route, which
 * then hashed all 85 (78 KB of JSON) at each route's first answer. Handed out as they are, the
 * factory builds once for them and hashes them once (serializers.ts; bench/history.md, "The shared
 * schemas hashed at every route's first answer"). A context's own store starts as a copy of its
 * parent's, as Fastify's does.
 */
export function sharedSchemaBucket(parentSchemas?: unknown): SchemaBucket {
  const store: Record<string, unknown> = { ...(parentSchemas as Record<string, unknown> | undefined) };
  return {
    add(schema: unknown) {
      const copy = structuredClone(schema) as { $id?: unknown };
      if (typeof copy.$id !== 'string' || copy.$id === '') throw new errorCodes.FST_ERR_SCH_MISSING_ID();
      if (store[copy.$id] !== undefined) throw new errorCodes.FST_ERR_SCH_ALREADY_PRESENT(copy.$id);
      store[copy.$id] = copy;
      // Fastify's own store returns nothing either; the type asks for the instance, which a store does not have.
      return undefined as never;
    },
    getSchema: (id: string) => store[id],
    getSchemas: () => store,
  };
}

import SerializerSelector, { StandaloneSerializer } from '@fastify/fast-json-stringify-compiler';
import { precompiledRequire, precompiledSchemas, schemaKey } from './precompiled.js';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

/**
 * Fastify compiles every response schema into a serializer when the app becomes ready; with all
 * operations that is a large part of a start (docs/decisions/0027). Each serializer is instead the code the
 * build compiled for its schema (precompiled.ts), made when an answer first needs it, or else compiled then: the
 * same fast-json-stringify code either way.
 *
 * With `record` (the build's run, scripts/precompile-schemas.ts) every serializer is compiled as
 * standalone code when the app becomes ready, and handed over with its key.
 */
export function serializerFactory(record?: (key: string, code: string) => void): SerializerFactory {
  const factory = SerializerSelector();
  return (externalSchemas, options) => {
    // The code depends on the route's schema, on the schemas it may refer to, and on the options;
    // the schemas are hashed on the first answer, not during the start.
    let context: string | undefined;
    const keyOf = (schema: unknown) => schemaKey((context ??= schemaKey(externalSchemas, options ?? null)), schema);
    if (record !== undefined) {
      return StandaloneSerializer({
        readMode: false,
        storeFunction: (route, code) => record(keyOf(route.schema), code),
      })(externalSchemas, { ...options });
    }
    const compile = factory(externalSchemas, options);
    return (route) => {
      let serialize: Serializer | undefined;
      return (document: unknown) => (serialize ??= restore(keyOf(route.schema)) ?? compile(route))(document);
    };
  };
}

function restore(key: string): Serializer | undefined {
  const precompiled = precompiledSchemas().serializers[key];
  return precompiled === undefined ? undefined : precompiled(precompiledRequire, { exports: undefined });
}

import type * as SerializerCompiler from '@fastify/fast-json-stringify-compiler';
import { precompiledRequire, precompiledSchemas, schemaKey } from './precompiled.js';

type SerializerFactory = ReturnType<typeof SerializerCompiler.SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

/**
 * fast-json-stringify, with Ajv, which it loads: required when a schema is first compiled, not when
 * the server loads, since a built server restores every serializer it needs from precompiled code.
 */
let compiler: typeof SerializerCompiler | undefined;
function serializerCompiler(): typeof SerializerCompiler {
  return (compiler ??= precompiledRequire('@fastify/fast-json-stringify-compiler') as typeof SerializerCompiler);
}

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
  let factory: SerializerFactory | undefined;
  // Fastify asks again for every route of a context that added schemas; the shared schemas are handed
  // out as they are (shared-schemas.ts), so the same ones get the same compiler, and their hash is
  // taken once rather than at each route's first answer.
  let built: { externalSchemas: unknown; options: unknown; compiler: ReturnType<SerializerFactory> } | undefined;
  return (externalSchemas, options) => {
    if (built !== undefined && built.externalSchemas === externalSchemas && built.options === options)
      return built.compiler;
    const compiler = buildFor(externalSchemas, options);
    built = { externalSchemas, options, compiler };
    return compiler;
  };

  function buildFor(...[externalSchemas, options]: Parameters<SerializerFactory>): ReturnType<SerializerFactory> {
    // The code depends on the route's schema, on the schemas it may refer to, and on the options;
    // the schemas are hashed on the first answer, not during the start.
    let context: string | undefined;
    const keyOf = (schema: unknown) => schemaKey((context ??= schemaKey(externalSchemas, options ?? null)), schema);
    if (record !== undefined) {
      return serializerCompiler().StandaloneSerializer({
        readMode: false,
        storeFunction: (route, code) => record(keyOf(route.schema), code),
      })(externalSchemas, { ...options });
    }
    let compileOf: ReturnType<SerializerFactory> | undefined;
    const compile: ReturnType<SerializerFactory> = (route) =>
      (compileOf ??= (factory ??= serializerCompiler().SerializerSelector())(externalSchemas, options))(route);
    return (route) => {
      let serialize: Serializer | undefined;
      return (document: unknown) => (serialize ??= restore(keyOf(route.schema)) ?? compile(route))(document);
    };
  }
}

function restore(key: string): Serializer | undefined {
  const precompiled = precompiledSchemas().serializers[key];
  return precompiled === undefined ? undefined : precompiled(precompiledRequire, { exports: undefined });
}

import SerializerSelector from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

/**
 * Fastify compiles every response schema into a serializer when the app becomes ready; with all
 * operations that took 250 ms of a start. Each serializer is compiled on the first answer that
 * needs it instead: the same fast-json-stringify code, built once, later.
 */
export function lazySerializerFactory(): SerializerFactory {
  const factory = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    return (route) => {
      let serialize: Serializer | undefined;
      return (document: unknown) => (serialize ??= compile(route))(document);
    };
  };
}

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';

/**
 * Validators and serializers compiled at build (scripts/precompile-schemas.ts writes them into
 * dist/generated/, and the server's bundle installs them before the app is built): a route's first request then runs code the build made
 * rather than compiling its schemas (tens of milliseconds each, with Ajv and fast-json-stringify).
 * Each is found by a key made of everything its code depends on: the schema, the schemas it may
 * refer to, the options. A schema the build did not see (a route added without a build, a test's
 * own app) finds nothing and is compiled on first use.
 */

/** Ajv's standalone code of one schema, as a function of the formats and of a require for Ajv's runtime helpers. */
export type ValidatorFactory = (formats: Record<string, unknown>, require: NodeJS.Require) => ValidateFunction;
/** fast-json-stringify's standalone code of one response schema, as a module: it requires its runtime and sets module.exports. */
export type SerializerFactory = (
  require: NodeJS.Require,
  module: { exports: unknown },
) => (document: unknown) => string;

export interface PrecompiledSchemas {
  validators: Readonly<Record<string, ValidatorFactory>>;
  serializers: Readonly<Record<string, SerializerFactory>>;
}

/** Told each validator's and serializer's key and standalone code, as the build's run of the app compiles them. */
export interface SchemaRecorder {
  validator(key: string, code: string): void;
  serializer(key: string, code: string): void;
}

/** The key of compiled code: a hash of what it was compiled from (JSON). */
export function schemaKey(...inputs: unknown[]): string {
  return createHash('sha256')
    .update(JSON.stringify(inputs) ?? 'undefined')
    .digest('base64url');
}

/** The require the precompiled code loads its libraries' runtime helpers with (ajv/dist/runtime, fast-json-stringify/lib). */
export const precompiledRequire: NodeJS.Require = createRequire(import.meta.url);

let installed: PrecompiledSchemas = { validators: {}, serializers: {} };

/**
 * Gives the app the build's compiled code. Only the bundle's generated entry calls it
 * (scripts/precompile-schemas.ts), before the server's own modules run; without it (tests, `npm run
 * dev`) every schema is compiled on first use, with the same result.
 */
export function installPrecompiledSchemas(schemas: PrecompiledSchemas): void {
  installed = schemas;
}

/** The build's compiled code, as installed; none when nothing was. */
export function precompiledSchemas(): PrecompiledSchemas {
  return installed;
}

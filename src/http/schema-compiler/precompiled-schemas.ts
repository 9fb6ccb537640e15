import type { PrecompiledSchemas } from './precompiled.js';

/**
 * Empty in the source: the build writes dist/src/http/schema-compiler/precompiled-schemas.js over tsc's output of
 * this file with the code of every route's validators and serializers (scripts/precompile-schemas.ts).
 */
export const precompiledSchemas: PrecompiledSchemas = { validators: {}, serializers: {} };

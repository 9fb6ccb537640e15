import type { Ajv } from 'ajv';
import type standalone from 'ajv/dist/standalone/index.js';
import type { FastifySchema } from 'fastify';
import type { Problem } from '../../domain/api-error.js';
import { createAjv } from './ajv-setup.js';
import { FORMATS } from './schema-formats.js';
import { arrayBoundsOf, overlongArray } from './array-bounds.js';
import { DescribedProblems } from './described-problems.js';
import { listValidatorOf, validateInTurns, warmLists } from './list-validation.js';
import { type NumberType, numberProperties } from './number-text.js';
import { validatorRequire } from './code-point-length.js';
import { precompiledRequire, precompiledSchemas, schemaKey } from './precompiled.js';
import { describe, numbersNotInDecimal, withContext, withoutBranchErrors } from './problem-description.js';
import type { PartValidator, RequestParts, RouteValidator, UnitCompiler, ValidateRequest } from './route-validator.js';

/** Ajv's standalone code of a compiled schema: only the build asks for it, so it is required then. */
function standaloneCode(...args: Parameters<typeof standalone.default>): string {
  // CommonJS: its function is both module.exports and its default export.
  return (precompiledRequire('ajv/dist/standalone/index.js') as typeof standalone.default)(...args);
}

/**
 * Request validation against the route schema, all parts at once (headers, path, query, body), so a
 * TPP learns of every violation in one answer. Fastify's own validation stops at the first failing
 * part; it is switched off and this runs as a hook after authentication.
 *
 * Body values are never coerced: a number where a string is required is an error, not "10".
 * Header, path and query values are text on the wire and are coerced to the schema's type.
 */

export interface ValidatorCompilerOptions {
  /** Check every schema against the meta-schema and compile it when its route is added, so a bad schema fails the build of the app (tests). */
  checkSchemas?: boolean;
  /** Compile every schema when its route is added and hand its key and standalone code to this (the build, scripts/precompile-schemas.ts). */
  record?: (key: string, code: string) => void;
}

/**
 * A compiler of route validators; shared schemas are those routes refer to with $ref. Each route's
 * schemas are compiled on its first request, or rather taken from the code the build compiled for
 * them (precompiled.ts), unless options say otherwise.
 */
export function createValidatorCompiler(
  sharedSchemas: readonly object[],
  options: ValidatorCompilerOptions = {},
): (schema: FastifySchema) => RouteValidator {
  const { checkSchemas = false, record } = options;
  // Made on the first compilation, not at start: two Ajv instances with their formats are a cost a
  // start need not pay while every validator is precompiled (docs/decisions/0027).
  let ajvs: { body: Ajv; text: Ajv } | undefined;
  const compilers = () => {
    if (ajvs !== undefined) return ajvs;
    ajvs = {
      body: createAjv(false, checkSchemas, record !== undefined),
      text: createAjv(true, checkSchemas, record !== undefined),
    };
    for (const shared of sharedSchemas) {
      ajvs.body.addSchema(shared);
      ajvs.text.addSchema(shared);
    }
    return ajvs;
  };
  // A schema's code depends on it, on its Ajv's kind, and on the shared schemas it may refer to.
  let sharedKey: string | undefined;
  const keyOf = (coerce: boolean, schema: object) =>
    schemaKey((sharedKey ??= schemaKey(sharedSchemas)), coerce, schema);
  const compileUnit: UnitCompiler = (coerce, schema) => {
    if (record !== undefined) {
      const ajv = compilers()[coerce ? 'text' : 'body'];
      const validate = ajv.compile(schema);
      record(keyOf(coerce, schema), standaloneCode(ajv, validate));
      return validate;
    }
    const precompiled = checkSchemas ? undefined : precompiledSchemas().validators[keyOf(coerce, schema)];
    return precompiled === undefined
      ? compilers()[coerce ? 'text' : 'body'].compile(schema)
      : precompiled(FORMATS, validatorRequire);
  };
  const byRef = new Map(sharedSchemas.map((shared) => [`${(shared as { $id?: string }).$id}#`, shared]));
  const inline = (schema: FastifySchema): FastifySchema =>
    schema.body === undefined ? schema : { ...schema, body: inlineRefs(schema.body, byRef) };
  const now = checkSchemas || record !== undefined;
  return (schema) =>
    now ? compileNow(inline(schema), compileUnit) : compileRouteValidator(inline(schema), compileUnit);
}

/**
 * The body schema with every `$ref` replaced by the schema it names. Ajv compiles a referenced
 * schema as a function of its own and, collecting every error, joins each call's errors to all
 * before (Array.concat): quadratic in the errors (docs/decisions/0139). Inlined, every error is pushed once.
 * The shared schemas are not recursive, so this ends.
 */
function inlineRefs(schema: unknown, byRef: ReadonlyMap<string, object>): unknown {
  if (Array.isArray(schema)) return schema.map((entry) => inlineRefs(entry, byRef));
  if (typeof schema !== 'object' || schema === null) return schema;
  const own: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key !== '$ref' && key !== '$id')
      own[key] = key === 'enum' || key === 'required' ? value : inlineRefs(value, byRef);
  }
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref !== 'string') return own;
  const target = byRef.get(ref);
  if (target === undefined) throw new Error(`schema $ref ${ref} names no shared schema`);
  return { ...(inlineRefs(target, byRef) as object), ...own };
}

/** Compiled on the first request of the route: a start then costs no schema compilation. */
function compileRouteValidator(schema: FastifySchema, compile: UnitCompiler): RouteValidator {
  let compiled: RouteValidator | undefined;
  const now = () => (compiled ??= compileNow(schema, compile));
  return Object.assign((request: RequestParts) => now()(request), {
    now: (request: RequestParts) => now().now(request),
    warm: () => now().warm(),
  });
}

function compileNow(schema: FastifySchema, compile: UnitCompiler): RouteValidator {
  const validators: PartValidator[] = [];
  for (const part of ['headers', 'params', 'querystring', 'body'] as const) {
    const partSchema = schema[part] as Record<string, unknown> | undefined;
    if (partSchema === undefined) continue;
    const headerNames = new Map<string, string>();
    let compiled = partSchema;
    if (part === 'headers') {
      compiled = lowerCaseHeaderSchema(partSchema, headerNames);
    }
    const arrayBounds = part === 'body' ? arrayBoundsOf(compiled) : [];
    const lists = part === 'body' ? listValidatorOf(compiled, arrayBounds, compile) : undefined;
    const numbers = part === 'body' ? new Map<string, NumberType>() : numberProperties(compiled);
    validators.push({
      part,
      validate: compile(part !== 'body', compiled),
      schema: compiled,
      arrayBounds,
      headerNames,
      lists,
      numbers,
    });
  }
  /** A request without a large body, validated in one step: no promise (parse-and-validate.ts). */
  const validateNow = (request: RequestParts): Problem[] => {
    const problems = new DescribedProblems();
    for (const validator of validators) {
      const data = partOf(validator, request);
      if (!settledBeforeSchema(validator, data, problems)) checkPart(validator, data, problems);
    }
    return problems.list();
  };
  const validate: ValidateRequest = async (request) => {
    const problems = new DescribedProblems();
    for (const validator of validators) {
      const data = partOf(validator, request);
      if (settledBeforeSchema(validator, data, problems)) continue;
      if (validator.lists !== undefined) await validateInTurns(validator, validator.lists, data, problems);
      else checkPart(validator, data, problems);
    }
    return problems.list();
  };
  return Object.assign(validate, { now: validateNow, warm: () => warmLists(validate, validators) });
}

function partOf(validator: PartValidator, request: RequestParts): unknown {
  return validator.part === 'querystring' ? request.query : request[validator.part];
}

/** True when the part's problem is known before its schema runs: a missing body, or a list longer than its bound. */
function settledBeforeSchema(validator: PartValidator, data: unknown, problems: DescribedProblems): boolean {
  if (validator.part === 'body' && data === undefined) {
    problems.add({ code: 'FORMAT_ERROR', path: '$', text: 'the request needs a JSON body' });
    return true;
  }
  const tooLong = overlongArray(validator.arrayBounds, data);
  if (tooLong === undefined) return false;
  problems.add(tooLong);
  return true;
}

/** The part against its schema, and its numbers against their decimal text. */
function checkPart(validator: PartValidator, data: unknown, problems: DescribedProblems): void {
  const badNumbers = numbersNotInDecimal(validator, data);
  for (const problem of badNumbers.values()) problems.add(problem);
  if (validator.validate(data)) return;
  for (const error of withoutBranchErrors(validator.validate.errors ?? [])) {
    if (problems.full()) problems.skip();
    else {
      const problem = describe(withContext(error, validator.schema, data), validator);
      // Ajv's view of a value refused already: of the number it read, not of the text sent.
      if (problem.path === undefined || !badNumbers.has(problem.path)) problems.add(problem);
    }
  }
}

function lowerCaseHeaderSchema(schema: Record<string, unknown>, names: Map<string, string>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, value] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
    names.set(name.toLowerCase(), name);
    properties[name.toLowerCase()] = value;
  }
  const required = ((schema.required ?? []) as string[]).map((n) => n.toLowerCase());
  return { ...schema, properties, required };
}

import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchema } from 'fastify';
import type { Problem } from '../domain/api-error.js';
import { isHttpAddress } from '../domain/redirect-uri.js';

/**
 * Request validation against the route schema, all parts at once (headers, path, query, body), so a
 * TPP learns of every violation in one answer. Fastify's own validation stops at the first failing
 * part; it is switched off and this runs as a hook after authentication.
 *
 * Body values are never coerced: a number where a string is required is an error, not "10".
 * Header, path and query values are text on the wire and are coerced to the schema's type.
 */

/** Annotation that says in words what a pattern, enum, format or set of alternatives requires. */
export const RULE_TEXT = 'x-rule-text';
/** Format of an absolute http or https address that the server can later parse and extend. */
export const HTTP_ADDRESS_FORMAT = 'http-address';
/** Annotation on an object schema: the error code when one of its required properties is missing (KID_MISSING). */
export const REQUIRED_CODE = 'x-required-code';

function createAjv(coerceTypes: boolean, checkSchemas: boolean): Ajv {
  // Checking schemas against the JSON Schema meta-schema costs 60 ms of every start; the route
  // schemas are fixed, so the tests check them (checkSchemas) and production does not.
  const ajv = new Ajv({ allErrors: true, coerceTypes, useDefaults: false, removeAdditional: false, verbose: true, strict: true, strictRequired: false, validateSchema: checkSchemas });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  ajv.addKeyword({ keyword: RULE_TEXT, schemaType: 'string' });
  ajv.addKeyword({ keyword: 'example' });
  ajv.addKeyword({ keyword: REQUIRED_CODE, schemaType: 'string' });
  // An address the WHATWG URL parser reads as http or https (TPP-Redirect-URI): a pattern cannot say it.
  ajv.addFormat(HTTP_ADDRESS_FORMAT, { type: 'string', validate: isHttpAddress });
  return ajv;
}


type Part = 'headers' | 'params' | 'querystring' | 'body';

interface PartValidator {
  part: Part;
  validate: ValidateFunction;
  /** Lower-case header name to the name as the specification writes it. */
  headerNames: Map<string, string>;
}

export interface RequestParts {
  headers: unknown;
  params: unknown;
  query: unknown;
  body: unknown;
}

export type RouteValidator = (request: RequestParts) => Problem[];

/**
 * A compiler of route validators; shared schemas are those routes refer to with $ref. With
 * checkSchemas every schema is checked against the meta-schema and compiled at once, so a bad
 * schema fails the build of the app; without, each route compiles on its first request.
 */
export function createValidatorCompiler(sharedSchemas: readonly object[], checkSchemas = false): (schema: FastifySchema) => RouteValidator {
  const bodyAjv = createAjv(false, checkSchemas);
  const textAjv = createAjv(true, checkSchemas);
  for (const shared of sharedSchemas) {
    bodyAjv.addSchema(shared);
    textAjv.addSchema(shared);
  }
  return (schema) => (checkSchemas ? compileNow(schema, bodyAjv, textAjv) : compileRouteValidator(schema, bodyAjv, textAjv));
}

/** Compiled on the first request of the route: a start then costs no schema compilation. */
function compileRouteValidator(schema: FastifySchema, bodyAjv: Ajv, textAjv: Ajv): RouteValidator {
  let compiled: RouteValidator | undefined;
  return (request) => (compiled ??= compileNow(schema, bodyAjv, textAjv))(request);
}

function compileNow(schema: FastifySchema, bodyAjv: Ajv, textAjv: Ajv): RouteValidator {
  const validators: PartValidator[] = [];
  for (const part of ['headers', 'params', 'querystring', 'body'] as const) {
    const partSchema = schema[part] as Record<string, unknown> | undefined;
    if (partSchema === undefined) continue;
    const headerNames = new Map<string, string>();
    let compiled = partSchema;
    if (part === 'headers') {
      compiled = lowerCaseHeaderSchema(partSchema, headerNames);
    }
    validators.push({ part, validate: (part === 'body' ? bodyAjv : textAjv).compile(compiled), headerNames });
  }
  return (request) => {
    const problems: Problem[] = [];
    for (const validator of validators) {
      const data = validator.part === 'querystring' ? request.query : request[validator.part];
      if (validator.part === 'body' && data === undefined) {
        problems.push({ code: 'FORMAT_ERROR', path: '$', text: 'the request needs a JSON body' });
        continue;
      }
      if (validator.validate(data)) continue;
      for (const error of withoutBranchErrors(validator.validate.errors ?? [])) problems.push(describe(error, validator));
    }
    return dropImpliedProblems(problems);
  };
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

/** A JSONPath to the field: `$.payments[0].creditorName`; headers as `header:Name`, query as `query:name`. */
function pathOf(error: ErrorObject, validator: PartValidator, property?: string): string {
  const segments = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (property !== undefined) segments.push(property);
  if (validator.part === 'headers') return `header:${validator.headerNames.get(segments[0] ?? '') ?? segments[0]}`;
  if (validator.part === 'querystring') return `query:${segments.join('.')}`;
  if (validator.part === 'params') return `path:${segments.join('.')}`;
  return segments.reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `${path}.${s}` : `${path}[${JSON.stringify(s)}]`), '$');
}

function describe(error: ErrorObject, validator: PartValidator): Problem {
  const params = error.params as Record<string, unknown>;
  const parent = (error.parentSchema ?? {}) as Record<string, unknown>;
  if (error.keyword === 'required') {
    const path = pathOf(error, validator, String(params.missingProperty));
    const code = typeof parent[REQUIRED_CODE] === 'string' ? (parent[REQUIRED_CODE] as Problem['code'])
      : validator.part === 'headers' ? 'HTTP_HEADER_REQUIRED' : validator.part === 'querystring' ? 'QUERY_PARAMETER_REQUIRED' : 'FORMAT_ERROR';
    return { code, path, text: `${label(path)} is required` };
  }
  if (error.keyword === 'additionalProperties') {
    const path = pathOf(error, validator, String(params.additionalProperty));
    return { code: 'FORMAT_ERROR', path, text: `${label(path)} is not a field of this request` };
  }
  const path = pathOf(error, validator);
  return { code: 'FORMAT_ERROR', path, text: `${label(path)} ${reason(error, params, parent)}${got(error)}` };
}

function reason(error: ErrorObject, params: Record<string, unknown>, parent: Record<string, unknown>): string {
  switch (error.keyword) {
    case 'type': return `must be ${article(String(params.type))}`;
    case 'maxLength': return `must be at most ${params.limit} characters long`;
    case 'minLength': return params.limit === 1 ? 'must not be empty' : `must be at least ${params.limit} characters long`;
    case 'maxItems': return `must have at most ${params.limit} entries`;
    case 'minItems': return `must have at least ${params.limit} ${params.limit === 1 ? 'entry' : 'entries'}`;
    case 'minimum': return `must be at least ${params.limit}`;
    case 'maximum': return `must be at most ${params.limit}`;
    case 'enum': {
      if (typeof parent[RULE_TEXT] === 'string') return `must be ${parent[RULE_TEXT]}`;
      const values = (params.allowedValues as unknown[]) ?? [];
      return values.length <= 20 ? `must be one of ${values.join(', ')}` : `must be one of the ${values.length} values the specification lists`;
    }
    case 'const': return `must be ${String(params.allowedValue)}`;
    case 'pattern': return typeof parent[RULE_TEXT] === 'string' ? `must be ${parent[RULE_TEXT]}` : `must match ${String(params.pattern)}`;
    case 'format': return typeof parent[RULE_TEXT] === 'string' ? `must be ${parent[RULE_TEXT]}` : `must be a valid ${formatName(String(params.format))}`;
    case 'uniqueItems': return `must not repeat entries (entries ${params.j} and ${params.i} are equal)`;
    case 'minProperties': return 'must not be empty';
    case 'not': return 'has a form that is not allowed here';
    case 'oneOf':
    case 'anyOf': return typeof parent[RULE_TEXT] === 'string' ? `must be ${parent[RULE_TEXT]}` : 'does not have any of the allowed forms';
    default: return error.message ?? 'is not valid';
  }
}

function got(error: ErrorObject): string {
  const value = error.data;
  if (error.keyword === 'maxLength' || error.keyword === 'minLength') return typeof value === 'string' ? ` (it is ${[...value].length})` : '';
  if (typeof value === 'string') return ` (got '${value.length > 40 ? `${value.slice(0, 40)}…` : value}')`;
  if (typeof value === 'number' || typeof value === 'boolean') return ` (got ${JSON.stringify(value)})`;
  if (value === null) return ' (got null)';
  return '';
}

function label(path: string): string {
  if (path.startsWith('header:')) return `header ${path.slice('header:'.length)}`;
  if (path.startsWith('query:')) return `query parameter ${path.slice('query:'.length)}`;
  if (path.startsWith('path:')) return `path parameter ${path.slice('path:'.length)}`;
  return path;
}

function article(type: string): string {
  if (type === 'object') return 'a JSON object';
  if (type === 'array') return 'a JSON array';
  if (type === 'integer') return 'a whole number';
  if (type === 'string') return 'a string';
  return `a ${type}`;
}

function formatName(format: string): string {
  return ({ date: 'date (YYYY-MM-DD)', uuid: 'UUID', ipv4: 'IPv4 address', ipv6: 'IPv6 address', uri: 'absolute URI', 'date-time': 'date and time (RFC 3339)' } as Record<string, string>)[format] ?? format;
}

/** When an anyOf/oneOf fails, its branches' own errors say the same thing less clearly: keep only its own. */
function withoutBranchErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const alternatives = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => `${e.schemaPath}/`);
  return errors.filter((e) => !alternatives.some((prefix) => e.schemaPath.startsWith(prefix)));
}

function dropImpliedProblems(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}|${p.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

import type { ErrorObject } from 'ajv';
import type { Problem } from '../../domain/api-error.js';
import { appendKey } from '../body/json-path.js';
import { REQUIRED_CODE, RULE_TEXT } from './schema-formats.js';
import { isNumberText, numberTextRule } from './number-text.js';
import type { PartValidator } from './route-validator.js';

/**
 * A validation error in words a developer can act on: the field's path as the request writes it, what
 * the schema asks of it, and what was sent.
 */

/** A JSONPath to the field: `$.payments[0].creditorName`; headers as `header:Name`, query as `query:name`. */
function pathOf(error: ErrorObject, validator: PartValidator, property?: string): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (property !== undefined) segments.push(property);
  if (validator.part === 'headers') return textPath(validator, segments[0] ?? '');
  if (validator.part !== 'body') return textPath(validator, segments.join('.'));
  return segments.reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : appendKey(path, s)), '$');
}

/** The path of a header (as the specification writes its name), a query parameter or a path parameter. */
function textPath(validator: PartValidator, name: string): string {
  if (validator.part === 'headers') return `header:${validator.headerNames.get(name) ?? name}`;
  return validator.part === 'querystring' ? `query:${name}` : `path:${name}`;
}

/** What numbersNotInDecimal finds in a part without number properties, or with none refused: every request's case. */
const NONE_REFUSED: ReadonlyMap<string, Problem> = new Map();

/** A text part's number values not written in decimal (number-text.ts), by path: each one problem. */
export function numbersNotInDecimal(validator: PartValidator, data: unknown): ReadonlyMap<string, Problem> {
  if (validator.numbers.size === 0 || typeof data !== 'object' || data === null) return NONE_REFUSED;
  let refused: Map<string, Problem> | undefined;
  for (const [name, type] of validator.numbers) {
    const value = (data as Record<string, unknown>)[name];
    // A repeated parameter is an array: Ajv's type check refuses it.
    if (typeof value !== 'string' || isNumberText(value, type)) continue;
    const path = textPath(validator, name);
    (refused ??= new Map()).set(path, {
      code: 'FORMAT_ERROR',
      path,
      text: `${label(path)} must be ${numberTextRule(type)}${gotText(value)}`,
    });
  }
  return refused ?? NONE_REFUSED;
}

/**
 * The error with what Ajv's verbose mode would have added (the schema object that holds the keyword,
 * and the value): found for the few errors described, rather than by Ajv for every error, which
 * cost a third more per error. Refs are inlined, so the schemaPath points into the compiled schema.
 */
export function withContext(error: ErrorObject, schema: unknown, data: unknown): ErrorObject {
  return {
    ...error,
    parentSchema: at(schema, error.schemaPath.split('/').slice(1, -1)) as ErrorObject['parentSchema'],
    data: at(data, error.instancePath.split('/').slice(1)),
  };
}

function at(root: unknown, pointer: readonly string[]): unknown {
  let value = root;
  for (const segment of pointer) {
    const key = decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export function describe(error: ErrorObject, validator: PartValidator): Problem {
  const params = error.params as Record<string, unknown>;
  const parent = (error.parentSchema ?? {}) as Record<string, unknown>;
  if (error.keyword === 'required') {
    const path = pathOf(error, validator, String(params.missingProperty));
    const code =
      typeof parent[REQUIRED_CODE] === 'string'
        ? (parent[REQUIRED_CODE] as Problem['code'])
        : validator.part === 'headers'
          ? 'HTTP_HEADER_REQUIRED'
          : validator.part === 'querystring'
            ? 'QUERY_PARAMETER_REQUIRED'
            : 'FORMAT_ERROR';
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
    case 'type':
      return `must be ${article(String(params.type))}`;
    case 'maxLength':
      return `must be at most ${params.limit} characters long`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${params.limit} characters long`;
    case 'maxItems':
      return `must have at most ${params.limit} entries`;
    case 'minItems':
      return `must have at least ${params.limit} ${params.limit === 1 ? 'entry' : 'entries'}`;
    case 'minimum':
      return `must be at least ${params.limit}`;
    case 'maximum':
      return `must be at most ${params.limit}`;
    case 'enum': {
      if (typeof parent[RULE_TEXT] === 'string') return `must be ${parent[RULE_TEXT]}`;
      const values = (params.allowedValues as unknown[]) ?? [];
      return values.length <= 20
        ? `must be one of ${values.join(', ')}`
        : `must be one of the ${values.length} values the specification lists`;
    }
    case 'const':
      return `must be ${String(params.allowedValue)}`;
    case 'pattern':
      return typeof parent[RULE_TEXT] === 'string'
        ? `must be ${parent[RULE_TEXT]}`
        : `must match ${String(params.pattern)}`;
    case 'format':
      return typeof parent[RULE_TEXT] === 'string'
        ? `must be ${parent[RULE_TEXT]}`
        : `must be a valid ${formatName(String(params.format))}`;
    case 'uniqueItems':
      return `must not repeat entries (entries ${params.j} and ${params.i} are equal)`;
    case 'minProperties':
      return 'must not be empty';
    case 'not':
      return 'has a form that is not allowed here';
    case 'oneOf':
    case 'anyOf':
      return typeof parent[RULE_TEXT] === 'string'
        ? `must be ${parent[RULE_TEXT]}`
        : 'does not have any of the allowed forms';
    default:
      return `is not valid (${error.keyword})`;
  }
}

function got(error: ErrorObject): string {
  const value = error.data;
  if (error.keyword === 'maxLength' || error.keyword === 'minLength')
    return typeof value === 'string' ? ` (it is ${[...value].length})` : '';
  if (typeof value === 'string') return gotText(value);
  // A number too large for a double (1e400) is read as Infinity, which JSON.stringify writes as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return ' (got a number too large to read)';
  if (typeof value === 'number' || typeof value === 'boolean') return ` (got ${JSON.stringify(value)})`;
  if (value === null) return ' (got null)';
  return '';
}

function gotText(value: string): string {
  return ` (got '${value.length > 40 ? `${value.slice(0, 40)}…` : value}')`;
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
  return (
    (
      {
        date: 'date (YYYY-MM-DD)',
        uuid: 'UUID',
        ipv4: 'IPv4 address',
        ipv6: 'IPv6 address',
        uri: 'absolute URI',
        'date-time': 'date and time (RFC 3339)',
      } as Record<string, string>
    )[format] ?? format
  );
}

/**
 * When an anyOf/oneOf fails, its branches' own errors say the same thing less clearly: keep only its
 * own. Ajv reports a failed alternative right after its branches' errors, so those are the kept
 * errors just before it under its schema path: removed from the end, each error once, linear.
 */
export function withoutBranchErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const kept: ErrorObject[] = [];
  for (const error of errors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      const prefix = `${error.schemaPath}/`;
      while (kept.length > 0 && kept[kept.length - 1]!.schemaPath.startsWith(prefix)) kept.pop();
    }
    kept.push(error);
  }
  return kept;
}

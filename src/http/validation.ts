import { Ajv, type ErrorObject, type ValidateFunction, _ } from 'ajv';
import addFormats from 'ajv-formats';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import standalone from 'ajv/dist/standalone/index.js';
import type { FastifySchema } from 'fastify';
import type { Problem } from '../domain/api-error.js';
import { ERROR_LIST_MAX_ENTRIES, VALIDATION_ENTRIES_PER_TURN } from '../domain/limits.js';
import { turn } from './hooks/request-body.js';
import { appendKey } from './json-shape.js';
import { type NumberType, isNumberText, numberProperties, numberTextRule } from './number-text.js';
import { isHttpAddress } from '../domain/redirect-uri.js';
import { precompiledRequire, schemaKey } from './precompiled.js';
import { precompiledSchemas } from './precompiled-schemas.js';

// ajv/dist/standalone is CommonJS: its function is both module.exports and its default export.
const standaloneCode = standalone as unknown as typeof standalone.default;

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

/** An address the WHATWG URL parser reads as http or https (TPP-Redirect-URI): a pattern cannot say it. */
const httpAddressFormat = { type: 'string' as const, validate: isHttpAddress };

/** The formats the schemas use, by name: what precompiled validators are given (their code names them `formats`). */
const FORMATS: Record<string, unknown> = { ...fullFormats, [HTTP_ADDRESS_FORMAT]: httpAddressFormat };

/** `standalone`: keeps each validator's source, with formats named as the precompiled code finds them (scripts/precompile-schemas.ts). */
function createAjv(coerceTypes: boolean, checkSchemas: boolean, standalone = false): Ajv {
  // Checking schemas against the JSON Schema meta-schema costs 60 ms of every start; the route
  // schemas are fixed, so the tests check them (checkSchemas) and production does not.
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes,
    useDefaults: false,
    removeAdditional: false,
    verbose: false,
    messages: false,
    strict: true,
    strictRequired: false,
    validateSchema: checkSchemas,
    ...(standalone ? { code: { source: true, formats: _`formats` } } : {}),
  });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  ajv.addKeyword({ keyword: RULE_TEXT, schemaType: 'string' });
  ajv.addKeyword({ keyword: 'example' });
  ajv.addKeyword({ keyword: REQUIRED_CODE, schemaType: 'string' });
  ajv.addFormat(HTTP_ADDRESS_FORMAT, httpAddressFormat);
  return ajv;
}

/** Compiles one schema of a route: a part of its request, or the entries of a list in its body; `coerce` for text parts. */
type UnitCompiler = (coerce: boolean, schema: object) => ValidateFunction;

type Part = 'headers' | 'params' | 'querystring' | 'body';

interface PartValidator {
  part: Part;
  validate: ValidateFunction;
  /** The schema compiled (refs inlined, header names in lower case): its parts are found by schemaPath. */
  schema: unknown;
  /** Arrays of the body at the top or one property down, with their maxItems: checked before Ajv. */
  arrayBounds: ArrayBound[];
  /** Lower-case header name to the name as the specification writes it. */
  headerNames: Map<string, string>;
  /** The body without its lists' entries, and each list's entry validator: a large body is validated a chunk of entries at a time. */
  lists: ListValidator | undefined;
  /** A text part's number properties: their text is checked before Ajv coerces it (number-text.ts). */
  numbers: Map<string, NumberType>;
}

interface ListValidator {
  outer: ValidateFunction;
  outerSchema: unknown;
  entries: { property: string | undefined; validate: ValidateFunction; schema: unknown }[];
}

export interface RequestParts {
  headers: unknown;
  params: unknown;
  query: unknown;
  body: unknown;
}

/**
 * Validates a request. With `inTurns` (a large body), the entries of the body's lists are validated a
 * chunk at a time, and the event loop turns between chunks.
 */
type ValidateRequest = (request: RequestParts, inTurns?: boolean) => Promise<Problem[]>;

export type RouteValidator = ValidateRequest & {
  /** Runs the body's list validators over made-up entries (warm-up.ts); resolves at once for a body without lists. */
  warm: () => Promise<void>;
};

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
  // Made on the first compilation: two Ajv instances with their formats cost 10-15 ms of a start otherwise.
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
    const precompiled = checkSchemas ? undefined : precompiledSchemas.validators[keyOf(coerce, schema)];
    return precompiled === undefined
      ? compilers()[coerce ? 'text' : 'body'].compile(schema)
      : precompiled(FORMATS, precompiledRequire);
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
 * before (Array.concat): quadratic in the errors (a 1 000-entry body with 36 000 errors took
 * 0.4 s). Inlined, every error is pushed once. The shared schemas are not recursive, so this ends.
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
  return Object.assign((request: RequestParts, inTurns?: boolean) => now()(request, inTurns), {
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
  const validate: ValidateRequest = async (request, inTurns = false) => {
    const problems = new DescribedProblems();
    for (const validator of validators) {
      const data = validator.part === 'querystring' ? request.query : request[validator.part];
      if (validator.part === 'body' && data === undefined) {
        problems.add({ code: 'FORMAT_ERROR', path: '$', text: 'the request needs a JSON body' });
        continue;
      }
      const tooLong = overlongArray(validator.arrayBounds, data);
      if (tooLong !== undefined) {
        problems.add(tooLong);
        continue;
      }
      if (inTurns && validator.lists !== undefined) {
        await validateInTurns(validator, validator.lists, data, problems);
        continue;
      }
      const badNumbers = numbersNotInDecimal(validator, data);
      for (const problem of badNumbers.values()) problems.add(problem);
      if (validator.validate(data)) continue;
      for (const error of withoutBranchErrors(validator.validate.errors ?? [])) {
        if (problems.full()) problems.skip();
        else {
          const problem = describe(withContext(error, validator.schema, data), validator);
          // Ajv's view of a value refused already: of the number it read, not of the text sent.
          if (problem.path === undefined || !badNumbers.has(problem.path)) problems.add(problem);
        }
      }
    }
    return problems.list();
  };
  return Object.assign(validate, { warm: () => warmLists(validate, validators) });
}

/**
 * Validates bodies whose lists hold WARM_UP_ENTRIES made-up entries, every field of each set to one
 * of WARM_UP_VALUES, a chunk at a time as a large body is: the validators' code is then compiled by
 * the JIT before the first real large body comes (warm-up.ts).
 */
async function warmLists(validate: ValidateRequest, validators: readonly PartValidator[]): Promise<void> {
  const body = validators.find((v) => v.part === 'body');
  if (body?.lists === undefined) return;
  for (const value of WARM_UP_VALUES) {
    const made: Record<string, unknown> = {};
    let root: unknown[] | undefined;
    for (const list of body.lists.entries) {
      const fields = Object.keys((list.schema as { properties?: object }).properties ?? {});
      // No more than the list takes: a longer one is refused whole (overlongArray) before its entries are validated.
      const most = body.arrayBounds.find((bound) => bound.property === list.property)?.maxItems ?? WARM_UP_ENTRIES;
      // An unknown field too: the error of a field the entry does not have is a branch of its own.
      const entries = Array.from({ length: Math.min(WARM_UP_ENTRIES, most) }, () =>
        Object.fromEntries([...fields, 'unknownField'].map((field) => [field, value])),
      );
      if (list.property === undefined) root = entries;
      else made[list.property] = entries;
    }
    await validate({ headers: {}, params: {}, query: {}, body: root ?? made }, true);
    await turn();
  }
}

/** Entries per made-up list: enough for the JIT to compile an entry validator, a few milliseconds of work. */
const WARM_UP_ENTRIES = 200;
/** Values of every kind a hostile body sends: wrong types, long one-byte and two-byte text, numbers. */
const WARM_UP_VALUES: readonly unknown[] = [true, 'x'.repeat(300), 'ø'.repeat(300), 1.5, { a: [1] }];

/**
 * The body's lists (its own array, or arrays one property down) with their entries' schemas taken
 * out: the rest of the body is validated at once, the entries a chunk at a time. Undefined when the
 * body has no such list.
 */
function listValidatorOf(
  schema: Record<string, unknown>,
  bounds: readonly ArrayBound[],
  compile: UnitCompiler,
): ListValidator | undefined {
  const entries: ListValidator['entries'] = [];
  let outerSchema: Record<string, unknown> = schema;
  for (const bound of bounds) {
    const list = (
      bound.property === undefined
        ? schema
        : (schema.properties as Record<string, Record<string, unknown>>)[bound.property]
    ) as Record<string, unknown>;
    if (typeof list.items !== 'object' || list.items === null) continue;
    const withoutItems = { ...list, items: true };
    outerSchema =
      bound.property === undefined
        ? withoutItems
        : { ...outerSchema, properties: { ...(outerSchema.properties as object), [bound.property]: withoutItems } };
    entries.push({ property: bound.property, validate: compile(false, list.items as object), schema: list.items });
  }
  return entries.length === 0 ? undefined : { outer: compile(false, outerSchema), outerSchema, entries };
}

async function validateInTurns(
  validator: PartValidator,
  lists: ListValidator,
  data: unknown,
  problems: DescribedProblems,
): Promise<void> {
  const report = (errors: readonly ErrorObject[], schema: unknown, at: unknown, prefix: string) => {
    for (const error of withoutBranchErrors(errors)) {
      if (problems.full()) problems.skip();
      else {
        const described = withContext(error, schema, at);
        problems.add(describe({ ...described, instancePath: `${prefix}${described.instancePath}` }, validator));
      }
    }
  };
  if (!lists.outer(data)) report(lists.outer.errors ?? [], lists.outerSchema, data, '');
  for (const list of lists.entries) {
    const value =
      list.property === undefined
        ? data
        : typeof data === 'object' && data !== null
          ? (data as Record<string, unknown>)[list.property]
          : undefined;
    if (!Array.isArray(value)) continue;
    const prefix = list.property === undefined ? '' : `/${list.property.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    for (let index = 0; index < value.length; index++) {
      if (index > 0 && index % VALIDATION_ENTRIES_PER_TURN === 0) await turn();
      if (!list.validate(value[index]))
        report(list.validate.errors ?? [], list.schema, value[index], `${prefix}/${index}`);
    }
  }
}

interface ArrayBound {
  property: string | undefined;
  maxItems: number;
}

/**
 * The body's own array, or its properties' arrays, that have a maxItems. Ajv collecting every error
 * validates every entry of an array even when it has too many (a 1 000-entry `balances`, of which 10
 * are allowed, gave 20 000 errors); these are checked first, and a body with too many entries is
 * answered with that alone.
 */
function arrayBoundsOf(schema: Record<string, unknown>): ArrayBound[] {
  const bounds: ArrayBound[] = [];
  if (schema.type === 'array' && typeof schema.maxItems === 'number')
    bounds.push({ property: undefined, maxItems: schema.maxItems });
  for (const [property, value] of Object.entries(
    (schema.properties ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    if (value.type === 'array' && typeof value.maxItems === 'number')
      bounds.push({ property, maxItems: value.maxItems });
  }
  return bounds;
}

function overlongArray(bounds: readonly ArrayBound[], data: unknown): Problem | undefined {
  for (const bound of bounds) {
    const value =
      bound.property === undefined
        ? data
        : typeof data === 'object' && data !== null && Object.hasOwn(data, bound.property)
          ? (data as Record<string, unknown>)[bound.property]
          : undefined;
    if (Array.isArray(value) && value.length > bound.maxItems) {
      const path = bound.property === undefined ? '$' : appendKey('$', bound.property);
      return { code: 'FORMAT_ERROR', path, text: `${path} must have at most ${bound.maxItems} entries` };
    }
  }
  return undefined;
}

/**
 * The problems found, each once (the same path and text from two keywords is one problem). Only the
 * first ERROR_LIST_MAX_ENTRIES are described, since no answer lists more; the rest are counted, and
 * stand as one summary problem carrying their count (Problem.count), so that the answer's total is
 * right while the work per further error is a count.
 */
class DescribedProblems {
  private readonly problems: Problem[] = [];
  private readonly seen = new Set<string>();
  private skipped = 0;

  full(): boolean {
    return this.problems.length >= ERROR_LIST_MAX_ENTRIES;
  }

  add(problem: Problem): void {
    const key = `${problem.path}|${problem.text}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.problems.push(problem);
  }

  skip(): void {
    this.skipped += 1;
  }

  list(): Problem[] {
    if (this.skipped === 0) return this.problems;
    return [
      ...this.problems,
      { code: 'FORMAT_ERROR', text: `${this.skipped} more problems of form, not listed`, count: this.skipped },
    ];
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
function numbersNotInDecimal(validator: PartValidator, data: unknown): ReadonlyMap<string, Problem> {
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
function withContext(error: ErrorObject, schema: unknown, data: unknown): ErrorObject {
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

function describe(error: ErrorObject, validator: PartValidator): Problem {
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
function withoutBranchErrors(errors: readonly ErrorObject[]): ErrorObject[] {
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

import { randomUUID } from 'node:crypto';
import { periodicBody, tomorrowInNorway } from './periodic-requests.js';
import fc from 'fast-check';
import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { nextFnr, nextOrganisationNumber } from './norwegian-numbers.js';
import { OLA_ACCOUNTS, PSU_ID, bulkBody, createBulk, createCrossBorder, crossBorderBody } from './payment-requests.js';
import { sandboxAccountBody } from './sandbox-bodies.js';
import type { TestApp } from './test-app.js';

/**
 * Property-based requests for every route of the app, made from the route's own schemas: values
 * that fit, values that almost fit (one over a limit, a type swapped), and hostile ones (huge
 * numbers, `__proto__` keys, deep nesting, invalid UTF-8, lone surrogates, bad percent escapes).
 * Used by test/http/fuzz.test.ts (a bounded run in `npm test`) and bench/fuzz.ts (`npm run fuzz`).
 */

/** One method of one route, as the app registered it. */
export interface FuzzTarget {
  method: string;
  /** The route's path with its :parameters, e.g. /v1/signing-baskets/:basketId. */
  path: string;
  schema: Record<string, unknown> | undefined;
  /** An API operation (error body on failure), not a page for the PSU's browser or the docs. */
  api: boolean;
}

export interface FuzzContext {
  /** Shared schemas by $id ('SandboxAgreementCreate'), which route schemas refer to with $ref. */
  schemas: Map<string, Record<string, unknown>>;
  /** Ids of resources that exist (payments, baskets, sandbox objects, SCA tokens), so paths reach them. */
  ids: string[];
  /** Payment products, offered and not. */
  products: string[];
  /** A body that the route takes, by route path: the fuzzer changes one part of it, to reach the logic behind the schema. */
  examples: Map<string, () => unknown>;
}

export type Credentials = 'tpp' | 'otherTpp' | 'aisOnly';

/**
 * Deepest nesting a generated body has. Deeper bodies (thousands of levels) overflow the stack in
 * the canonical body hash: another change bounds nesting in the body parser; until then the fuzzer
 * stays below, so that what it finds is new.
 */
export const MAX_FUZZ_NESTING_DEPTH = 200;

/** A request as generated; the X-Request-ID is added when it is sent, fresh every time. */
export interface FuzzCase {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Leave out Content-Type even though there is a body. */
  noContentType: boolean;
  body: string | Buffer | undefined;
  /** Appended to a fresh UUID to make the X-Request-ID: empty, odd characters, or too long. */
  requestIdSuffix: string;
  as: Credentials;
}

/**
 * Operations that change the sandbox for every later request: the clock moved years ahead expires
 * every PSU session and payment, initialize removes the resources the paths point to, an armed
 * scenario answers the bank's operations 500, 503 or late on purpose (docs/scenarios.md). They are
 * sent to an app of their own, which gets nothing else (and no scenario answers the sandbox's own
 * operations), so the other routes keep reaching the logic behind their checks, and no 5xx is
 * wanted there.
 */
export function changesTheSandbox(target: FuzzTarget): boolean {
  return (
    target.method === 'POST' &&
    (target.path === '/v1/sandbox/clock' ||
      target.path === '/v1/sandbox/initialize' ||
      target.path === '/v1/sandbox/scenarios')
  );
}

/** Every method of every route; a route added to the app is fuzzed without any change here. */
export function fuzzTargets(routes: readonly RouteOptions[]): FuzzTarget[] {
  const targets: FuzzTarget[] = [];
  for (const route of routes) {
    for (const method of [route.method].flat()) {
      targets.push({
        method,
        path: route.url,
        schema: route.schema as Record<string, unknown> | undefined,
        api: (route.config as { api?: unknown } | undefined)?.api !== undefined,
      });
    }
  }
  return targets;
}

export function schemaMap(schemas: Record<string, unknown>): Map<string, Record<string, unknown>> {
  return new Map(
    Object.entries(schemas).map(([id, schema]) => [id.replace(/#$/, ''), schema as Record<string, unknown>]),
  );
}

// ---- JSON text ----

const HUGE_NUMBERS = [
  '1e400',
  '-1e400',
  '123456789012345678901234567890',
  '9007199254740993',
  '-9007199254740993',
  '1.7976931348623157e308',
  '5e-324',
  '-0',
  '0.1',
  '1E2',
  '2147483648',
  '-2147483649',
  '0.000000000000000000001',
];
const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\u202e',
  '🇳🇴'.repeat(40),
  'æøå'.repeat(30),
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%s%n%x',
  'NaN',
  '../../etc/passwd',
  'a'.repeat(3000),
  '\r\n',
  'null',
];

/** Percent-encodes text; a lone surrogate (which encodeURIComponent refuses) becomes U+FFFD. */
function encode(value: string): string {
  return encodeURIComponent(
    value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
  );
}

function quote(value: string): string {
  return JSON.stringify(value);
}

/** `depth` levels of arrays or objects around a value: at most MAX_FUZZ_NESTING_DEPTH. */
export function nested(depth: number, inner: string, objects: boolean): string {
  const d = Math.min(depth, MAX_FUZZ_NESTING_DEPTH);
  return objects ? `${'{"a":'.repeat(d)}${inner}${'}'.repeat(d)}` : `${'['.repeat(d)}${inner}${']'.repeat(d)}`;
}

/** Any JSON value of the wrong kind for where it is put. */
function hostileJson(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...HUGE_NUMBERS),
    fc.constantFrom(...HOSTILE_STRINGS).map(quote),
    fc.constantFrom(
      'true',
      'false',
      'null',
      '[]',
      '{}',
      '[null]',
      '{"__proto__":{"isAdmin":true}}',
      '{"constructor":{"prototype":{"x":1}}}',
      '[{}]',
    ),
    fc
      .tuple(fc.integer({ min: 1, max: MAX_FUZZ_NESTING_DEPTH }), fc.boolean())
      .map(([depth, objects]) => nested(depth, '1', objects)),
    fc.json({ maxDepth: 3 }),
  );
}

function resolve(schema: Record<string, unknown>, context: FuzzContext): Record<string, unknown> {
  let current = schema;
  for (let hops = 0; hops < 5 && typeof current.$ref === 'string'; hops++) {
    const target = context.schemas.get((current.$ref as string).replace(/#$/, ''));
    if (target === undefined) return {};
    current = target;
  }
  return current;
}

/** JSON text for a schema: mostly fitting, sometimes just outside, sometimes hostile. */
export function jsonFor(
  schemaIn: Record<string, unknown> | undefined,
  context: FuzzContext,
  depth = 0,
): fc.Arbitrary<string> {
  const schema = schemaIn === undefined ? {} : resolve(schemaIn, context);
  if (depth > 6) return fc.constantFrom('null', '1', '"x"');
  const fitting = fittingJson(schema, context, depth);
  return fc.oneof({ weight: 8, arbitrary: fitting }, { weight: 1, arbitrary: hostileJson() });
}

function fittingJson(schema: Record<string, unknown>, context: FuzzContext, depth: number): fc.Arbitrary<string> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[])).map((v) => JSON.stringify(v));
  if (schema.const !== undefined) return fc.constant(JSON.stringify(schema.const));
  const branches = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
  if (Array.isArray(branches) && branches.length > 0 && schema.type === undefined)
    return fc.oneof(...branches.map((b) => jsonFor(b, context, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object':
      return objectJson(schema, context, depth);
    case 'array': {
      const items = (schema.items ?? {}) as Record<string, unknown>;
      const max = Math.min(typeof schema.maxItems === 'number' ? schema.maxItems + 1 : 6, 6);
      return fc.array(jsonFor(items, context, depth + 1), { maxLength: max }).map((values) => `[${values.join(',')}]`);
    }
    case 'string':
      return stringFor(schema).map(quote);
    case 'integer':
    case 'number':
      return numberJson(schema);
    case 'boolean':
      return fc.constantFrom('true', 'false');
    case 'null':
      return fc.constant('null');
    default:
      return fc.json({ maxDepth: 2 });
  }
}

const ODD_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', ' ', 'ÆØÅ', '$ref', '0'];

function objectJson(schema: Record<string, unknown>, context: FuzzContext, depth: number): fc.Arbitrary<string> {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema.required ?? []) as string[]);
  const fields = Object.entries(properties).map(([name, property]) =>
    fc.option(
      jsonFor(property, context, depth + 1).map((value) => `${quote(name)}:${value}`),
      { freq: required.has(name) ? 12 : 3, nil: undefined },
    ),
  );
  const extras = fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...ODD_KEYS), fc.string({ maxLength: 8 })), fc.json({ maxDepth: 1 })), {
      maxLength: 2,
    })
    .map((entries) => entries.filter(([key]) => !(key in properties)));
  return fc.tuple(fc.tuple(...fields), fc.option(extras, { freq: 4, nil: undefined })).map(([values, extra]) => {
    const seen = new Set<string>();
    const parts = values.filter((v): v is string => v !== undefined);
    for (const [key, value] of extra ?? []) {
      if (seen.has(key)) continue; // duplicate keys are another helper's concern (the body parser)
      seen.add(key);
      parts.push(`${quote(key)}:${value}`);
    }
    return `{${parts.join(',')}}`;
  });
}

function numberJson(schema: Record<string, unknown>): fc.Arbitrary<string> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1_000_000;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
  const integers = fc.integer({ min: Math.max(min, -2_147_483_648), max: Math.min(max, 2_147_483_647) }).map(String);
  const edges = fc.constantFrom(
    String(min - 1),
    String(max + 1),
    String(min),
    String(max),
    '0',
    '-1',
    '1.5',
    ...HUGE_NUMBERS,
  );
  return fc.oneof(
    { weight: 4, arbitrary: integers },
    { weight: 2, arbitrary: edges },
    { weight: 1, arbitrary: fc.double().map((d) => (Number.isFinite(d) ? JSON.stringify(d) : '1e400')) },
  );
}

const compiledPatterns = new Map<string, fc.Arbitrary<string> | null>();

function patternString(pattern: string): fc.Arbitrary<string> | null {
  if (!compiledPatterns.has(pattern)) {
    let arbitrary: fc.Arbitrary<string> | null = null;
    try {
      arbitrary = fc.stringMatching(new RegExp(pattern));
      fc.sample(arbitrary, { numRuns: 1, seed: 1 });
    } catch {
      arbitrary = null;
    }
    compiledPatterns.set(pattern, arbitrary);
  }
  return compiledPatterns.get(pattern) ?? null;
}

/** A string for a string schema: its pattern or format, around its length limits, or odd text. */
export function stringFor(schema: Record<string, unknown>): fc.Arbitrary<string> {
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 40;
  const any = fc.oneof(
    fc.string({ maxLength: Math.min(maxLength + 2, 80) }),
    fc.string({ unit: 'grapheme', maxLength: Math.min(maxLength + 2, 40) }),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.constantFrom(
      'x'.repeat(Math.min(maxLength + 1, 5000)),
      'x'.repeat(Math.min(maxLength, 5000)),
      ...HOSTILE_STRINGS,
    ),
  );
  const specific: fc.Arbitrary<string>[] = [];
  if (typeof schema.pattern === 'string') {
    const matching = patternString(schema.pattern);
    if (matching !== null) specific.push(matching);
  }
  switch (schema.format) {
    case 'date':
      specific.push(
        fc
          .date({ min: new Date('1899-12-31T00:00:00Z'), max: new Date('2101-01-01T00:00:00Z'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10)),
      );
      specific.push(
        fc.constantFrom('2026-02-29', '2028-02-29', '2026-13-01', '2026-00-10', '0000-01-01', '9999-12-31', '2026-1-1'),
      );
      break;
    case 'date-time':
      specific.push(
        fc
          .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true })
          .map((d) => d.toISOString()),
      );
      specific.push(
        fc.constantFrom(
          '2026-12-31T23:59:60Z',
          '2026-06-30T23:59:60+02:00',
          '9999-12-31T23:59:59Z',
          '0001-01-01T00:00:00Z',
          '2026-01-01T00:00:00+14:00',
          '2026-01-01T00:00:00-23:59',
          '2026-01-01t00:00:00z',
          '2030-01-01T00:00:00.123456789Z',
        ),
      );
      break;
    case 'uuid':
      specific.push(fc.uuid());
      break;
    case 'ipv4':
      specific.push(fc.ipV4());
      break;
    case 'ipv6':
      specific.push(fc.ipV6());
      break;
    default:
      break;
  }
  const branches = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
  for (const branch of branches ?? []) specific.push(stringFor({ ...branch, maxLength }));
  if (specific.length === 0) return any;
  return fc.oneof({ weight: 4, arbitrary: fc.oneof(...specific) }, { weight: 1, arbitrary: any });
}

// ---- Bodies ----

/** Bytes that are not UTF-8: a lone continuation byte, a cut sequence, an encoded surrogate, an overlong slash. */
const BAD_UTF8 = [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xe2, 0x82]];

function withBadUtf8(text: string, bytes: number[]): Buffer {
  const at = text.indexOf(':"');
  if (at < 0) return Buffer.concat([Buffer.from('{"x":"'), Buffer.from(bytes), Buffer.from('"}')]);
  return Buffer.concat([Buffer.from(text.slice(0, at + 2)), Buffer.from(bytes), Buffer.from(text.slice(at + 2))]);
}

/** The example's JSON text with the node at `target` (in document order) replaced, removed or buried deep. */
function mutated(example: unknown, target: number, action: 'replace' | 'remove' | 'bury', replacement: string): string {
  let index = 0;
  const write = (value: unknown): string | undefined => {
    const here = index++;
    if (here === target && here > 0) {
      if (action === 'remove') return undefined;
      if (action === 'bury') return nested(50, JSON.stringify(value) ?? 'null', false);
      return replacement;
    }
    if (Array.isArray(value)) return `[${value.map((v) => write(v) ?? 'null').join(',')}]`;
    if (typeof value === 'object' && value !== null) {
      const parts: string[] = [];
      for (const [key, v] of Object.entries(value)) {
        const text = write(v);
        if (text !== undefined) parts.push(`${quote(key)}:${text}`);
      }
      return `{${parts.join(',')}}`;
    }
    return JSON.stringify(value);
  };
  return write(example) ?? 'null';
}

function exampleBody(make: () => unknown): fc.Arbitrary<string> {
  const replacement = fc.oneof(hostileJson(), fc.json({ maxDepth: 2 }), stringFor({ type: 'string' }).map(quote));
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(0).map(() => JSON.stringify(make())) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.nat({ max: 60 }),
          fc.constantFrom('replace', 'replace', 'replace', 'remove', 'bury') as fc.Arbitrary<
            'replace' | 'remove' | 'bury'
          >,
          replacement,
        )
        .map(([target, action, text]) => mutated(make(), target, action, text)),
    },
  );
}

function bodyFor(target: FuzzTarget, context: FuzzContext): fc.Arbitrary<string | Buffer | undefined> {
  const schema = target.schema?.body as Record<string, unknown> | undefined;
  const example = context.examples.get(target.path);
  const json =
    example === undefined
      ? jsonFor(schema, context)
      : fc.oneof({ weight: 2, arbitrary: jsonFor(schema, context) }, { weight: 3, arbitrary: exampleBody(example) });
  const carries = target.method === 'POST' || target.method === 'PUT' || target.method === 'PATCH';
  const variants: fc.WeightedArbitrary<string | Buffer | undefined>[] = [
    { weight: carries ? 24 : 1, arbitrary: json },
    { weight: carries ? 1 : 8, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.json({ maxDepth: 4 }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 1, max: MAX_FUZZ_NESTING_DEPTH }), fc.boolean(), json)
        .map(([depth, objects, inner]) => nested(depth, inner, objects)),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(json, fc.constantFrom(...BAD_UTF8)).map(([text, bytes]) => withBadUtf8(text, bytes)),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.constantFrom('', ' ', '{', '{"a":1}}', '[1,]', 'NaN', '\ufeff{}', '{"a":1e999999}', 'step=x&code=1'),
      ),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
  ];
  return fc.oneof(...variants);
}

// ---- Headers, query, path ----

/** What a well-behaved TPP sends besides the signed headers; each is then kept, dropped or replaced. */
function goodHeaders(): Record<string, string> {
  return {
    'psu-id': PSU_ID,
    'psu-ip-address': '192.0.2.10',
    'tpp-session-id': randomUUID(),
    'tpp-redirect-uri': 'https://tpp.example/cb?state=1',
    'x-accept-fix': 'longer-name',
    'psu-context': 'PRIVATE',
  };
}

/** Text a header can carry on the wire: visible ASCII and Latin-1, no control characters, trimmed. */
function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x7e\xa0-\xff]/g, '?').trim();
}

const SIGNED_BY_SIGNER = new Set([
  'x-request-id',
  'date',
  'digest',
  'tpp-signature-certificate',
  'signature',
  'content-type',
  'content-length',
]);

function headersFor(target: FuzzTarget): fc.Arbitrary<Record<string, string>> {
  const schema = (target.schema?.headers ?? {}) as { properties?: Record<string, Record<string, unknown>> };
  const good = goodHeaders();
  const names = Object.keys(schema.properties ?? {})
    .map((n) => n.toLowerCase())
    .filter((n) => !SIGNED_BY_SIGNER.has(n));
  for (const name of Object.keys(good)) if (!names.includes(name)) names.push(name);
  const perHeader = names.map((name) => {
    const property = Object.entries(schema.properties ?? {}).find(([n]) => n.toLowerCase() === name)?.[1] ?? {
      type: 'string',
    };
    const options: fc.WeightedArbitrary<string | undefined>[] = [
      { weight: 2, arbitrary: fc.constant(undefined) },
      { weight: 2, arbitrary: stringFor(property).map(headerSafe) },
      { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS).map(headerSafe) },
    ];
    if (good[name] !== undefined) options.push({ weight: 8, arbitrary: fc.constant(good[name]) });
    return fc.oneof(...options).map((value) => [name, value] as const);
  });
  const extra = fc.array(
    fc.tuple(
      fc.constantFrom(
        'accept',
        'accept-language',
        'x-psu-identity',
        'psu-corporate-id',
        'tpp-redirect-preferred',
        'x-forwarded-for',
        'cookie',
        'content-encoding',
        'transfer-encoding-x',
        'if-none-match',
      ),
      fc.oneof(
        fc.constantFrom(
          'application/json',
          'application/xml',
          '*/*',
          'text/html;q=0, application/json;q=0',
          'nb-NO',
          'xx;q=2',
          '13039319955',
          '00000000000',
          'gzip',
          'true',
          'false',
        ),
        fc.string({ maxLength: 30 }).map(headerSafe),
      ),
    ),
    { maxLength: 3 },
  );
  const generated = fc.tuple(fc.tuple(...perHeader), extra).map(([pairs, more]) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of pairs) if (value !== undefined) headers[name] = value;
    for (const [name, value] of more) headers[name] = value;
    return headers;
  });
  // Mostly what a good client sends, with at most two headers changed: the request then gets past
  // the header checks to the logic behind them.
  const changes = fc.array(
    fc.oneof(
      ...perHeader,
      ...perHeader,
      extra.map((more) => more[0] ?? (['accept', 'application/json'] as const)),
    ),
    { maxLength: 2 },
  );
  const nearlyGood = changes.map((changed) => {
    const headers: Record<string, string> = { ...good };
    for (const [name, value] of changed) {
      if (value === undefined) delete headers[name];
      else headers[name] = value;
    }
    return headers;
  });
  return fc.oneof({ weight: 4, arbitrary: nearlyGood }, { weight: 1, arbitrary: generated });
}

/** A query parameter's value as it appears in the URL: encoded, raw, or with broken escapes. */
function queryValue(schema: Record<string, unknown>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: stringFor(schema).map(encode) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '0',
        '-1',
        '1001',
        '1e3',
        '2147483648',
        '99999999999999999999',
        'true',
        '',
        '2026-02-30',
        '2026-12-31',
        'null',
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%',
        '%zz',
        '%E0%A4',
        '%00',
        '%C0%AF',
        '%ED%A0%80',
        '%F0%9F%87%B3%F0%9F%87%B4',
        '+',
        '%2B',
      ),
    },
  );
}

function queryFor(target: FuzzTarget): fc.Arbitrary<string> {
  const schema = (target.schema?.querystring ?? {}) as { properties?: Record<string, Record<string, unknown>> };
  const known = Object.entries(schema.properties ?? {});
  const knownPairs = known.map(([name, property]) =>
    fc.option(
      queryValue(property).map((v) => `${name}=${v}`),
      { freq: 2, nil: undefined },
    ),
  );
  const oddPairs = fc.array(
    fc
      .tuple(
        fc.oneof(
          fc.constantFrom('__proto__', 'constructor', 'limit', 'offset', 'a[b]', 'a[]', '%zz', ''),
          fc.string({ maxLength: 6 }).map(encode),
        ),
        queryValue({ type: 'string' }),
      )
      .map(([k, v]) => `${k}=${v}`),
    { maxLength: 3 },
  );
  const generated = fc.tuple(fc.tuple(...knownPairs), oddPairs, fc.boolean()).map(([pairs, odd, repeat]) => {
    const parts = [...pairs.filter((p): p is string => p !== undefined), ...odd];
    if (repeat && parts.length > 0) parts.push(parts[0]!);
    return parts.length === 0 ? '' : `?${parts.join('&')}`;
  });
  return fc.oneof({ weight: 2, arbitrary: fc.constant('') }, { weight: 3, arbitrary: generated });
}

function segmentFor(name: string, context: FuzzContext): fc.Arbitrary<string> {
  const options: fc.Arbitrary<string>[] = [
    fc.string({ minLength: 1, maxLength: 40 }).map(encode),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }).map(encode),
    fc.constantFrom(
      '%',
      '%zz',
      '%00',
      '..',
      '.',
      '%2F',
      '%2e%2e',
      'a'.repeat(201),
      'a'.repeat(200),
      '%ED%A0%80',
      '%C0%AF',
      '0',
      '-1',
      'null',
      'undefined',
      '__proto__',
      'constructor',
    ),
    fc.uuid(),
  ];
  if (context.ids.length > 0)
    options.push(fc.constantFrom(...context.ids).map(encode), fc.constantFrom(...context.ids).map(encode));
  if (name === 'product') options.push(fc.constantFrom(...context.products), fc.constantFrom(...context.products));
  return fc.oneof(...options);
}

function pathFor(target: FuzzTarget, context: FuzzContext): fc.Arbitrary<string> {
  const parts = target.path.split('/').map((part) => {
    if (part === '*')
      return fc.oneof(
        fc.constantFrom(
          'index.html',
          'static/index.html',
          'swagger-ui.css',
          'json',
          'yaml',
          '',
          '../package.json',
          '%2e%2e/%2e%2e/package.json',
        ),
        fc.string({ maxLength: 12 }).map(encode),
      );
    if (part.startsWith(':')) return segmentFor(part.slice(1), context);
    return fc.constant(part);
  });
  return fc.tuple(...parts).map((segments) => segments.join('/'));
}

/** A request for the target, to be signed and sent. */
export function fuzzCase(target: FuzzTarget, context: FuzzContext): fc.Arbitrary<FuzzCase> {
  return fc.record({
    method: fc.constant(target.method),
    url: fc.tuple(pathFor(target, context), queryFor(target)).map(([path, query]) => `${path}${query}`),
    headers: headersFor(target),
    noContentType: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
    body: bodyFor(target, context),
    requestIdSuffix: fc.oneof(
      { weight: 18, arbitrary: fc.constant('') },
      { weight: 1, arbitrary: fc.string({ maxLength: 10 }).map(headerSafe) },
      { weight: 1, arbitrary: fc.constantFrom('x'.repeat(200), 'ø', ' x', '%00') },
    ),
    as: fc.constantFrom<Credentials>('tpp', 'tpp', 'tpp', 'tpp', 'otherTpp', 'aisOnly'),
  });
}

// ---- The answer ----

/** The error body's fields; signatureExplanation only on the sandbox's refused authentications (docs/errors.md). */
const ERROR_FIELDS = new Set(['id', 'system', 'status', 'code', 'message', 'tppMessages', 'signatureExplanation']);

/**
 * What is wrong with the answer to a fuzzed request, or undefined: never a 5xx; an API error has
 * the specification's error body (id, system, status, code, message?) or is the 401 SCA challenge;
 * an error of a page for a browser (the PSU's SCA pages, the sandbox console) is an HTML page.
 */
export function answerProblem(
  target: FuzzTarget,
  request: FuzzCase,
  response: LightMyRequestResponse,
): string | undefined {
  const status = response.statusCode;
  if (status >= 500) return `answered ${status}: ${response.body.slice(0, 300)}`;
  if (status < 400 || request.method === 'HEAD') return undefined;
  const type = String(response.headers['content-type'] ?? '');
  const page = target.path.startsWith('/sca') || target.path.startsWith('/console');
  if (!target.api && page && type.startsWith('text/html')) return undefined;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(response.body) as Record<string, unknown>;
  } catch {
    return `answered ${status} with a body that is not JSON (${type}): ${response.body.slice(0, 200)}`;
  }
  if (
    status === 401 &&
    typeof (body._links as { scaRedirect?: { href?: unknown } } | undefined)?.scaRedirect?.href === 'string'
  )
    return undefined;
  const shaped =
    typeof body.id === 'string' &&
    typeof body.system === 'string' &&
    body.status === status &&
    typeof body.code === 'string' &&
    (body.message === undefined || typeof body.message === 'string') &&
    Object.keys(body).every((key) => ERROR_FIELDS.has(key));
  return shaped ? undefined : `answered ${status} without the error body: ${response.body.slice(0, 300)}`;
}

/** The request in a form one can paste into a report or a test. */
export function describeCase(request: FuzzCase, requestId: string): string {
  const body =
    request.body === undefined
      ? ''
      : Buffer.isBuffer(request.body)
        ? ` body(hex)=${request.body.toString('hex').slice(0, 20_000)}`
        : ` body=${request.body.slice(0, 20_000)}`;
  return `${request.method} ${request.url} as=${request.as} x-request-id=${JSON.stringify(requestId)} headers=${JSON.stringify(request.headers)}${request.noContentType ? ' (no Content-Type)' : ''}${body}`;
}

// ---- Running ----

/** Signs the case as its TPP with a fresh X-Request-ID and sends it to the app. */
export function sendCase(t: TestApp, request: FuzzCase, requestId: string): Promise<LightMyRequestResponse> {
  return t.signed({
    method: request.method,
    url: request.url,
    ...(request.body === undefined ? {} : { body: request.body }),
    headers: request.headers,
    as: t.fixtures[request.as],
    sign: { requestId },
    ...(request.noContentType
      ? {
          tamper: (headers: Record<string, string>) => {
            delete headers['content-type'];
          },
        }
      : {}),
  });
}

/** A fresh X-Request-ID for every request sent: a reused one would be a replay, refused for another reason. */
export function freshRequestId(request: FuzzCase): string {
  return `${randomUUID()}${request.requestIdSuffix}`;
}

/**
 * Resources for the fuzzed paths to reach: payments (with and without their own SCA link), a bulk
 * payment, a basket, a sandbox customer with an account, a transaction, a card account and an agreement,
 * and the SCA link tokens; the default data set's ids come with them.
 */
export async function fuzzContext(t: TestApp): Promise<FuzzContext> {
  const ids: string[] = ['AGR-18129215603'];
  const json = async (response: Promise<LightMyRequestResponse>): Promise<Record<string, any>> => {
    const answer = await response;
    if (answer.statusCode >= 300) throw new Error(`fuzz seed failed: ${answer.statusCode} ${answer.body}`);
    return answer.json() as Record<string, any>;
  };
  const tokenOf = (href: string | undefined) => (href === undefined ? undefined : href.split('/').pop());
  const single = await json(
    createCrossBorder(t, { body: { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[1], currency: 'NOK' } } }),
  );
  const forBasket = await json(
    createCrossBorder(t, {
      body: { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } },
      without: ['PSU-Context'],
    }),
  );
  const bulk = await json(createBulk(t));
  const basket = await json(
    t.signed({
      method: 'POST',
      url: '/v1/signing-baskets',
      body: { paymentIds: [forBasket.paymentId] },
      headers: { 'PSU-ID': PSU_ID, 'PSU-IP-Address': '192.0.2.10', 'TPP-Redirect-URI': 'https://tpp.example/cb' },
    }),
  );
  ids.push(single.paymentId, forBasket.paymentId, bulk.paymentId, basket.basketId);
  for (const href of [
    single._links?.scaRedirect?.href,
    bulk._links?.scaRedirect?.href,
    basket._links?.scaRedirect?.href,
  ]) {
    const token = tokenOf(href);
    if (token !== undefined) ids.push(token);
  }
  const person = await json(
    t.signed({
      method: 'POST',
      url: '/v1/sandbox/customers',
      body: { customerNumber: nextFnr(), name: 'Fuzz Person', type: 'private' },
    }),
  );
  const company = await json(
    t.signed({
      method: 'POST',
      url: '/v1/sandbox/customers',
      body: { customerNumber: nextOrganisationNumber(), name: 'Fuzz AS', type: 'corporate' },
    }),
  );
  const account = await json(
    t.signed({ method: 'POST', url: '/v1/sandbox/accounts', body: sandboxAccountBody(company.customerNumber) }),
  );
  const today = new Date().toISOString().slice(0, 10);
  const transaction = {
    amount: 1500,
    currency: 'NOK',
    valueDate: today,
    bookingDate: today,
    creditorName: 'Fuzz AS',
    creditorAccount: { iban: account.iban },
    debtorName: 'Other',
    debtorAccount: { iban: 'NO6290491105991' },
    bankTransactionCode: 'PMNT',
    remittanceInformationUnstructured: 'fuzz',
    purposeCode: 'SALA',
  };
  const transactions = await json(
    t.signed({ method: 'POST', url: `/v1/sandbox/accounts/${account.id}/transactions`, body: [transaction] }),
  );
  const agreement = await json(
    t.signed({
      method: 'POST',
      url: '/v1/sandbox/agreements',
      body: {
        owner: company.customerNumber,
        name: 'Fuzz',
        engagements: [{ customer: person.customerNumber, account: { iban: account.iban }, roles: ['VIEW'] }],
      },
    }),
  );
  const card = await json(
    t.signed({ method: 'POST', url: '/v1/sandbox/card-accounts', body: cardAccountBody(person.customerNumber) }),
  );
  ids.push(
    person.id,
    company.id,
    account.id,
    agreement.id,
    card.id,
    ...(transactions as unknown as Record<string, any>[]).map((x) => x.transactionId ?? x.id),
  );
  const basketPayments: string[] = [];
  for (let i = 0; i < 3; i++)
    basketPayments.push((await json(createCrossBorder(t, { without: ['PSU-Context'] }))).paymentId);
  ids.push(...basketPayments);
  const examples = new Map<string, () => unknown>([
    ['/v1/payments/norwegian-cross-border-credit-transfers', () => crossBorderBody()],
    ['/v1/bulk-payments/norwegian-domestic-credit-transfers', () => bulkBody(3)],
    [
      '/v1/periodic-payments/norwegian-domestic-credit-transfers',
      () => periodicBody({ startDate: tomorrowInNorway() }),
    ],
    ['/v1/signing-baskets', () => ({ paymentIds: basketPayments.slice(0, 2) })],
    ['/v1/sandbox/customers', () => ({ customerNumber: nextFnr(), name: 'Fuzz Person', type: 'private' })],
    ['/v1/sandbox/accounts', () => sandboxAccountBody(company.customerNumber)],
    ['/v1/sandbox/accounts/:mockAccountId/transactions', () => [transaction]],
    [
      '/v1/sandbox/agreements',
      () => ({
        owner: company.customerNumber,
        name: 'Fuzz',
        engagements: [
          { customer: person.customerNumber, account: { iban: account.iban }, roles: ['VIEW', 'REGISTER'] },
        ],
      }),
    ],
    ['/v1/sandbox/card-accounts', () => cardAccountBody(person.customerNumber)],
    ['/v1/sandbox/card-accounts/:mockCardAccountId/transactions', () => [cardTransaction(today)]],
    ['/v1/sandbox/clock', () => ({ advanceSeconds: 60 })],
    ['/v1/sandbox/scenarios', () => ({ kind: 'bank-error', operationId: 'getAccountList', times: 'unlimited' })],
    ['/v1/sandbox/customers/:customerId', () => ({ paymentLimit: '1000.00' })],
    ['/v1/sandbox/accounts/:mockAccountId', () => ({ status: 'blocked' })],
  ]);
  return {
    examples,
    schemas: schemaMap(t.app.getSchemas() as Record<string, unknown>),
    ids: ids.filter((id): id is string => typeof id === 'string'),
    products: [
      'norwegian-cross-border-credit-transfers',
      'norwegian-domestic-credit-transfers',
      'sepa-credit-transfers',
      'instant-sepa-credit-transfers',
      'x',
      '%zz',
      '',
    ],
  };
}

let cardNumber = 0;

function cardAccountBody(customerNumber: string): Record<string, unknown> {
  return {
    customerNumber,
    maskedPan: `525412******${String(1000 + (cardNumber++ % 9000))}`,
    name: 'Fuzz',
    product: 'Basic Credit',
    currency: 'NOK',
    creditLimit: { currency: 'NOK', amount: 1000 },
    balances: [
      {
        balanceAmount: { currency: 'NOK', amount: 0 },
        balanceType: 'EXPECTED',
        referenceDate: '2020-01-01',
        lastChangeDateTime: '2019-10-14T13:55:45.494Z',
        lastCommittedTransaction: 'x',
      },
    ],
    cardId: '1',
    cardIdVNo: '2',
    accountNumber: '123412341234',
    expiry: '2028-01-01',
    status: 'ENABLED',
  };
}

function cardTransaction(today: string): Record<string, unknown> {
  return {
    cardTransactionId: `fuzz-${cardNumber++}`,
    terminalId: 'tid',
    bookingDate: today,
    transactionDate: today,
    transactionAmount: { currency: 'NOK', amount: 100 },
    originalAmount: { currency: 'SEK', amount: 95.5 },
    merchantCategoryCode: '5411',
    markupFee: { currency: 'NOK', amount: 10 },
    markupFeePercentage: '20',
  };
}

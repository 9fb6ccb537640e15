import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { sourceFiles } from '../support/source-files.js';

/**
 * The request's facts (TPP, X-Request-ID, retry, body digest, PSU, SCA preferences, x-accept-fix,
 * language) are made once by the hooks (src/http/hooks/request-context.ts) and handed to routes and
 * services as a value. This reads the source: a route or service that reads those headers itself,
 * or the request's decorations, or asserts the TPP with `!`, fails here with its file and line.
 */
const FOLDERS = { route: 'src/http/routes', service: 'src/services' } as const;

/** The headers the context holds, as Node names them (lower case) in `request.headers`. */
const CONTEXT_HEADERS = [
  'x-request-id',
  'psu-id',
  'x-psu-identity',
  'psu-corporate-id',
  'psu-context',
  'tpp-redirect-uri',
  'tpp-session-id',
  'tpp-redirect-preferred',
  'x-psu-authmethod-preferred',
  'psu-ip-address',
  'x-accept-fix',
];

/**
 * A rule of where the facts come from, for routes and services unless `of` says one of them: a
 * service's own `request` is the context itself, and a route imports Fastify.
 */
interface Rule {
  why: string;
  pattern: RegExp;
  of?: 'route' | 'service';
}

const RULES: Rule[] = [
  { why: 'reads request headers (take the RequestContext)', pattern: /\b(request|req)\.(raw\.)?headers\b/ },
  { why: 'takes the headers of the request apart', pattern: /\{[^}]*\bheaders\b[^}]*\}\s*=\s*(request|req)\b/ },
  {
    why: 'names a header the RequestContext holds',
    pattern: new RegExp(`['"\`](${CONTEXT_HEADERS.join('|')})['"\`]`),
  },
  { why: "asserts the request's TPP with !", pattern: /\.tpp!/ },
  {
    why: "reads a fact from the request's decorations (take the RequestContext)",
    pattern: /\brequest\.(tpp|retry|bodySha256|authentication|requestContext|locale)\b/,
    of: 'route',
  },
  {
    why: 'a service sees no HTTP request (take the RequestContext)',
    pattern: /from '(fastify|[./]*http\/[^']*)'/,
    of: 'service',
  },
];

/** A redirect's query parameters carry two of the names (psu-id, tpp-session-id) without being headers. */
const QUERY_PARAMETER = /searchParams\.(set|get|append|has|delete)\(\s*['"`][^'"`]*['"`]/g;

/** Every rule a line of source breaks (of a route or of a service); comments are prose and are not read. */
function brokenRules(line: string, of: 'route' | 'service'): string[] {
  const code = line.trim();
  if (code.startsWith('//') || code.startsWith('*') || code.startsWith('/*')) return [];
  const withoutQueries = code.replace(QUERY_PARAMETER, '');
  return RULES.filter((rule) => (rule.of ?? of) === of && rule.pattern.test(withoutQueries)).map((rule) => rule.why);
}

describe('request facts come from the request context', () => {
  it('no route or service reads the identity headers, the request decorations, or request.tpp!', () => {
    const breaches: string[] = [];
    for (const of of ['route', 'service'] as const) {
      const files = sourceFiles(FOLDERS[of]);
      assert.ok(files.length > 10, `expected the source of the ${of}s, found ${files.length} files`);
      for (const file of files) {
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, index) => {
            for (const why of brokenRules(line, of)) breaches.push(`${file}:${index + 1}: ${why}: ${line.trim()}`);
          });
      }
    }
    assert.deepEqual(breaches, [], `\n${breaches.join('\n')}`);
  });

  it('would find each way of reading a fact past the context', () => {
    for (const of of ['route', 'service'] as const) {
      for (const line of [
        "const id = request.headers['x-request-id'] as string;",
        'const { headers } = request;',
        "const psu = headers['psu-id'];",
        "const hash = hashNationalId(key, raw['x-psu-identity']);",
        'payments.read(request.tpp!, service, product, id);',
        "const fix = value('x-accept-fix');",
      ])
        assert.notDeepEqual(brokenRules(line, of), [], `${of}: ${line}`);
      for (const line of [
        "url.searchParams.set('psu-id', psuId);",
        "path: 'header:PSU-ID',",
        "// routes never read request.headers['psu-id']",
        'const { tpp } = contextOf(request);',
      ])
        assert.deepEqual(brokenRules(line, of), [], `${of}: ${line}`);
    }
    assert.notDeepEqual(brokenRules('const retry = request.retry;', 'route'), []);
    assert.notDeepEqual(brokenRules("import type { FastifyRequest } from 'fastify';", 'service'), []);
    assert.notDeepEqual(brokenRules("import { contextOf } from '../http/hooks/request-context.js';", 'service'), []);
    assert.deepEqual(brokenRules("import type { FastifyInstance } from 'fastify';", 'route'), []);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { ValidateFunction } from 'ajv';
import type { RouteOptions } from 'fastify';
import { isValidBBAN, isValidIBAN } from 'ibantools';
import { isValidKid } from '../../src/domain/kid.js';
import { createAjv } from '../../src/http/schema-compiler/ajv-setup.js';
import { createValidatorCompiler } from '../../src/http/schema-compiler/validator-compiler.js';
import { ERROR_EXAMPLES } from '../../src/http/schemas/examples/error-examples.js';
import { OPERATION_EXAMPLES } from '../../src/http/schemas/examples/operation-examples.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * The examples of the OpenAPI document (src/http/schemas/examples/) against the operations they show:
 * every operation has one; each request passes the operation's own validation as the server runs it;
 * each answer matches its response schema and comes through the server's serializer unchanged (no
 * field the schema lacks, no value of another type); every account number, IBAN and KID in them
 * passes its check digits; and the document carries them where tools look.
 */

interface MediaType {
  examples?: Record<string, { summary?: string; value?: unknown; $ref?: string }>;
}
interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { examples?: Record<string, { summary: string; value: unknown }> };
};

let t: TestApp;
let document: Document;
/** The documented routes as added, by method and OpenAPI path. */
const routes = new Map<string, RouteOptions>();

before(async () => {
  t = await startTestApp();
  document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as Document;
  for (const route of t.routes) {
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    for (const method of [route.method].flat()) routes.set(`${String(method)} ${path}`, route);
  }
});
after(() => t.close());

function operations(): { method: string; path: string; operation: Operation; route: RouteOptions }[] {
  return Object.entries(document.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => {
      const route = routes.get(`${method.toUpperCase()} ${path}`);
      assert.ok(route, `${method} ${path} has a route`);
      return { method: method.toUpperCase(), path, operation, route };
    }),
  );
}

type ResponseSchemas = Record<string, object>;
const responseSchemas = (route: RouteOptions) => (route.schema?.response ?? {}) as ResponseSchemas;

const serializers = new Map<string, (value: unknown) => string>();
/** The server's serializer of this response (fast-json-stringify over the app's shared schemas, as Fastify builds it). */
function serializerOf(route: RouteOptions, status: string): (value: unknown) => string {
  const key = `${String(route.method)} ${route.url} ${status}`;
  let serialize = serializers.get(key);
  if (serialize === undefined) {
    const compile = SerializerSelector()(t.app.getSchemas(), undefined);
    serialize = compile({
      schema: responseSchemas(route)[status]!,
      method: String(route.method),
      url: route.url,
      httpStatus: status,
    }) as (value: unknown) => string;
    serializers.set(key, serialize);
  }
  return serialize;
}

let ajv: ReturnType<typeof createAjv> | undefined;
const validators = new Map<string, ValidateFunction>();
/** Ajv as the server makes it (ajv-setup.ts), with the app's shared schemas, checking every schema; each schema compiled once. */
function answerValidator(answerSchema: object): ValidateFunction {
  // A response's `headers` are its answer headers for the OpenAPI document (@fastify/swagger), not part of the body.
  const { headers: _answerHeaders, ...schema } = answerSchema as Record<string, unknown>;
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (validate === undefined) {
    if (ajv === undefined) {
      ajv = createAjv(false, true);
      for (const shared of Object.values(t.app.getSchemas())) ajv.addSchema(shared as object);
    }
    validate = ajv.compile(schema);
    validators.set(key, validate);
  }
  return validate;
}

/** An answer example must be valid by its schema and be exactly what the server's serializer writes of it. */
function checkAnswer(label: string, route: RouteOptions, status: string, value: unknown): void {
  const schema = responseSchemas(route)[status];
  assert.ok(schema, `${label}: ${status} is a documented answer`);
  const validate = answerValidator(schema);
  assert.equal(validate(value), true, `${label}: ${JSON.stringify(validate.errors)}`);
  assert.deepEqual(JSON.parse(serializerOf(route, status)(value)), value, `${label}: as the server writes it`);
}

describe('the examples of the OpenAPI document', () => {
  it('give every operation an example, and name no operation the document lacks', () => {
    const ids = new Set(operations().map((o) => o.operation.operationId));
    const lacking = [...ids].filter((id) => OPERATION_EXAMPLES[id] === undefined);
    assert.deepEqual(lacking, [], 'operations without an example (add one in src/http/schemas/examples/)');
    assert.deepEqual(
      Object.keys(OPERATION_EXAMPLES).filter((id) => !ids.has(id)),
      [],
      'examples of no operation',
    );
  });

  it('show a request body exactly where the operation takes one, and a documented success answer', () => {
    for (const { method, path, operation, route } of operations()) {
      const example = OPERATION_EXAMPLES[operation.operationId]!;
      const label = `${method} ${path}`;
      assert.equal(example.request !== undefined, route.schema?.body !== undefined, `${label}: a request example`);
      const { status, body } = example.answer;
      assert.ok(status >= 200 && status < 300, `${label}: the answer is a success`);
      const documented = operation.responses[String(status)];
      assert.ok(documented, `${label}: answers ${status}`);
      assert.equal(
        body !== undefined,
        documented.content !== undefined,
        `${label}: an answer body where ${status} has one`,
      );
    }
  });

  it('have requests that pass the operation’s validation as the server runs it', async () => {
    const compile = createValidatorCompiler(Object.values(t.app.getSchemas()) as object[], { checkSchemas: true });
    for (const { method, path, operation, route } of operations()) {
      const request = OPERATION_EXAMPLES[operation.operationId]!.request;
      if (request === undefined) continue;
      const validate = compile({ body: route.schema!.body });
      const problems = validate.now({ headers: {}, params: {}, query: {}, body: request });
      assert.deepEqual(problems, [], `${method} ${path}`);
    }
  });

  it('have answers that match their response schema and come through the server’s serializer unchanged', () => {
    for (const { method, path, operation, route } of operations()) {
      const { status, body } = OPERATION_EXAMPLES[operation.operationId]!.answer;
      if (body !== undefined) checkAnswer(`${method} ${path}`, route, String(status), body);
    }
  });

  it('have error answers that match the schema of every response they are listed on', () => {
    let listed = 0;
    for (const { method, path, operation, route } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const example of Object.values(response.content?.['application/json']?.examples ?? {})) {
          if (example.$ref === undefined) continue;
          const name = example.$ref.replace('#/components/examples/', '');
          const error = ERROR_EXAMPLES[name];
          assert.ok(error, `${method} ${path} ${status}: ${example.$ref} names an error example`);
          assert.equal(String(error.status), status, `${method} ${path}: ${name} is listed on its own status`);
          checkAnswer(`${method} ${path} ${status} ${name}`, route, status, error.value);
          listed += 1;
        }
      }
    }
    assert.ok(listed > operations().length, 'every operation lists error examples');
    for (const { operation } of operations()) {
      const statuses = Object.entries(operation.responses)
        .filter(([status, r]) => Number(status) >= 400 && r.content?.['application/json']?.examples !== undefined)
        .map(([status]) => status);
      assert.ok(statuses.includes('400') || statuses.includes('401'), `${operation.operationId}: its main errors`);
    }
  });

  it('carry Norwegian account numbers, IBANs and KIDs whose check digits hold, and amounts as decimal text', () => {
    const bad: string[] = [];
    const visit = (value: unknown, where: string): void => {
      if (Array.isArray(value)) return value.forEach((entry, i) => visit(entry, `${where}[${i}]`));
      if (typeof value !== 'object' || value === null) return;
      const record = value as Record<string, unknown>;
      const { bban, iban, reference, referenceType, amount, currency } = record;
      if (typeof bban === 'string' && /^\d{11}$/.test(bban) && !isValidBBAN(bban, 'NO'))
        bad.push(`${where}.bban ${bban}`);
      if (typeof iban === 'string' && !isValidIBAN(iban)) bad.push(`${where}.iban ${iban}`);
      if (typeof iban === 'string' && typeof bban === 'string' && iban.startsWith('NO') && iban.slice(4) !== bban)
        bad.push(`${where}: iban ${iban} is not bban ${bban}`);
      if (referenceType === 'SCOR' && (typeof reference !== 'string' || !isValidKid(reference)))
        bad.push(`${where}.reference ${String(reference)}`);
      if (typeof amount === 'string' && typeof currency === 'string' && !/^-?\d+\.\d{2}$/.test(amount))
        bad.push(`${where}.amount ${amount}`);
      for (const [key, entry] of Object.entries(record)) visit(entry, `${where}.${key}`);
    };
    for (const [id, example] of Object.entries(OPERATION_EXAMPLES)) {
      visit(example.request, `${id} request`);
      visit(example.answer.body, `${id} answer`);
    }
    assert.deepEqual(bad, []);
  });

  it('are in the document: each operation’s request and answer, and the error examples it refers to', () => {
    for (const { method, path, operation } of operations()) {
      const example = OPERATION_EXAMPLES[operation.operationId]!;
      const request = operation.requestBody?.content['application/json']?.examples?.request;
      assert.deepEqual(request?.value, example.request, `${method} ${path} request`);
      const answer = operation.responses[String(example.answer.status)]?.content?.['application/json']?.examples;
      assert.deepEqual(answer?.answer?.value, example.answer.body, `${method} ${path} answer`);
      if (example.request !== undefined) assert.equal(request?.summary, example.summary);
    }
    const referred = new Set(
      JSON.stringify(document.paths)
        .match(/#\/components\/examples\/\w+/g)!
        .map((ref) => ref.slice('#/components/examples/'.length)),
    );
    assert.deepEqual(Object.keys(document.components.examples ?? {}).sort(), [...referred].sort(), 'no unused example');
  });

  it('leave the sandbox’s examples out of the production document', async () => {
    const production = await startTestApp({ mode: 'production' });
    try {
      const productionDocument = (await production.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
      const examples: unknown[] = [];
      const collect = (value: unknown): void => {
        if (typeof value !== 'object' || value === null) return;
        for (const [key, entry] of Object.entries(value)) {
          if (key === 'examples') examples.push(entry);
          else collect(entry);
        }
      };
      collect(productionDocument);
      const text = JSON.stringify(examples);
      assert.ok(text.includes('"request":{"summary"'), 'the API’s own examples are there');
      assert.ok(!text.includes('/v1/sandbox/'), 'no example of a sandbox operation');
      const names = Object.keys((productionDocument as Document).components.examples ?? {});
      assert.ok(names.includes('DebtorAccountInvalid') && !names.includes('SandboxResourceUnknown'), names.join());
    } finally {
      await production.close();
    }
  });
});

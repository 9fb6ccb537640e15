import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('documentation', () => {
  it('serves a valid OpenAPI 3 document at /v1/openapi.json without a signature', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(response.statusCode, 200);
    const document = response.json();
    assert.equal(document.openapi, '3.0.3');
    const result = await new Validator().validate(document);
    assert.equal(result.valid, true, JSON.stringify(result.errors));
    assert.ok(document.components.schemas.Error, 'the error body is a named schema');
    assert.deepEqual(document.components.schemas.Error.required, ['id', 'system', 'status', 'code']);
  });

  it('serves a browsable reference at /docs with its assets from this server', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /text\/html/);
    const script = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    assert.equal(script.statusCode, 200);
    const initializer = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    assert.equal(initializer.statusCode, 200);
    assert.match(initializer.body, /docs\/json|\.\/json/);
    const json = await t.app.inject({ method: 'GET', url: '/docs/json' });
    assert.equal(json.statusCode, 200);
    const shown = json.json().info as { title: string; version: string; description: string };
    const served = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json().info as typeof shown;
    assert.deepEqual(
      { ...shown, description: undefined },
      { ...served, description: undefined },
      "the reference shows this server's document",
    );
    // In the sandbox the page adds how its "Try it out" signs (test/browser/docs-try-it.test.ts).
    assert.ok(shown.description.startsWith(served.description));
    assert.match(shown.description, /signs every request in the browser/);
    const bare = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.ok([200, 302].includes(bare.statusCode), `GET /docs answered ${bare.statusCode}`);
  });
});

describe('health', () => {
  it('answers 200 with the database up', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/health' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().database.status, 'up');
    assert.equal(response.headers['cache-control'], 'no-store');
  });

  it('answers 503 and says so when the database cannot be reached', async () => {
    const unreachable = PostgresStore.open('postgres://postgres@127.0.0.1:1/none');
    const down = await startTestApp({ store: unreachable, seed: false });
    try {
      const response = await down.app.inject({ method: 'GET', url: '/health' });
      assert.equal(response.statusCode, 503);
      const body = response.json();
      assert.equal(body.status, 'unavailable');
      assert.equal(body.database.kind, 'postgres');
      assert.equal(body.database.status, 'down');
      assert.equal(typeof body.database.error, 'string');
    } finally {
      await down.close();
      await unreachable.close();
    }
  });
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { PLATFORM_API_VERSION } from '../../src/domain/platform-api.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

let t: TestApp;
before(async () => {
  t = await startTestApp({ seed: false });
});
after(async () => t.close());

/**
 * The server's version and the version of the platform's API it follows are two things (CHANGELOG.md):
 * /health gives both, the first as package.json has it, the second as the OpenAPI document does.
 */
describe('GET /health and the versions', () => {
  it("reports the server's version from package.json and the platform API version apart", async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const body = (await t.app.inject({ method: 'GET', url: '/health' })).json() as {
      version: { server: string; api: string };
    };
    assert.deepEqual(body.version, { server: version, api: '1.21.20' });
    assert.equal(PLATFORM_API_VERSION, '1.21.20');
    const document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      info: { version: string };
    };
    assert.equal(document.info.version, body.version.api);
  });
});

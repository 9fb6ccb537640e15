import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { routeOptionsOf } from '../../src/http/route-options.js';
import '../../src/http/fastify-types.js';

/**
 * routeOptionsOf reads Fastify's route options once per request (docs/decisions/0361): Fastify's own
 * getter makes a new object on every read, which the hooks of one request would otherwise make six times.
 */
describe('routeOptionsOf', () => {
  it('gives the route options of the request, the same object on every read, as Fastify does not', async () => {
    const app = Fastify();
    app.decorateRequest('routeOptionsRead', null);
    const seen: unknown[] = [];
    app.addHook('onRequest', (request, _reply, done) => {
      seen.push(request.routeOptions === request.routeOptions, routeOptionsOf(request) === routeOptionsOf(request));
      done();
    });
    app.get('/a', { config: { bulk: true } }, (request) => ({
      bulk: routeOptionsOf(request).config.bulk,
      url: routeOptionsOf(request).url,
    }));
    app.get('/b', (request) => ({ bulk: routeOptionsOf(request).config.bulk ?? null }));
    const a = await app.inject({ method: 'GET', url: '/a' });
    const b = await app.inject({ method: 'GET', url: '/b' });
    assert.deepEqual(a.json(), { bulk: true, url: '/a' });
    // Each request its own: the second is not answered with the first one's options.
    assert.deepEqual(b.json(), { bulk: null });
    assert.deepEqual(seen, [false, true, false, true]);
    await app.close();
  });
});

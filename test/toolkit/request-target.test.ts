import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestTargetOf } from '../../src/toolkit/request-target.js';

/**
 * What the toolkit asks the bank for, and what a signature's (request-target) covers
 * (src/toolkit/request-target.ts): the path as written, so that `tpp call` and `tpp proxy` ask for
 * the resource the caller named.
 */
describe('requestTargetOf', () => {
  it('keeps dot segments, encoded or not, which URL would resolve to another resource', () => {
    assert.equal(
      requestTargetOf('http://127.0.0.1:8080/v1/payments/x/p/authorisations/%2e%2e'),
      '/v1/payments/x/p/authorisations/%2e%2e',
    );
    assert.equal(requestTargetOf('/v1/a/../b?q=1'), '/v1/a/../b?q=1');
    assert.equal(requestTargetOf('https://bank.example/api-sandbox/v1/./x'), '/api-sandbox/v1/./x');
  });

  it('leaves out a fragment, which no request sends', () => {
    assert.equal(requestTargetOf('http://127.0.0.1:8080/v1/x?y=1#top'), '/v1/x?y=1');
  });

  it('takes a path with characters a request line cannot hold as URL encodes it', () => {
    assert.equal(requestTargetOf('http://127.0.0.1:8080/v1/a b'), '/v1/a%20b');
    assert.equal(requestTargetOf('/v1/blåbær'), '/v1/bl%C3%A5b%C3%A6r');
  });

  it('gives "/" for an address without a path', () => {
    assert.equal(requestTargetOf('http://127.0.0.1:8080'), '/');
    assert.equal(requestTargetOf('http://127.0.0.1:8080?x=1'), '/?x=1');
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isHttpAddress } from '../../src/domain/redirect-uri.js';

describe('isHttpAddress (TPP-Redirect-URI)', () => {
  it('takes absolute http and https addresses, with their query and fragment', () => {
    for (const value of [
      'https://tpp.example/callback?state=abc',
      'http://127.0.0.1:8080/',
      'https://[::1]:443/x',
      'HTTPS://TPP.EXAMPLE/#done',
    ]) {
      assert.equal(isHttpAddress(value), true, value);
    }
  });

  it('refuses what the WHATWG URL parser refuses, other schemes and white space', () => {
    for (const value of [
      'http://a:99999/',
      'http://[',
      'http://%zz/',
      'http://',
      'https://a b/',
      'javascript://x',
      'ftp://tpp.example/',
      'tpp.example/cb',
      '',
    ]) {
      assert.equal(isHttpAddress(value), false, value);
    }
  });
});

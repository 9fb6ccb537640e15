import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseHttpDate } from '../../src/security/http-date.js';

const NOV_6_1994 = Date.UTC(1994, 10, 6, 8, 49, 37);
const NOV_16_2026 = Date.UTC(2026, 10, 16, 23, 5, 9);

describe('parseHttpDate', () => {
  it('reads an IMF-fixdate', () => {
    assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), NOV_6_1994);
    assert.equal(parseHttpDate('Mon, 16 Nov 2026 23:05:09 GMT'), NOV_16_2026);
  });

  it('reads an IMF-fixdate with whitespace around it', () => {
    assert.equal(parseHttpDate('  Sun, 06 Nov 1994 08:49:37 GMT \t'), NOV_6_1994);
  });

  it('reads the obsolete RFC 850 form', () => {
    assert.equal(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT'), NOV_6_1994);
  });

  it('reads the asctime form with a one-digit day padded with a space', () => {
    assert.equal(parseHttpDate('Sun Nov  6 08:49:37 1994'), NOV_6_1994);
  });

  it('reads the asctime form with a two-digit day', () => {
    assert.equal(parseHttpDate('Mon Nov 16 23:05:09 2026'), NOV_16_2026);
  });

  it('reads the first and last second of a year', () => {
    assert.equal(parseHttpDate('Thu, 01 Jan 2026 00:00:00 GMT'), Date.UTC(2026, 0, 1, 0, 0, 0));
    assert.equal(parseHttpDate('Thu, 31 Dec 2026 23:59:59 GMT'), Date.UTC(2026, 11, 31, 23, 59, 59));
  });

  for (const text of ['1994-11-06T08:49:37Z', '1994-11-06T08:49:37.000Z', '1994-11-06', '784111777000']) {
    it(`returns undefined for the ISO 8601 or numeric text '${text}'`, () => {
      assert.equal(parseHttpDate(text), undefined);
    });
  }

  for (const text of [
    'Sun, 06 Nov 1994 08:49:37',
    'Sun, 06 Nov 1994 08:49:37 UTC',
    'Sun, 06 Nov 1994 08:49:37 +0000',
    'Sun, 06 Nov 1994 09:49:37 CET',
    'Sunday, 06-Nov-94 08:49:37',
    'Sun Nov  6 08:49:37 1994 GMT',
  ]) {
    it(`returns undefined for a date without a GMT zone in the form HTTP requires: '${text}'`, () => {
      assert.equal(parseHttpDate(text), undefined);
    });
  }

  for (const text of [
    '',
    '   ',
    'yesterday',
    'Sun, 6 Nov 1994 08:49:37 GMT',
    'Sun, 06 November 1994 08:49:37 GMT',
    'Sunday, 06 Nov 1994 08:49:37 GMT',
    'Sun, 06 Nov 94 08:49:37 GMT',
    'Sun, 06 Nov 1994 8:49:37 GMT',
    'Xyz, 06 Nov 1994 08:49:37 GMT',
    'Sun, 32 Nov 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 25:49:37 GMT',
    'Sun, 06 Nov 1994 08:49:37 GMT extra',
  ]) {
    it(`returns undefined for the malformed or empty text '${text}'`, () => {
      assert.equal(parseHttpDate(text), undefined);
    });
  }

  it('refuses a date that does not exist rather than rolling it over', () => {
    assert.equal(parseHttpDate('Sun, 31 Feb 2024 08:49:37 GMT'), undefined);
    assert.equal(parseHttpDate('Sun, 06 Nov 1994 24:00:00 GMT'), undefined);
  });

  it('reads a two-digit RFC 850 year as the past century when it would be more than 50 years ahead', () => {
    const now = Date.UTC(2026, 10, 21);
    assert.equal(parseHttpDate('Thursday, 06-Nov-70 08:49:37 GMT', now), Date.UTC(2070, 10, 6, 8, 49, 37));
    assert.equal(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT', now), Date.UTC(1994, 10, 6, 8, 49, 37));
  });
});

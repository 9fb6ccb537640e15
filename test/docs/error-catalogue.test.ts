import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ERROR_CATALOGUE, tppMessageCodeOf } from '../../src/domain/error-catalogue.js';

describe('docs/errors.md', () => {
  const text = readFileSync('docs/errors.md', 'utf8');
  const rows = new Map([...text.matchAll(/^\| ([A-Z_]+) \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]));

  it('lists every code the server can answer, with the status the server uses', () => {
    for (const [code, { status }] of Object.entries(ERROR_CATALOGUE)) {
      assert.equal(rows.get(code), status, `docs/errors.md has no row '| ${code} | ${status} |'`);
    }
  });

  it('gives for every code the TppMessage code its tppMessages carry', () => {
    const published = new Map(
      [...text.matchAll(/^\| ([A-Z_]+) \| \d{3} \| ([A-Z_]+) \|/gm)].map((m) => [m[1]!, m[2]!]),
    );
    for (const code of Object.keys(ERROR_CATALOGUE)) {
      assert.equal(
        published.get(code),
        tppMessageCodeOf(code),
        `docs/errors.md gives ${code} the TppMessage code ${published.get(code)}; the server uses ${tppMessageCodeOf(code)}`,
      );
    }
  });

  it('lists no code the server does not have', () => {
    for (const code of rows.keys())
      assert.ok(Object.hasOwn(ERROR_CATALOGUE, code), `${code} is documented but not in the catalogue`);
  });
});

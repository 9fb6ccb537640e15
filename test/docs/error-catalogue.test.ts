import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ERROR_CATALOGUE, tppMessageCodeOf } from '../../src/domain/error-catalogue.js';
import { SIGNATURE_MISTAKES } from '../../src/security/signature-mistakes.js';

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

  it("names every mistake the sandbox's signature explanation can give, and no other", () => {
    const start = text.indexOf('\n## Why was my signature refused?\n');
    assert.notEqual(start, -1, "docs/errors.md has no section '## Why was my signature refused?'");
    const end = text.indexOf('\n## ', start + 1);
    const section = text.slice(start, end === -1 ? undefined : end);
    const named = [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1]!);
    assert.deepEqual(named.sort(), Object.keys(SIGNATURE_MISTAKES).sort());
  });
});

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

/**
 * docs/rules.md maps each rule of the specification to the code that enforces it and a test that
 * proves it. This keeps the map honest: every named source file exists, and every named test file
 * holds the quoted test text.
 */
interface Row {
  id: string;
  enforcedIn: string;
  provedBy: string;
}

const rows: Row[] = [
  ...readFileSync('docs/rules.md', 'utf8').matchAll(/^\| ([A-Z0-9]+-\d+) \| [^|]+ \| ([^|]*) \| ([^|]*) \|$/gm),
].map((m) => ({ id: m[1]!, enforcedIn: m[2]!.trim(), provedBy: m[3]!.trim() }));

describe('docs/rules.md', () => {
  it('has rules for every part of the specification', () => {
    const prefixes = new Set(rows.map((r) => r.id.split('-')[0]));
    for (const part of ['F', 'H', 'E2', 'E3', 'O', 'A', 'AI', 'X', 'L', 'S', 'V'])
      assert.ok(prefixes.has(part), `no rules of part ${part}`);
    assert.equal(new Set(rows.map((r) => r.id)).size, rows.length, 'rule ids are unique');
  });

  for (const row of rows) {
    if (row.enforcedIn.startsWith('**open**') || row.enforcedIn.startsWith('not in this interface')) continue;
    it(`${row.id}: names source that exists and a test that exists`, () => {
      const sources = [...row.enforcedIn.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      assert.ok(sources.length > 0, `${row.id} names no source file`);
      for (const source of sources) assert.ok(existsSync(source), `${row.id}: ${source} does not exist`);
      const test = /^`([^`]+)` "(.+)"$/.exec(row.provedBy);
      assert.ok(test, `${row.id}: 'Proved by' must be \`test file\` "test text", got: ${row.provedBy}`);
      assert.ok(existsSync(test[1]!), `${row.id}: ${test[1]} does not exist`);
      assert.ok(
        readFileSync(test[1]!, 'utf8').includes(test[2]!),
        `${row.id}: ${test[1]} has no test with the text "${test[2]}"`,
      );
    });
  }
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { CONFIG_VARIABLES } from '../../src/config/config.js';
import { migrations } from '../../src/store/migrations/index.js';

/**
 * CHANGELOG.md says per version what an operator must do. The current version (package.json) has an
 * entry, and it names every migration this server runs and every setting it reads, so that one added
 * without a word to the operator fails here.
 */
describe('CHANGELOG.md', () => {
  const text = readFileSync('CHANGELOG.md', 'utf8');
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  const start = text.indexOf(`\n## ${version}\n`);
  const next = text.indexOf('\n## ', start + 1);
  const entry = start === -1 ? '' : text.slice(start, next === -1 ? undefined : next);

  it(`has an entry for the current version, ${version}`, () => {
    assert.notEqual(start, -1, `CHANGELOG.md has no '## ${version}' heading`);
  });

  it('names in that entry every migration, in a row of its own, and marks those that change stored data', () => {
    for (const name of Object.keys(migrations))
      assert.match(entry, new RegExp(`^\\| \`${name}\` \\|`, 'm'), `the ${version} entry lacks migration ${name}`);
    assert.match(entry, /\*\*Changes stored data\*\*/);
  });

  it('names in that entry every setting the server reads', () => {
    for (const name of Object.keys(CONFIG_VARIABLES))
      assert.ok(entry.includes(`\`${name}\``), `the ${version} entry lacks the setting ${name}`);
  });
});

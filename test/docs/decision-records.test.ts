import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

/**
 * docs/decisions/ holds one record per decision, numbered, and docs/decisions.md is their index.
 * Code and docs cite a record by its number, which a reworded title does not break. This keeps the
 * numbering, the records' sections, the index and every citation honest, and keeps citations of the
 * old single file by title from coming back.
 */
const DIR = 'docs/decisions';
const NAME = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
const files = readdirSync(DIR).sort();

function textFiles(path: string): string[] {
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return /\.(ts|mjs|js|md|env|sh|json|yaml|yml)$/.test(path) ? [path] : [];
  return readdirSync(path).flatMap((name) => (name === 'node_modules' ? [] : textFiles(join(path, name))));
}

describe('docs/decisions/ and its index', () => {
  it('numbers every record uniquely and consecutively from 0001, in a file named NNNN-kebab-case-slug.md', () => {
    assert.ok(files.length > 0, `${DIR} is empty`);
    files.forEach((file, i) => {
      const match = NAME.exec(file);
      assert.ok(match, `${file}: not NNNN-kebab-case-slug.md`);
      assert.equal(Number(match[1]), i + 1, `${file}: expected number ${String(i + 1).padStart(4, '0')}`);
    });
  });

  it('gives every record its number and title, then Context, Decision and Consequences, none empty', () => {
    for (const file of files) {
      const text = readFileSync(join(DIR, file), 'utf8');
      const number = file.slice(0, 4);
      assert.match(text, new RegExp(`^# ${number}\\. \\S`), `${file}: the first line is not "# ${number}. Title"`);
      const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
      assert.deepEqual(headings, ['Context', 'Decision', 'Consequences'], `${file}: sections`);
      for (const section of text.split(/^## .+$/m).slice(1))
        assert.ok(section.trim().length > 0, `${file}: a section is empty`);
    }
  });

  it('links from a record only to records that exist', () => {
    for (const file of files) {
      const text = readFileSync(join(DIR, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\((\d{4}-[^)]+\.md)\)/g))
        assert.ok(files.includes(target!), `${file} links to ${target}, which does not exist`);
    }
  });

  it('lists every record once in docs/decisions.md, under its number', () => {
    const index = readFileSync('docs/decisions.md', 'utf8');
    const listed = [...index.matchAll(/^- \[(\d{4})\]\(decisions\/([^)]+)\)/gm)].map((m) => ({
      number: m[1]!,
      file: m[2]!,
    }));
    for (const { number, file } of listed) assert.equal(file.slice(0, 4), number, `index: ${number} links to ${file}`);
    assert.deepEqual(
      listed.map((l) => l.file),
      files,
      'the index lists each record once, in order',
    );
  });

  it('cites from src/, scripts/, bench/, test/, docs/ and README.md only records that exist', () => {
    const numbers = new Set(files.map((f) => f.slice(0, 4)));
    for (const path of ['src', 'scripts', 'bench', 'test', 'docs', 'README.md'].flatMap(textFiles)) {
      for (const [, number] of readFileSync(path, 'utf8').matchAll(/docs\/decisions\/(\d{4})/g))
        assert.ok(numbers.has(number!), `${path} cites docs/decisions/${number}, which does not exist`);
    }
  });

  it('has no citation of docs/decisions.md by a quoted title in src/, scripts/ or bench/', () => {
    // The title may follow on the next line of a comment.
    const byTitle = /docs\/decisions\.md`?\s*,?\s*(?:(?:\*|\/\/|#)\s*)?\(?"/;
    for (const path of ['src', 'scripts', 'bench'].flatMap(textFiles)) {
      const match = byTitle.exec(readFileSync(path, 'utf8'));
      assert.equal(match, null, `${path} cites docs/decisions.md by title; cite docs/decisions/NNNN instead`);
    }
  });
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { sourceFiles } from '../support/source-files.js';

/**
 * The server tells Norway's time by its rule (src/domain/oslo-offset.ts), not through ICU: a first
 * Intl.DateTimeFormat, or a Date's toLocale*String, loads ICU's formatting data, about 8 MB of the
 * process's memory for as long as it runs (docs/decisions/0354). This reads the source: a use of
 * either fails here with its file and line.
 */
const ICU_DATE_FORMATTING = /\bIntl\.DateTimeFormat\b|\.toLocale(Date|Time)?String\(/;

describe("Norway's time without ICU's date formatting (docs/decisions/0354)", () => {
  it('no source file formats a date through Intl or toLocaleString', () => {
    const uses = sourceFiles('src').flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          ICU_DATE_FORMATTING.test(line) && !/^\s*(\/\/|\*)/.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    assert.deepEqual(uses, []);
  });
});

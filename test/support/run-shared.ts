import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the test files of one run of scripts/run-tests.ts share: each file runs in a process of its
 * own, and some of what a file makes is the same in every file of the run and costs seconds of CPU
 * to make (RSA keys, the check of every route schema). The run names a directory for it in this
 * variable; a file run alone (node --test) has none and makes everything itself.
 */
export const RUN_SHARED_DIR_ENV = 'PSD2_TEST_RUN_SHARED_DIR';

/**
 * Under this name the run's migrated PostgreSQL template is recorded by the file that made it
 * (test/support/postgres.ts), for scripts/run-tests.ts to drop it once every file ended.
 */
export const PG_TEMPLATE_SHARED = 'pg-template.json';

function sharedPath(name: string): string | undefined {
  const dir = process.env[RUN_SHARED_DIR_ENV];
  return dir === undefined || dir === '' ? undefined : join(dir, name);
}

/** What an earlier file of this run saved under `name`, if any. */
export function readRunShared<T>(name: string): T | undefined {
  const path = sharedPath(name);
  return path !== undefined && existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined;
}

/**
 * Saves `value` under `name` for the later files of this run (nothing outside a run). Written whole
 * under another name, then renamed: a file running beside this one reads all of it or nothing. Two
 * files that both found nothing each save theirs, and the last one written stays.
 */
export function saveRunShared(name: string, value: unknown): void {
  const path = sharedPath(name);
  if (path === undefined) return;
  const partial = `${path}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(value));
  renameSync(partial, path);
}

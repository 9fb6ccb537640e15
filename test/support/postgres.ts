import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PG_TEMPLATE_SHARED, RUN_SHARED_DIR_ENV, readRunShared, saveRunShared } from './run-shared.js';

/**
 * A fresh PostgreSQL database per test file, dropped afterwards, so test files run side by side.
 * PG_TEST_URL names the server (default: the machine's local PostgreSQL with trust authentication).
 */
export const PG_SERVER_URL = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** An empty database: for what migrates it itself (a store's migrate(), a server's start, a migration's test). */
export async function createTestDatabase(): Promise<TestDatabase> {
  return databaseFrom(undefined);
}

/**
 * A database at the latest schema, for tests of what runs on one, not of how it got there. In a run of
 * scripts/run-tests.ts it is a copy of the run's migrated template (CREATE DATABASE … TEMPLATE), made
 * by the first file that needs it; a file run alone migrates its own. A store's migrate() on it finds
 * every migration applied.
 */
export async function createMigratedTestDatabase(): Promise<TestDatabase> {
  const template = await runTemplate();
  const database = await databaseFrom(template);
  if (template === undefined) {
    const store = PostgresStore.open(database.url);
    try {
      await store.migrate();
    } finally {
      await store.close();
    }
  }
  return database;
}

async function databaseFrom(template: string | undefined): Promise<TestDatabase> {
  const name = `psd2_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}${template === undefined ? '' : ` TEMPLATE ${template}`}`);
  return {
    url: databaseUrl(name),
    drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

function databaseUrl(name: string): string {
  const url = new URL(PG_SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

let templateOfThisProcess: Promise<string | undefined> | undefined;

/**
 * The run's migrated template database, made by the first file that asks (undefined outside a run).
 * Files of a run ask at the same time: an advisory lock makes one of them build it, under another
 * name renamed when migrated, so that a template found by name is whole.
 */
function runTemplate(): Promise<string | undefined> {
  const dir = process.env[RUN_SHARED_DIR_ENV];
  if (dir === undefined || dir === '') return Promise.resolve(undefined);
  templateOfThisProcess ??= (async () => {
    const name = `psd2_template_${createHash('sha256').update(dir).digest('hex').slice(0, 16)}`;
    if (readRunShared<string>(PG_TEMPLATE_SHARED) === name) return name;
    const client = new pg.Client({ connectionString: PG_SERVER_URL });
    await client.connect();
    try {
      await client.query('select pg_advisory_lock(hashtextextended($1, 0))', [name]);
      const found = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount === 0) {
        const building = `${name}_building`;
        await client.query(`DROP DATABASE IF EXISTS ${building}`);
        await client.query(`CREATE DATABASE ${building}`);
        const store = PostgresStore.open(databaseUrl(building));
        try {
          await store.migrate();
        } finally {
          await store.close();
        }
        await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
        saveRunShared(PG_TEMPLATE_SHARED, name);
      }
      return name;
    } finally {
      await client.end(); // ends the session: the advisory lock goes with it
    }
  })();
  return templateOfThisProcess;
}

/** Drops the template a file of the run at `dir` made (scripts/run-tests.ts, once every file ended). */
export async function dropRunTemplate(dir: string): Promise<void> {
  const name = JSON.parse(readFileSync(join(dir, PG_TEMPLATE_SHARED), 'utf8')) as string;
  await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/**
 * The connections a test process makes and drops its databases through: a few, shared. A file that
 * drops its ninety databases at once (the store contract's after hook) would otherwise open ninety
 * connections together, and the files beside it met PostgreSQL's "too many clients".
 */
let adminPool: pg.Pool | undefined;

async function adminQuery(text: string): Promise<void> {
  adminPool ??= new pg.Pool({ connectionString: PG_SERVER_URL, max: 4, allowExitOnIdle: true });
  await adminPool.query(text);
}

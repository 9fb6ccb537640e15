import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCoreKey, signCoreRequest } from '../../src/core/http/core-signature.js';
import { HttpCore } from '../../src/core/http/http-core.js';
import { NO_FAULTS } from '../../src/reference-core/faults.js';
import { startReferenceCore } from '../../src/reference-core/reference-core.js';
import type { DatabaseLocation } from '../../src/store/open-store.js';
import { createMigratedTestDatabase } from '../support/postgres.js';
import { type CoreUnderTest, coreContract } from './core-contract.js';

const KEY = parseCoreKey('5a'.repeat(32), 'test');

/** A signed call of the reference core's admin routes. */
export async function admin(url: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      'core-signature': signCoreRequest(KEY, method, path, text, new Date()),
      ...(text === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(text === undefined ? {} : { body: text }),
  });
  if (response.status !== 200)
    throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** The reference core in process on 127.0.0.1, a free port, over a database; reached through HttpCore. */
async function overHttp(database: DatabaseLocation, cleanUp: () => Promise<void>): Promise<CoreUnderTest> {
  const reference = await startReferenceCore({
    host: '127.0.0.1',
    port: 0,
    database,
    key: KEY,
    callbackUrl: undefined,
    faults: NO_FAULTS,
  });
  return {
    core: new HttpCore({ url: reference.url, key: KEY }),
    store: reference.store,
    runBatch: async () => {
      await admin(reference.url, 'POST', '/admin/run-batch');
    },
    close: async () => {
      await reference.close();
      await cleanUp();
    },
  };
}

coreContract('the reference core over HTTP, on SQLite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'reference-core-'));
  return overHttp({ kind: 'sqlite', path: join(dir, 'core.db') }, () => rm(dir, { recursive: true, force: true }));
});

coreContract('the reference core over HTTP, on PostgreSQL', async () => {
  const database = await createMigratedTestDatabase();
  return overHttp({ kind: 'postgres', url: database.url }, () => database.drop());
});

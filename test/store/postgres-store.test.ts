import { after, describe, it } from 'node:test';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { type TestDatabase, createMigratedTestDatabase, createTestDatabase } from '../support/postgres.js';
import { storeContract } from './store-contract.js';

const databases: TestDatabase[] = [];
after(() => Promise.all(databases.map((db) => db.drop())));

storeContract('postgres', async (schema) => {
  const database = schema === 'migrated' ? await createMigratedTestDatabase() : await createTestDatabase();
  databases.push(database);
  return { store: PostgresStore.open(database.url), openAnother: async () => PostgresStore.open(database.url) };
});

describe('postgres store: a connection ended by the database', () => {
  it('survives the end of a connection checked out between two statements (no unhandled error), and answers the next call', async () => {
    const database = await createMigratedTestDatabase();
    databases.push(database);
    const store = PostgresStore.open(database.url);
    await store.migrate();
    const client = await store.pool.connect();
    const pid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const ended = new Promise((resolve) => client.once('end', resolve));
    const admin = PostgresStore.open(database.url);
    await admin.pool.query('select pg_terminate_backend($1)', [pid]);
    await ended; // without a listener, the client's 'error' event here would end the process
    client.release(true);
    await store.ping();
    await Promise.all([store.close(), admin.close()]);
  });
});

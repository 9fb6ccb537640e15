import { after } from 'node:test';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { type TestDatabase, createTestDatabase } from '../support/postgres.js';
import { storeContract } from './store-contract.js';

const databases: TestDatabase[] = [];
after(() => Promise.all(databases.map((db) => db.drop())));

storeContract('postgres', async () => {
  const database = await createTestDatabase();
  databases.push(database);
  return { store: PostgresStore.open(database.url), openAnother: async () => PostgresStore.open(database.url) };
});

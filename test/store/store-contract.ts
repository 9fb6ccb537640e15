import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Store } from '../../src/store/store.js';
import { migrations } from '../../src/store/migrations/index.js';

/** What every Store must do; run against each implementation by its own test file. */
export interface StoreUnderTest {
  store: Store;
  /** Opens a second store on the same database, as a second server instance would. */
  openAnother(): Promise<Store>;
}

export function storeContract(kind: 'sqlite' | 'postgres', open: () => Promise<StoreUnderTest>): void {
  describe(`Store contract: ${kind}`, () => {
    it('reports its kind', async () => {
      const { store } = await open();
      try {
        assert.equal(store.kind, kind);
      } finally {
        await store.close();
      }
    });

    it('migrates to the latest version, and running it again changes nothing', async () => {
      const { store } = await open();
      try {
        await store.migrate();
        const first = await store.appliedMigrations();
        assert.deepEqual(first, Object.keys(migrations).sort());
        await store.migrate();
        assert.deepEqual(await store.appliedMigrations(), first);
      } finally {
        await store.close();
      }
    });

    it('migrates from two instances at once without conflict', async () => {
      const { store, openAnother } = await open();
      const another = await openAnother();
      try {
        await Promise.all([store.migrate(), another.migrate()]);
        assert.deepEqual(await another.appliedMigrations(), await store.appliedMigrations());
      } finally {
        await another.close();
        await store.close();
      }
    });

    it('answers a ping while open and rejects one after close', async () => {
      const { store } = await open();
      await store.ping();
      await store.close();
      await assert.rejects(store.ping());
    });
  });
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { storeContract } from './store-contract.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The same store under a second name, whose close leaves the first open. */
class SharedStore implements Store {
  constructor(private readonly inner: Store) {}
  readonly kind = 'sqlite' as const;
  migrate() { return this.inner.migrate(); }
  appliedMigrations() { return this.inner.appliedMigrations(); }
  ping() { return this.inner.ping(); }
  async close() {}
  createPayment(...args: Parameters<Store['createPayment']>) { return this.inner.createPayment(...args); }
  findTppRequest(...args: Parameters<Store['findTppRequest']>) { return this.inner.findTppRequest(...args); }
  findPayment(...args: Parameters<Store['findPayment']>) { return this.inner.findPayment(...args); }
  cancelPayment(...args: Parameters<Store['cancelPayment']>) { return this.inner.cancelPayment(...args); }
}

storeContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'psd2-store-'));
  dirs.push(dir);
  const path = join(dir, 'nested', 'store.db');
  const store = SqliteStore.open(path);
  return { store, openAnother: async () => new SharedStore(store) };
});

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
function shared(store: Store): Store {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'close') return async () => undefined;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

storeContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'psd2-store-'));
  dirs.push(dir);
  const store = SqliteStore.open(join(dir, 'nested', 'store.db'));
  return { store, openAnother: async () => shared(store) };
});

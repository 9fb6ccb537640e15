import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { storeContract } from './store-contract.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

storeContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'psd2-store-'));
  dirs.push(dir);
  const path = join(dir, 'nested', 'store.db');
  return { store: SqliteStore.open(path), openAnother: async () => SqliteStore.open(path) };
});

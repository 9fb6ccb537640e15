import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultDataSet } from '../../src/sandbox/default-data-set.js';
import { RetentionJob } from '../../src/services/retention-job.js';
import type { NewConsoleSession } from '../../src/store/console-session-store.js';
import type { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import type { StoreUnderTest } from './store-under-test.js';

const at = new Date('2026-11-20T10:00:00.000Z');
const HOUR = 3_600_000;
const keyA = 'a'.repeat(64);
const keyB = 'b'.repeat(64);
const owner = (keySha256: string) => ({ keySha256, address: '192.0.2.1' });

let made = 0;
/** A session of bank TPP-A opened with `key` at `createdAt`, for eight hours. */
const session = (key = keyA, createdAt = at, bank = 'TPP-A'): NewConsoleSession => ({
  secretSha256: `${String(made++).padStart(4, '0')}${'0'.repeat(60)}`,
  bank,
  keySha256: key,
  createdAt,
  expiresAt: new Date(createdAt.getTime() + 8 * HOUR),
});
let nonces = 0;
const link = (expiresAt = new Date(at.getTime() + 300_000)) => ({ nonce: `nonce-${nonces++}`, expiresAt });

/**
 * The sandbox console's sessions (issue 40, 3; docs/console.md): what every Store must do, run by
 * store-contract.ts on both databases, a second instance on the same database included.
 */
export function consoleSessionContract(open: () => Promise<StoreUnderTest>): void {
  async function withStores(test: (store: Store, another: Store) => Promise<void>): Promise<void> {
    const { store, openAnother } = await open();
    const another = await openAnother();
    try {
      await store.migrate();
      await store.enterBank('TPP-A', owner(keyA), at, defaultDataSet);
      await store.bindBankKey('TPP-A', keyB, at, 5);
      await test(store, another);
    } finally {
      if (another !== store) await another.close();
      await store.close();
    }
  }

  describe('console sessions', () => {
    it('a session ended on one instance is no session on another', () =>
      withStores(async (store, another) => {
        const opened = session();
        assert.equal(await store.openConsoleSession(opened, link(), 20), 'opened');
        const found = await another.findConsoleSession(opened.secretSha256, at);
        assert.deepEqual(found, opened);
        await store.endConsoleSession(opened.secretSha256);
        assert.equal(await another.findConsoleSession(opened.secretSha256, at), undefined);
        assert.equal(await store.findConsoleSession(opened.secretSha256, at), undefined);
      }));

    it('a session is no session once expired', () =>
      withStores(async (store) => {
        const opened = session();
        await store.openConsoleSession(opened, link(), 20);
        assert.ok(await store.findConsoleSession(opened.secretSha256, new Date(opened.expiresAt.getTime() - 1)));
        assert.equal(await store.findConsoleSession(opened.secretSha256, opened.expiresAt), undefined);
      }));

    it('a link opens one session, whichever instance it reaches', () =>
      withStores(async (store, another) => {
        const once = link();
        const outcomes = await Promise.all([
          store.openConsoleSession(session(), once, 20),
          another.openConsoleSession(session(), once, 20),
        ]);
        assert.deepEqual([...outcomes].sort(), ['opened', 'used']);
      }));

    it('unbinding a key ends the sessions it opened, and no other', () =>
      withStores(async (store, another) => {
        const byB = session(keyB);
        const byA = session(keyA);
        await store.openConsoleSession(byB, link(), 20);
        await store.openConsoleSession(byA, link(), 20);
        assert.equal(await store.unbindBankKey('TPP-A', keyB), 'unbound');
        assert.equal(await another.findConsoleSession(byB.secretSha256, at), undefined);
        assert.ok(await another.findConsoleSession(byA.secretSha256, at), "A's key's session goes on");
        // A link the unbound key asked for opens nothing any more.
        assert.equal(await store.openConsoleSession(session(keyB), link(), 20), 'key-unbound');
      }));

    it('refuses a session whose key is no longer bound to its bank, however the key went', () =>
      withStores(async (store) => {
        const byB = session(keyB);
        await store.openConsoleSession(byB, link(), 20);
        // A key unbound by any other path than unbindBankKey leaves the row; the row opens nothing.
        await removeKeyRow(store, 'TPP-A', keyB);
        assert.equal(await store.findConsoleSession(byB.secretSha256, at), undefined);
      }));

    it("keeps a bank's newest sessions up to its limit: one more ends its oldest, not another bank's", () =>
      withStores(async (store) => {
        await store.enterBank('TPP-B', owner(keyB), at, defaultDataSet);
        const others = session(keyB, at, 'TPP-B');
        await store.openConsoleSession(others, link(), 2);
        const opened = [0, 1, 2].map((i) => session(keyA, new Date(at.getTime() + i * 1000)));
        for (const s of opened) assert.equal(await store.openConsoleSession(s, link(), 2), 'opened');
        assert.equal(await store.findConsoleSession(opened[0]!.secretSha256, at), undefined, 'the oldest ended');
        for (const s of [opened[1]!, opened[2]!, others])
          assert.ok(await store.findConsoleSession(s.secretSha256, at), "the newest two, and the other bank's");
      }));

    it('the retention job removes expired sessions and used links past their expiry, and keeps the rest', () =>
      withStores(async (store) => {
        const old = session(keyA, new Date(at.getTime() - 9 * HOUR));
        const live = session(keyA, at);
        await store.openConsoleSession(old, link(new Date(at.getTime() - 9 * HOUR + 300_000)), 20);
        await store.openConsoleSession(live, link(), 20);
        const now = new Date(at.getTime() + 1000);
        const report = await new RetentionJob(
          store,
          { mode: 'sandbox', idleDays: 30, bookkeepingYears: 5 },
          { now: () => now },
        ).sweep(now);
        assert.equal(report['console-sessions'], 2, 'the expired session and its used link');
        assert.equal(await countRows(store, 'console_sessions'), 1);
        assert.equal(await countRows(store, 'console_link_uses'), 1, 'the live link is remembered');
        assert.ok(await store.findConsoleSession(live.secretSha256, now));
      }));

    it('a bank removed goes with its sessions and used links', () =>
      withStores(async (store) => {
        await store.openConsoleSession(session(), link(), 20);
        assert.equal(await store.markBankRemoving('TPP-A', new Date(at.getTime() + 1)), true);
        while ((await store.deleteBankChunk('TPP-A', 500)) > 0);
        assert.equal(await countRows(store, 'console_sessions'), 0);
        assert.equal(await countRows(store, 'console_link_uses'), 0);
      }));
  });
}

/** Runs SQL past the store's interface, as a test does. */
async function query(store: Store, text: string): Promise<Record<string, unknown>[]> {
  if (store.kind === 'sqlite') {
    const statement = (store as SqliteStore).connection.prepare(text);
    if (statement.reader) return statement.all() as Record<string, unknown>[];
    statement.run();
    return [];
  }
  return (await (store as PostgresStore).pool.query<Record<string, unknown>>(text)).rows;
}

async function countRows(store: Store, table: 'console_sessions' | 'console_link_uses'): Promise<number> {
  return Number((await query(store, `select count(*) as n from ${table}`))[0]!.n);
}

/** Deletes a key's row directly: a key gone by another path than unbindBankKey. */
async function removeKeyRow(store: Store, bank: string, keySha256: string): Promise<void> {
  await query(store, `delete from bank_keys where bank = '${bank}' and key_sha256 = '${keySha256}'`);
}

import type { Store } from '../../src/store/store.js';

/** What every Store must do; run against each implementation by its own test file. */
export interface StoreUnderTest {
  store: Store;
  /**
   * Opens a second store on the same database, as a second server instance would. SQLite serves one
   * server process (docs/decisions.md): its second instance is the same store, and two processes on
   * one file are tested as processes (test/process).
   */
  openAnother(): Promise<Store>;
}

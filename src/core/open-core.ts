import type { CoreSetting } from './core-setting.js';
import type { LedgerStore } from '../store/ledger-store.js';
import type { BankCore } from './bank-core.js';
import { EmbeddedCore } from './embedded/embedded-core.js';
import { type CoreKey, readCoreKey } from './http/core-signature.js';
import { HttpCore } from './http/http-core.js';
import type { EmbeddedPayments } from './embedded/embedded-payments.js';

/** Programmer error: this server's own embedded core executes its payments from their rows; nothing hands them over. */
function noHandOver(): never {
  throw new Error(
    "the server's embedded core takes no hand-over: its batch run executes each payment from its own row",
  );
}

const OWN_ROWS: EmbeddedPayments = {
  submit: noHandOver,
  cancel: noHandOver,
  report: noHandOver,
  reports: noHandOver,
};

/** A core as opened: with a bank's own core, the key shared with it, which its callbacks are checked with too. */
export interface OpenedCore {
  core: BankCore;
  key: CoreKey | undefined;
}

/** The bank's core the setting names (docs/core.md). */
export async function openCore(setting: CoreSetting, store: LedgerStore): Promise<OpenedCore> {
  if (setting.kind === 'embedded') return { core: new EmbeddedCore(store, OWN_ROWS), key: undefined };
  // The key file is read once, at start: a file that cannot be read, or a short key, stops the start.
  const key = await readCoreKey(setting.keyFile);
  return { core: new HttpCore({ url: setting.url, key, timeoutMs: setting.timeoutMs }), key };
}

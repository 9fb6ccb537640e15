import type { Store } from './store.js';
import { whenSettled, wrapStoreMethods } from './store-wrapper.js';

/** A store call made once the store began to close: the server is shutting down (503, error-response.ts). */
export class StoreClosedError extends Error {
  constructor(method: string) {
    super(`the store is closing: ${method} was not run`);
  }
}

/**
 * What times one Store method's calls, for the metrics (psd2_store_call_duration_seconds): asked once
 * per method when the store is wrapped, then told each call's time and whether it failed.
 */
export type StoreCallTimer = (method: string) => (seconds: number, failed: boolean) => void;

/**
 * The store closed only once the calls under way have settled, and, given a timer, each call timed.
 * A request whose client left before its answer is still being worked on when the server has closed
 * its last connection, and closing the database under it failed its store calls as faults (a closed
 * driver, a flush of a closed WAL file). Calls made after close() began are refused with
 * StoreClosedError instead; close() waits for the others, at most `waitMs`, then closes the store.
 * The two are one wrapper, so that every store call of every request passes one step and one
 * settlement, not one of each per concern (docs/decisions/0353).
 */
export function closingStore(store: Store, waitMs: number, timer?: StoreCallTimer): Store {
  let pending = 0;
  let closing = false;
  let settled: (() => void) | undefined;
  const done = () => {
    pending -= 1;
    if (pending === 0) settled?.();
  };
  const close = async () => {
    closing = true;
    if (pending > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        settled = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    await store.close();
  };
  return wrapStoreMethods(
    store,
    (name, call) => {
      const observe = timer?.(name);
      return (...args) => {
        if (closing) return Promise.reject(new StoreClosedError(name));
        pending += 1;
        const started = observe === undefined ? 0 : performance.now();
        return whenSettled(
          () => call(args),
          (failed) => {
            done();
            observe?.((performance.now() - started) / 1000, failed);
          },
        );
      };
    },
    { close },
  );
}

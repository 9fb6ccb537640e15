import type { Store } from './store.js';
import { whenSettled, wrapStoreMethods } from './store-wrapper.js';

/** A store call made once the store began to close: the server is shutting down (503, error-response.ts). */
export class StoreClosedError extends Error {
  constructor(method: string) {
    super(`the store is closing: ${method} was not run`);
  }
}

/**
 * The store closed only once the calls under way have settled. A request whose client left before
 * its answer is still being worked on when the server has closed its last connection, and closing
 * the database under it failed its store calls as faults (a closed driver, a flush of a closed WAL
 * file). Calls made after close() began are refused with StoreClosedError instead; close() waits for
 * the others, at most `waitMs`, then closes the store.
 */
export function closingStore(store: Store, waitMs: number): Store {
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
    (name, call) =>
      (...args) => {
        if (closing) return Promise.reject(new StoreClosedError(name));
        pending += 1;
        return whenSettled(() => call(args), done);
      },
    { close },
  );
}

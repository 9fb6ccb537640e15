import type { Store } from './store.js';

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
  const wrappers = new Map<string, (...args: unknown[]) => unknown>();
  return new Proxy(store, {
    get(target, property) {
      if (property === 'close') return close;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      let wrapper = wrappers.get(property);
      if (wrapper === undefined) {
        const method = value as (...args: unknown[]) => unknown;
        wrapper = (...args: unknown[]) => {
          if (closing) return Promise.reject(new StoreClosedError(property));
          pending += 1;
          let result: unknown;
          try {
            result = method.apply(target, args);
          } catch (error) {
            done();
            throw error;
          }
          if (!(result instanceof Promise)) {
            done();
            return result;
          }
          return result.finally(done);
        };
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
}

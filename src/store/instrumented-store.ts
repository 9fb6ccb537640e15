import type { Store } from './store.js';

/** Told of each store call as it settles: the Store method's name, its time, and whether it failed. */
export type StoreCallObserver = (method: string, seconds: number, failed: boolean) => void;

/**
 * The store with every method call timed, for the metrics (psd2_store_call_duration_seconds). It
 * wraps the Store interface from outside, whatever the implementation: a Proxy whose methods call
 * the store's own with the store as `this` (private fields keep working) and report when the
 * returned promise settles. The wrapper of each method is made once. Without an observer the store
 * is returned as it is, at no cost.
 */
export function instrumentStore(store: Store, observe: StoreCallObserver | undefined): Store {
  if (observe === undefined) return store;
  const wrappers = new Map<string, (...args: unknown[]) => unknown>();
  return new Proxy(store, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      let wrapper = wrappers.get(property);
      if (wrapper === undefined) {
        const method = value as (...args: unknown[]) => unknown;
        wrapper = (...args: unknown[]) => {
          const started = performance.now();
          const settle = (failed: boolean) => observe(property, (performance.now() - started) / 1000, failed);
          let result: unknown;
          try {
            result = method.apply(target, args);
          } catch (error) {
            settle(true);
            throw error;
          }
          if (!(result instanceof Promise)) {
            settle(false);
            return result;
          }
          return result.then((answer: unknown) => {
            settle(false);
            return answer;
          }, (error: unknown) => {
            settle(true);
            throw error;
          });
        };
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
}

import type { Store } from './store.js';
import { whenSettled, wrapStoreMethods } from './store-wrapper.js';

/** Told of each store call as it settles: the Store method's name, its time, and whether it failed. */
export type StoreCallObserver = (method: string, seconds: number, failed: boolean) => void;

/**
 * The store with every method call timed, for the metrics (psd2_store_call_duration_seconds),
 * reported when the returned promise settles (store-wrapper.ts). Without an observer the store is
 * returned as it is, at no cost.
 */
export function instrumentStore(store: Store, observe: StoreCallObserver | undefined): Store {
  if (observe === undefined) return store;
  return wrapStoreMethods(store, (name, call) => (...args) => {
    const started = performance.now();
    return whenSettled(
      () => call(args),
      (failed) => observe(name, (performance.now() - started) / 1000, failed),
    );
  });
}

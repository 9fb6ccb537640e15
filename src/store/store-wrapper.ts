import type { Store } from './store.js';

/** A wrapper of one store method: given the method's name and a call of the store's own method, the function that stands in for it. */
export type MethodWrapper = (name: string, call: (args: unknown[]) => unknown) => (...args: unknown[]) => unknown;

/**
 * The store with each of its methods replaced by what `wrap` makes of it, whatever the
 * implementation: a Proxy whose wrappers call the store's own methods with the store as `this`
 * (private fields keep working). Each method's wrapper is made once. Properties in `own` are answered
 * in place of the store's.
 */
export function wrapStoreMethods(
  store: Store,
  wrap: MethodWrapper,
  own: Readonly<Record<string, unknown>> = {},
): Store {
  const wrappers = new Map<string, (...args: unknown[]) => unknown>();
  return new Proxy(store, {
    get(target, property) {
      if (typeof property === 'string' && Object.hasOwn(own, property)) return own[property];
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      let wrapper = wrappers.get(property);
      if (wrapper === undefined) {
        const method = value as (...args: unknown[]) => unknown;
        wrapper = wrap(property, (args) => method.apply(target, args));
        wrappers.set(property, wrapper);
      }
      return wrapper;
    },
  });
}

/**
 * Runs `call` and tells `settled` when it is done: at once when it throws or returns a plain value,
 * else when its promise settles. Returns what the call returned.
 */
export function whenSettled(call: () => unknown, settled: (failed: boolean) => void): unknown {
  let result: unknown;
  try {
    result = call();
  } catch (error) {
    settled(true);
    throw error;
  }
  if (!(result instanceof Promise)) {
    settled(false);
    return result;
  }
  return result.then(
    (answer: unknown) => {
      settled(false);
      return answer;
    },
    (error: unknown) => {
      settled(true);
      throw error;
    },
  );
}

import type { Store } from './store.js';

/**
 * A wrapper of one store method: given the method's name and a call of the store's own method, the
 * function that stands in for it, or undefined to leave the method as it is (then called directly,
 * bound to the store, with no step of the wrapper's in between).
 */
export type MethodWrapper = (
  name: string,
  call: (args: unknown[]) => unknown,
) => ((...args: unknown[]) => unknown) | undefined;

/**
 * The store with each of its methods replaced by what `wrap` makes of it, whatever the
 * implementation: a plain object made once, whose wrappers call the store's own methods with the
 * store as `this` (private fields keep working), and whose other properties read the store's as
 * they are when asked. Properties in `own` are answered in place of the store's. Not a Proxy: every
 * store call of every request passes each wrapper, and a Proxy's trap on each property read cost
 * more than the wrapped call itself (docs/decisions/0341).
 */
export function wrapStoreMethods(
  store: Store,
  wrap: MethodWrapper,
  own: Readonly<Record<string, unknown>> = {},
): Store {
  const wrapped: Record<string, unknown> = {};
  const target = store as unknown as Record<string, unknown>;
  for (const name of propertyNames(store)) {
    if (Object.hasOwn(own, name)) continue;
    const value = target[name];
    if (typeof value === 'function') {
      const method = value as (...args: unknown[]) => unknown;
      wrapped[name] = wrap(name, (args) => method.apply(store, args)) ?? method.bind(store);
    } else {
      Object.defineProperty(wrapped, name, { get: () => target[name], enumerable: true });
    }
  }
  return Object.assign(wrapped, own) as unknown as Store;
}

/** The names of an object's properties, its own and its classes', but Object's and the constructors. */
function propertyNames(object: object): Set<string> {
  const names = new Set<string>();
  for (
    let o: object | null = object;
    o !== null && o !== Object.prototype;
    o = Object.getPrototypeOf(o) as object | null
  ) {
    for (const name of Object.getOwnPropertyNames(o)) if (name !== 'constructor') names.add(name);
  }
  return names;
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

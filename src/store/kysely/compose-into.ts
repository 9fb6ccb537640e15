/**
 * Gives `target` each method of each part, bound to its part: the store is the sum of its areas'
 * parts (kysely-store.ts). A method `target` has already (a subclass's hot path, its own lifecycle)
 * is kept; two parts that offer one name are a programmer's error, found at the first construction.
 */
export function composeInto(target: object, parts: readonly object[]): void {
  const given = new Set<string>();
  for (const part of parts) {
    for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(part) as object)) {
      if (name === 'constructor') continue;
      if (given.has(name)) throw new Error(`two parts of the store offer ${name}`);
      given.add(name);
      if (name in target) continue;
      const method = (part as Record<string, unknown>)[name];
      if (typeof method === 'function')
        Object.defineProperty(target, name, { value: method.bind(part), writable: true, configurable: true });
    }
  }
}

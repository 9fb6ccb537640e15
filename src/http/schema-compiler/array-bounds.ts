import type { Problem } from '../../domain/api-error.js';
import { appendKey } from '../body/json-path.js';

export interface ArrayBound {
  property: string | undefined;
  maxItems: number;
}

/**
 * The body's own array, or its properties' arrays, that have a maxItems. Ajv collecting every error
 * validates every entry of an array even when it has too many (a 1 000-entry `balances`, of which 10
 * are allowed, gave 20 000 errors); these are checked first, and a body with too many entries is
 * answered with that alone.
 */
export function arrayBoundsOf(schema: Record<string, unknown>): ArrayBound[] {
  const bounds: ArrayBound[] = [];
  if (schema.type === 'array' && typeof schema.maxItems === 'number')
    bounds.push({ property: undefined, maxItems: schema.maxItems });
  for (const [property, value] of Object.entries(
    (schema.properties ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    if (value.type === 'array' && typeof value.maxItems === 'number')
      bounds.push({ property, maxItems: value.maxItems });
  }
  return bounds;
}

export function overlongArray(bounds: readonly ArrayBound[], data: unknown): Problem | undefined {
  for (const bound of bounds) {
    const value =
      bound.property === undefined
        ? data
        : typeof data === 'object' && data !== null && Object.hasOwn(data, bound.property)
          ? (data as Record<string, unknown>)[bound.property]
          : undefined;
    if (Array.isArray(value) && value.length > bound.maxItems) {
      const path = bound.property === undefined ? '$' : appendKey('$', bound.property);
      return { code: 'FORMAT_ERROR', path, text: `${path} must have at most ${bound.maxItems} entries` };
    }
  }
  return undefined;
}

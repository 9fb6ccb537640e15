import type { Json } from '../json.js';

/**
 * Product rules run on the body even when the schema found problems, so that every violation is
 * reported at once. They read fields through these helpers and skip what has the wrong type: the
 * schema reports that.
 */

export function objectAt(value: unknown, key: string): Json | undefined {
  const field = isObject(value) ? value[key] : undefined;
  return isObject(field) ? field : undefined;
}

export function stringAt(value: unknown, key: string): string | undefined {
  const field = isObject(value) ? value[key] : undefined;
  return typeof field === 'string' ? field : undefined;
}

export function arrayAt(value: unknown, key: string): unknown[] | undefined {
  const field = isObject(value) ? value[key] : undefined;
  return Array.isArray(field) ? field : undefined;
}

export function has(value: unknown, key: string): boolean {
  return isObject(value) && value[key] !== undefined;
}

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

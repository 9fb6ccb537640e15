import type { JsonUnits } from './utf8-body.js';

/**
 * Field names as the shape pass reads them: a hash of each, so that a duplicate is found without
 * making every name's text; which of the names that change what objects inherit it spells; and the
 * value of a name written with escapes.
 */

export function hashOfUnits(u: JsonUnits, start: number, end: number): number {
  let hash = 0;
  for (let k = start; k < end; k++) hash = (Math.imul(hash, 31) + u[k]!) | 0;
  return hash;
}

export function hashOfText(text: string): number {
  let hash = 0;
  for (let k = 0; k < text.length; k++) hash = (Math.imul(hash, 31) + text.charCodeAt(k)) | 0;
  return hash;
}

/** The field names that change what objects inherit, read into one; their positions below. */
export const SPECIAL_NAMES = ['__proto__', 'constructor', 'prototype'];
export const PROTO = 0;
export const CONSTRUCTOR = 1;
export const PROTOTYPE = 2;

/** Which of SPECIAL_NAMES the units from `start` to `end` spell, or -1: most names differ in length from all three. */
export function specialNameOfUnits(u: JsonUnits, start: number, end: number): number {
  const length = end - start;
  if (length !== 9 && length !== 11) return -1;
  names: for (let s = 0; s < SPECIAL_NAMES.length; s++) {
    const name = SPECIAL_NAMES[s]!;
    if (name.length !== length) continue;
    for (let k = 0; k < length; k++) if (u[start + k] !== name.charCodeAt(k)) continue names;
    return s;
  }
  return -1;
}

/** A quoted JSON string's value, or undefined when it is not one (a bad escape). */
export function decoded(quoted: string): string | undefined {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return undefined;
  }
}

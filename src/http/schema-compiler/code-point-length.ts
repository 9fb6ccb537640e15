import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** Ajv's own count of a string's characters for maxLength and minLength: its code points, a surrogate pair counting one. */
const ajvCodePointLength = (require('ajv/dist/runtime/ucs2length') as { default: (text: string) => number }).default;

/** A UTF-16 surrogate, high or low: only a string holding one has fewer code points than code units. */
const SURROGATE = /[\ud800-\udfff]/;

/**
 * The same count as Ajv's, without its loop over every code unit when no surrogate is there: then
 * the count is the string's length. Ajv's loop walks each of the 1.5 kB of TPP-Signature-Certificate
 * on every signed request (header schemas give it a maxLength); the pattern test fails at once on a
 * string of one-byte characters, which every header is (docs/decisions/0356). A string with a
 * surrogate is counted by Ajv's own function, so the answer is Ajv's.
 */
export function codePointLength(text: string): number {
  return SURROGATE.test(text) ? ajvCodePointLength(text) : text.length;
}

/** Ajv's module path of the function, as its standalone code requires it. */
export const AJV_CODE_POINT_LENGTH_MODULE = 'ajv/dist/runtime/ucs2length';

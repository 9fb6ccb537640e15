import { precompiledRequire } from './precompiled.js';

/** Ajv's module path of its count of a string's characters, as its standalone code requires it. */
export const AJV_CODE_POINT_LENGTH_MODULE = 'ajv/dist/runtime/ucs2length';

/** A UTF-16 surrogate, high or low: only a string holding one has fewer code points than code units. */
const SURROGATE = /[\ud800-\udfff]/;

/** Ajv's own count for maxLength and minLength (code points, a surrogate pair counting one): required when a string first needs it. */
let ajvCodePointLength: ((text: string) => number) | undefined;

/**
 * The same count as Ajv's, without its loop over every code unit when no surrogate is there: then
 * the count is the string's length. Ajv's loop walks each of the 1.5 kB of TPP-Signature-Certificate
 * on every signed request (header schemas give it a maxLength); the pattern test fails at once on a
 * string of one-byte characters, which every header is (docs/decisions/0356). A string with a
 * surrogate is counted by Ajv's own function, so the answer is Ajv's.
 */
export function codePointLength(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  ajvCodePointLength ??= (precompiledRequire(AJV_CODE_POINT_LENGTH_MODULE) as { default: (t: string) => number })
    .default;
  return ajvCodePointLength(text);
}

/**
 * The require a precompiled validator is made with: precompiledRequire, but for Ajv's count of a
 * string's characters, which is codePointLength. A validator compiled at run time keeps Ajv's own.
 */
export const validatorRequire = Object.assign(
  (id: string): unknown =>
    id === AJV_CODE_POINT_LENGTH_MODULE ? { default: codePointLength } : precompiledRequire(id),
  precompiledRequire,
) as NodeJS.Require;

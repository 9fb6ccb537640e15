import { ApiError } from '../../domain/api-error.js';
import { appendKey } from './json-path.js';

/** A lone UTF-16 surrogate: in unicode mode a pair is one code point, so only an unpaired half matches. */
const LONE_SURROGATE = /\p{Surrogate}/u;
const BACKSLASH = 0x5c;
const LETTER_U = 0x75;

/**
 * Refuses a parsed body whose JSON escapes make a lone surrogate (`\ud83d` without its `\ude00`):
 * text that is not Unicode, which no payment system can carry and whose UTF-8 form would not be the
 * text the TPP sent (docs/decisions/0357). The body's bytes are valid UTF-8 (utf8-body.ts), which
 * cannot encode a surrogate, so only an escape can make one: the bytes are searched for escapes, a
 * search as fast as the bytes can be read; a small body that holds a lone one is then walked to name
 * the string or field, a large one (up to JSON_MAX_VALUES values) is refused at its byte.
 */
export function refuseLoneSurrogates(raw: Buffer, value: unknown, large: boolean): void {
  const offset = loneSurrogateEscapeAt(raw);
  if (offset === undefined) return;
  const at = large ? undefined : loneSurrogateAt(value);
  const path =
    at?.reduceRight<string>(
      (path, step) => (typeof step === 'number' ? `${path}[${step}]` : appendKey(path, step)),
      '$',
    ) ?? '$';
  const where = path === '$' ? `the body, at byte ${offset},` : path;
  const text = `${where} holds a lone UTF-16 surrogate (a \\uD800-\\uDFFF escape without its pair): it is not text; send the character itself, or both halves of its pair`;
  throw new ApiError('FORMAT_ERROR', text, [{ code: 'FORMAT_ERROR', path, text }]);
}

/** The byte at which the first escape of a lone surrogate starts; undefined when there is none. */
export function loneSurrogateEscapeAt(raw: Buffer): number | undefined {
  let from = 0;
  for (;;) {
    // The body parsed as JSON, so each backslash found from the end of an escape starts one:
    // `\\` (skipped whole, so the `u` after it is text), `\"`, or `\uXXXX`.
    const at = raw.indexOf(BACKSLASH, from);
    if (at === -1) return undefined;
    from = at + 2;
    if (raw[at + 1] !== LETTER_U) continue;
    from = at + 6;
    const unit = escapedUnit(raw, at);
    if (unit >= 0xdc00 && unit <= 0xdfff) return at;
    if (unit < 0xd800 || unit > 0xdbff) continue;
    const next = raw[at + 6] === BACKSLASH && raw[at + 7] === LETTER_U ? escapedUnit(raw, at + 6) : -1;
    if (next < 0xdc00 || next > 0xdfff) return at;
    from = at + 12;
  }
}

/** Each byte's value as a hex digit, or -1: the escapes are read from the bytes, with no string made per escape. */
const HEX = new Int8Array(256).fill(-1);
for (let digit = 0; digit < 16; digit++) {
  HEX['0123456789abcdef'.charCodeAt(digit)] = digit;
  HEX['0123456789ABCDEF'.charCodeAt(digit)] = digit;
}

/** The code unit of the `\uXXXX` escape at `at`, or -1 when its four characters are not hex digits. */
function escapedUnit(raw: Buffer, at: number): number {
  if (at + 6 > raw.length) return -1;
  let unit = 0;
  for (let i = at + 2; i < at + 6; i++) {
    const digit = HEX[raw[i]!]!;
    if (digit < 0) return -1;
    unit = unit * 16 + digit;
  }
  return unit;
}

/** The steps to the first string or field name with a lone surrogate, innermost first; undefined when there is none. */
function loneSurrogateAt(value: unknown): (string | number)[] | undefined {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? [] : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = loneSurrogateAt(value[i]);
      if (at !== undefined) return [...at, i];
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, field] of Object.entries(value)) {
    if (LONE_SURROGATE.test(key)) return [key];
    const at = loneSurrogateAt(field);
    if (at !== undefined) return [...at, key];
  }
  return undefined;
}

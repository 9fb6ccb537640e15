import type { Problem } from '../domain/api-error.js';
import {
  JSON_MAX_ARRAY_ENTRIES, JSON_MAX_DEPTH, JSON_MAX_NUMBER_LENGTH, JSON_MAX_OBJECT_KEYS, JSON_MAX_STRING_LENGTH, JSON_MAX_VALUES,
} from '../domain/limits.js';

/**
 * The shape of a JSON body, checked in one pass over its text before it is parsed: nesting depth,
 * entries per array, fields per object, length of every string and number, values in all, and no
 * field given twice in one object. The pass is linear in the text and uses no recursion, so a
 * hostile body costs no more than reading it; every later step (parsing, hashing, schema
 * validation) then works on a body whose size in each direction is bounded.
 *
 * It reads leniently: text that is not JSON is left for the parser to name, unless a limit is
 * crossed first. A duplicate field is refused because parsers disagree on which value wins (the
 * last here, the first in others): the bank must act on the value the TPP's own tools showed.
 * The field names that pollute prototypes (`__proto__`, and `prototype` within `constructor`) are
 * refused here too, since every name is read here anyway: the parser after this pass is then
 * JSON.parse itself, with no second and third scan of the text for those names.
 */
export interface JsonShapeLimits {
  maxDepth: number;
  maxArrayEntries: number;
  maxObjectKeys: number;
  maxStringLength: number;
  maxNumberLength: number;
  maxValues: number;
}

export const JSON_SHAPE_LIMITS: JsonShapeLimits = {
  maxDepth: JSON_MAX_DEPTH,
  maxArrayEntries: JSON_MAX_ARRAY_ENTRIES,
  maxObjectKeys: JSON_MAX_OBJECT_KEYS,
  maxStringLength: JSON_MAX_STRING_LENGTH,
  maxNumberLength: JSON_MAX_NUMBER_LENGTH,
  maxValues: JSON_MAX_VALUES,
};

interface Frame {
  /** An object (else an array). */
  object: boolean;
  /** Fields seen so far (objects only); one set per level, emptied for each new object there. */
  keys: Set<string>;
  /** Entries (arrays) or fields (objects) so far. */
  count: number;
  /** The field whose value comes next (objects only). */
  key: string;
}

/** The first limit the body crosses, or undefined when its shape is within every limit. */
export function checkJsonShape(text: string, limits: JsonShapeLimits = JSON_SHAPE_LIMITS): Problem | undefined {
  const scan = scanJsonShape(text, limits, Number.POSITIVE_INFINITY);
  let step = scan.next();
  while (step.done !== true) step = scan.next();
  return step.value;
}

/**
 * The same check, in slices: it pauses (yields) after about `sliceChars` characters, so that the
 * caller can let the event loop turn between slices of a large body (src/http/hooks/request-body.ts).
 */
export function* scanJsonShape(text: string, limits: JsonShapeLimits, sliceChars: number): Generator<void, Problem | undefined> {
  // Frames are made once per level and reused: no allocation per object or array.
  const frames: Frame[] = [];
  let depth = 0;
  let values = 0;
  let i = 0;
  const n = text.length;

  // The next backslash at or after a position, searched again only once passed: each character is
  // searched once in all (a search per string would read to the end of the text each time).
  let nextBackslash = -2;
  const backslashFrom = (from: number): number => {
    if (nextBackslash !== -1 && nextBackslash < from) nextBackslash = text.indexOf('\\', from);
    return nextBackslash;
  };

  let sliceEnd = sliceChars;
  while (i < n) {
    if (i >= sliceEnd) {
      yield;
      sliceEnd = i + sliceChars;
    }
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x2c || c === 0x3a || c === 0x0a || c === 0x0d || c === 0x09) {
      // A run of separators is skipped by the regular expression engine: a body of 2 MiB of spaces
      // costs one native scan, not two million turns of this loop.
      SEPARATORS.lastIndex = i;
      SEPARATORS.test(text);
      i = SEPARATORS.lastIndex;
      continue;
    }
    if (c === 0x7d || c === 0x5d) {
      if (depth > 0) depth -= 1;
      i += 1;
      continue;
    }
    let length = 0;
    let j = i;
    let escaped = false;
    if (c === 0x22) {
      // The closing quote by the engine's own search; escapes, rare, are stepped over one by one.
      j = text.indexOf('"', i + 1);
      let backslash = backslashFrom(i + 1);
      let from = i + 1;
      while (j !== -1 && backslash !== -1 && backslash < j) {
        escaped = true;
        length += backslash - from + 1;
        from = backslash + (text.charCodeAt(backslash + 1) === 0x75 ? 6 : 2);
        if (from > j) j = text.indexOf('"', from);
        backslash = backslashFrom(from);
      }
      if (j === -1) return undefined; // unterminated: the parser says so
      length += j - from;
      let k = j + 1;
      while (k < n && isSpace(text.charCodeAt(k))) k += 1;
      const top = depth > 0 ? frames[depth - 1]! : undefined;
      if (top !== undefined && top.object && text.charCodeAt(k) === 0x3a) {
        const parent = () => pathOf(frames, depth - 1);
        if (length > limits.maxStringLength) return problem(parent(), `${parent()} has a field name longer than ${limits.maxStringLength} characters`);
        const key = escaped ? decoded(text.slice(i, j + 1)) : text.slice(i + 1, j);
        if (key === undefined) return undefined; // a bad escape: the parser says so
        top.key = key;
        if (key === '__proto__' || (key === 'prototype' && depth >= 2 && frames[depth - 2]!.object && frames[depth - 2]!.key === 'constructor')) {
          const path = pathOf(frames, depth);
          return problem(path, `${path} is a field name this server refuses: read into an object, it would change what every object inherits`);
        }
        if (top.keys.has(key)) {
          const path = pathOf(frames, depth);
          return problem(path, `${path} is given twice in one object; each field may appear once, so that every reader of the body sees the same value`);
        }
        top.keys.add(key);
        top.count += 1;
        if (top.count > limits.maxObjectKeys) return problem(parent(), `${parent()} must have at most ${limits.maxObjectKeys} fields`);
        i = k + 1;
        continue;
      }
      j += 1;
    } else if (c !== 0x7b && c !== 0x5b) {
      // A number or a literal (true, false, null), or text the parser will refuse.
      j = i + 1;
      while (j < n && !isDelimiter(text.charCodeAt(j))) j += 1;
      length = j - i;
    }

    // A value starts in the innermost container: count it, and in an array check the entries.
    values += 1;
    if (values > limits.maxValues) return problem('$', `the body has more than ${limits.maxValues} values, the most this server reads`);
    const top = depth > 0 ? frames[depth - 1]! : undefined;
    if (top !== undefined && !top.object) {
      top.count += 1;
      if (top.count > limits.maxArrayEntries) {
        const path = pathOf(frames, depth - 1);
        return problem(path, `${path} must have at most ${limits.maxArrayEntries} entries`);
      }
    }

    if (c === 0x7b || c === 0x5b) {
      if (depth >= limits.maxDepth) {
        const path = pathOf(frames, depth);
        return problem(path, `${path} is nested deeper than ${limits.maxDepth} levels, the most this server reads`);
      }
      let frame = frames[depth];
      if (frame === undefined) {
        frame = { object: false, keys: new Set(), count: 0, key: '' };
        frames.push(frame);
      }
      frame.object = c === 0x7b;
      if (frame.object && frame.keys.size > 0) frame.keys.clear();
      frame.count = 0;
      frame.key = '';
      depth += 1;
      i += 1;
    } else if (c === 0x22) {
      if (length > limits.maxStringLength) {
        const path = pathOf(frames, depth);
        return problem(path, `${path} must be at most ${limits.maxStringLength} characters long, the most this server reads`);
      }
      i = j;
    } else {
      if (length > limits.maxNumberLength) {
        const path = pathOf(frames, depth);
        return problem(path, `${path} is ${length} characters long; a number may have at most ${limits.maxNumberLength}`);
      }
      i = j;
    }
  }
  return undefined;
}

const SEPARATORS = /[ ,:\n\r\t]+/y;

function problem(path: string, text: string): Problem {
  return { code: 'FORMAT_ERROR', path, text };
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDelimiter(c: number): boolean {
  return isSpace(c) || c === 0x2c || c === 0x3a || c === 0x7b || c === 0x7d || c === 0x5b || c === 0x5d || c === 0x22;
}

function decoded(quoted: string): string | undefined {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return undefined;
  }
}

/** The JSON path of the current member of the first `depth` containers: `$.payments[3].creditorName`. */
function pathOf(frames: readonly Frame[], depth: number): string {
  let path = '$';
  for (let f = 0; f < depth; f++) {
    const frame = frames[f]!;
    path = frame.object ? appendKey(path, frame.key) : `${path}[${frame.count - 1}]`;
  }
  return path;
}

/** `$.name` for a plain name, `$["odd name"]` otherwise (as validation.ts writes paths). */
export function appendKey(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

import type { Problem } from '../../domain/api-error.js';
import {
  JSON_MAX_ARRAY_ENTRIES,
  JSON_MAX_DEPTH,
  JSON_MAX_NUMBER_LENGTH,
  JSON_MAX_OBJECT_KEYS,
  JSON_MAX_STRING_LENGTH,
  JSON_MAX_VALUES,
  PARSE_PIECE_UNITS,
} from '../../domain/limits.js';
import {
  CONSTRUCTOR,
  PROTO,
  PROTOTYPE,
  SPECIAL_NAMES,
  decoded,
  hashOfText,
  hashOfUnits,
  specialNameOfUnits,
} from './field-names.js';
import { appendKey } from './json-path.js';
import {
  SHORT_STRING_UNITS,
  indexOfUnit,
  isSeparator,
  readString,
  separatorsEnd,
  spacesEnd,
  stringRead,
  tokenEnd,
} from './json-tokens.js';
import { type JsonUnits, unitsText } from './utf8-body.js';

/**
 * The shape of a JSON body, checked in one pass over its code units before it is parsed: nesting
 * depth, entries per array, fields per object, length of every string and number, values in all,
 * and no field given twice in one object. The pass is linear in the text and uses no recursion, so a
 * hostile body costs no more than reading it; every later step (parsing, hashing, schema
 * validation) then works on a body whose size in each direction is bounded.
 *
 * It reads leniently: text that is not JSON is left for the parser to name, unless a limit is
 * crossed first. A duplicate field is refused because parsers disagree on which value wins (the
 * last here, the first in others): the bank must act on the value the TPP's own tools showed.
 * The field names that pollute prototypes (`__proto__`, and `prototype` within `constructor`) are
 * refused here too, since every name is read here anyway: the parser after this pass is then
 * JSON.parse itself, with no second and third scan of the text for those names.
 *
 * Given a layout, the pass also notes each container larger than the layout's piece, with where its
 * entries or fields start: the seams at which json-pieces.ts parses a large body a piece at a time.
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

/** A container of more than a piece of units: where it ends (after its closing bracket), and where each of its entries or field names starts. */
export interface LargeContainer {
  end: number;
  children: number[];
}

/** The large containers of a body, by where each opens; filled by the shape pass. */
export interface JsonLayout {
  readonly pieceUnits: number;
  readonly large: Map<number, LargeContainer>;
}

/** An empty layout for the shape pass to fill, for pieces of the parser's size. */
export function jsonLayout(pieceUnits = PARSE_PIECE_UNITS): JsonLayout {
  return { pieceUnits, large: new Map() };
}

interface Frame {
  /** An object (else an array). */
  object: boolean;
  /** Where the container opens. */
  start: number;
  /** Entries (arrays) or fields (objects) so far. */
  count: number;
  /** Where each entry or field name so far starts. */
  children: number[];
  /** The field names so far (objects only): where each opens and closes (its quotes), whether it has escapes, a hash of its characters. */
  keyStart: number[];
  keyEnd: number[];
  keyEscaped: boolean[];
  keyHash: number[];
  /** Whether the current field's name is `constructor`. */
  constructorKey: boolean;
}

/** The first limit the body crosses, or undefined when its shape is within every limit. */
export function checkJsonShape(
  units: JsonUnits,
  limits: JsonShapeLimits = JSON_SHAPE_LIMITS,
  layout?: JsonLayout,
): Problem | undefined {
  // One slice past the end, not Infinity: a number V8 keeps as a small integer, as it does the sliced
  // pass's (Infinity deoptimised the pass compiled for large bodies at its next large body).
  const scan = scanJsonShape(units, limits, units.length + 1, layout);
  let step = scan.next();
  while (step.done !== true) step = scan.next();
  return step.value;
}

/**
 * The same check, in slices: it pauses (yields) after about `sliceUnits` units, so that the caller
 * can let the event loop turn between slices of a large body (read-json-body.ts).
 *
 * One loop, kept whole although long: its state (position, depth, values, the frames, the next
 * backslash, the slice's end) stays in the generator's locals across every token. Split into
 * functions, each token would hand that state out and back (an object, or a module's variables
 * V8 cannot keep in registers), on the path every request's body takes.
 */
export function* scanJsonShape(
  u: JsonUnits,
  limits: JsonShapeLimits,
  sliceUnits: number,
  layout?: JsonLayout,
): Generator<void, Problem | undefined> {
  // Frames are made once per level and reused: no allocation per object or array.
  const frames: Frame[] = [];
  let depth = 0;
  let values = 0;
  let i = 0;
  const n = u.length;
  const piece = layout?.pieceUnits ?? n + 1;

  // The next backslash at or after a position, searched again only once passed: each unit is
  // searched once in all (a search per string would read to the end of the text each time).
  let nextBackslash = -2;
  // No closures here: made anew on each call, they would be new call targets to the code V8
  // optimized for the last call, which it then throws away, and each body's first reads would run
  // unoptimised (bench/README.md, "Figures behind the source's reasons").

  let sliceEnd = sliceUnits;
  while (i < n) {
    if (i >= sliceEnd) {
      yield;
      sliceEnd = i + sliceUnits;
    }
    const c = u[i]!;
    if (isSeparator(c)) {
      // A run of separators, to the end of the slice at most.
      i = separatorsEnd(u, i + 1, Math.min(n, sliceEnd));
      continue;
    }
    if (c === 0x7d || c === 0x5d) {
      if (depth > 0) {
        depth -= 1;
        const frame = frames[depth]!;
        if (i + 1 - frame.start > piece) {
          layout!.large.set(frame.start, { end: i + 1, children: frame.children });
          frame.children = [];
        }
      }
      i += 1;
      continue;
    }
    let length = 0;
    let j = i;
    let escaped = false;
    if (c === 0x22) {
      // To the closing quote. A short string is read unit by unit; past SHORT_STRING_UNITS the
      // engine's own search finds the quote (a call costs what reading about a hundred units does).
      readString(u, i + 1, Math.min(n, i + 1 + SHORT_STRING_UNITS));
      j = stringRead.end;
      length = stringRead.characters;
      escaped = stringRead.escaped;
      if (u[j] !== 0x22) {
        const quote = indexOfUnit(u, 0x22, j);
        if (quote === -1) return undefined; // unterminated: the parser says so
        if (nextBackslash !== -1 && nextBackslash < j) nextBackslash = indexOfUnit(u, 0x5c, j);
        if (nextBackslash === -1 || nextBackslash > quote) {
          length += quote - j;
          j = quote;
        } else {
          // Escapes in a long string: step over them one by one.
          readString(u, j, n);
          if (stringRead.end >= n) return undefined;
          j = stringRead.end;
          length += stringRead.characters;
          escaped = true;
        }
      }
      const k = spacesEnd(u, j + 1, n);
      const top = depth > 0 ? frames[depth - 1]! : undefined;
      if (top !== undefined && top.object && u[k] === 0x3a) {
        if (length > limits.maxStringLength) {
          const parent = pathOf(u, frames, depth - 1);
          return problem(parent, `${parent} has a field name longer than ${limits.maxStringLength} characters`);
        }
        const name = escaped ? decoded(unitsText(u, i, j + 1)) : undefined;
        if (escaped && name === undefined) return undefined; // a bad escape: the parser says so
        const at = top.count;
        top.keyStart[at] = i;
        top.keyEnd[at] = j;
        top.keyEscaped[at] = escaped;
        top.keyHash[at] = name === undefined ? hashOfUnits(u, i + 1, j) : hashOfText(name);
        top.count = at + 1;
        top.children.push(i);
        const special = name === undefined ? specialNameOfUnits(u, i + 1, j) : SPECIAL_NAMES.indexOf(name);
        top.constructorKey = special === CONSTRUCTOR;
        if (
          special === PROTO ||
          (special === PROTOTYPE && depth >= 2 && frames[depth - 2]!.object && frames[depth - 2]!.constructorKey)
        ) {
          const path = pathOf(u, frames, depth);
          return problem(
            path,
            `${path} is a field name this server refuses: read into an object, it would change what every object inherits`,
          );
        }
        for (let m = 0; m < at; m++) {
          if (top.keyHash[m] === top.keyHash[at] && keyText(u, top, m) === keyText(u, top, at)) {
            const path = pathOf(u, frames, depth);
            return problem(
              path,
              `${path} is given twice in one object; each field may appear once, so that every reader of the body sees the same value`,
            );
          }
        }
        if (top.count > limits.maxObjectKeys) {
          const parent = pathOf(u, frames, depth - 1);
          return problem(parent, `${parent} must have at most ${limits.maxObjectKeys} fields`);
        }
        i = k + 1;
        continue;
      }
      j += 1;
    } else if (c !== 0x7b && c !== 0x5b) {
      // A number or a literal (true, false, null), or text the parser will refuse.
      j = tokenEnd(u, i + 1);
      length = j - i;
    }

    // A value starts in the innermost container: count it, and in an array check the entries.
    values += 1;
    if (values > limits.maxValues)
      return problem('$', `the body has more than ${limits.maxValues} values, the most this server reads`);
    const top = depth > 0 ? frames[depth - 1]! : undefined;
    if (top !== undefined && !top.object) {
      top.count += 1;
      top.children.push(i);
      if (top.count > limits.maxArrayEntries) {
        const path = pathOf(u, frames, depth - 1);
        return problem(path, `${path} must have at most ${limits.maxArrayEntries} entries`);
      }
    }

    if (c === 0x7b || c === 0x5b) {
      if (depth >= limits.maxDepth) {
        const path = pathOf(u, frames, depth);
        return problem(path, `${path} is nested deeper than ${limits.maxDepth} levels, the most this server reads`);
      }
      let frame = frames[depth];
      if (frame === undefined) {
        frame = {
          object: false,
          start: 0,
          count: 0,
          children: [],
          keyStart: [],
          keyEnd: [],
          keyEscaped: [],
          keyHash: [],
          constructorKey: false,
        };
        frames.push(frame);
      }
      frame.object = c === 0x7b;
      frame.start = i;
      frame.count = 0;
      frame.children.length = 0;
      frame.constructorKey = false;
      depth += 1;
      i += 1;
    } else if (c === 0x22) {
      if (length > limits.maxStringLength) {
        const path = pathOf(u, frames, depth);
        return problem(
          path,
          `${path} must be at most ${limits.maxStringLength} characters long, the most this server reads`,
        );
      }
      i = j;
    } else {
      if (length > limits.maxNumberLength) {
        const path = pathOf(u, frames, depth);
        return problem(
          path,
          `${path} is ${length} characters long; a number may have at most ${limits.maxNumberLength}`,
        );
      }
      i = j;
    }
  }
  return undefined;
}

function problem(path: string, text: string): Problem {
  return { code: 'FORMAT_ERROR', path, text };
}

/** The JSON path of the current member of the first `depth` containers: `$.payments[3].creditorName`. */
function pathOf(u: JsonUnits, frames: readonly Frame[], depth: number): string {
  let path = '$';
  for (let f = 0; f < depth; f++) {
    const frame = frames[f]!;
    path = frame.object
      ? appendKey(path, frame.count === 0 ? '' : (keyText(u, frame, frame.count - 1) ?? ''))
      : `${path}[${frame.count - 1}]`;
  }
  return path;
}

/** A field name's text (rarely needed: a duplicate's hash matched, or a path for an answer). */
function keyText(u: JsonUnits, frame: Frame, k: number): string | undefined {
  return frame.keyEscaped[k] === true
    ? decoded(unitsText(u, frame.keyStart[k]!, frame.keyEnd[k]! + 1))
    : unitsText(u, frame.keyStart[k]! + 1, frame.keyEnd[k]!);
}

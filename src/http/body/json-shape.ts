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
import { type Frame, keyText, newFrame, pathOf } from './shape-frames.js';
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
 * The state of one pass, which the step of each token reads and moves on: one object per body, made
 * with every field at once so that each step sees one shape, and none per token. Not a module's
 * variables: passes of two bodies take turns (each pauses between slices).
 */
interface ShapeScan {
  readonly u: JsonUnits;
  readonly n: number;
  readonly limits: JsonShapeLimits;
  readonly layout: JsonLayout | undefined;
  /** A container longer than this is noted in the layout (one longer than the body: none is). */
  readonly piece: number;
  /** Made once per level and reused: no allocation per object or array. */
  readonly frames: Frame[];
  /** Containers open. */
  depth: number;
  /** Values so far. */
  values: number;
  /** Where the pass is: the first unit of the next token. */
  i: number;
  /**
   * The next backslash at or after a position, searched again only once passed: each unit is
   * searched once in all (a search per string would read to the end of the text each time).
   */
  nextBackslash: number;
  /** The string just read: where its closing quote is, its characters, whether one is escaped. */
  end: number;
  length: number;
  escaped: boolean;
  /** Why the pass stops when a step says so: the limit crossed, or undefined for text the parser refuses. */
  stopped: Problem | undefined;
}

/**
 * The same check, in slices: it pauses (yields) after about `sliceUnits` units, so that the caller
 * can let the event loop turn between slices of a large body (read-json-body.ts). Each token is read
 * by a step of its own (a string, a number or literal, a bracket) that returns false to stop the pass.
 */
export function* scanJsonShape(
  u: JsonUnits,
  limits: JsonShapeLimits,
  sliceUnits: number,
  layout?: JsonLayout,
): Generator<void, Problem | undefined> {
  const s: ShapeScan = {
    u,
    n: u.length,
    limits,
    layout,
    piece: layout?.pieceUnits ?? u.length + 1,
    frames: [],
    depth: 0,
    values: 0,
    i: 0,
    nextBackslash: -2,
    end: 0,
    length: 0,
    escaped: false,
    stopped: undefined,
  };
  // No closures here: made anew on each call, they would be new call targets to the code V8
  // optimized for the last call, which it then throws away, and each body's first reads would run
  // unoptimised (bench/README.md, "Figures behind the source's reasons").
  let sliceEnd = sliceUnits;
  while (s.i < s.n) {
    if (s.i >= sliceEnd) {
      yield;
      sliceEnd = s.i + sliceUnits;
    }
    const c = u[s.i]!;
    if (isSeparator(c)) {
      // A run of separators, to the end of the slice at most.
      s.i = separatorsEnd(u, s.i + 1, Math.min(s.n, sliceEnd));
    } else if (c === 0x7d || c === 0x5d) {
      closeContainer(s);
    } else if (c === 0x22) {
      if (!stringToken(s)) return s.stopped;
    } else if (c === 0x7b || c === 0x5b) {
      if (!openContainer(s, c === 0x7b)) return s.stopped;
    } else if (!scalarToken(s)) {
      return s.stopped;
    }
  }
  return undefined;
}

/** Stops the pass: `why` is the limit crossed, or undefined for text the parser refuses. */
function stop(s: ShapeScan, why: Problem | undefined): false {
  s.stopped = why;
  return false;
}

/** The innermost open container, if any. */
function topOf(s: ShapeScan): Frame | undefined {
  return s.depth > 0 ? s.frames[s.depth - 1]! : undefined;
}

/** A closing bracket: the container it closes is noted in the layout when larger than a piece. */
function closeContainer(s: ShapeScan): void {
  if (s.depth > 0) {
    s.depth -= 1;
    const frame = s.frames[s.depth]!;
    if (s.i + 1 - frame.start > s.piece) {
      s.layout!.large.set(frame.start, { end: s.i + 1, children: frame.children });
      frame.children = [];
    }
  }
  s.i += 1;
}

/** An opening bracket: a value, and a level deeper. */
function openContainer(s: ShapeScan, object: boolean): boolean {
  if (!countValue(s)) return false;
  const { depth, limits } = s;
  if (depth >= limits.maxDepth) {
    const path = pathOf(s.u, s.frames, depth);
    return stop(
      s,
      problem(path, `${path} is nested deeper than ${limits.maxDepth} levels, the most this server reads`),
    );
  }
  let frame = s.frames[depth];
  if (frame === undefined) {
    frame = newFrame();
    s.frames.push(frame);
  }
  frame.object = object;
  frame.start = s.i;
  frame.count = 0;
  frame.children.length = 0;
  frame.constructorKey = false;
  s.depth = depth + 1;
  s.i += 1;
  return true;
}

/** A number or a literal (true, false, null), or text the parser will refuse. */
function scalarToken(s: ShapeScan): boolean {
  const j = tokenEnd(s.u, s.i + 1);
  const length = j - s.i;
  if (!countValue(s)) return false;
  if (length > s.limits.maxNumberLength) {
    const path = pathOf(s.u, s.frames, s.depth);
    return stop(
      s,
      problem(path, `${path} is ${length} characters long; a number may have at most ${s.limits.maxNumberLength}`),
    );
  }
  s.i = j;
  return true;
}

/** A string: a field's name when a colon follows it in an object, else a value. */
function stringToken(s: ShapeScan): boolean {
  if (!readStringToken(s)) return stop(s, undefined); // unterminated: the parser says so
  const k = spacesEnd(s.u, s.end + 1, s.n);
  const top = topOf(s);
  if (top !== undefined && top.object && s.u[k] === 0x3a) {
    if (!fieldName(s, top)) return false;
    s.i = k + 1;
    return true;
  }
  if (!countValue(s)) return false;
  if (s.length > s.limits.maxStringLength) {
    const path = pathOf(s.u, s.frames, s.depth);
    return stop(
      s,
      problem(path, `${path} must be at most ${s.limits.maxStringLength} characters long, the most this server reads`),
    );
  }
  s.i = s.end + 1;
  return true;
}

/**
 * Reads the string that opens at the pass's position to its closing quote (s.end), with its
 * characters (s.length) and whether it has escapes; false when it never closes. A short string is
 * read unit by unit; past SHORT_STRING_UNITS the engine's own search finds the quote (a call costs
 * what reading about a hundred units does).
 */
function readStringToken(s: ShapeScan): boolean {
  const { u, n } = s;
  readString(u, s.i + 1, Math.min(n, s.i + 1 + SHORT_STRING_UNITS));
  let j = stringRead.end;
  s.length = stringRead.characters;
  s.escaped = stringRead.escaped;
  if (u[j] !== 0x22) {
    const quote = indexOfUnit(u, 0x22, j);
    if (quote === -1) return false;
    if (s.nextBackslash !== -1 && s.nextBackslash < j) s.nextBackslash = indexOfUnit(u, 0x5c, j);
    if (s.nextBackslash === -1 || s.nextBackslash > quote) {
      s.length += quote - j;
      j = quote;
    } else {
      // Escapes in a long string: step over them one by one.
      readString(u, j, n);
      if (stringRead.end >= n) return false;
      j = stringRead.end;
      s.length += stringRead.characters;
      s.escaped = true;
    }
  }
  s.end = j;
  return true;
}

/** A value starts in the innermost container: count it, and in an array check the entries. */
function countValue(s: ShapeScan): boolean {
  s.values += 1;
  const { limits } = s;
  if (s.values > limits.maxValues)
    return stop(s, problem('$', `the body has more than ${limits.maxValues} values, the most this server reads`));
  const top = topOf(s);
  if (top !== undefined && !top.object) {
    top.count += 1;
    top.children.push(s.i);
    if (top.count > limits.maxArrayEntries) {
      const path = pathOf(s.u, s.frames, s.depth - 1);
      return stop(s, problem(path, `${path} must have at most ${limits.maxArrayEntries} entries`));
    }
  }
  return true;
}

/** The name of a field of the innermost object (the string just read): noted, and checked against the object's other names. */
function fieldName(s: ShapeScan, top: Frame): boolean {
  const { u, i, end, depth, limits } = s;
  if (s.length > limits.maxStringLength) {
    const parent = pathOf(u, s.frames, depth - 1);
    return stop(s, problem(parent, `${parent} has a field name longer than ${limits.maxStringLength} characters`));
  }
  const name = s.escaped ? decoded(unitsText(u, i, end + 1)) : undefined;
  if (s.escaped && name === undefined) return stop(s, undefined); // a bad escape: the parser says so
  const at = top.count;
  top.keyStart[at] = i;
  top.keyEnd[at] = end;
  top.keyEscaped[at] = s.escaped;
  top.keyHash[at] = name === undefined ? hashOfUnits(u, i + 1, end) : hashOfText(name);
  top.count = at + 1;
  top.children.push(i);
  const special = name === undefined ? specialNameOfUnits(u, i + 1, end) : SPECIAL_NAMES.indexOf(name);
  top.constructorKey = special === CONSTRUCTOR;
  if (special === PROTO || (special === PROTOTYPE && withinConstructor(s))) {
    const path = pathOf(u, s.frames, depth);
    return stop(
      s,
      problem(
        path,
        `${path} is a field name this server refuses: read into an object, it would change what every object inherits`,
      ),
    );
  }
  return uniqueFieldName(s, top, at);
}

/** Whether the innermost object is the value of a field named `constructor`. */
function withinConstructor(s: ShapeScan): boolean {
  return s.depth >= 2 && s.frames[s.depth - 2]!.object && s.frames[s.depth - 2]!.constructorKey;
}

/** The field name just noted (the object's `at`th) is none of the object's earlier names, and within the object's limit of fields. */
function uniqueFieldName(s: ShapeScan, top: Frame, at: number): boolean {
  const { u, depth, limits } = s;
  for (let m = 0; m < at; m++) {
    if (top.keyHash[m] === top.keyHash[at] && keyText(u, top, m) === keyText(u, top, at)) {
      const path = pathOf(u, s.frames, depth);
      return stop(
        s,
        problem(
          path,
          `${path} is given twice in one object; each field may appear once, so that every reader of the body sees the same value`,
        ),
      );
    }
  }
  if (top.count > limits.maxObjectKeys) {
    const parent = pathOf(u, s.frames, depth - 1);
    return stop(s, problem(parent, `${parent} must have at most ${limits.maxObjectKeys} fields`));
  }
  return true;
}

function problem(path: string, text: string): Problem {
  return { code: 'FORMAT_ERROR', path, text };
}

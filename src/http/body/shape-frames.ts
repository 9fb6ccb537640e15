import { decoded } from './field-names.js';
import { appendKey } from './json-path.js';
import { type JsonUnits, unitsText } from './utf8-body.js';

/**
 * A container open during the shape pass (json-shape.ts): what the pass has read of it so far. The
 * pass makes one per level of nesting and reuses it for every container at that level.
 */
export interface Frame {
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

/** A frame for a level the pass has not reached before. */
export function newFrame(): Frame {
  return {
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
}

/** The JSON path of the current member of the first `depth` containers: `$.payments[3].creditorName`. */
export function pathOf(u: JsonUnits, frames: readonly Frame[], depth: number): string {
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
export function keyText(u: JsonUnits, frame: Frame, k: number): string | undefined {
  return frame.keyEscaped[k] === true
    ? decoded(unitsText(u, frame.keyStart[k]!, frame.keyEnd[k]! + 1))
    : unitsText(u, frame.keyStart[k]! + 1, frame.keyEnd[k]!);
}

import { decoded } from './field-names.js';
import type { JsonLayout, LargeContainer } from './json-shape.js';
import { isSpace, spacesEnd, stringEnd } from './json-tokens.js';
import { type JsonUnits, unitsText, unitsTextWithin } from './utf8-body.js';

/**
 * Parses a body whose shape json-shape.ts checked and laid out: what is no larger than the layout's
 * piece is given to JSON.parse as it is, and a larger container is parsed a few entries (or fields)
 * at a time, at the seams the shape pass noted, each piece a string of the young generation. A body
 * at the list-body limit is then never one string: such a string is made in fresh pages of its own,
 * which are slow to touch on a virtual machine, and fills the old generation (utf8-body.ts).
 *
 * Every unit of the text is read by JSON.parse or checked here (the spaces and commas between
 * pieces, the brackets, each field name), and each piece must hold exactly the entries the shape pass
 * counted in it, so the pieces give what JSON.parse gives the whole text. Where they do not meet (the
 * text is not JSON), the whole text is parsed, for the parser's own answer and message.
 */
export function parseJsonUnits(u: JsonUnits, layout: JsonLayout): unknown {
  const start = spacesEnd(u, 0, u.length);
  const end = spacesBack(u, start, u.length);
  const root = layout.large.get(start);
  try {
    // A value no larger than a piece, without the spaces around it (a body may pad them to its limit).
    if (root === undefined) return JSON.parse(unitsText(u, start, end));
    if (root.end === end) return parseContainer(u, layout, start, root);
  } catch {
    // Not JSON: JSON.parse of the whole text names the fault where it is.
  }
  return JSON.parse(unitsText(u, 0, u.length));
}

/** The pieces do not meet: the text is not JSON. */
class Seam extends Error {}

function parseContainer(u: JsonUnits, layout: JsonLayout, open: number, { end, children }: LargeContainer): unknown {
  const object = u[open] === 0x7b;
  const close = end - 1;
  if (u[close] !== (object ? 0x7d : 0x5d)) throw new Seam();
  const list: unknown[] = [];
  const fields: Record<string, unknown> = {};
  if (!onlySpaces(u, open + 1, children[0] ?? close)) throw new Seam();
  let g = 0;
  while (g < children.length) {
    const first = children[g]!;
    const valueStart = valueAt(u, object, first);
    const inner = layout.large.get(valueStart);
    let h = g + 1;
    let valueEnd: number;
    if (inner !== undefined) {
      const value = parseContainer(u, layout, valueStart, inner);
      if (object) fields[nameOf(u, first)] = value;
      else list.push(value);
      valueEnd = inner.end;
    } else {
      while (
        h < children.length &&
        (children[h + 1] ?? close) - first <= layout.pieceUnits &&
        !layout.large.has(valueAt(u, object, children[h]!))
      )
        h += 1;
      valueEnd = spacesBack(u, first, h < children.length ? commaBefore(u, first, children[h]!) : close);
      if (object) {
        const part = JSON.parse(unitsTextWithin(u, first, valueEnd, '{', '}')) as Record<string, unknown>;
        const names = Object.keys(part);
        if (names.length !== h - g) throw new Seam();
        for (const name of names) fields[name] = part[name];
      } else {
        const part = JSON.parse(unitsTextWithin(u, first, valueEnd, '[', ']')) as unknown[];
        if (part.length !== h - g) throw new Seam();
        for (const value of part) list.push(value);
      }
    }
    // Between a piece and the next entry: spaces, one comma, spaces; after the last, spaces to the close.
    if (h < children.length ? !isSeparator(u, valueEnd, children[h]!) : !onlySpaces(u, valueEnd, close))
      throw new Seam();
    g = h;
  }
  return object ? fields : list;
}

/** Where the value of an entry starting at `start` starts: there in an array, after the field's name and colon in an object. */
function valueAt(u: JsonUnits, object: boolean, start: number): number {
  return object ? fieldAt(u, start).valueAt : start;
}

/** A field's name ends after its closing quote; its value starts after the colon. */
function fieldAt(u: JsonUnits, nameStart: number): { nameEnd: number; valueAt: number } {
  const nameEnd = stringEnd(u, nameStart + 1) + 1;
  const colon = spacesEnd(u, nameEnd, u.length);
  if (u[colon] !== 0x3a) throw new Seam();
  return { nameEnd, valueAt: spacesEnd(u, colon + 1, u.length) };
}

function nameOf(u: JsonUnits, nameStart: number): string {
  const name = decoded(unitsText(u, nameStart, fieldAt(u, nameStart).nameEnd));
  if (typeof name !== 'string') throw new Seam();
  return name;
}

function onlySpaces(u: JsonUnits, from: number, to: number): boolean {
  return spacesEnd(u, from, to) === to;
}

/** Spaces, one comma, spaces. */
function isSeparator(u: JsonUnits, from: number, to: number): boolean {
  const comma = spacesEnd(u, from, to);
  return comma < to && u[comma] === 0x2c && onlySpaces(u, comma + 1, to);
}

/** Where the comma before `next` is, past the spaces before it (no further back than `floor`). */
function commaBefore(u: JsonUnits, floor: number, next: number): number {
  const at = spacesBack(u, floor, next) - 1;
  if (at < floor || u[at] !== 0x2c) throw new Seam();
  return at;
}

/** `to`, moved back over the spaces before it (no further back than `floor`). */
function spacesBack(u: JsonUnits, floor: number, to: number): number {
  let k = to;
  while (k > floor && isSpace(u[k - 1]!)) k -= 1;
  return k;
}

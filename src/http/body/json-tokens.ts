import type { JsonUnits } from './utf8-body.js';

/**
 * The units of a JSON text read from a position: strings, numbers and literals, separators and
 * spaces. The shape pass (json-shape.ts) reads a body with these, and the piece parser
 * (json-pieces.ts) checks the seams between its pieces with them.
 */

/** Units of a string read by the scan's own loop before it asks the engine to search for the closing quote. */
export const SHORT_STRING_UNITS = 256;

/** The first position at or after `from` holding `unit`, or -1: a native search (memchr for bytes). */
export function indexOfUnit(u: JsonUnits, unit: number, from: number): number {
  return Buffer.isBuffer(u) ? u.indexOf(unit, from) : u.indexOf(unit, from);
}

export function isSeparator(c: number): boolean {
  return c === 0x20 || c === 0x2c || c === 0x3a || c === 0x0a || c === 0x0d || c === 0x09;
}

/** What readString read: where it stopped, the characters it read, whether one was escaped. */
export const stringRead = { end: 0, characters: 0, escaped: false };

/**
 * Reads a string's units from `from` to its closing quote, or to `to` if that comes first. An escape
 * is stepped over whole and counts as one character, as in the text it stands for.
 */
export function readString(u: JsonUnits, from: number, to: number): void {
  let j = from;
  let characters = 0;
  let escaped = false;
  while (j < to) {
    const d = u[j]!;
    if (d === 0x22) break;
    if (d === 0x5c) {
      escaped = true;
      j += u[j + 1] === 0x75 ? 6 : 2;
    } else {
      j += 1;
    }
    characters += 1;
  }
  stringRead.end = j;
  stringRead.characters = characters;
  stringRead.escaped = escaped;
}

/** Where a number or literal that goes on at `from` ends: at the next delimiter, or the end. */
export function tokenEnd(u: JsonUnits, from: number): number {
  let j = from;
  while (j < u.length && !isDelimiter(u[j]!)) j += 1;
  return j;
}

// The scan's inner loops are functions of their own: run inside the generator, a loop of a few
// instructions per unit allocated on every turn (a body of 1.5 MiB of spaces made 100 MB of garbage).

/** Where the run of separators from `from` ends, `to` at most. */
export function separatorsEnd(u: JsonUnits, from: number, to: number): number {
  let i = from;
  while (i < to && isSeparator(u[i]!)) i += 1;
  return i;
}

/** Where the run of spaces from `from` ends, `to` at most. */
export function spacesEnd(u: JsonUnits, from: number, to: number): number {
  let k = from;
  while (k < to && isSpace(u[k]!)) k += 1;
  return k;
}

/** Where the string whose first unit (after its opening quote) is at `from` closes: its quote, or the end or beyond when it does not. */
export function stringEnd(u: JsonUnits, from: number): number {
  readString(u, from, u.length);
  return stringRead.end;
}

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isDelimiter(c: number): boolean {
  return isSpace(c) || c === 0x2c || c === 0x3a || c === 0x7b || c === 0x7d || c === 0x5b || c === 0x5d || c === 0x22;
}

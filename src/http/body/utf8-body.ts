import { isAscii, isUtf8, transcode } from 'node:buffer';
import { PARSE_PIECE_UNITS } from '../../domain/limits.js';

/**
 * A body's text as code units, indexed as a JavaScript string is: its bytes when it is ASCII (the
 * usual body), else its UTF-16 code units. Reading a large body as units rather than as one string
 * spares a string of up to the list-body limit: V8 makes each such string in fresh pages of its own
 * (large-object space), which are slow to touch on a virtual machine, and such strings fill the old
 * generation so that full collections pause the event loop every few large bodies (docs/decisions/0147). The
 * shape pass reads the units (json-shape.ts),
 * and the parser reads them in pieces of a few KiB (json-pieces.ts), each a string of the young
 * generation.
 */
export type JsonUnits = Buffer | Uint16Array;

/**
 * The body's code units, or undefined when its bytes are not UTF-8. Checking the bytes (isUtf8, SIMD)
 * and converting them to UTF-16 with ICU's transcoder is several times faster on non-ASCII text than
 * Node's UTF-8 decoders (docs/decisions/0136). A
 * leading byte order mark is dropped, as TextDecoder does.
 */
export function bodyUnits(raw: Buffer): JsonUnits | undefined {
  if (isAscii(raw)) return raw;
  if (!isUtf8(raw)) return undefined;
  const bytes = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.subarray(3) : raw;
  let wide = transcode(bytes, 'utf8', 'utf16le');
  // A Uint16Array view needs an even offset; a transcoded buffer has its own memory, so this is rare.
  if (wide.byteOffset % 2 !== 0) wide = Buffer.from(wide);
  return new Uint16Array(wide.buffer, wide.byteOffset, wide.length / 2);
}

/** The text of the units from `start` to `end` (exclusive). */
export function unitsText(units: JsonUnits, start: number, end: number): string {
  if (Buffer.isBuffer(units)) return units.toString('latin1', start, end);
  return Buffer.from(units.buffer, units.byteOffset + start * 2, (end - start) * 2).toString('utf16le');
}

/**
 * The text of the units from `start` to `end` between two characters (a bracket each), made as one
 * string: joined with a template, the text would be copied twice (a string, then the flat string the
 * parser reads), and parsing a 1.5 MiB body in pieces made 1.5 MB more garbage.
 */
export function unitsTextWithin(units: JsonUnits, start: number, end: number, before: string, after: string): string {
  const length = end - start;
  if (length > SCRATCH_UNITS) return `${before}${unitsText(units, start, end)}${after}`;
  if (Buffer.isBuffer(units)) {
    scratchBytes[0] = before.charCodeAt(0);
    units.copy(scratchBytes, 1, start, end);
    scratchBytes[length + 1] = after.charCodeAt(0);
    return scratchBytes.toString('latin1', 0, length + 2);
  }
  scratchWide[0] = before.charCodeAt(0);
  scratchWide.set(units.subarray(start, end), 1);
  scratchWide[length + 1] = after.charCodeAt(0);
  return scratchWideBytes.toString('utf16le', 0, (length + 2) * 2);
}

/** The most units unitsTextWithin copies into its scratch memory: a piece of the parser (PARSE_PIECE_UNITS) with room. */
const SCRATCH_UNITS = 2 * PARSE_PIECE_UNITS;
const scratchBytes = Buffer.allocUnsafeSlow(SCRATCH_UNITS + 2);
const scratchWide = new Uint16Array(SCRATCH_UNITS + 2);
const scratchWideBytes = Buffer.from(scratchWide.buffer);

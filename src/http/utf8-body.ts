import { isAscii, isUtf8, transcode } from 'node:buffer';
import { DECODE_PIECE_BYTES } from '../domain/limits.js';

/**
 * A body's bytes as text, or undefined when they are not UTF-8. Node's UTF-8 decoders (TextDecoder,
 * Buffer#toString) build a string from 2 MiB of non-ASCII text in 13 ms, in one step of the event
 * loop; checking the bytes (isUtf8, SIMD) and converting them to UTF-16 with ICU's transcoder, which
 * V8 then takes as it is, costs 3 ms. ASCII, the usual body, is read byte for byte. A leading byte
 * order mark is dropped, as TextDecoder does.
 */
export function decodeUtf8(raw: Buffer): string | undefined {
  if (isAscii(raw)) return decodeInPieces(raw, 'latin1');
  if (!isUtf8(raw)) return undefined;
  // The mark is dropped from the bytes: reading the text's first character here would join its
  // pieces, the step the shape pass takes after a turn of the event loop (src/http/hooks/request-body.ts).
  const bytes = raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.subarray(3) : raw;
  return decodeInPieces(transcode(bytes, 'utf8', 'utf16le'), 'utf16le');
}

/**
 * Bytes decoded a piece at a time, the pieces joined. Node keeps a decoded string of more than about
 * 1 MB outside V8's heap, and V8 starts a full collection for the "external memory pressure" such
 * strings make: in a stream of 2 MiB bodies, 14 of its 22 full collections in 8 s, each pausing the
 * event loop 10-20 ms. Decoded in pieces of DECODE_PIECE_BYTES and joined, the text is V8's own, and
 * the same stream made 4. The pieces are small enough to be made in the young generation's pages,
 * already in use, so the only fresh memory is the joined text, which the shape pass makes when it
 * first reads it, after a turn of the event loop. An even size: a piece of UTF-16 never splits a
 * code unit.
 */
function decodeInPieces(bytes: Buffer, encoding: 'latin1' | 'utf16le'): string {
  if (bytes.length <= DECODE_PIECE_BYTES) return bytes.toString(encoding);
  let text = '';
  for (let at = 0; at < bytes.length; at += DECODE_PIECE_BYTES) text += bytes.toString(encoding, at, Math.min(bytes.length, at + DECODE_PIECE_BYTES));
  return text;
}

import { randomBase64url } from './random-text.js';

/**
 * The 64 characters of base64url in their byte order, so that text compared byte by byte (SQLite's
 * BINARY collation) sorts as the numbers they write.
 */
export const SORTED_BASE64URL = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';

/** Characters of the time part: 8 of 6 bits hold the milliseconds since 1970 until the year 10889. */
const TIME_CHARS = 8;

/** Random bytes after the time: 96 bits, so an id stays unguessable whoever knows when it was made. */
const RANDOM_BYTES = 12;

/**
 * An id that is unguessable and sorts by the time it was made: the milliseconds in sortable base64url,
 * then 96 random bits in base64url, 24 characters in all.
 *
 * Ids of rows a request writes are keys of their tables' indexes. Random keys put each new row on a
 * page of its own, anywhere in the index, and every such page is written to the WAL at each commit
 * (bench/history.md, "Where the time goes"); keys in time order put the rows of a moment next to
 * each other, on the index's last pages.
 */
export function timeOrderedId(nowMs: number = Date.now()): string {
  return timePart(nowMs) + randomBase64url(RANDOM_BYTES);
}

/** The time part of a time-ordered id: the milliseconds in TIME_CHARS sortable base64url characters. */
export function timePart(nowMs: number): string {
  let time = '';
  let rest = Math.max(0, Math.floor(nowMs));
  for (let i = 0; i < TIME_CHARS; i++) {
    time = SORTED_BASE64URL[rest % 64]! + time;
    rest = Math.floor(rest / 64);
  }
  return time;
}

import { INT32_MAX } from './limits.js';
import { isCalendarDate } from './clock.js';

/**
 * Where a transaction page ends: the booking date and position of its last transaction. Listings are
 * in booking-date order, then posting order (the dense position, seq), which never change for a
 * booked transaction; the next page starts after the cursor, so it is one index range however deep
 * it is (keyset pagination), and a transaction is never shown twice nor skipped between pages.
 */
export interface TransactionCursor {
  bookingDate: string;
  seq: number;
}

/** The cursor as the `cursor` query parameter of `_links.next`: `2026-11-22.1042`. */
export function formatCursor(cursor: TransactionCursor): string {
  return `${cursor.bookingDate}.${cursor.seq}`;
}

/** A cursor's form: a booking date, a dot, a position (the schema's pattern; parseCursor reads its groups). */
export const CURSOR_PATTERN = '^(\\d{4}-\\d{2}-\\d{2})\\.([1-9]\\d{0,9})$';
const CURSOR = new RegExp(CURSOR_PATTERN);

/** The cursor a `_links.next` carried, or undefined when the text is not one (its date no calendar day, its position beyond an int32). */
export function parseCursor(text: string): TransactionCursor | undefined {
  const match = CURSOR.exec(text);
  if (match === null || !isCalendarDate(match[1]!)) return undefined;
  const seq = Number(match[2]);
  return seq > INT32_MAX ? undefined : { bookingDate: match[1]!, seq };
}

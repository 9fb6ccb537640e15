import { ApiError } from '../../domain/api-error.js';
import type { BookingStatus } from '../../domain/booking-status.js';
import { AIS_TRANSACTIONS_PAGE_DEFAULT } from '../../domain/limits.js';
import { type TransactionCursor, formatCursor, parseCursor } from '../../domain/transaction-cursor.js';

/** The query of a transaction listing (account or card account), as the route's schema has checked it. */
export interface TransactionListQuery {
  bookingStatus: BookingStatus;
  dateFrom: string;
  dateTo?: string;
  limit?: number;
  cursor?: string;
  withBalance?: boolean;
}

/** Where a listing's page starts and how many entries it has. */
export interface ListingPage {
  cursor: TransactionCursor | undefined;
  limit: number;
}

/** The page a listing asks for; a query refused here is a 400 before the consent is read. */
export function pageOf(query: TransactionListQuery): ListingPage {
  return { cursor: cursorOf(query), limit: query.limit ?? AIS_TRANSACTIONS_PAGE_DEFAULT };
}

/** What the schema cannot check: the cursor is one the bank gave, and dateTo is not before dateFrom. */
function cursorOf(query: TransactionListQuery): TransactionCursor | undefined {
  const cursor = query.cursor === undefined ? undefined : parseCursor(query.cursor);
  if (query.cursor !== undefined && cursor === undefined)
    throw badQuery(
      'cursor',
      `query parameter cursor '${query.cursor}' is not a position this bank gave in _links.next`,
    );
  if (query.dateTo !== undefined && query.dateTo < query.dateFrom)
    throw badQuery('dateTo', `query parameter dateTo ${query.dateTo} is before dateFrom ${query.dateFrom}`);
  return cursor;
}

/** `_links.next`: the same query from after the last entry of this page. */
export function nextPageHref(
  path: string,
  query: TransactionListQuery,
  limit: number,
  after: TransactionCursor,
): string {
  return listingHref(path, query, String(limit), formatCursor(after));
}

/** `_links.self`: the page as it was asked for, its parameters in one order. */
export function pageHref(path: string, query: TransactionListQuery): string {
  return listingHref(path, query, query.limit === undefined ? undefined : String(query.limit), query.cursor);
}

function listingHref(
  path: string,
  query: TransactionListQuery,
  limit: string | undefined,
  cursor: string | undefined,
): string {
  const params = new URLSearchParams({ bookingStatus: query.bookingStatus, dateFrom: query.dateFrom });
  if (query.dateTo !== undefined) params.set('dateTo', query.dateTo);
  if (limit !== undefined) params.set('limit', limit);
  if (query.withBalance === true) params.set('withBalance', 'true');
  if (cursor !== undefined) params.set('cursor', cursor);
  return `${path}/transactions?${params.toString()}`;
}

function badQuery(name: string, text: string): ApiError {
  return new ApiError('FORMAT_ERROR', text, [{ code: 'FORMAT_ERROR', path: `query:${name}`, text }]);
}

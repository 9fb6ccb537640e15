/** The bank's business clock: production follows the wall clock; the sandbox's can be moved forward. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

// Made when first asked: making it loads the time zone's rules, a cost a start to /health need not pay.
let osloFormat: Intl.DateTimeFormat | undefined;

const HOUR_MS = 3_600_000;
let lastHour = Number.NaN;
let lastDate = '';

/**
 * The calendar date in Norway (Europe/Oslo) at an instant, as YYYY-MM-DD. Norway's offsets from UTC
 * are whole hours, so its date changes only on a full UTC hour: the date of the last hour asked is
 * kept, and Intl formats once an hour rather than several times per request.
 */
export function osloDate(instant: Date): string {
  const hour = Math.floor(instant.getTime() / HOUR_MS);
  if (hour !== lastHour) {
    osloFormat ??= new Intl.DateTimeFormat('en-CA', {
      timeZone: 'Europe/Oslo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    lastDate = osloFormat.format(instant);
    lastHour = hour;
  }
  return lastDate;
}

/**
 * The instant a YYYY-MM-DD day begins in Norway: 23:00 UTC the day before in winter (UTC+1), 22:00 in
 * summer (UTC+2); Norway changes its clocks at 01:00 UTC, never at midnight.
 */
export function startOfOsloDay(date: string): Date {
  const midnightUtc = Date.parse(`${date}T00:00:00Z`);
  const summer = new Date(midnightUtc - 2 * HOUR_MS);
  return osloDate(summer) === date ? summer : new Date(midnightUtc - HOUR_MS);
}

/** A YYYY-MM-DD date plus a number of days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

/** A YYYY-MM-DD text that names a day of the calendar (not 2026-02-30). */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

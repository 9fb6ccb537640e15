import { osloInstantOf, osloWallClock } from './oslo-offset.js';

/** The bank's business clock: production follows the wall clock; the sandbox's can be moved forward. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

const HOUR_MS = 3_600_000;
let lastHour = Number.NaN;
let lastDate = '';

/**
 * The calendar date in Norway (Europe/Oslo) at an instant, as YYYY-MM-DD. Norway's offsets from UTC
 * are whole hours, so its date changes only on a full UTC hour: the date of the last hour asked is
 * kept, as several requests an instant ask it.
 */
export function osloDate(instant: Date): string {
  const hour = Math.floor(instant.getTime() / HOUR_MS);
  if (hour !== lastHour) {
    lastDate = osloWallClock(instant.getTime()).toISOString().slice(0, 10);
    lastHour = hour;
  }
  return lastDate;
}

/** The instant a YYYY-MM-DD day begins in Norway: 23:00 UTC the day before in winter (UTC+1), 22:00 in summer (UTC+2). */
export function startOfOsloDay(date: string): Date {
  return new Date(osloInstantOf(date, 0, 0));
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

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

/**
 * Midnight UTC of a year, a month (1-12) and a day, a day or month out of range rolling over as
 * Date.UTC's do. Not Date.UTC itself, which takes the years 0-99 for 1900-1999: a date of the
 * year 0001, which a request's form allows, would be read as 1901's.
 */
export function utcDay(year: number, month: number, day: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

/** A YYYY-MM-DD date plus a number of days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return utcDay(y!, m!, d! + days)
    .toISOString()
    .slice(0, 10);
}

/** A YYYY-MM-DD text that names a day of the calendar (not 2026-02-30), of any year from 0000. */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return false;
  return utcDay(Number(match[1]), Number(match[2]), Number(match[3])).toISOString().slice(0, 10) === text;
}

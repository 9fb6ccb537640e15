import { addDays } from '../clock.js';

/**
 * The days Norwegian banks settle payments: Monday to Friday, except the public holidays of the
 * Act on public holidays (lov om helligdager og helligdagsfred: New Year's Day, Maundy Thursday,
 * Good Friday, Easter Sunday and Monday, Ascension Day, Whit Sunday and Monday, Christmas Day and
 * Boxing Day), the 1st and the 17th of May (lov om 1. og 17. mai som høgtidsdagar), and Christmas
 * Eve and New Year's Eve, when Norges Bank's settlement system is closed and banks do not settle.
 * Computed here from the date of Easter rather than taken from a holiday library: eleven of the
 * twelve follow from one formula, and a library would be a dependency for these few lines.
 */

/** Easter Sunday of a Gregorian year, YYYY-MM-DD (the anonymous Gregorian algorithm, Meeus/Jones/Butcher). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Days from Easter Sunday of the holidays that move with it. */
const EASTER_OFFSETS = [-3, -2, 0, 1, 39, 49, 50];
/** MM-DD of the holidays and closed days that keep their date. */
const FIXED = ['01-01', '05-01', '05-17', '12-24', '12-25', '12-26', '12-31'];

const byYear = new Map<number, ReadonlySet<string>>();

/** The year's days on which banks do not settle, besides Saturdays and Sundays. */
export function bankHolidays(year: number): ReadonlySet<string> {
  let days = byYear.get(year);
  if (days === undefined) {
    const easter = easterSunday(year);
    const yyyy = String(year).padStart(4, '0');
    days = new Set([...FIXED.map((md) => `${yyyy}-${md}`), ...EASTER_OFFSETS.map((n) => addDays(easter, n))]);
    byYear.set(year, days);
  }
  return days;
}

/** A day Norwegian banks settle payments on: a weekday that is no bank holiday. */
export function isBankDay(date: string): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !bankHolidays(Number(date.slice(0, 4))).has(date);
}

/** The date itself when banks settle on it, else the next bank day after it ('following') or the last before it ('preceding'). */
export function bankDayFrom(date: string, direction: 'following' | 'preceding'): string {
  const step = direction === 'following' ? 1 : -1;
  let day = date;
  // A run of closed days is at most five long (Maundy Thursday to Easter Monday).
  while (!isBankDay(day)) day = addDays(day, step);
  return day;
}

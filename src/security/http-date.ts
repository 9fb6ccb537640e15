const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';

/** RFC 9110 section 5.6.7: IMF-fixdate, which senders use, and the two obsolete forms recipients accept. */
const IMF_FIXDATE = new RegExp(`^(?:${DAYS.join('|')}), (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC_850 = new RegExp(`^(?:${LONG_DAYS.join('|')}), (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME = new RegExp(`^(?:${DAYS.join('|')}) ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/**
 * The last IMF-fixdate read and its instant: a TPP's requests of one second carry the same Date, and
 * every signed request reads it. The other two forms depend on `now` and are read every time.
 */
let lastFixdate: { text: string; millis: number | undefined } = { text: '', millis: undefined };

/** Milliseconds since the epoch, or undefined when the text is not an HTTP date (or no real date). */
export function parseHttpDate(text: string, now: number = Date.now()): number | undefined {
  if (text === lastFixdate.text) return lastFixdate.millis;
  const value = text.trim();
  let match = IMF_FIXDATE.exec(value);
  if (match !== null) {
    lastFixdate = { text, millis: instant(Number(match[3]), match[2]!, Number(match[1]), match.slice(4)) };
    return lastFixdate.millis;
  }
  match = RFC_850.exec(value);
  if (match !== null) return instant(fullYear(Number(match[3]), now), match[2]!, Number(match[1]), match.slice(4));
  match = ASCTIME.exec(value);
  if (match !== null) return instant(Number(match[6]), match[1]!, Number(match[2]!.trim()), match.slice(3, 6));
  return undefined;
}

function instant(year: number, monthName: string, day: number, [h, m, s]: string[]): number | undefined {
  const month = MONTHS.indexOf(monthName);
  const millis = Date.UTC(year, month, day, Number(h), Number(m), Number(s));
  const date = new Date(millis);
  // Date.UTC rolls 31 Feb over into March; a date that does not exist is no date.
  const real =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month &&
    date.getUTCDate() === day &&
    date.getUTCHours() === Number(h) &&
    date.getUTCMinutes() === Number(m) &&
    date.getUTCSeconds() === Number(s);
  return real ? millis : undefined;
}

/** RFC 9110: a two-digit year more than 50 years in the future is in the past century. */
function fullYear(twoDigits: number, now: number): number {
  const thisYear = new Date(now).getUTCFullYear();
  const candidate = Math.floor(thisYear / 100) * 100 + twoDigits;
  return candidate > thisYear + 50 ? candidate - 100 : candidate;
}

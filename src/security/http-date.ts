const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';

/** RFC 9110 section 5.6.7: IMF-fixdate, which senders use, and the two obsolete forms recipients accept. */
const IMF_FIXDATE = new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`);
const RFC_850 = new RegExp(`^${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`);
const ASCTIME = new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`);

/** Milliseconds since the epoch, or undefined when the text is not an HTTP date. */
export function parseHttpDate(text: string): number | undefined {
  const value = text.trim();
  let millis: number;
  if (IMF_FIXDATE.test(value) || RFC_850.test(value)) millis = Date.parse(value);
  else if (ASCTIME.test(value)) millis = Date.parse(`${value} GMT`);
  else return undefined;
  return Number.isFinite(millis) ? millis : undefined;
}

/**
 * Norway's time (Europe/Oslo) as the bank keeps it: UTC+1, and UTC+2 in summer, computed from the
 * rule rather than through Intl. A first Intl.DateTimeFormat loads ICU's formatting data, about 8 MB
 * of the process's memory for as long as it runs, where the server needs one offset
 * (docs/decisions/0354). test/domain/oslo-offset.test.ts holds the rule to ICU's time zone data.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * Summer time in Norway, since 1980 the European rule: it begins on the last Sunday of March
 * (1980: the first Sunday of April) and ends on the last Sunday of October (until 1995: of
 * September), both at 01:00 UTC. Before 1980 the bank's dates take UTC+1 throughout.
 */
function summerTime(year: number): { begins: number; ends: number } | undefined {
  if (year < 1980) return undefined;
  return {
    begins: year === 1980 ? Date.UTC(1980, 3, 6, 1) : lastSundayAtOneUtc(year, 2),
    ends: lastSundayAtOneUtc(year, year < 1996 ? 8 : 9),
  };
}

/** 01:00 UTC on the last Sunday of a month (0 = January). */
function lastSundayAtOneUtc(year: number, month: number): number {
  const lastDay = Date.UTC(year, month + 1, 0, 1);
  return lastDay - new Date(lastDay).getUTCDay() * DAY_MS;
}

/** Norway's offset from UTC at an instant, in milliseconds: one hour, or two in summer. */
export function osloOffsetMs(instantMs: number): number {
  const summer = summerTime(new Date(instantMs).getUTCFullYear());
  return summer !== undefined && instantMs >= summer.begins && instantMs < summer.ends ? 2 * HOUR_MS : HOUR_MS;
}

/** The wall clock in Norway at an instant, as the UTC fields of a Date (for toISOString and getUTC*). */
export function osloWallClock(instantMs: number): Date {
  return new Date(instantMs + osloOffsetMs(instantMs));
}

/**
 * The instant Norway's clocks show a time of day on a YYYY-MM-DD date. A time the spring change skips
 * (02:00-02:59) is the instant of the change, and a time the autumn change shows twice is its first:
 * a daily event then happens once a day, as croner, the scheduler this replaced, had it.
 */
export function osloInstantOf(date: string, hour: number, minute: number): number {
  // Date.parse, not Date.UTC, which takes the years 0-99 for 1900-1999.
  const wall = Date.parse(`${date}T00:00:00Z`) + hour * HOUR_MS + minute * MINUTE_MS;
  for (const offset of [2 * HOUR_MS, HOUR_MS]) {
    if (osloOffsetMs(wall - offset) === offset) return wall - offset;
  }
  return summerTime(new Date(wall).getUTCFullYear())!.begins;
}

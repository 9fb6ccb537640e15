/** The bank's business clock: production follows the wall clock; the sandbox's can be moved forward. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

const OSLO_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Oslo', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The calendar date in Norway (Europe/Oslo) at an instant, as YYYY-MM-DD. */
export function osloDate(instant: Date): string {
  return OSLO_DATE.format(instant);
}

/** A YYYY-MM-DD date plus a number of days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

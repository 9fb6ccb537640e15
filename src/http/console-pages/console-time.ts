/**
 * Norwegian time, to the second, the same in both languages: developers compare it with logs and
 * answers. Made when a page first shows a time: making it loads the time zone's rules, a cost the
 * server's start need not pay.
 */
let osloTimeFormat: Intl.DateTimeFormat | undefined;
const osloTimeFormatOf = () =>
  (osloTimeFormat ??= new Intl.DateTimeFormat('sv-SE', {
    timeZone: 'Europe/Oslo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }));

/** An instant as every console page shows it: Europe/Oslo, as the bank's batch times and business dates are. */
export function osloTime(at: Date): string {
  return osloTimeFormatOf().format(at);
}

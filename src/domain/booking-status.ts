/**
 * bookingStatus of a transaction listing (Berlin Group NextGenPSD2; `all` since the platform's
 * release 1.11.7): which lists the answer carries. `information` (standing orders) is not offered:
 * this interface has none.
 */
export const BOOKING_STATUSES = ['booked', 'pending', 'both', 'all'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

export function includesBooked(status: BookingStatus): boolean {
  return status !== 'pending';
}

export function includesPending(status: BookingStatus): boolean {
  return status !== 'booked';
}

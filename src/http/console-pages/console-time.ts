import { osloWallClock } from '../../domain/oslo-offset.js';

/**
 * An instant as every console page shows it: Norwegian time (Europe/Oslo), as the bank's batch times
 * and business dates are, to the second and the same in both languages (YYYY-MM-DD HH:MM:SS):
 * developers compare it with logs and answers.
 */
export function osloTime(at: Date): string {
  return osloWallClock(at.getTime()).toISOString().slice(0, 19).replace('T', ' ');
}

import { osloDate } from './clock.js';
import { AIS_UNATTENDED_READS_PER_DAY } from './limits.js';

/**
 * PSD2 RTS article 36(5): an AISP may read account information without the PSU actively asking at
 * most four times in 24 hours. The PSU is present when the TPP forwards their address
 * (PSU-IP-Address); otherwise the read counts. Counted per account (or card account) and kind of
 * read, as Berlin Group counts frequencyPerDay, and per Norwegian calendar day of the bank's clock, so
 * the sandbox's clock moves the day on.
 */

/** The kinds of read, each counted apart. */
export type ReadKind = 'accounts' | 'account' | 'balances' | 'transactions';

/** The key a read counts under: its kind and the resource it reads (a list counts under its consent). */
export function unattendedReadKey(kind: ReadKind, resourceId: string): string {
  return `${kind}:${resourceId}`;
}

export function unattendedReadDay(now: Date): string {
  return osloDate(now);
}

/** Whether the read that made the count `reads` (this one included) is beyond the day's allowance. */
export function isBeyondUnattendedAllowance(reads: number): boolean {
  return reads > AIS_UNATTENDED_READS_PER_DAY;
}

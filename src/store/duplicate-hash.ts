import { hash } from 'node:crypto';
import { LOGICAL_DUPLICATE_MAX_DAYS } from '../domain/limits.js';

/**
 * The keys the logical-duplicate check finds a transfer by, in the index on (duplicate_scope,
 * duplicate_day, duplicate_hash) (migration 013):
 * - duplicate_scope: the first 8 bytes of the SHA-256 of the transfer's TPP and PSU, a signed 64-bit
 *   integer (duplicateHashScope);
 * - duplicate_day: the UTC day of its created_at, in days since 1970-01-01 (duplicateDay);
 * - duplicate_hash: the first 8 bytes of its duplicate key (a SHA-256 of its parts,
 *   src/domain/payments/payment.ts) XOR the scope (migration 012).
 *
 * Why these, in this order: an index entry at a random place costs a bulk create a page of the WAL
 * for each entry, and that is most of a bulk's store cost (bench/history.md, "Bulk"). Led by the
 * scope and the day, a bulk's entries go into the one run of the index that holds its PSU's transfers
 * of that day, so the pages a bulk dirties are bounded by what its PSU made that day, not by the whole
 * table. The look-up stays bounded too: one probe for each hash on each day the window touches (two
 * days for 24 hours), never a scan of the PSU's transfers.
 *
 * Why integers and not the columns: the index on (tpp_id, psu_key, duplicate_key) held about 170
 * bytes an entry, 25 to a page (migration 012). The integers only find candidates; the look-up
 * compares tpp_id, psu_key and duplicate_key on the row. PostgreSQL computes the same values in SQL
 * for the rows stored before, and for the instances of an earlier version during a rolling upgrade.
 */
export function duplicateHashScope(tppId: string, psuKey: string): bigint {
  return BigInt.asIntN(64, BigInt(`0x${hash('sha256', `${tppId}\n${psuKey}`, 'hex').slice(0, 16)}`));
}

/** The transfer's key under its `scope` (duplicateHashScope of its TPP and PSU). */
export function duplicateHash(scope: bigint, duplicateKey: string): bigint {
  return BigInt.asIntN(64, BigInt(`0x${duplicateKey.slice(0, 16)}`) ^ scope);
}

const DAY_MS = 86_400_000;

/** The UTC day of `at`, in days since 1970-01-01: the day of its ISO text's first ten characters. */
export function duplicateDay(at: Date): number {
  return Math.floor(at.getTime() / DAY_MS);
}

/**
 * The days a look-up from `since` to `until` probes: each from the one of `since` to the one after
 * `until`'s. The day after is there for a transfer stored by another instance whose clock is a
 * little ahead across midnight: the look-up has no upper bound in time, and its days must not make one.
 */
export function duplicateDays(since: Date, until: Date): number[] {
  const first = duplicateDay(since);
  const last = duplicateDay(until) + 1;
  if (last - first + 1 > LOGICAL_DUPLICATE_MAX_DAYS) {
    throw new RangeError(
      `a logical-duplicate look-up from ${since.toISOString()} to ${until.toISOString()} spans more than ${LOGICAL_DUPLICATE_MAX_DAYS} days`,
    );
  }
  const days: number[] = [];
  for (let day = first; day <= last; day++) days.push(day);
  return days;
}

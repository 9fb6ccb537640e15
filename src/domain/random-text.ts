import { randomFillSync } from 'node:crypto';

/**
 * Random bytes taken from a pool filled by the operating system's CSPRNG, POOL_BYTES at a time, as
 * Node's own randomUUID does. Each byte is handed out once. A call of `randomBytes` pays for setting
 * up its job, not for the entropy, and a create makes three (payment id, authorisation id, SCA
 * token): a measurable part of its server time (bench/history.md, "The request's own work").
 */
const POOL_BYTES = 4096;

const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/** `size` random bytes (at most POOL_BYTES) as base64url text. */
export function randomBase64url(size: number): string {
  return take(size).toString('base64url');
}

/** The next `size` bytes of the pool, refilled when too few are left; the caller turns them into text at once. */
function take(size: number): Buffer {
  if (!Number.isInteger(size) || size < 1 || size > POOL_BYTES)
    throw new RangeError(`random text of ${size} bytes: 1 to ${POOL_BYTES} are drawn at a time`);
  if (used + size > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const bytes = pool.subarray(used, used + size);
  used += size;
  return bytes;
}

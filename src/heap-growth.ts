import { setFlagsFromString } from 'node:v8';

/**
 * How far V8's old generation may grow past what it held after its last full collection, in percent:
 * twice, not V8's own up to four times. Under a full create load requests waiting for their flush
 * are promoted, and the old generation filled with them past the peak RSS the bench allows
 * (docs/decisions/0149).
 */
export const HEAP_GROWING_PERCENT = 100;

/**
 * Sets that growth once the server is ready, rather than as a flag of the process (scripts/start.env).
 * V8 checks a code cache against a hash of the flags the process started with, and this flag is in
 * it: given at the start, Node's own modules missed their embedded cache and every start compiled
 * them afresh (docs/decisions/0368). V8 reads the value each time it sets the next limit,
 * so it holds from here on. Call it after the module compile cache is written: a cache made under
 * this flag would not match the next start's.
 */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

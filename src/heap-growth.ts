import { flushCompileCache } from 'node:module';
import { cachedDataVersionTag, setFlagsFromString } from 'node:v8';

/**
 * How far V8's old generation may grow past what it held after its last full collection, in percent:
 * twice, not V8's own up to four times. Under a full create load requests waiting for their flush
 * are promoted, and the old generation filled with them past the peak RSS the bench allows
 * (docs/decisions/0149).
 */
export const HEAP_GROWING_PERCENT = 100;

/**
 * Sets that growth once the server is ready, rather than as a flag of the process (scripts/start.env).
 * V8 checks a code cache against a hash of its current flags, and this flag is in it: given at the
 * start, Node's own modules missed their embedded cache and every start compiled them afresh
 * (docs/decisions/0368). V8 reads the value each time it sets the next limit, so it holds from here
 * on. First what the start compiled goes to the module compile cache (scripts/server-loader.ts): a
 * cache written under this flag would not match the next start's. Written now, not only at exit, it
 * also reaches the next start from a process killed without exiting (SIGKILL, out of memory).
 * True when V8 took the flag: its flags' hash, which the tag of its code caches is made of, changed
 * (a misspelt flag is only warned of, and changes nothing).
 */
export function limitHeapGrowth(): boolean {
  flushCompileCache();
  const before = cachedDataVersionTag();
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return cachedDataVersionTag() !== before;
}

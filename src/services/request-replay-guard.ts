import type { BindingStore } from '../store/binding-store.js';
import { ApiError } from '../domain/api-error.js';
import { REQUEST_BINDING_PURGE_INTERVAL_MS } from '../domain/limits.js';
import { type RequestBinding, bindingConflict } from '../domain/request-binding.js';

/**
 * Refuses a signed request whose X-Request-ID was first used for another request (a captured
 * request replayed as another operation, or with another path or query), before the request does
 * anything. Bindings are judged and expire by the wall clock, as signatures are.
 */
export class RequestReplayGuard {
  private lastPurgeMs: number;

  constructor(
    private readonly store: BindingStore,
    private readonly now: () => number = Date.now,
  ) {
    this.lastPurgeMs = this.now();
  }

  /** Binds the request, or refuses it; 'retry' when it repeats the request its X-Request-ID was bound to. */
  async admit(binding: RequestBinding): Promise<'first' | 'retry'> {
    const now = new Date(this.now());
    const earlier = await this.store.bindRequest(binding, now);
    if (earlier !== undefined) {
      const conflict = bindingConflict(earlier, binding);
      if (conflict !== undefined)
        throw new ApiError('CONFLICT', conflict, [{ code: 'CONFLICT', path: 'header:X-Request-ID', text: conflict }]);
    }
    if (now.getTime() - this.lastPurgeMs >= REQUEST_BINDING_PURGE_INTERVAL_MS) {
      this.lastPurgeMs = now.getTime();
      // Off the request's path: a failed purge is retried at the next interval, and bindings past
      // their time are replaced on reuse anyway (each store's bindRequest).
      this.store.purgeRequestBindings(now).catch(() => undefined);
    }
    return earlier === undefined ? 'first' : 'retry';
  }

  /** Resolves once every binding made so far is on disk: an answer resting on one waits for it (Store.durable). */
  durable(): Promise<void> {
    return this.store.durable();
  }
}

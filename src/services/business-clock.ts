import { ApiError } from '../domain/api-error.js';
import type { Clock } from '../domain/clock.js';
import type { Store } from '../store/store.js';

/**
 * The sandbox's business clock: the wall clock plus an offset a TPP moves forward (never back), kept
 * in the database so a restart keeps the sandbox's date. Signatures and certificates are still
 * judged by the wall clock. Production uses the wall clock alone.
 */
export class SandboxClock implements Clock {
  private constructor(private offsetMs: number) {}

  static async load(store: Store): Promise<SandboxClock> {
    return new SandboxClock(Number(await store.readClockOffset()));
  }

  static fixed(offsetMs = 0): SandboxClock {
    return new SandboxClock(offsetMs);
  }

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  get offsetSeconds(): number {
    return Math.round(this.offsetMs / 1000);
  }

  /** Moves the clock forward to a later instant. */
  async advanceTo(target: Date, store: Store): Promise<void> {
    const now = this.now();
    if (target.getTime() <= now.getTime()) {
      throw new ApiError('FORMAT_ERROR', `the sandbox clock only moves forward: ${target.toISOString()} is not after its time now, ${now.toISOString()}`);
    }
    const offset = target.getTime() - Date.now();
    await store.writeClockOffset(BigInt(offset), new Date());
    this.offsetMs = offset;
  }
}

import {
  NOTIFICATION_CONCURRENCY,
  NOTIFICATION_DESTINATION_CONCURRENCY,
  NOTIFICATION_DESTINATION_RATE_PER_SECOND,
} from '../../domain/limits.js';

/** One destination's share: tries in flight, and when its last tries started (the rate's window). */
interface Lane {
  inFlight: number;
  started: number[];
  waiting: (() => void)[];
}

/**
 * Tries in flight per destination (scheme, host and port) and in all, and tries started per second
 * per destination, for one instance (docs/notifications.md, "Delivery"; docs/decisions/0336): a TPP whose endpoint is slow
 * or down fills its own lane, while other TPPs' notifications go on in theirs. A try waits for its
 * lane's turn; `run` gives the slot back whatever the try did.
 */
export class DestinationGate {
  private readonly lanes = new Map<string, Lane>();
  private inFlight = 0;
  private readonly waitingForAny: (() => void)[] = [];

  constructor(
    private readonly now: () => number = Date.now,
    private readonly perDestination = NOTIFICATION_DESTINATION_CONCURRENCY,
    private readonly ratePerSecond = NOTIFICATION_DESTINATION_RATE_PER_SECOND,
    private readonly total = NOTIFICATION_CONCURRENCY,
    /** Waits `ms` on `now`'s clock (a test's own, so that nothing waits for real time). */
    private readonly wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  async run<T>(uri: string, work: () => Promise<T>): Promise<T> {
    const key = destinationOf(uri);
    const lane = this.laneOf(key);
    await this.enter(lane);
    try {
      return await work();
    } finally {
      this.leave(key, lane);
    }
  }

  /** Tries in flight to the destination of `uri` (tests; the console). */
  inFlightTo(uri: string): number {
    return this.lanes.get(destinationOf(uri))?.inFlight ?? 0;
  }

  private laneOf(key: string): Lane {
    let lane = this.lanes.get(key);
    if (lane === undefined) {
      lane = { inFlight: 0, started: [], waiting: [] };
      this.lanes.set(key, lane);
    }
    return lane;
  }

  private async enter(lane: Lane): Promise<void> {
    for (;;) {
      while (lane.inFlight >= this.perDestination) await new Promise<void>((resolve) => lane.waiting.push(resolve));
      while (this.inFlight >= this.total) await new Promise<void>((resolve) => this.waitingForAny.push(resolve));
      const now = this.now();
      while (lane.started.length > 0 && lane.started[0]! <= now - 1000) lane.started.shift();
      if (lane.started.length < this.ratePerSecond) {
        if (lane.inFlight >= this.perDestination || this.inFlight >= this.total) continue;
        lane.started.push(now);
        lane.inFlight += 1;
        this.inFlight += 1;
        return;
      }
      // The rate is spent: wait until the oldest start of the last second leaves the window.
      await this.wait(lane.started[0]! + 1000 - now);
    }
  }

  private leave(key: string, lane: Lane): void {
    lane.inFlight -= 1;
    this.inFlight -= 1;
    lane.waiting.shift()?.();
    this.waitingForAny.shift()?.();
    if (lane.inFlight === 0 && lane.waiting.length === 0 && lane.started.length === 0) this.lanes.delete(key);
  }
}

/** A destination: scheme, host and port, as the connection sees them. */
export function destinationOf(uri: string): string {
  const url = new URL(uri);
  return `${url.protocol}//${url.host}`;
}

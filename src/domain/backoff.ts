/**
 * How long to wait before the try after the `attempt`-th failure (from 0): doubling from `baseMs`
 * up to `maxMs`, and a random half of each step ("equal jitter"), so that clients retrying together
 * after an outage do not all come back at one instant, and none retries sooner than half its step.
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

import autocannon from 'autocannon';
import { SMOKE } from './smoke.js';

/** One request of a load run, already signed. */
export interface PreparedRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than the expected status: a benchmark that counts errors as throughput lies. */
  unexpected: number;
  /** How many answers of each unexpected status. */
  unexpectedStatuses: Record<number, number>;
  sent: number;
  /** Answers with the expected status. */
  expected: number;
  /** How long the load ran, s. */
  seconds: number;
}

/** Answers other than the expected status, counted by status; errors without an answer count too. */
export class UnexpectedAnswers {
  count = 0;
  /** Answers with the expected status. */
  expected = 0;
  readonly byStatus: Record<number, number> = {};

  constructor(private readonly expect: number) {}

  answered(status: number): void {
    if (status === this.expect) {
      this.expected += 1;
      return;
    }
    this.count += 1;
    this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
  }

  failed(): void {
    this.count += 1;
  }
}

/**
 * Sends the prepared requests from this process (the server runs in another) for a fixed duration
 * with a fixed number of connections; `rate` caps requests per second. Each request is meant to be
 * used once: `sent` beyond the pool's length means the pool was too small and requests were repeated.
 * In a smoke run (bench/smoke.ts) the load sends each request of the pool once instead, however long
 * that takes: its length is bounded by the pool, not the clock. autocannon checks whether it is done
 * at each sample, by default a second apart, which would make every load last a second: the samples
 * are 50 ms apart there, and the rate is the answers over the load's whole time.
 */
export async function runLoad(
  url: string,
  pool: PreparedRequest[],
  options: { connections: number; seconds: number; expect: number; rate?: number },
): Promise<LoadResult> {
  let next = 0;
  const unexpected = new UnexpectedAnswers(options.expect);
  const result = await autocannon({
    url,
    connections: options.connections,
    ...(SMOKE ? { amount: pool.length, sampleInt: 50 } : { duration: options.seconds }),
    ...(options.rate === undefined ? {} : { overallRate: options.rate }),
    requests: [
      {
        setupRequest: (request) => sending(request, pool[next++ % pool.length]!),
        onResponse: (status) => unexpected.answered(status),
      },
    ],
  });
  return {
    requestsPerSecond: SMOKE ? result.requests.total / result.duration : result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    unexpected: unexpected.count + result.errors + result.timeouts,
    unexpectedStatuses: unexpected.byStatus,
    sent: next,
    expected: unexpected.expected,
    seconds: result.duration,
  };
}

/** autocannon's next request, made the prepared one: its method, path, headers and body. */
export function sending<T extends object>(request: T, prepared: PreparedRequest): T {
  return {
    ...request,
    method: prepared.method,
    path: prepared.path,
    headers: prepared.headers,
    ...(prepared.body === undefined ? {} : { body: prepared.body }),
  };
}

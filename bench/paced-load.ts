import { Agent, request } from 'node:http';
import { type LoadResult, type PreparedRequest, UnexpectedAnswers } from './load.js';

/**
 * An open-loop load: requests start at an even pace of `rate` per second, whether or not earlier
 * ones have been answered, over up to `connections` kept-alive connections. autocannon's rate limit
 * lets each second's quota go out at full speed and then waits, so its "half rate" is a burst at
 * full rate; a latency at a rate needs the requests spread over the second, as real clients send
 * them. Latency runs from the moment a request was due to its answer, so a server that falls behind
 * is charged for the queue it builds.
 */
export async function runPacedLoad(
  url: string,
  pool: PreparedRequest[],
  options: { rate: number; seconds: number; connections: number; expect: number },
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const { hostname, port } = new URL(url);
  const latencies: number[] = [];
  const unexpected = new UnexpectedAnswers(options.expect);
  let sent = 0;
  const total = Math.round(options.rate * options.seconds);
  const start = performance.now();
  const answered: Promise<void>[] = [];

  const send = (prepared: PreparedRequest, due: number) =>
    new Promise<void>((resolve) => {
      const req = request(
        { agent, hostname, port, method: prepared.method, path: prepared.path, headers: prepared.headers },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - due);
            unexpected.answered(res.statusCode ?? 0);
            resolve();
          });
        },
      );
      req.on('error', () => {
        unexpected.failed();
        resolve();
      });
      req.end(prepared.body);
    });

  await new Promise<void>((done) => {
    const tick = () => {
      const elapsed = performance.now() - start;
      // Request k is due at k / rate: at `elapsed`, requests 0 … floor(elapsed × rate) are due.
      const due = Math.min(total, Math.floor((elapsed * options.rate) / 1000) + 1);
      while (sent < due) {
        answered.push(send(pool[sent % pool.length]!, start + (sent * 1000) / options.rate));
        sent += 1;
      }
      if (sent >= total) done();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await Promise.all(answered);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  const ms = performance.now() - start;
  return {
    requestsPerSecond: (latencies.length * 1000) / ms,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    unexpected: unexpected.count,
    unexpectedStatuses: unexpected.byStatus,
    sent,
    expected: unexpected.expected,
    seconds: ms / 1000,
  };
}

/**
 * The latency at half of a measured maximum: a paced second of warm-up (the first seconds after a
 * full-rate load pay for its checkpoints), then `seconds` paced at half the rate `saturated` reached,
 * each request made fresh by `make`.
 */
export async function runAtHalfRate(
  url: string,
  saturated: LoadResult,
  make: (i: number) => PreparedRequest,
  options: { seconds: number; connections: number; expect: number },
): Promise<LoadResult> {
  const rate = Math.max(1, Math.round(saturated.requestsPerSecond / 2));
  const requests = (seconds: number) => Array.from({ length: Math.ceil(rate * seconds * 1.1) }, (_, i) => make(i));
  await runPacedLoad(url, requests(1), { ...options, rate, seconds: 1 });
  return runPacedLoad(url, requests(options.seconds), { ...options, rate });
}

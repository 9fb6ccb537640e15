import { Worker } from 'node:worker_threads';

/** A thread that probes /health every 5 ms (bench/health-prober.ts); `during` gives the latencies it saw while a promise was pending. */
export async function startProber(
  url: string,
): Promise<{ during: (until: Promise<unknown>) => Promise<number[]>; stop: () => Promise<void> }> {
  const prober = new Worker(new URL('./health-prober.js', import.meta.url), { workerData: { url } });
  let failed: Error | undefined;
  let pending: { resolve: (message: unknown) => void; reject: (error: Error) => void } | undefined;
  prober.on('message', (message) => pending?.resolve(message));
  prober.on('error', (error) => {
    failed = error;
    pending?.reject(error);
  });
  const next = () =>
    new Promise<unknown>((resolve, reject) => {
      if (failed !== undefined) reject(failed);
      else pending = { resolve, reject };
    });
  await next(); // 'ready': warmed up
  return {
    during: async (until) => {
      prober.postMessage('begin');
      await until;
      const latencies = next();
      prober.postMessage('end');
      return (await latencies) as number[];
    },
    stop: async () => {
      prober.postMessage('exit');
      await prober.terminate();
    },
  };
}

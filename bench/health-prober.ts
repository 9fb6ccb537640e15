import { parentPort, workerData } from 'node:worker_threads';

/**
 * Asks `GET <url>/health` every 5 ms, from a thread of its own, for as long as it runs. On its own
 * event loop the probe measures how long the server kept /health waiting, not how long the bench's
 * senders of 2 MiB bodies kept the probe from reading its answer. Messages: 'begin' starts a window
 * of latencies, 'end' posts the latencies of the window, 'exit' stops the probing. The first probes
 * (a new connection, code not yet compiled) are over before the thread says 'ready'.
 */

const { url } = workerData as { url: string };
const WARM_UP_PROBES = 50;
let window: number[] | undefined;
let running = true;

parentPort!.on('message', (message: 'begin' | 'end' | 'exit') => {
  if (message === 'begin') window = [];
  else if (message === 'end') {
    parentPort!.postMessage(window ?? []);
    window = undefined;
  } else running = false;
});

async function probe(): Promise<number> {
  const started = performance.now();
  const answer = await fetch(`${url}/health`);
  await answer.text();
  if (answer.status !== 200) throw new Error(`/health answered ${answer.status}`);
  return performance.now() - started;
}

for (let i = 0; i < WARM_UP_PROBES; i++) await probe();
parentPort!.postMessage('ready');
while (running) {
  const ms = await probe();
  window?.push(ms);
  await new Promise((resolve) => setTimeout(resolve, 5));
}

import { parentPort, workerData } from 'node:worker_threads';

/**
 * Asks `GET <url>/health` every 5 ms, from a thread of its own, for as long as it runs. On its own
 * event loop the probe measures how long the server kept /health waiting, not how long the bench's
 * senders of 2 MiB bodies kept the probe from reading its answer. Messages: 'begin' opens a window
 * of latencies, 'end' closes it, 'exit' stops the probing. A window holds every probe that overlapped
 * it, and is posted once the probe in flight at its end has its answer: that probe is the one the
 * window held longest, and a window shorter than one held probe (a short stream on a busy machine)
 * would otherwise hold none. A window whose 'begin' and 'end' both came while this thread waited
 * between probes (a starved thread on a busy machine) holds the next probe: never none. The first probes (a new connection, code not yet compiled) are over
 * before the thread says 'ready'.
 */

const { url } = workerData as { url: string };
const WARM_UP_PROBES = 50;
let window: number[] | undefined;
let closing = false;
let running = true;

parentPort!.on('message', (message: 'begin' | 'end' | 'exit') => {
  if (message === 'begin') {
    window = [];
    closing = false;
  } else if (message === 'end') closing = true;
  else running = false;
});

/** Posts the window once it is closed and holds a probe. */
function close(): void {
  if (!closing || window === undefined || window.length === 0) return;
  parentPort!.postMessage(window ?? []);
  window = undefined;
  closing = false;
}

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
  close();
  await new Promise((resolve) => setTimeout(resolve, 5));
  close();
}

import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

/**
 * Preloaded into a server by bench/allocations.ts (`node --import`): the first SIGUSR2 starts V8's
 * sampling heap profiler, keeping the objects that garbage collection frees, and writes
 * `${ALLOCATION_PROFILE}.started` once it runs; the second stops it and writes the profile to
 * ALLOCATION_PROFILE, by a rename, so that the file is whole once it exists. A signal, not a count of
 * requests: the tool knows which requests it counts.
 */
const file = process.env.ALLOCATION_PROFILE;
if (file === undefined) throw new Error('allocation-sampler.js: ALLOCATION_PROFILE names the file to write');
/** Bytes between samples: V8's default is 32 KiB, too coarse for an answer that allocates tens of KiB. */
const SAMPLING_INTERVAL_BYTES = 256;
const session = new Session();
session.connect();
let sampling = false;
process.on('SIGUSR2', () => {
  const step = sampling ? stop() : start();
  sampling = true;
  step.catch((error: unknown) => process.stderr.write(`allocation-sampler.js: ${String(error)}\n`));
});

async function start(): Promise<void> {
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: SAMPLING_INTERVAL_BYTES,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  writeFileSync(`${file}.started`, '');
}

async function stop(): Promise<void> {
  const { profile } = await session.post('HeapProfiler.stopSampling');
  writeFileSync(`${file}.part`, JSON.stringify(profile));
  renameSync(`${file}.part`, file!);
}

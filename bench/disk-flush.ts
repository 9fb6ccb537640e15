import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The floor under a durable create: how long this machine's disk takes to flush a write, measured as
 * SQLite's WAL sees it (a 4 KiB page appended, then fdatasync), in the folder the bench's databases
 * live in. Issue 12 sets a create's p99 at half rate against this p99.
 */
export function measureDiskFlush(dir: string, flushes = 500): { p50Ms: number; p99Ms: number } {
  const path = join(dir, 'flush-probe');
  const fd = openSync(path, 'w');
  const page = Buffer.alloc(4096, 1);
  const times: number[] = [];
  try {
    for (let i = 0; i < flushes; i++) {
      writeSync(fd, page);
      const started = performance.now();
      fdatasyncSync(fd);
      times.push(performance.now() - started);
    }
  } finally {
    closeSync(fd);
    rmSync(path, { force: true });
  }
  times.sort((a, b) => a - b);
  return { p50Ms: times[Math.floor(times.length * 0.5)]!, p99Ms: times[Math.floor(times.length * 0.99)]! };
}

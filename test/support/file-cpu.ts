import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { RUN_SHARED_DIR_ENV } from './run-shared.js';

/**
 * The CPU each test file's process took, itself and the children it waited for (servers, Chromium,
 * npm): loaded before each file of a run of scripts/run-tests.ts (its --import), it writes that
 * figure when the process exits, and run-tests names the costliest files, so a file that grew heavy
 * is seen without timing each one alone. PostgreSQL's CPU is not in it (its server is no child).
 */
const CPU_DIR = 'file-cpu';

export interface FileCpu {
  file: string;
  /** User and system seconds, children waited for included. */
  seconds: number;
}

/** utime + stime + cutime + cstime of /proc/self/stat, in seconds (Linux); undefined elsewhere. */
function ownCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // Fields after the command name (which may hold spaces), from the 3rd: utime is the 14th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return ticks / 100; // USER_HZ, 100 on Linux
  } catch {
    return undefined;
  }
}

/** Run from the --import: records this process's CPU under the run's directory when it exits. */
export function recordFileCpuOnExit(): void {
  const dir = process.env[RUN_SHARED_DIR_ENV];
  const file = process.argv[1];
  if (dir === undefined || dir === '' || file === undefined) return;
  process.on('exit', () => {
    const seconds = ownCpuSeconds();
    if (seconds === undefined) return;
    mkdirSync(join(dir, CPU_DIR), { recursive: true });
    // A group of files (scripts/test-groups.ts) is a module of the run's directory: named by its name.
    const path = relative(process.cwd(), file);
    const record: FileCpu = { file: path.startsWith('..') ? basename(file) : path, seconds };
    writeFileSync(join(dir, CPU_DIR, `${process.pid}.json`), JSON.stringify(record));
  });
}

/** What the files of the run at `dir` recorded, costliest first. */
export function filesCpu(dir: string): FileCpu[] {
  let names: string[];
  try {
    names = readdirSync(join(dir, CPU_DIR));
  } catch {
    return [];
  }
  return names
    .map((name) => JSON.parse(readFileSync(join(dir, CPU_DIR, name), 'utf8')) as FileCpu)
    .sort((a, b) => b.seconds - a.seconds);
}

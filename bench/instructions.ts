import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { serverProcessSettings } from '../scripts/start-settings.js';
import { FLOOR_SERVER, SERVER_BUNDLE, benchPort, sqliteSandboxEnv } from './bench-server.js';
import { countOf, sendCounted, warmedUpRow } from './send-counted.js';
import { benchTpp } from './requests.js';

/**
 * `node dist/bench/instructions.js [create|read] [answers]`: the instructions the server executes per
 * answer of a row on SQLite (every thread, user space), counted by valgrind's callgrind; with
 * BENCH_FLOOR=1, its floor's. A count does not move with the machine's speed, which on a shared
 * virtual machine drifts by more than most changes to the hot path weigh (bench/README.md, "The
 * create row alone" and what follows it). It measures work, not time: a system call, a cache miss or
 * a wait for the disk costs one instruction here. Valgrind runs the server about fifty times slower,
 * so the warm-up and the counted answers are few, but not fewer than 4 000 and 1 500: after 1 500 and
 * 400, five counts of one build's status read on its main thread ranged over 19 000 instructions
 * (687 370 to 706 151), V8 still moving the read's functions between its tiers and a scavenge more or
 * less weighing on 400 answers; after 4 000 and 1 500, two counts of each of two builds differed by
 * 2 300 and 3 100 (bench/history.md, "Two hooks off the status read").
 *
 * Needs valgrind (Debian's package). `KEEP_CALLGRIND=1` keeps the callgrind file (callgrind_annotate).
 */
const ROW = process.argv[2] ?? 'create';
if (ROW !== 'create' && ROW !== 'read') throw new Error(`instructions.js: the row is create or read, not ${ROW}`);
const READ = ROW === 'read';
const ANSWERS = countOf('instructions.js', process.argv[3] ?? '1500', 'the answers counted');
const WARM_UP = countOf('instructions.js', process.env.BENCH_WARM_UP ?? '4000', 'BENCH_WARM_UP');
const FLOOR = process.env.BENCH_FLOOR === '1';
/** How callgrind's `--separate-threads` names the main thread's files: `callgrind.out.<part>-01`. */
const MAIN_THREAD = /-01$/;

const { work, caFile, credentials } = await benchTpp();
const dir = mkdtempSync(join(tmpdir(), 'bench-instructions-'));
const out = join(dir, 'callgrind.out');
const port = benchPort(7);
const url = `http://127.0.0.1:${port}`;
const script = FLOOR ? FLOOR_SERVER : SERVER_BUNDLE;
const settings = serverProcessSettings(process.env.BENCH_START_ENV);
const child = spawn(
  'valgrind',
  [
    '--tool=callgrind',
    '--instr-atstart=no',
    // A file per thread: the main thread's count is the event loop's work, which sets the rate; the
    // others' are V8's compiler and collector, the libuv pool and the checkpointer, whose timer-driven
    // work valgrind's slowdown multiplies per answer (bench/history.md, "The allocation per answer").
    '--separate-threads=yes',
    // V8 writes and rewrites its machine code: without this valgrind may run stale translations.
    '--smc-check=all',
    `--callgrind-out-file=${out}`,
    process.execPath,
    ...settings.nodeFlags,
    // Names V8's machine code in /tmp/perf-<pid>.map, for callgrind's unnamed addresses.
    ...(process.env.KEEP_CALLGRIND === undefined ? [] : ['--perf-basic-prof']),
    script,
    ...(FLOOR ? [`sqlite:${join(dir, 'floor.db')}`] : []),
  ],
  {
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', ...settings.env, ...sqliteSandboxEnv(dir, caFile) },
    stdio: ['ignore', 'ignore', 'pipe'],
  },
);
let stderr = '';
child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
try {
  await untilAnswering();
  const next = await warmedUpRow(url, credentials, READ, WARM_UP);
  callgrindControl('--instr=on');
  await sendCounted(url, ANSWERS, next);
  callgrindControl('--dump');
  const perAnswer = (count: number) => Math.round(count / ANSWERS).toLocaleString('en');
  const main = totalInstructions(MAIN_THREAD);
  process.stdout.write(
    `${FLOOR ? 'the floor’s ' : ''}${READ ? 'status reads' : 'creates'} on SQLite: ` +
      `${perAnswer(totalInstructions())} instructions per answer, ${perAnswer(main)} of them ` +
      `on the main thread, ${perAnswer(main - timerInstructions())} outside its timers (${ANSWERS} answers)\n`,
  );
} catch (error) {
  process.stderr.write(stderr);
  throw error;
} finally {
  child.kill('SIGKILL');
  if (process.env.KEEP_CALLGRIND === undefined) rmSync(dir, { recursive: true, force: true });
  else process.stdout.write(`callgrind files: ${dir}\n`);
  rmSync(work, { recursive: true, force: true });
}

async function untilAnswering(): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 300_000;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode} under valgrind`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${script} did not answer under valgrind within 300 s`);
}

function callgrindControl(option: string): void {
  execFileSync('callgrind_control', [option, String(child.pid)], { stdio: 'ignore' });
}

/**
 * What the main thread spent in libuv's timers: the jobs that run every so many milliseconds (the
 * batch's wake-up, the outbox's sweep, the connections' check), which valgrind's slowdown runs fifty
 * times as often per answer as a real load does, and which vary with how long the counted window took:
 * some 10 000 to 20 000 instructions per status read. The count without them is the one to compare a
 * change by.
 */
function timerInstructions(): number {
  let total = 0;
  for (const file of callgrindFiles(MAIN_THREAD)) {
    const annotated = execFileSync('callgrind_annotate', ['--inclusive=yes', file], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    const line = /^\s*([\d,]+) .*:uv__run_timers /m.exec(annotated);
    if (line !== null) total += Number(line[1]!.replaceAll(',', ''));
  }
  return total;
}

/**
 * The sum of the `summary:` (or `totals:`) lines of the files callgrind wrote, each part and thread's,
 * or only those whose names `thread` matches.
 */
function totalInstructions(thread?: RegExp): number {
  let total = 0;
  for (const file of callgrindFiles(thread)) {
    const line = /^(?:summary|totals): (\d+)/m.exec(readFileSync(file, 'utf8'));
    if (line !== null) total += Number(line[1]);
  }
  return total;
}

/** The paths of the files callgrind wrote, each part and thread's, or only those whose names `thread` matches. */
function callgrindFiles(thread?: RegExp): string[] {
  return readdirSync(dir)
    .filter((name) => name.startsWith(basename(out)) && (thread?.test(name) ?? true))
    .map((name) => join(dir, name));
}

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import { serverProcessSettings } from '../scripts/start-settings.js';
import { START_CEILING, bundleStartCeiling } from './start-ceiling-bundle.js';

/** A server process started for a benchmark: its address, its peak memory, and a way to stop it. */
export interface BenchServer {
  url: string;
  child: ChildProcess;
  /** Peak resident set size so far (Linux VmHWM), in MB. */
  peakRssMb(): number;
  stop(): Promise<void>;
}

/**
 * The bench's servers listen on ten ports from BENCH_PORT_BASE (default 8190): `benchPort(0)` to
 * `benchPort(9)`. Another base lets a run go beside another on the same machine (the smoke test,
 * test/bench/smoke.test.ts, picks free ports).
 */
const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 8190);
export const benchPort = (offset: number): number => PORT_BASE + offset;

/**
 * The servers still running: killed when this process exits, also when a row throws, so that a
 * failed run leaves no server holding its port for the next.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Spawns `node [nodeArgs] <script> [args]` with this environment and waits until `GET <url>/health`
 * (or `/`) answers. The server's log lines go to `onLogLine` when given, else nowhere.
 *
 * To run an older build, or another runtime, through today's harness (bench/history.md, "Node 24
 * against Node 20 on one machine"): BENCH_SERVER_NODE names the node that runs the server and the
 * floor (by default the bench's own), and BENCH_START_ENV a file of the settings its `npm start` gave
 * it, in scripts/start.env's form (by default scripts/start.env).
 */
export async function startBenchServer(
  script: string,
  port: number,
  env: Record<string, string>,
  args: string[] = [],
  probe = '/health',
  nodeArgs: string[] = [],
  onLogLine?: (line: string) => void,
): Promise<BenchServer> {
  // Another process on the port would answer the probe in this server's place.
  await new Promise<void>((resolve, reject) => {
    const probeServer = createServer().once('error', () =>
      reject(new Error(`port ${port} is taken: stop what listens there`)),
    );
    probeServer.listen(port, '127.0.0.1', () => probeServer.close(() => resolve()));
  });
  // The bundle runs in the process `npm start` gives it, and so does the floor, which runs its store.
  const settings =
    script === SERVER_BUNDLE || script === FLOOR_SERVER || script === START_CEILING
      ? serverProcessSettings(process.env.BENCH_START_ENV)
      : { nodeFlags: [], env: {} };
  const child = spawn(
    process.env.BENCH_SERVER_NODE ?? process.execPath,
    [...settings.nodeFlags, ...nodeArgs, script, ...args],
    {
      env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn', ...settings.env, ...env },
      stdio: ['ignore', onLogLine === undefined ? 'ignore' : 'pipe', 'inherit'],
    },
  );
  if (onLogLine !== undefined) createInterface({ input: child.stdout! }).on('line', onLogLine);
  const url = `http://127.0.0.1:${port}`;
  running.add(child);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      running.delete(child);
      resolve();
    }),
  );
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode} before it answered`);
    try {
      if ((await fetch(`${url}${probe}`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 3000) throw new Error(`${script} did not answer ${probe}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return {
    url,
    child,
    peakRssMb: () => {
      const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
      return kb === undefined ? Number.NaN : Number(kb) / 1024;
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The server as `npm start` runs it. */
export const SERVER_BUNDLE = 'dist/server/main.mjs';

/** The ceiling: a bare Fastify route (bench/ceiling-server.ts); its arguments are the sizes of its answers. */
export const CEILING_SERVER = 'dist/bench/ceiling-server.js';

/** The floor under a create and a read (bench/floor-server.ts): its argument is the database's URL. */
export const FLOOR_SERVER = 'dist/bench/floor-server.js';

/** Environment of a sandbox server on SQLite in `dir`, trusting the bench CA when one is given. */
export function sqliteSandboxEnv(dir: string, caFile?: string): Record<string, string> {
  return {
    DATA_DIR: dir,
    DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}`,
    ...(caFile === undefined ? {} : { TRUSTED_CA_CERTS: caFile }),
  };
}

/** A cold start: milliseconds from spawn to the first `/health` 200, and the server's own phases (its 'ready' line). */
export interface ColdStart {
  ms: number;
  phases: Record<string, number>;
}

/**
 * The median of `count` starts on an empty data folder (each a new one in `work`), of as many on
 * an existing one (the folder the empty start made), and of as many of the start ceiling
 * (bench/start-ceiling.ts), by turns: an empty start, an existing one, the ceiling.
 */
export async function medianColdStarts(
  work: string,
  port: number,
  caFile: string,
  count: number,
): Promise<{ empty: number; existing: number; ceiling: number }> {
  const ceilingScript = await readyStartCeiling(port);
  const empty: number[] = [];
  const existing: number[] = [];
  const ceiling: number[] = [];
  for (let i = 0; i < count; i++) {
    const dir = mkdtempSync(join(work, 'cold-'));
    empty.push((await timeColdStart(dir, port, caFile)).ms);
    existing.push((await timeColdStart(dir, port, caFile)).ms);
    ceiling.push(await timeStartCeiling(ceilingScript, port));
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return { empty: median(empty), existing: median(existing), ceiling: median(ceiling) };
}

/**
 * The start ceiling bundled, and started once uncounted: its compile cache filled, as the server's
 * is by the time the bench times its starts (the cache is kept by file, and the ceiling's folder is
 * new in each bench process). Returns the file to start.
 */
export async function readyStartCeiling(port: number): Promise<string> {
  const script = await bundleStartCeiling();
  await timeStartCeiling(script, port);
  return script;
}

/** Milliseconds from spawning the start ceiling to its first `/health` 200; it is stopped after. */
export async function timeStartCeiling(script: string, port: number): Promise<number> {
  const started = performance.now();
  const ceiling = await startBenchServer(script, port, {});
  const ms = performance.now() - started;
  await ceiling.stop();
  return ms;
}

/** Times a start of the server on SQLite in `dir`; the server is stopped after. */
export async function timeColdStart(dir: string, port: number, caFile?: string): Promise<ColdStart> {
  let phases: Record<string, number> = {};
  const onLogLine = (line: string) => {
    const entry = JSON.parse(line) as { msg?: string; phases?: Record<string, number> };
    if (entry.msg === 'ready') phases = entry.phases ?? {};
  };
  const started = performance.now();
  const server = await startBenchServer(
    SERVER_BUNDLE,
    port,
    { ...sqliteSandboxEnv(dir, caFile), LOG_LEVEL: 'info' },
    [],
    '/health',
    [],
    onLogLine,
  );
  const ms = performance.now() - started;
  await server.stop();
  return { ms, phases };
}

/** CPU time a process has used so far, all its threads (Linux /proc, in clock ticks of 10 ms), ms. */
export function cpuMsOf(pid: number): number {
  return ticksMsOf(`/proc/${pid}/stat`);
}

/**
 * The CPU time of a process's threads, by thread name (the main thread, V8's helpers, the libuv
 * pool, worker threads): what the server spends beside its main thread, which a CPU profile of the
 * main thread leaves out.
 */
export function threadCpuMsOf(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = tid === String(pid) ? 'main' : readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      byName.set(name, (byName.get(name) ?? 0) + ticksMsOf(`/proc/${pid}/task/${tid}/stat`));
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return byName;
}

/** utime + stime of a /proc stat file, in ms (the kernel counts in ticks of 10 ms). */
function ticksMsOf(statFile: string): number {
  const fields = readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * npm's own script, to run `npm start` as a developer does: npm_execpath when the bench runs under
 * npm, else the npm on the PATH (a Node put first on the PATH by .ci/node.sh has no npm beside it).
 */
function npmCli(): string {
  if (process.env.npm_execpath !== undefined) return process.env.npm_execpath;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const npm = join(dir, 'npm');
    if (dir !== '' && existsSync(npm)) return realpathSync(npm);
  }
  throw new Error('no npm on the PATH to run npm start with');
}

/** Milliseconds from `npm start` (npm, scripts/start.mjs's check that the build is current, the bundle) to the first `/health` 200. */
export async function timeNpmStart(dir: string, port: number): Promise<number> {
  const started = performance.now();
  const server = await startBenchServer(npmCli(), port, sqliteSandboxEnv(dir), ['start', '--silent']);
  const elapsed = performance.now() - started;
  await server.stop();
  return elapsed;
}

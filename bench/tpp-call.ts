import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVER_BUNDLE, benchPort, sqliteSandboxEnv, startBenchServer } from './bench-server.js';

/** The toolkit as package.json "bin" runs it. */
const TPP_CLI = 'dist/tpp/tpp.mjs';

export interface TppCallFigures {
  /** Each call's wall time, spawn to exit, ms. */
  wallMs: number[];
  /** User + system CPU of a call, all its threads, ms: the mean over the calls (the kernel counts in 10 ms ticks). */
  cpuMs: number;
}

/**
 * `tpp call` as a developer runs it (issue 41 §4: the bundled toolkit run directly, < 300 ms): a
 * sandbox on SQLite in `dir`, a certificate from it (`tpp cert --server`), one call not counted, then
 * `runs` calls of `node dist/tpp/tpp.mjs call GET /v1/sandbox/keys`, one at a time. Each call is a
 * new process, so what it loads at start is most of its time.
 */
export async function measureTppCall(dir: string, port: number, runs = 10): Promise<TppCallFigures> {
  const server = await startBenchServer(SERVER_BUNDLE, port, sqliteSandboxEnv(dir));
  try {
    const tpp = (...args: string[]) => {
      const result = spawnSync(process.execPath, [TPP_CLI, ...args, '--server', server.url], { encoding: 'utf8' });
      if (result.status !== 0) throw new Error(`tpp ${args.join(' ')} failed: ${result.stderr}`);
    };
    const files = ['--cert', join(dir, 'tpp', 'tpp.cert.pem'), '--key', join(dir, 'tpp', 'tpp.key.pem')];
    tpp('cert', '--out-dir', join(dir, 'tpp'));
    tpp('call', 'GET', '/v1/sandbox/keys', ...files);
    const wallMs: number[] = [];
    const cpuBefore = childrenCpuMs();
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      tpp('call', 'GET', '/v1/sandbox/keys', ...files);
      wallMs.push(performance.now() - started);
    }
    return { wallMs, cpuMs: (childrenCpuMs() - cpuBefore) / runs };
  } finally {
    await server.stop();
  }
}

/** CPU time of this process's children that have exited and been waited for (Linux /proc: cutime, cstime), ms. */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

// On its own: `npm run build && node dist/bench/tpp-call.js [runs]` (default 10).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = Number(process.argv[2] ?? 10);
  const dir = mkdtempSync(join(tmpdir(), 'psd2-tpp-call-'));
  try {
    const { wallMs, cpuMs } = await measureTppCall(dir, benchPort(9), runs);
    const sorted = [...wallMs].sort((a, b) => a - b);
    process.stdout.write(
      `tpp call, ${runs} runs: wall median ${Math.round(sorted[Math.floor(runs / 2)]!)} ms (min ${Math.round(sorted[0]!)}, max ${Math.round(sorted.at(-1)!)}; target < 300), CPU (user + sys) ${Math.round(cpuMs)} ms a call\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

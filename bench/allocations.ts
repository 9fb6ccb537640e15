import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { FLOOR_SERVER, benchPort, sqliteSandboxEnv, startBenchServer } from './bench-server.js';
import { area, nameOf } from './cpu-profile.js';
import { benchTpp } from './requests.js';
import { countOf, sendCounted, warmedUpRow } from './send-counted.js';

/**
 * `node dist/bench/allocations.js [create|read] [answers]`: what the server allocates per answer of a
 * row on SQLite, by area and by function, from V8's sampling heap profiler with the objects that
 * garbage collection freed kept: what an answer allocates, not what it keeps. With BENCH_FLOOR=1, its
 * floor's. What the instructions and the CPU profile do not show; on 2026-12-01's machine it weighed on
 * the peak RSS, not on the rate (bench/history.md, "The allocation per answer").
 *
 * The server is the unbundled build, as profile.js's, so that each function's module names its area.
 * After BENCH_WARM_UP answers (1 500) the sampler starts (bench/allocation-sampler.ts), `answers`
 * more (2 000) are sent, and it stops. Sampling slows the server: the tool counts bytes, not time.
 */
const TOOL = 'allocations.js';
const ROW = process.argv[2] ?? 'create';
if (ROW !== 'create' && ROW !== 'read') throw new Error(`${TOOL}: the row is create or read, not ${ROW}`);
const READ = ROW === 'read';
const ANSWERS = countOf(TOOL, process.argv[3] ?? '2000', 'the answers counted');
const WARM_UP = countOf(TOOL, process.env.BENCH_WARM_UP ?? '1500', 'BENCH_WARM_UP');
const FLOOR = process.env.BENCH_FLOOR === '1';
/** How many lines each list shows. */
const SHOWN = { areas: 20, functions: 30 } as const;
/** How long the sampler may take to start or to write its profile. */
const SAMPLER_WAIT_MS = 60_000;

const { work, caFile, credentials } = await benchTpp();
const dir = mkdtempSync(join(work, 'allocations-'));
const profileFile = join(dir, 'allocations.heapprofile');
const sampler = ['--import', fileURLToPath(new URL('./allocation-sampler.js', import.meta.url))];
const env = { ...sqliteSandboxEnv(dir, caFile), ALLOCATION_PROFILE: profileFile };
const server = FLOOR
  ? await startBenchServer(FLOOR_SERVER, benchPort(8), env, [`sqlite:${join(dir, 'floor.db')}`], '/health', sampler)
  : await startBenchServer('dist/src/main.js', benchPort(8), env, [], '/health', sampler);
try {
  const next = await warmedUpRow(server.url, credentials, READ, WARM_UP);
  server.child.kill('SIGUSR2');
  await untilWritten(`${profileFile}.started`);
  await sendCounted(server.url, ANSWERS, next);
  server.child.kill('SIGUSR2');
  await untilWritten(profileFile);
  process.stdout.write(summary(JSON.parse(readFileSync(profileFile, 'utf8')) as HeapProfile));
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}
interface HeapProfile {
  head: HeapNode;
}

async function untilWritten(file: string): Promise<void> {
  for (const started = Date.now(); !existsSync(file);) {
    if (Date.now() - started > SAMPLER_WAIT_MS) throw new Error(`${TOOL}: the sampler wrote no ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** KiB per answer in all, by area and by function (bytes each function allocated itself). */
function summary(profile: HeapProfile): string {
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, bytes: number) => map.set(key, (map.get(key) ?? 0) + bytes);
  let total = 0;
  const stack = [profile.head];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    total += node.selfSize;
    if (node.selfSize > 0) {
      add(byArea, area(node.callFrame.url, node.callFrame.functionName), node.selfSize);
      add(byFunction, nameOf(node.callFrame), node.selfSize);
    }
    stack.push(...node.children);
  }
  const kib = (bytes: number) => (bytes / ANSWERS / 1024).toFixed(2).padStart(7);
  const top = (map: Map<string, number>, shown: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, shown)
      .map(([key, bytes]) => `${((100 * bytes) / total).toFixed(1).padStart(5)} % ${kib(bytes)} KiB  ${key}`)
      .join('\n');
  return (
    `${FLOOR ? 'the floor’s ' : ''}${READ ? 'status reads' : 'creates'} on SQLite: ${kib(total).trim()} KiB allocated per answer (${ANSWERS} answers)\n\n` +
    `by area\n${top(byArea, SHOWN.areas)}\n\nby function (what it allocated itself)\n${top(byFunction, SHOWN.functions)}\n`
  );
}

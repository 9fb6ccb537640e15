import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  FLOOR_SERVER,
  SERVER_BUNDLE,
  type BenchServer,
  benchPort,
  cpuMsOf,
  sqliteSandboxEnv,
  startBenchServer,
} from './bench-server.js';
import { hostileRequest } from './hostile-requests.js';
import { runLoad } from './load.js';
import { benchTpp, bulkRequest, createRequest, pool, readRequest, CREATE_PATH } from './requests.js';

/**
 * `node dist/bench/profile.js [create|read|bulk|start|start-empty] [seconds]` (or `hostile <route> <shape> [count]`): runs one load against the SQLite
 * server under `node --cpu-prof` (the unbundled build, so that time is attributed to its module; for
 * `start`, the bundle `npm start` runs, started on an existing database and stopped at once, and for
 * `start-empty` the same on an empty data folder: the main thread's profile) and prints
 * where the server's CPU time went: self time by area (our code by folder, each library, Node's
 * internals, garbage collection, idle) and the heaviest functions. The .cpuprofile is kept for
 * Chrome DevTools.
 *
 * For a load, only the samples taken while the measured load ran count (after a warm-up; the profile's
 * clock is the machine's monotonic clock, as process.hrtime is), and each figure is also given in µs
 * of the server's main thread per answer, which compares across runs better than shares do. With
 * `PROFILE_FLOOR=1`, `create` and `read` profile bench/floor-server.ts instead: the floor under them
 * (bench/history.md, "Where the time goes"), so that the two can be put side by side.
 */
const scenario = process.argv[2] ?? 'create';
const floor = process.env.PROFILE_FLOOR === '1';
if (floor && scenario !== 'create' && scenario !== 'read')
  throw new Error('PROFILE_FLOOR=1 profiles a create or a status read only');

const seconds = scenario === 'hostile' ? 0 : Number(process.argv[3] ?? 5);
const { work, caFile, credentials } = await benchTpp();
const starting = scenario === 'start' || scenario === 'start-empty';
const profileDir = mkdtempSync(join(work, 'profile-'));
const profiling = ['--cpu-prof', '--cpu-prof-dir', profileDir];
const env = sqliteSandboxEnv(work, caFile);
if (scenario === 'start') await (await startBenchServer(SERVER_BUNDLE, benchPort(6), env)).stop();
let server: BenchServer;
if (floor)
  server = await startBenchServer(
    FLOOR_SERVER,
    benchPort(6),
    {},
    [`sqlite:${join(work, 'floor.db')}`],
    '/health',
    profiling,
  );
else
  server = await startBenchServer(
    starting || scenario === 'hostile' ? SERVER_BUNDLE : 'dist/src/main.js',
    benchPort(6),
    env,
    [],
    '/health',
    profiling,
  );

/** The measured load's time on the monotonic clock, in µs, and how many answers it had. */
let window: { from: number; to: number; answers: number } | undefined;
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

if (scenario === 'hostile') {
  // `profile.js hostile "<route>" "<shape>" [count]`: one hostile body of bench/hostile-bodies.ts, sent one at a time.
  const request = await hostileRequest(
    server.url,
    credentials,
    process.argv[3] ?? 'Bulk create',
    process.argv[4] ?? 'longest strings',
  );
  const count = Number(process.argv[5] ?? 100);
  const cpuBefore = cpuMsOf(server.child.pid!);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const answer = await fetch(`${server.url}${request.path}`, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
    });
    await answer.text();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  process.stdout.write(
    `hostile ${process.argv[3]} / ${process.argv[4]}: ${count} answers, median ${times[count >> 1]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms; server CPU ${((cpuMsOf(server.child.pid!) - cpuBefore) / count).toFixed(1)} ms per answer\n`,
  );
} else if (!starting) {
  let made = 0;
  const create = () => createRequest(credentials, made++);
  let make = scenario === 'bulk' ? () => bulkRequest(credentials, made++, 100) : create;
  const expect = scenario === 'read' ? 200 : 201;
  if (scenario === 'read') {
    // Creates first, as the bench does, so that the read finds a store with payments in it; then the payment read.
    await runLoad(server.url, pool(2000, create), { connections: 16, seconds: 1, expect: 201 });
    const one = create();
    const created = await fetch(`${server.url}${CREATE_PATH}`, {
      method: one.method,
      headers: one.headers,
      body: one.body!,
    });
    const { paymentId } = (await created.json()) as { paymentId: string };
    make = () => readRequest(credentials, paymentId);
  }
  const warmUp = await runLoad(server.url, pool(scenario === 'bulk' ? 300 : 2000, make), {
    connections: 16,
    seconds: 1,
    expect,
  });
  // Twice the warm-up's rate, as run.ts sizes its pools: the floor's load ran past 1.5 times it, and
  // the floor answers a request sent twice with 500 (2026-11-26: 3 983 of its answers).
  const load = pool(Math.max(1000, Math.ceil(warmUp.requestsPerSecond * seconds * 2)), make);
  const cpuBefore = cpuMsOf(server.child.pid!);
  const from = monotonicUs();
  const result = await runLoad(server.url, load, { connections: 16, seconds, expect });
  window = { from, to: monotonicUs(), answers: Math.max(1, result.expected) };
  // CPU time of the server's process (every thread) per answer: unlike requests per second, it
  // changes little when other processes share the machine.
  const cpuPerAnswer = (cpuMsOf(server.child.pid!) - cpuBefore) / window.answers;
  process.stdout.write(
    `${floor ? 'floor ' : ''}${scenario}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, unexpected ${result.unexpected}; server CPU ${cpuPerAnswer.toFixed(3)} ms per answer\n`,
  );
}
await server.stop();

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}
// A worker thread (the sandbox CA's) writes a profile of its own; the main thread's (thread 0) is named CPU.<date>.<time>.<pid>.0.<n>.
const file = readdirSync(profileDir).find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f))!;
const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

function area(url: string, name: string): string {
  if (url === '') return name.startsWith('(') ? name : '(native)';
  const library = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (library) return library[1]!;
  const ours = /dist\/((?:src|bench)\/[^/]+)/.exec(url);
  if (ours) return ours[1]!;
  return url.startsWith('node:') ? 'node internals' : url;
}
const nameOf = ({ functionName, url, lineNumber }: Node['callFrame']) =>
  `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|dist)\//, '')}:${lineNumber + 1}`;

// Each sample's time is the gap to the next one. Shares are of the time in which the server was busy:
// idle time says nothing of where work goes.
const byArea = new Map<string, number>();
const bySelf = new Map<string, number>();
const byInclusive = new Map<string, number>();
const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
let busyUs = 0;
let at = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i]!;
  if (window !== undefined && (at < window.from || at > window.to)) continue;
  const node = byId.get(profile.samples[i]!)!;
  if (node.callFrame.functionName === '(idle)') continue;
  const us = profile.timeDeltas[i + 1] ?? 0;
  busyUs += us;
  add(byArea, area(node.callFrame.url, node.callFrame.functionName), us);
  add(bySelf, nameOf(node.callFrame), us);
  // Inclusive time: each function on the sample's stack once, however often it recurs.
  const seen = new Set<string>();
  for (let id: number | undefined = node.id; id !== undefined; id = parentOf.get(id)) {
    const name = nameOf(byId.get(id)!.callFrame);
    if (!seen.has(name)) add(byInclusive, name, us);
    seen.add(name);
  }
}
const answers = window?.answers;
const top = (map: Map<string, number>, n: number, filter: (key: string) => boolean = () => true) =>
  [...map]
    .filter(([key]) => filter(key))
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(
      ([key, us]) =>
        `${((100 * us) / busyUs).toFixed(1).padStart(5)} %${answers === undefined ? '' : ` ${(us / answers).toFixed(1).padStart(7)} µs`}  ${key}`,
    )
    .join('\n');
const perAnswer =
  answers === undefined
    ? ''
    : `: ${(busyUs / answers).toFixed(0)} µs of the main thread per answer, over the measured load only`;
process.stdout.write(
  `\nself time by area, share of the ${(busyUs / 1000).toFixed(0)} ms in which the server's main thread was busy${perAnswer}\n${top(byArea, 20)}\n\n` +
    `heaviest functions (self time)\n${top(bySelf, 25)}\n\n` +
    `our own functions with what they call (inclusive time)\n${top(byInclusive, 25, (key) => / (src|bench)\//.test(key))}\n\nprofile: ${join(profileDir, file)}\n`,
);
if (process.env.KEEP_PROFILE === undefined) rmSync(work, { recursive: true, force: true });

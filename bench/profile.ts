import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_BUNDLE, cpuMsOf, sqliteSandboxEnv, startBenchServer } from './bench-server.js';
import { hostileRequest } from './hostile-bodies.js';
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
 */
const scenario = process.argv[2] ?? 'create';

const seconds = scenario === 'hostile' ? 0 : Number(process.argv[3] ?? 5);
const { work, caFile, credentials } = await benchTpp();
const starting = scenario === 'start' || scenario === 'start-empty';
const requests = starting || scenario === 'hostile' ? [] : scenario === 'bulk' ? pool(3000, (i) => bulkRequest(credentials, i, 100)) : pool(6000, (i) => createRequest(credentials, i));
const profileDir = mkdtempSync(join(work, 'profile-'));
const env = sqliteSandboxEnv(work, caFile);
if (scenario === 'start') await (await startBenchServer(SERVER_BUNDLE, 8196, env)).stop();
const server = await startBenchServer(starting || scenario === 'hostile' ? SERVER_BUNDLE : 'dist/src/main.js', 8196, env, [], '/health', ['--cpu-prof', '--cpu-prof-dir', profileDir]);
let load = requests;
if (scenario === 'read') {
  const one = requests[0]!;
  const created = await fetch(`${server.url}${CREATE_PATH}`, { method: one.method, headers: one.headers, body: one.body! });
  const { paymentId } = (await created.json()) as { paymentId: string };
  load = pool(12_000, () => readRequest(credentials, paymentId));
}
if (scenario === 'hostile') {
  // `profile.js hostile "<route>" "<shape>" [count]`: one hostile body of bench/hostile-bodies.ts, sent one at a time.
  const request = await hostileRequest(server.url, credentials, process.argv[3] ?? 'Bulk create', process.argv[4] ?? 'longest strings');
  const count = Number(process.argv[5] ?? 100);
  const cpuBefore = cpuMsOf(server.child.pid!);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const answer = await fetch(`${server.url}${request.path}`, { method: 'POST', headers: request.headers, body: request.body });
    await answer.text();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  process.stdout.write(`hostile ${process.argv[3]} / ${process.argv[4]}: ${count} answers, median ${times[count >> 1]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms; server CPU ${((cpuMsOf(server.child.pid!) - cpuBefore) / count).toFixed(1)} ms per answer\n`);
} else if (!starting) {
  const cpuBefore = cpuMsOf(server.child.pid!);
  const result = await runLoad(server.url, load, { connections: 16, seconds, expect: scenario === 'read' ? 200 : 201 });
  // CPU time of the server's process (every thread) per answer: unlike requests per second, it
  // changes little when other processes share the machine.
  const cpuPerAnswer = (cpuMsOf(server.child.pid!) - cpuBefore) / Math.max(1, result.expected);
  process.stdout.write(`${scenario}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, unexpected ${result.unexpected}; server CPU ${cpuPerAnswer.toFixed(3)} ms per answer\n`);
}
await server.stop();

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount: number }
// A worker thread (the sandbox CA's) writes a profile of its own; the main thread's (thread 0) is named CPU.<date>.<time>.<pid>.0.<n>.
const file = readdirSync(profileDir).find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f))!;
const profile = JSON.parse(readFileSync(join(profileDir, file), 'utf8')) as { nodes: Node[]; samples: number[] };
// Shares are of the samples in which the server was busy: idle time (such as while the bench signs
// the read requests, which needs the payment made first) says nothing of where work goes.
const idleIds = new Set(profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
const total = profile.samples.filter((id) => !idleIds.has(id)).length;

function area(url: string, name: string): string {
  if (url === '') return name.startsWith('(') ? name : '(native)';
  const library = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (library) return library[1]!;
  const ours = /dist\/(src\/[^/]+)/.exec(url);
  if (ours) return ours[1]!;
  return url.startsWith('node:') ? 'node internals' : url;
}
const byArea = new Map<string, number>();
const byFunction = new Map<string, number>();
for (const node of profile.nodes) {
  if (node.hitCount === 0 || idleIds.has(node.id)) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const key = area(url, functionName);
  byArea.set(key, (byArea.get(key) ?? 0) + node.hitCount);
  const fn = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|dist)\//, '')}:${lineNumber + 1}`;
  byFunction.set(fn, (byFunction.get(fn) ?? 0) + node.hitCount);
}
const top = (map: Map<string, number>, n: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n)
  .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`).join('\n');
process.stdout.write(`\nself time by area, share of the ${total} samples in which the server was busy\n${top(byArea, 20)}\n\nheaviest functions\n${top(byFunction, 25)}\n\nprofile: ${join(profileDir, file)}\n`);
if (process.env.KEEP_PROFILE === undefined) rmSync(work, { recursive: true, force: true });

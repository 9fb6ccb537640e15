import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The measured part of a profile: its time on the monotonic clock, in µs, and how many answers (or payments) it had. */
export interface ProfileWindow {
  from: number;
  to: number;
  answers: number;
}

/** The monotonic clock in µs, the one `node --cpu-prof` stamps its samples with (as process.hrtime is). */
export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

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

/** How many lines each list of the summary shows. */
const SHOWN = { areas: 20, self: 25, ours: 25 } as const;

/** The main thread's profile in a folder `node --cpu-prof --cpu-prof-dir` wrote (a worker thread writes one of its own). */
export function mainThreadProfile(dir: string): string {
  const file = readdirSync(dir).find((f) => /\.\d+\.0\.\d+\.cpuprofile$/.test(f));
  if (file === undefined) throw new Error(`no main thread's profile in ${dir}`);
  return join(dir, file);
}

/** Where a function's code is: our code by folder, each library, Node's internals, or V8's own entries such as (garbage collector). */
export function area(url: string, name: string): string {
  if (url === '') return name.startsWith('(') ? name : '(native)';
  const library = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (library) return library[1]!;
  const ours = /dist\/((?:src|bench)\/[^/]+)/.exec(url);
  if (ours) return ours[1]!;
  return url.startsWith('node:') ? 'node internals' : url;
}

/** A function as the summaries name it: its name, its file below node_modules or dist, its line. */
export const nameOf = ({ functionName, url, lineNumber }: Node['callFrame']) =>
  `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|dist)\//, '')}:${lineNumber + 1}`;

/**
 * Where the main thread's CPU time went, as text: self time by area (our code by folder, each
 * library, Node's internals, garbage collection), the heaviest functions, and our own functions with
 * what they call. With a window only its samples count, and every line also gives µs per answer,
 * which compares across runs better than shares: this VM's speed drifts by a third within minutes.
 * Shares are of the time the thread was busy: idle time says nothing of where work goes.
 */
export function summarizeCpuProfile(file: string, window?: ProfileWindow): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const byArea = new Map<string, number>();
  const bySelf = new Map<string, number>();
  const byInclusive = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  let busyUs = 0;
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    // Each sample's time is the gap to the next one.
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
      : `: ${(busyUs / answers).toFixed(0)} µs of the main thread per answer, over the measured part only`;
  return (
    `self time by area, share of the ${(busyUs / 1000).toFixed(0)} ms in which the server's main thread was busy${perAnswer}\n${top(byArea, SHOWN.areas)}\n\n` +
    `heaviest functions (self time)\n${top(bySelf, SHOWN.self)}\n\n` +
    `our own functions with what they call (inclusive time)\n${top(byInclusive, SHOWN.ours, (key) => / (src|bench)\//.test(key))}\n`
  );
}

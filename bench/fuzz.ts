import fc from 'fast-check';
import {
  type FuzzCase,
  type FuzzTarget,
  answerProblem,
  changesTheSandbox,
  describeCase,
  freshRequestId,
  fuzzCase,
  fuzzContext,
  fuzzTargets,
  sendCase,
} from '../test/support/fuzz.js';
import { startTestApp } from '../test/support/test-app.js';

/**
 * `npm run fuzz`: a long campaign of generated, correctly signed requests against every route of
 * the app (in process, SQLite sandbox), round after round over the routes. Bounded in count
 * (FUZZ_REQUESTS, default 100 000) and time (FUZZ_SECONDS, default 1 800); FUZZ_SEED makes a run
 * repeatable. Prints the answers by status class and by route, and every answer that is a 5xx or
 * an error without the error body, with the request that caused it. Exits 1 if there was one.
 */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 100_000);
const SECONDS = Number(process.env.FUZZ_SECONDS ?? 1800);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000_007);
const BATCH = 25;
const CONCURRENCY = 4;
const FAILURES_SHOWN = 30;

type StatusClass = '2xx' | '3xx' | '4xx' | '5xx';
const classOf = (status: number): StatusClass =>
  status >= 500 ? '5xx' : status >= 400 ? '4xx' : status >= 300 ? '3xx' : '2xx';

const t = await startTestApp();
const context = await fuzzContext(t);
const targets = fuzzTargets(t.routes);
// The clock and initialize get an app of their own (changesTheSandbox).
const apart = await startTestApp();
const apartContext = await fuzzContext(apart);
const byClass: Record<StatusClass, number> = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
const byRoute = new Map<string, Record<StatusClass, number>>();
const byCode = new Map<string, number>();
const failures: string[] = [];
let harnessErrors = 0;
let sent = 0;
const started = Date.now();
const deadline = started + SECONDS * 1000;
process.stderr.write(
  `fuzz: seed ${SEED}, ${targets.length} routes and methods, up to ${REQUESTS} requests or ${SECONDS} s\n`,
);

async function send(target: FuzzTarget, request: FuzzCase): Promise<void> {
  const requestId = freshRequestId(request);
  let response;
  try {
    response = await sendCase(changesTheSandbox(target) ? apart : t, request, requestId);
  } catch (error) {
    harnessErrors++; // the request could not be built or injected: the generator's fault, not the server's
    if (harnessErrors <= 5)
      process.stderr.write(`fuzz: could not send ${describeCase(request, requestId)}: ${(error as Error).message}\n`);
    return;
  }
  sent++;
  const statusClass = classOf(response.statusCode);
  byClass[statusClass]++;
  const name = `${target.method} ${target.path}`;
  const counts = byRoute.get(name) ?? { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  counts[statusClass]++;
  byRoute.set(name, counts);
  if (response.statusCode >= 400 && request.method !== 'HEAD') {
    try {
      const code = String(
        (JSON.parse(response.body) as { code?: unknown }).code ??
          (response.statusCode === 401 ? 'SCA challenge' : 'page'),
      );
      byCode.set(`${response.statusCode} ${code}`, (byCode.get(`${response.statusCode} ${code}`) ?? 0) + 1);
    } catch {
      byCode.set(`${response.statusCode} (not JSON)`, (byCode.get(`${response.statusCode} (not JSON)`) ?? 0) + 1);
    }
  }
  const problem = answerProblem(target, request, response);
  if (problem !== undefined) failures.push(`${name}: ${problem}\n    request: ${describeCase(request, requestId)}`);
}

let round = 0;
campaign: while (true) {
  for (const [index, target] of targets.entries()) {
    if (sent + harnessErrors >= REQUESTS || Date.now() > deadline) break campaign;
    const cases = fc.sample(fuzzCase(target, changesTheSandbox(target) ? apartContext : context), {
      numRuns: BATCH,
      seed: SEED + round * 10_007 + index,
    });
    for (let i = 0; i < cases.length; i += CONCURRENCY)
      await Promise.all(cases.slice(i, i + CONCURRENCY).map((request) => send(target, request)));
  }
  round++;
  process.stderr.write(
    `fuzz: round ${round}, ${sent} requests in ${Math.round((Date.now() - started) / 1000)} s, ${failures.length} failures\n`,
  );
}
await Promise.all([t.close(), apart.close()]);

const seconds = (Date.now() - started) / 1000;
const lines: string[] = [];
lines.push(
  `fuzz campaign: seed ${SEED}, ${sent} requests in ${seconds.toFixed(0)} s (${(sent / seconds).toFixed(0)}/s), ${targets.length} routes and methods, ${harnessErrors} not sendable`,
);
lines.push('');
lines.push(
  `by status class: 2xx ${byClass['2xx']}, 3xx ${byClass['3xx']}, 4xx ${byClass['4xx']}, 5xx ${byClass['5xx']}`,
);
lines.push('');
lines.push('| Route | 2xx | 3xx | 4xx | 5xx |');
lines.push('|---|---:|---:|---:|---:|');
for (const [name, counts] of [...byRoute].sort(([a], [b]) => a.localeCompare(b)))
  lines.push(`| ${name} | ${counts['2xx']} | ${counts['3xx']} | ${counts['4xx']} | ${counts['5xx']} |`);
lines.push('');
lines.push(
  `error answers by code: ${[...byCode]
    .sort((a, b) => b[1] - a[1])
    .map(([code, n]) => `${code} ${n}`)
    .join(', ')}`,
);
lines.push('');
lines.push(
  failures.length === 0
    ? 'no 5xx, and every error had the error body'
    : `${failures.length} wrong answers; the first ${Math.min(failures.length, FAILURES_SHOWN)}:`,
);
for (const failure of failures.slice(0, FAILURES_SHOWN)) lines.push(`  ${failure}`);
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(failures.length === 0 ? 0 : 1);

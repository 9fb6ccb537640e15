import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import {
  type FuzzContext,
  type FuzzTarget,
  answerProblem,
  changesTheSandbox,
  describeCase,
  freshRequestId,
  fuzzCase,
  fuzzContext,
  fuzzTargets,
  sendCase,
} from '../support/fuzz.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * Every route of the app, found as the app registers it, gets generated, correctly signed requests
 * (test/support/fuzz.ts): none is answered 5xx, and every error is the specification's error body,
 * the 401 SCA challenge, or (on the PSU's pages and the sandbox console) an HTML page. Bounded for CI: FUZZ_RUNS_PER_ROUTE
 * requests per route and method (default 8) from FUZZ_SEED (default fixed); `npm run fuzz` runs long.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS_PER_ROUTE ?? 8);

let t: TestApp;
/** The clock and initialize run on an app of their own (changesTheSandbox). */
let apart: TestApp;
let context: FuzzContext;
let apartContext: FuzzContext;
let targets: FuzzTarget[];
before(async () => {
  [t, apart] = await Promise.all([startTestApp(), startTestApp()]);
  [context, apartContext] = await Promise.all([fuzzContext(t), fuzzContext(apart)]);
  targets = fuzzTargets(t.routes);
});
after(() => Promise.all([t.close(), apart.close()]));

describe('fuzzing every route with signed requests', () => {
  it('finds the routes as the app registers them: the API, the PSU pages, the docs', () => {
    const paths = new Set(targets.map((target) => `${target.method} ${target.path}`));
    for (const expected of [
      'POST /v1/payments/norwegian-cross-border-credit-transfers',
      'POST /v1/signing-baskets',
      'POST /v1/sandbox/agreements',
      'POST /v1/sandbox/clock',
      'GET /sca/:token',
      'GET /console/payments/:paymentId',
      'POST /v1/sandbox/console-links',
      'GET /health',
    ]) {
      assert.ok(paths.has(expected), `${expected} among ${[...paths].join(', ')}`);
    }
  });

  it(`never answers 5xx, and every error has the error body (seed ${SEED}, ${RUNS_PER_ROUTE} requests per route)`, async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const [index, target] of targets.entries()) {
      const app = changesTheSandbox(target) ? apart : t;
      await fc.assert(
        fc.asyncProperty(fuzzCase(target, changesTheSandbox(target) ? apartContext : context), async (request) => {
          const requestId = freshRequestId(request);
          const response = await sendCase(app, request, requestId);
          sent++;
          const problem = answerProblem(target, request, response);
          if (problem !== undefined)
            failures.push(
              `${target.method} ${target.path}: ${problem}\n  request: ${describeCase(request, requestId)}`,
            );
        }),
        { seed: SEED + index, numRuns: RUNS_PER_ROUTE },
      );
    }
    assert.ok(sent >= targets.length * RUNS_PER_ROUTE);
    assert.deepEqual(failures.slice(0, 10), [], `${failures.length} of ${sent} answers were wrong`);
  });
});

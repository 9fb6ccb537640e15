import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import newman, { type NewmanRunOptions, type NewmanRunSummary } from 'newman';
import type { VariableScope } from 'postman-collection';
import { CREATE_REQUEST, FLOW_FOLDER, STATUS_REQUEST } from '../../scripts/collections/payment-flow.js';
import { BRUNO_DIR, POSTMAN_FILE, writeCollections } from '../../scripts/collections/write-collections.js';
import { approveSca } from '../../src/toolkit/sca-approver.js';
import { type SigningProxy, startSigningProxy } from '../../src/toolkit/signing-proxy.js';
import { freePort } from '../support/browser.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * The Postman and Bruno collections (scripts/collections/) as a TPP uses them: imported by each
 * tool's own runner (newman's library, Bruno's CLI) and sent to the signing proxy in front of the
 * sandbox. Each runs its create → approve → status flow: the create, whose script saves the links;
 * the PSU's approval on the bank's page, which no runner fills in, so approveSca does it between two
 * runs; and the status read, ACTC.
 */
const run = promisify(execFile);
const BRU = createRequire(import.meta.url).resolve('@usebruno/cli/bin/bru.js');

let t: TestApp;
let proxy: SigningProxy;
let dir: string;

before(async () => {
  const port = await freePort();
  const server = `http://127.0.0.1:${port}`;
  t = await startTestApp({ publicUrl: server });
  await t.app.listen({ port, host: '127.0.0.1' });
  proxy = await startSigningProxy({ upstream: server, credentials: t.fixtures.tpp, port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'psd2-collections-'));
  await writeCollections(dir);
});
after(async () => {
  await proxy?.close();
  await t?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/**
 * A newman run, and the collection's variables as its test scripts left them: newman's summary
 * keeps the collection as given, so they are read from each script's result.
 */
function newmanRun(options: NewmanRunOptions): Promise<{ summary: NewmanRunSummary; variables: Map<string, string> }> {
  const variables = new Map<string, string>();
  return new Promise((resolve, reject) =>
    newman
      .run(options, (error, summary) => (error === null ? resolve({ summary, variables }) : reject(error)))
      .on('test', (_error, test: { executions?: { result?: { collectionVariables?: VariableScope } }[] }) => {
        for (const execution of test.executions ?? [])
          for (const [key, value] of Object.entries(execution.result?.collectionVariables?.toObject(false, true) ?? {}))
            variables.set(key, String(value));
      }),
  );
}

/** Each request's name, status and body, and every failed test, of a newman run. */
function newmanAnswers(summary: NewmanRunSummary) {
  const failures = summary.run.failures.map((f) => `${f.source?.name ?? ''}: ${f.error.message}`);
  const answers = summary.run.executions.map((e) => ({
    name: e.item.name,
    status: e.response?.code,
    body: e.response === undefined ? undefined : (JSON.parse(e.response.stream!.toString('utf8')) as Answer),
  }));
  return { failures, answers };
}

interface Answer {
  transactionStatus?: string;
  _links?: Record<string, { href: string }>;
}

/** One request of the Bruno collection, by `bru run` in the collection's folder; its JSON report. */
async function bruRun(request: string, vars: Record<string, string>): Promise<BruReport> {
  const report = join(dir, `bru-${request.slice(0, 1)}.json`);
  const args = [BRU, 'run', join(FLOW_FOLDER, `${request}.bru`), '--reporter-json', report];
  for (const [name, value] of Object.entries(vars)) args.push('--env-var', `${name}=${value}`);
  const cwd = join(dir, BRUNO_DIR);
  await run(process.execPath, args, { cwd }).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`bru run ${request}: ${error.stdout ?? ''}\n${error.stderr ?? ''}`);
  });
  return (JSON.parse(readFileSync(report, 'utf8')) as BruReport[])[0]!;
}

interface BruReport {
  summary: { totalRequests: number; failedRequests: number; failedTests: number; passedTests: number };
  results: {
    response: { status: number; data: Answer };
    testResults: { description: string; status: string; error?: string }[];
  }[];
}

describe('the collections through the signing proxy', () => {
  it("Postman's (newman): create 201, the links saved, approved by the PSU, status ACTC", async () => {
    const collection = JSON.parse(readFileSync(join(dir, POSTMAN_FILE), 'utf8')) as object;
    const envVar = [{ key: 'baseUrl', value: proxy.url }];
    const created = await newmanRun({ collection, folder: CREATE_REQUEST, envVar });
    const first = newmanAnswers(created.summary);
    assert.deepEqual(first.failures, []);
    assert.deepEqual(
      first.answers.map((a) => [a.name, a.status]),
      [[CREATE_REQUEST, 201]],
    );
    const link = created.variables.get('scaRedirect') ?? '';
    assert.ok(link.startsWith(`${proxy.url}/sca/`), link);
    assert.equal(created.variables.get('statusLink'), first.answers[0]!.body!._links!.status!.href);

    assert.equal((await approveSca({ link, customerNumber: '13039319955' })).decision, 'approved');

    // The collection with the variables the create's script saved, as Postman keeps them between two sends.
    const saved = created.summary.collection.toJSON();
    saved.variable = saved.variable?.map((v) => ({ ...v, value: created.variables.get(String(v.key)) ?? v.value }));
    const read = newmanAnswers((await newmanRun({ collection: saved, folder: STATUS_REQUEST, envVar })).summary);
    assert.deepEqual(read.failures, []);
    assert.deepEqual(
      read.answers.map((a) => [a.name, a.status, a.body?.transactionStatus]),
      [[STATUS_REQUEST, 200, 'ACTC']],
    );
  });

  it("Bruno's (bru run): create 201, the links saved, approved by the PSU, status ACTC", async () => {
    const created = await bruRun(CREATE_REQUEST, { baseUrl: proxy.url });
    assert.deepEqual(
      created.results.flatMap((r) => r.testResults.filter((x) => x.status !== 'pass')),
      [],
    );
    assert.equal(created.summary.passedTests, 2);
    const answer = created.results[0]!.response;
    assert.equal(answer.status, 201);
    const link = answer.data._links!.scaRedirect!.href;
    assert.ok(link.startsWith(`${proxy.url}/sca/`), link);

    assert.equal((await approveSca({ link, customerNumber: '13039319955' })).decision, 'approved');

    // Each `bru run` starts from the collection's variables: the saved link is given again.
    const read = await bruRun(STATUS_REQUEST, { baseUrl: proxy.url, statusLink: answer.data._links!.status!.href });
    assert.deepEqual(read.summary, { ...read.summary, failedRequests: 0, failedTests: 0, passedTests: 1 });
    assert.equal(read.results[0]!.response.status, 200);
    assert.equal(read.results[0]!.response.data.transactionStatus, 'ACTC');
  });
});

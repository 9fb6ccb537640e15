import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createCertificateAuthority, issueTppCertificate } from '../src/toolkit/certificate-factory.js';
import { signRequest } from '../src/toolkit/request-signer.js';
import type { CertificateAndKey } from '../src/toolkit/certificate-factory.js';
import { SERVER_BUNDLE, sqliteSandboxEnv, startBenchServer } from './bench-server.js';
import { startProber } from './prober-thread.js';
import { ndctRequest } from './requests.js';
import { sandboxCall } from './sandbox-call.js';

/**
 * Issue 40, section 1: one TPP saves and restores a bank at the snapshot limits in a loop while
 * another TPP creates payments and a thread probes /health; the figures are the p50/p99/max of
 * /health and of the other TPP's creates, with and without the loop, on SQLite and PostgreSQL, from
 * a server process as `npm start` runs it. Run: `npm run build && node dist/bench/snapshot-stall.js`
 * (`BENCH_TRANSACTIONS`, default 44 000, posted with texts at their full length; `BENCH_SECONDS`,
 * default 20, of loop).
 */
const TRANSACTIONS = Number(process.env.BENCH_TRANSACTIONS ?? 44_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const PG_ADMIN = process.env.PG_TEST_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LONG = 'x'.repeat(140);

interface Window {
  health: number[];
  creates: number[];
  bulk: Record<number, number>;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'psd2-stall-'));
  const ca = await createCertificateAuthority({ commonName: 'Stall Bench CA' });
  const tpp = (organisationId: string) =>
    issueTppCertificate({ issuer: ca, roles: ['PSP_PI', 'PSP_AI'], organisationId, name: 'Stall Bench TPP' });
  const quiet = await tpp('PSDNO-FSA-123456789');
  const loud = await tpp('PSDNO-FSA-987654321');
  const caFile = join(work, 'ca.pem');
  writeFileSync(caFile, ca.certPem);
  const lines: string[] = [];
  for (const engine of ['sqlite', 'postgres'] as const) {
    const dir = mkdtempSync(join(work, `${engine}-`));
    const env = sqliteSandboxEnv(dir, caFile);
    const database = engine === 'postgres' ? await freshDatabase() : undefined;
    if (database !== undefined) env.DATABASE_URL = PG_ADMIN.replace(/\/[^/]*$/, `/${database}`);
    const server = await startBenchServer(SERVER_BUNDLE, engine === 'sqlite' ? 8201 : 8202, env);
    try {
      await fill(server.url, loud);
      const prober = await startProber(server.url);
      const idle = await measure(server.url, quiet, prober, undefined);
      const looped = await measure(server.url, quiet, prober, loud);
      await prober.stop();
      lines.push(row(engine, 'idle', idle), row(engine, 'save/restore loop', looped));
    } finally {
      await server.stop();
      if (database !== undefined) await admin(`drop database ${database}`);
    }
  }
  process.stdout.write(
    [
      `A bank of the default data set and ${TRANSACTIONS} transactions; ${SECONDS} s per window`,
      '| Engine | Other TPP | /health p50 / p99 / max ms | create p50 / p99 / max ms | bulk answers |',
      '|---|---|---|---|---|',
      ...lines,
    ].join('\n') + '\n',
  );
}

/** A new PostgreSQL database's name; dropped once its server stopped. */
async function freshDatabase(): Promise<string> {
  const name = `stall_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  await admin(`create database ${name}`);
  return name;
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client(PG_ADMIN);
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The loud TPP's bank: the default data set, and TRANSACTIONS posted on Ola's account with long texts. */
async function fill(url: string, loud: CertificateAndKey): Promise<void> {
  const customers = await sandboxCall<{ accounts: string[] }[]>(url, loud, 'GET', '/v1/sandbox/customers', 200);
  const accountId = customers.flatMap((c) => c.accounts)[0]!;
  const account = await sandboxCall<{ bban: string; iban: string }>(
    url,
    loud,
    'GET',
    `/v1/sandbox/accounts/${accountId}`,
    200,
  );
  const own = { iban: account.iban, bban: account.bban };
  const elsewhere = { iban: 'NO6290491105991', bban: '90491105991' };
  for (let i = 0; i < TRANSACTIONS; i += 1000) {
    const body = Array.from({ length: Math.min(1000, TRANSACTIONS - i) }, (_, j) => ({
      amount: -(1000 + j),
      currency: 'NOK',
      bookingDate: '2026-11-02',
      valueDate: '2026-11-02',
      remittanceInformationUnstructured: LONG,
      creditorName: 'Sognekraft AS'.padEnd(70, ' x'),
      creditorAccount: elsewhere,
      debtorName: 'Ola Nordmann'.padEnd(70, ' x'),
      debtorAccount: own,
      purposeCode: 'OTHR',
      bankTransactionCode: 'PMNT',
    }));
    await sandboxCall(url, loud, 'POST', `/v1/sandbox/accounts/${accountId}/transactions`, 201, body);
  }
}

/** One window: the quiet TPP's creates one after another, /health probed, and the loud TPP's loop when given. */
async function measure(
  url: string,
  quiet: CertificateAndKey,
  prober: Awaited<ReturnType<typeof startProber>>,
  loud: CertificateAndKey | undefined,
): Promise<Window> {
  const end = performance.now() + SECONDS * 1000;
  const window: Window = { health: [], creates: [], bulk: {} };
  const creates = (async () => {
    for (let n = 0; performance.now() < end; n++) {
      const request = ndctRequest(quiet, Math.floor(Math.random() * 1e9));
      const started = performance.now();
      const answer = await fetch(`${url}${request.path}`, request);
      await answer.text();
      if (answer.status !== 201) throw new Error(`create answered ${answer.status}`);
      window.creates.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const loop = (async () => {
    if (loud === undefined) return;
    let snapshotId: string | undefined;
    while (performance.now() < end) {
      const path = snapshotId === undefined ? '/v1/sandbox/snapshots' : `/v1/sandbox/snapshots/${snapshotId}/restore`;
      const answer = await signedFetch(url, loud, path, snapshotId === undefined ? '{}' : undefined);
      window.bulk[answer.status] = (window.bulk[answer.status] ?? 0) + 1;
      if (answer.status === 201) snapshotId = answer.body.snapshotId as string;
      else if (answer.status === 200 && snapshotId !== undefined) {
        await signedFetch(url, loud, `/v1/sandbox/snapshots/${snapshotId}`, undefined, 'DELETE');
        snapshotId = undefined;
      } else if (answer.status !== 429 && answer.status !== 409)
        throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
  })();
  window.health = await prober.during(Promise.all([creates, loop]));
  return window;
}

async function signedFetch(
  url: string,
  credentials: CertificateAndKey,
  path: string,
  body: string | undefined,
  method: 'POST' | 'DELETE' = 'POST',
): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers = signRequest({
    method,
    url: path,
    credentials,
    digest: method === 'POST',
    ...(body === undefined ? {} : { body }),
  });
  if (body !== undefined) headers['content-type'] = 'application/json';
  const answer = await fetch(`${url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) });
  const text = await answer.text();
  return { status: answer.status, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

function quantiles(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN).toFixed(1);
  return `${at(0.5)} / ${at(0.99)} / ${(sorted.at(-1) ?? Number.NaN).toFixed(1)}`;
}

function row(engine: string, what: string, window: Window): string {
  const bulk = Object.entries(window.bulk)
    .map(([status, count]) => `${count}× ${status}`)
    .join(', ');
  return `| ${engine} | ${what} | ${quantiles(window.health)} | ${quantiles(window.creates)} | ${bulk || '–'} |`;
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});

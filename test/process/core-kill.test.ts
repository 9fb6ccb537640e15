import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { parseCoreKey, signCoreRequest } from '../../src/core/http/core-signature.js';
import { signRequest } from '../../src/toolkit/request-signer.js';
import { fetchApp } from '../support/fetch-app.js';
import { IdpBrowser } from '../support/idp-browser.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';
import { NDCT_PATH, ndctBody } from '../support/single-payment-requests.js';
import { startTestIdp } from '../support/test-idp.js';
import { tppFixtures } from '../support/tpp-fixtures.js';

/** Kills of each process (issue 38, 5: 8 times each under load). */
const KILLS = 8;
const STATUSES_AFTER_AUTHORISATION = new Set(['ACTC', 'PDNG', 'ACSP', 'ACSC', 'RJCT', 'PART', 'CANC']);

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The reference core as `npm run core` starts it, resolved once it listens. */
async function startCore(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist/src/reference-core/main.js'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = createInterface({ input: child.stdout! });
  const stderr: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (l) => stderr.push(l));
  await new Promise<void>((resolve, reject) => {
    lines.on('line', (text) => {
      if (text.includes('reference core listening')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the reference core exited (${code}): ${stderr.join('\n')}`)));
  });
  return child;
}

async function kill9(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/**
 * Issue 38, 5: kill -9 of the server and of the core, 8 times each, while payments are created and
 * authorised: no authorised payment is lost, and none is executed twice. Counted in the core's own
 * database: each payment the server says was authorised is there once, and booked once.
 */
describe("kill -9 of the server and of the bank's core under load", { timeout: 300_000 }, () => {
  it('loses no authorised payment and executes none twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'psd2-core-kill-'));
    dirs.push(dir);
    const fixtures = await tppFixtures();
    writeFileSync(join(dir, 'trusted.pem'), fixtures.ca.certPem);
    writeFileSync(join(dir, 'psu.key'), randomBytes(32).toString('hex'));
    const coreKeyHex = randomBytes(32).toString('hex');
    writeFileSync(join(dir, 'core.key'), coreKeyHex);
    const coreKey = parseCoreKey(coreKeyHex, 'core.key');
    const [serverPort, corePort] = [await freePort(), await freePort()];
    const publicUrl = `http://127.0.0.1:${serverPort}`;
    const idp = await startTestIdp({ redirectUri: `${publicUrl}/sca/oidc/callback` });
    const coreEnv = {
      PORT: String(corePort),
      DATABASE_URL: `sqlite:${join(dir, 'core.db')}`,
      CORE_KEY_FILE: join(dir, 'core.key'),
      CALLBACK_URL: `${publicUrl}/core/v1/status-reports`,
    };
    const serverEnv = {
      MODE: 'production',
      PORT: String(serverPort),
      PUBLIC_URL: publicUrl,
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}`,
      TRUSTED_CA_CERTS: join(dir, 'trusted.pem'),
      BANK_BIC: 'SPTRNO22',
      PSU_IDENTITY_KEY_FILE: join(dir, 'psu.key'),
      CORE_URL: `http://127.0.0.1:${corePort}`,
      CORE_KEY_FILE: join(dir, 'core.key'),
      CORE_POLL_SECONDS: '1',
      PSU_OIDC_ISSUER: idp.issuer,
      PSU_OIDC_CLIENT_ID: idp.clientId,
      PSU_OIDC_CLIENT_SECRET: idp.clientSecret,
    };
    let core = await startCore(coreEnv);
    let server: ServerProcess = await startServerProcess(serverEnv);
    const created: string[] = [];
    /** Approvals that came back to the TPP: what the killer waits for between two kills. */
    let approved = 0;

    /** One payment: created, and approved at the provider and the bank's page, as far as the processes let it go. */
    const pay = async (): Promise<void> => {
      const body = JSON.stringify(ndctBody());
      const headers = signRequest({
        method: 'POST',
        url: NDCT_PATH,
        body,
        headers: {
          'content-type': 'application/json',
          'X-PSU-IDENTITY': '13039319955',
          'PSU-IP-Address': '192.0.2.10',
          'PSU-Context': 'PRIVATE',
          'TPP-Session-ID': 'kill',
          'TPP-Redirect-URI': 'https://tpp.example/cb',
        },
        credentials: fixtures.tpp,
      });
      let answer: Response;
      try {
        answer = await fetch(`${publicUrl}${NDCT_PATH}`, { method: 'POST', headers, body });
      } catch {
        return; // the server was being killed: nothing was acknowledged
      }
      if (answer.status !== 201) return;
      const json = (await answer.json()) as { paymentId: string; _links: { scaRedirect: { href: string } } };
      created.push(json.paymentId);
      try {
        const browser = new IdpBrowser(idp, new ScriptedPsu(fetchApp(publicUrl)));
        await browser.signIn(json._links.scaRedirect.href);
        if ((await browser.psu.approve()).statusCode === 303) approved += 1;
      } catch {
        // Killed half-way: the payment is authorised or not, whichever the server committed.
      }
    };

    try {
      // Two PSUs pay without pause while the killer works: kills land on requests, SCAs and hand-overs in flight.
      let stop = false;
      const worker = async () => {
        while (!stop) {
          const before = created.length;
          await pay();
          // The server was down: try again shortly rather than spin.
          if (created.length === before) await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      const workers = [worker(), worker()];
      const progress = async (payments: number) => {
        const target = approved + payments;
        while (approved < target) await new Promise((resolve) => setTimeout(resolve, 20));
      };
      for (let round = 0; round < 2 * KILLS; round++) {
        await progress(2);
        if (round % 2 === 0) {
          await kill9(core);
          core = await startCore(coreEnv);
        } else {
          await kill9(server.child);
          server = await startServerProcess(serverEnv);
        }
      }
      await progress(2);
      stop = true;
      await Promise.all(workers);

      const statusOf = async (id: string): Promise<string> => {
        const url = `${NDCT_PATH}/${id}/status`;
        const answer = await fetch(`${publicUrl}${url}`, {
          headers: signRequest({ method: 'GET', url, credentials: fixtures.tpp }),
        });
        return ((await answer.json()) as { transactionStatus: string }).transactionStatus;
      };
      // Every authorised payment reaches the core: the server reads ACSP (accepted) or later for each.
      let authorised: string[] = [];
      for (let tries = 0; ; tries++) {
        const statuses = await Promise.all(created.map(async (id) => [id, await statusOf(id)] as const));
        authorised = statuses.filter(([, s]) => STATUSES_AFTER_AUTHORISATION.has(s)).map(([id]) => id);
        const waiting = statuses.filter(([, s]) => s === 'ACTC' || s === 'PDNG');
        if (waiting.length === 0) break;
        // A hand-over a killed server had claimed waits for its claim to lapse (HANDOVER_CLAIM_MS), then its backoff.
        assert.ok(tries < 360, `still waiting for the core: ${waiting.map(([id]) => id).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      assert.ok(authorised.length >= KILLS, `too few payments were authorised to say anything: ${authorised.length}`);
      process.stderr.write(`core-kill: ${created.length} created, ${authorised.length} authorised\n`);
      // The core executes what it was handed: a batch run now, rather than at its next slot.
      const run = await fetch(`http://127.0.0.1:${corePort}/admin/run-batch`, {
        method: 'POST',
        headers: { 'core-signature': signCoreRequest(coreKey, 'POST', '/admin/run-batch', undefined, new Date()) },
      });
      assert.equal(run.status, 200, await run.clone().text());
      const ledger = new BetterSqlite3(join(dir, 'core.db'), { readonly: true });
      try {
        const inCore = new Set((ledger.prepare('select id from payments').all() as { id: string }[]).map((r) => r.id));
        const lost = authorised.filter((id) => !inCore.has(id));
        assert.deepEqual(lost, [], 'every payment the server authorised is in the core');
        // Each payment's debit of Ola's account: one per payment executed, never two.
        const debits = new Map(
          (
            ledger
              .prepare(
                "select payment_id, count(*) as n from account_transactions where payment_id is not null and remittance not like 'Fee,%' and debtor_bban = '15061012343' group by payment_id",
              )
              .all() as { payment_id: string; n: number | bigint }[]
          ).map((r) => [r.payment_id, Number(r.n)]),
        );
        const coreStatus = new Map(
          (ledger.prepare('select id, status from payments').all() as { id: string; status: string }[]).map((r) => [
            r.id,
            r.status,
          ]),
        );
        assert.deepEqual(
          [...debits].filter(([, n]) => n > 1),
          [],
          'no payment booked twice at the core',
        );
        // Executed by the batch run: booked once; one the core refused (RJCT, with its reason) is not booked.
        assert.deepEqual(
          authorised
            .filter((id) => (coreStatus.get(id) === 'RJCT' ? debits.has(id) : debits.get(id) !== 1))
            .map((id) => `${id} ${coreStatus.get(id)} booked ${debits.get(id) ?? 0}`),
          [],
          'each authorised payment booked exactly once at the core, unless it refused it',
        );
      } finally {
        ledger.close();
      }
    } finally {
      server.child.kill('SIGKILL');
      core.kill('SIGKILL');
      await idp.close();
    }
  });
});

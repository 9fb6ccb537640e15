import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { ScaFlowError, approveSca } from '../../src/toolkit/sca-approver.js';
import { CONSENT_PATH, REDIRECT, askConsent, readAis } from '../support/ais-requests.js';
import { freePort } from '../support/browser.js';
import {
  CROSS_BORDER_PATH,
  OLA_ACCOUNTS,
  PSU_ID,
  createCrossBorder,
  crossBorderBody,
} from '../support/payment-requests.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * `tpp approve` and its library function: a PSU's SCA completed on the bank's own pages over HTTP,
 * for each kind of thing a PSU signs, with the answers the TPP then reads.
 */
const exec = promisify(execFile);
/** The command's output, and on a failure its output in the error too. */
async function run(...args: Parameters<typeof exec>): Promise<{ stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(...args);
    return { stdout: String(stdout), stderr: String(stderr) };
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${(error as Error).message}\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}
const CLI = 'dist/tpp/tpp.mjs';
const OLA = '13039319955';
let t: TestApp;
let server: string;
let dir: string;

before(async () => {
  const port = await freePort();
  server = `http://127.0.0.1:${port}`;
  t = await startTestApp({ publicUrl: server });
  await t.app.listen({ port, host: '127.0.0.1' });
  dir = mkdtempSync(join(tmpdir(), 'psd2-approve-'));
  writeFileSync(join(dir, 'tpp.cert.pem'), t.fixtures.tpp.certPem);
  writeFileSync(join(dir, 'tpp.key.pem'), t.fixtures.tpp.keyPem);
});
after(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Created {
  paymentId?: string;
  basketId?: string;
  _links: Record<string, { href: string } | undefined>;
}

async function payment(): Promise<Created> {
  const body = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[1], currency: 'NOK' } };
  const response = await createCrossBorder(t, { body, query: '?allowLogicalDuplicate=true' });
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as Created;
}

async function statusOf(paymentId: string): Promise<string> {
  const response = await t.signed({ method: 'GET', url: `${CROSS_BORDER_PATH}/${paymentId}/status` });
  return (response.json() as { transactionStatus: string }).transactionStatus;
}

async function consentLink(): Promise<string> {
  const asked = await askConsent(t, { headers: { 'TPP-Session-ID': `approve-${Math.random()}` } });
  assert.equal(asked.statusCode, 201, asked.body);
  return (asked.json() as Created)._links.scaRedirect!.href;
}

async function accountNumbersRead(psuId: string, tppSessionId: string): Promise<string[]> {
  const read = await readAis(t, '/v1/accounts', { psuId, tppSessionId });
  assert.equal(read.statusCode, 200, read.body);
  return (read.json() as { accounts: { bban: string }[] }).accounts.map((a) => a.bban).sort();
}

describe('approveSca: a PSU completes the SCA on the bank pages, without a browser', () => {
  it('approves a payment: the browser goes back to the TPP with psu-id, and the payment is ACTC', async () => {
    const created = await payment();
    const outcome = await approveSca({ link: created._links.scaRedirect!.href, customerNumber: OLA });
    assert.equal(outcome.decision, 'approved');
    assert.match(outcome.location!, /^https:\/\/tpp\.example\/callback\?state=abc&psu-id=/);
    assert.ok(outcome.psuId);
    assert.equal(await statusOf(created.paymentId!), 'ACTC');
  });

  it('declines a payment, which the bank then rejects (RJCT)', async () => {
    const created = await payment();
    const outcome = await approveSca({ link: created._links.scaRedirect!.href, customerNumber: OLA, decline: true });
    assert.equal(outcome.decision, 'declined');
    assert.equal(await statusOf(created.paymentId!), 'RJCT');
  });

  it('cancels on the log-in page: back to the TPP with message=cancelled, and the payment still waits for its SCA', async () => {
    const created = await payment();
    const outcome = await approveSca({ link: created._links.scaRedirect!.href, customerNumber: '', cancel: true });
    assert.equal(outcome.decision, 'cancelled');
    assert.equal(new URL(outcome.location!).searchParams.get('message'), 'cancelled');
    assert.equal(outcome.psuId, undefined);
    assert.equal(await statusOf(created.paymentId!), 'RCVD');
  });

  it("approves a signing basket's payments at once, the link given as a path against the server", async () => {
    const ids = [(await payment()).paymentId!, (await payment()).paymentId!];
    const basket = await t.signed({
      method: 'POST',
      url: '/v1/signing-baskets',
      body: { paymentIds: ids },
      headers: {
        'PSU-ID': PSU_ID,
        'PSU-IP-Address': '192.0.2.10',
        'TPP-Redirect-URI': REDIRECT,
        'TPP-Session-ID': 'approve-basket',
      },
    });
    assert.equal(basket.statusCode, 201, basket.body);
    const link = new URL((basket.json() as Created)._links.scaRedirect!.href);
    const outcome = await approveSca({ link: `${link.pathname}${link.search}`, server, customerNumber: OLA });
    assert.equal(outcome.decision, 'approved');
    assert.deepEqual(await Promise.all(ids.map(statusOf)), ['ACTC', 'ACTC']);
  });

  it('gives a consent on the accounts the page ticks, and the TPP reads exactly them', async () => {
    const outcome = await approveSca({ link: await consentLink(), customerNumber: OLA });
    assert.equal(outcome.decision, 'approved');
    assert.equal(outcome.shared.length, 2, outcome.shared.join('; '));
    assert.deepEqual(await accountNumbersRead(outcome.psuId!, outcome.tppSessionId!), [...OLA_ACCOUNTS].sort());
  });

  it('gives a consent on the accounts named by number, written with or without dots', async () => {
    const outcome = await approveSca({ link: await consentLink(), customerNumber: OLA, accounts: ['1506.10.12351'] });
    assert.deepEqual(await accountNumbersRead(outcome.psuId!, outcome.tppSessionId!), [OLA_ACCOUNTS[1]]);
  });

  it('names the accounts the page offers when asked for one it does not, and shares nothing', async () => {
    await assert.rejects(
      approveSca({ link: await consentLink(), customerNumber: OLA, accounts: ['12345678903'] }),
      (error: Error) => {
        assert.ok(error instanceof ScaFlowError);
        assert.match(error.message, /the page offers no account 12345678903; it offers .*1506\.10\.12343/);
        return true;
      },
    );
  });

  it("says in the bank's words when the code is refused, and the payment stays unsigned", async () => {
    const created = await payment();
    await assert.rejects(
      approveSca({ link: created._links.scaRedirect!.href, customerNumber: OLA, code: '000000' }),
      /the bank did not accept the log-in: The customer number or the code was not accepted/,
    );
    assert.equal(await statusOf(created.paymentId!), 'RCVD');
  });

  it("says in the bank's words that a link works once", async () => {
    const created = await payment();
    await approveSca({ link: created._links.scaRedirect!.href, customerNumber: OLA });
    await assert.rejects(
      approveSca({ link: created._links.scaRedirect!.href, customerNumber: OLA }),
      /the bank ended the SCA: The link has been used already/,
    );
  });
});

describe('tpp approve and calls by path (TPP_BASE_URL)', () => {
  const env = () => ({ ...process.env, TPP_BASE_URL: server });
  const credentials = () => ['--cert', join(dir, 'tpp.cert.pem'), '--key', join(dir, 'tpp.key.pem')];

  it('creates a payment by path, approves it on the command line, and reads it ACTC', async () => {
    const body = JSON.stringify({ ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[1], currency: 'NOK' } });
    const headers = [
      `PSU-ID: ${PSU_ID}`,
      'PSU-Context: PRIVATE',
      'PSU-IP-Address: 192.0.2.10',
      'TPP-Session-ID: cli-1',
      'x-accept-fix: ',
    ];
    const headerArgs = [...headers, 'TPP-Redirect-URI: https://tpp.example/cb'].flatMap((h) => ['-H', h]);
    const created = await run(
      process.execPath,
      [
        CLI,
        'call',
        'POST',
        `${CROSS_BORDER_PATH}?allowLogicalDuplicate=true`,
        '-d',
        body,
        ...headerArgs,
        ...credentials(),
      ],
      { env: env() },
    );
    assert.match(created.stdout, /^HTTP 201\n\{\n {2}"/, 'the status, then the answer as indented JSON');
    const answer = JSON.parse(created.stdout.slice('HTTP 201\n'.length)) as Created & { transactionStatus: string };
    assert.equal(answer.transactionStatus, 'RCVD');
    const approved = await run(process.execPath, [CLI, 'approve', answer._links.scaRedirect!.href, '--customer', OLA], {
      env: env(),
    });
    assert.match(approved.stdout, /^approved\nlocation: https:\/\/tpp\.example\/cb\?psu-id=[^\n]+\npsu-id: [^\n]+\n/);
    const status = await run(
      process.execPath,
      [CLI, 'call', 'GET', `${CROSS_BORDER_PATH}/${encodeURIComponent(answer.paymentId!)}/status`, ...credentials()],
      { env: env() },
    );
    assert.match(status.stdout, /^HTTP 200\n[\s\S]*"transactionStatus": "ACTC"/);
  });

  it('shares the accounts named with --accounts', async () => {
    const { stdout } = await run(
      process.execPath,
      [CLI, 'approve', await consentLink(), '--customer', OLA, '--accounts', OLA_ACCOUNTS[0]],
      { env: env() },
    );
    assert.match(stdout, /^approved\n[\s\S]*shared: Brukskonto 1506\.10\.12343 NOK\n$/);
  });

  it('explains a path given without a server', async () => {
    const { TPP_BASE_URL: _unset, ...without } = env();
    await assert.rejects(
      run(process.execPath, [CLI, 'call', 'GET', CONSENT_PATH, ...credentials()], { env: without }),
      /'\/v1\/bank-offered-consents' is a path: give the server's address once \(TPP_BASE_URL=/,
    );
  });

  it('refuses --accounts with --decline', async () => {
    await assert.rejects(
      run(process.execPath, [CLI, 'approve', '/sca/x', '--customer', OLA, '--decline', '--accounts', '1'], {
        env: env(),
      }),
      /option '--decline' cannot be used with option '--accounts/,
    );
  });
});

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { exchange } from '../../src/toolkit/http-exchange.js';
import { freePort } from '../support/browser.js';
import { TPP_ID } from '../support/tpp-fixtures.js';
import {
  type NotifyingTestApp,
  approvedSubscribedPayment,
  startNotifyingTestApp,
} from '../support/notifying-test-app.js';

/**
 * docs/notifications.md's receiver ("Checking a notification"), run as a TPP developer pastes it:
 * the ```js block as it stands, in a file of its own, with jose installed beside it, against the
 * sandbox's real notifications. A snippet that stops working fails here, not in a TPP's hands.
 */
const DOC = 'docs/notifications.md';

function snippet(): string {
  const text = readFileSync(DOC, 'utf8');
  const section = text.slice(text.indexOf('## Checking a notification'));
  const block = /^```js\n([\s\S]*?)^```$/m.exec(section);
  assert.ok(block, `${DOC}, "Checking a notification", has a js block`);
  return block[1]!;
}

let n: NotifyingTestApp;
let dir: string;
let receiver: ChildProcess;
let port: number;
const lines: string[] = [];
let errors = '';
let waiting: (() => void)[] = [];

before(async () => {
  const bankPort = await freePort();
  n = await startNotifyingTestApp();
  await n.t.app.listen({ port: bankPort, host: '127.0.0.1' });
  dir = mkdtempSync(join(tmpdir(), 'psd2-snippet-'));
  writeFileSync(join(dir, 'receiver.mjs'), snippet());
  // `npm install jose` in the folder: this checkout's own.
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  port = await freePort();
  receiver = spawn(process.execPath, ['receiver.mjs'], {
    cwd: dir,
    env: { ...process.env, BANK_URL: `http://127.0.0.1:${bankPort}`, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  receiver.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    lines.push(...chunk.split('\n').filter((l) => l !== ''));
    for (const tell of waiting.splice(0)) tell();
  });
  receiver.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    errors += chunk;
    for (const tell of waiting.splice(0)) tell();
  });
  receiver.once('exit', () => {
    for (const tell of waiting.splice(0)) tell();
  });
  await until(() => lines.includes('listening'));
});
after(async () => {
  if (receiver?.exitCode === null) {
    receiver.kill('SIGTERM');
    await once(receiver, 'exit');
  }
  await n?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** Waits for the receiver's output to meet `done`; fails when it exits first. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) {
    if (receiver.exitCode !== null) assert.fail(`the receiver exited (${receiver.exitCode}): ${errors}`);
    await new Promise<void>((tell) => waiting.push(tell));
  }
}

describe('the receiver in docs/notifications.md', () => {
  it('takes the bank’s notifications, checked with the JWKS, each once, and refuses a changed body', async () => {
    const { paymentId } = await approvedSubscribedPayment(n, `http://127.0.0.1:${port}/hooks`);
    await n.notifications.relay.drain();
    await until(() => lines.length >= 4);
    assert.deepEqual(lines.slice(1), [
      `payment ${paymentId}: psuAuthenticated`,
      `payment ${paymentId}: finalised`,
      `payment ${paymentId}: ACTC`,
    ]);
    const log = await n.t.store.listNotifications(TPP_ID, 10);
    assert.ok(
      log.filter((e) => e.resource.id === paymentId).every((e) => e.endReason === 'delivered'),
      'each answered 2xx',
    );

    // Sent again with its event id: taken (204), not handled twice.
    const first = log.find((e) => e.resource.id === paymentId && e.status === 'psuAuthenticated')!;
    assert.equal(await n.t.store.resendNotification(first.tppId, first.eventId), true);
    await n.notifications.relay.drain();
    const [again] = await n.t.store
      .listNotifications(first.tppId, 10)
      .then((l) => l.filter((e) => e.eventId === first.eventId));
    assert.equal(again!.tries.length, 2);
    assert.equal(again!.tries[1]!.status, 204);
    assert.equal(lines.length, 4, 'a second delivery is dropped by its eventId');

    // The bank's own signature over a changed body: refused.
    const sent = n.received.length;
    await approvedSubscribedPayment(n, '/copied');
    await n.notifications.relay.drain();
    const original = n.received.slice(sent).find((r) => r.path === '/copied')!;
    const changed = await exchange({
      method: 'POST',
      url: `http://127.0.0.1:${port}/hooks`,
      body: original.body.replace('psuAuthenticated', 'finalised'),
      headers: { 'content-type': 'application/json', 'x-jws-signature': original.signature },
    });
    assert.equal(changed.status, 401);
    await until(() => errors.includes('refused'));
    assert.match(errors, /refused: ERR_JWS_SIGNATURE_VERIFICATION_FAILED/);
    const unchanged = await exchange({
      method: 'POST',
      url: `http://127.0.0.1:${port}/hooks`,
      body: original.body,
      headers: { 'content-type': 'application/json', 'x-jws-signature': original.signature },
    });
    assert.equal(unchanged.status, 204);
  });
});

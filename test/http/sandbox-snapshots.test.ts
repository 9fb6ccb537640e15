import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { MAX_SANDBOX_SNAPSHOTS_PER_BANK } from '../../src/domain/limits.js';
import { SandboxSnapshots } from '../../src/services/sandbox/sandbox-snapshots.js';
import { BankBulk } from '../../src/services/sandbox/bank-bulk.js';
import type { CertificateAndKey } from '../../src/toolkit/certificate-factory.js';
import { type ConsentSession, giveConsent, readAis } from '../support/ais-requests.js';
import { bankDate, postTransactions } from '../support/ais-data.js';
import { nextFnr } from '../support/norwegian-numbers.js';
import { OLA_ACCOUNTS, createHeaders } from '../support/payment-requests.js';
import { sandboxAccountBody } from '../support/sandbox-bodies.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { NDCT_PATH, ndctBody } from '../support/single-payment-requests.js';
import { issueSandboxCertificate } from '../support/sandbox-certificates.js';
import { type TestApp, assertErrorBody, startTestApp } from '../support/test-app.js';
import { TPP_ID } from '../support/tpp-fixtures.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

const SNAPSHOTS = '/v1/sandbox/snapshots';
const OLA = '13039319955';
/** The second TPP, made as a TPP makes itself: a certificate over HTTP. */
const B_ID = 'PSDNO-FSA-555555555';

/**
 * Sandbox snapshots (issue 33, section 3; docs/sandbox.md, "Snapshots"): a TPP saves its bank, changes
 * everything a test changes, restores, and reads back exactly what it read before the save; another
 * TPP's bank goes on untouched, and its snapshots are unknown to the first.
 */
for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`sandbox snapshots, on ${engine}`, () => {
    let t: TestApp;
    let b: CertificateAndKey;
    before(async () => {
      t = await startTestApp({ engine });
      b = await issueSandboxCertificate(t, B_ID, { name: 'Snapshot Test TPP B' });
    });
    after(() => t.close());

    /** A POST without a body carries the Digest of the empty body, as every change to the bank does. */
    const send = (method: string, url: string, body?: unknown, as?: CertificateAndKey) =>
      t.signed({ method, url, body, sign: { digest: method === 'POST' }, ...(as === undefined ? {} : { as }) });
    const ok = (response: LightMyRequestResponse, status = 200): Json => {
      assert.equal(response.statusCode, status, response.body);
      return (response.body === '' ? {} : response.json()) as Json;
    };
    const save = async (as?: CertificateAndKey, name?: string): Promise<Json> =>
      ok(await send('POST', SNAPSHOTS, name === undefined ? {} : { name }, as), 201);
    const restore = (id: string, as?: CertificateAndKey) =>
      send('POST', `${SNAPSHOTS}/${encodeURIComponent(id)}/restore`, undefined, as);

    /** What a TPP reads of its bank: customers, each account with its balances and transactions, the clock. */
    async function bankState(as?: CertificateAndKey): Promise<Json> {
      const customers = ok(await send('GET', '/v1/sandbox/customers', undefined, as)) as unknown as Json[];
      const accounts: Json = {};
      for (const customer of customers) {
        for (const id of customer.accounts as string[]) {
          accounts[id] = {
            account: ok(await send('GET', `/v1/sandbox/accounts/${encodeURIComponent(id)}`, undefined, as)),
            transactions: ok(
              await send(
                'GET',
                `/v1/sandbox/accounts/${encodeURIComponent(id)}/transactions?limit=1000`,
                undefined,
                as,
              ),
            ),
          };
        }
      }
      const clock = ok(await send('GET', '/v1/sandbox/clock', undefined, as));
      return { customers, accounts, offsetSeconds: clock.offsetSeconds };
    }

    /** An NDCT payment from Ola's current account, approved by Ola on the SCA page: ACTC, waiting for a batch run. */
    async function approvedPayment(): Promise<{ requestId: string; body: Json; answer: Json }> {
      const requestId = randomUUID();
      const body = ndctBody();
      const answer = ok(
        await t.signed({
          method: 'POST',
          url: NDCT_PATH,
          body,
          headers: { ...createHeaders(), 'X-Request-ID': requestId },
        }),
        201,
      );
      const psu = new ScriptedPsu(t.app);
      await psu.open(answer._links.scaRedirect.href);
      await psu.logIn(OLA, '123456');
      await psu.approve();
      return { requestId, body, answer };
    }
    const statusOf = async (payment: Json) =>
      (await send('GET', payment._links.status.href)).json().transactionStatus as string;

    it('brings back customers, accounts, balances, transactions, payments, consents and the clock exactly as read before the save; the other TPP’s bank goes on untouched', async () => {
      // Some state before the save: the clock moved, a payment waiting for its batch run, a consent.
      ok(await send('POST', '/v1/sandbox/clock', { advanceSeconds: 3 * 86_400 }));
      const waiting = await approvedPayment();
      assert.equal(await statusOf(waiting.answer), 'ACTC');
      const session: ConsentSession = await giveConsent(t, { customerNumber: OLA });
      const olaAccount = (await readAis(t, '/v1/accounts', session))
        .json()
        .accounts.find((a: Json) => a.bban === OLA_ACCOUNTS[0]).resourceId as string;
      const aisReads = async () => ({
        accounts: ok(await readAis(t, '/v1/accounts', session)),
        balances: ok(await readAis(t, `/v1/accounts/${encodeURIComponent(olaAccount)}/balances`, session)),
        transactions: ok(
          await readAis(
            t,
            `/v1/accounts/${encodeURIComponent(olaAccount)}/transactions?bookingStatus=both&dateFrom=2000-01-01`,
            session,
          ),
        ),
      });
      const ofB = await bankState(b);
      const before = {
        bank: await bankState(),
        ais: await aisReads(),
        offsetMs: (await t.banks.clockOf(TPP_ID)).offsetMs,
      };

      const saved = await save(undefined, 'before the test');
      assert.equal(saved.name, 'before the test');
      assert.equal(saved.offsetSeconds, before.bank.offsetSeconds);
      assert.ok(saved.rows > 30, `the default data set and more: ${saved.rows}`);
      assert.deepEqual(await bankState(b), ofB, "a save reads the TPP's bank only");

      // Everything a test changes: a customer with an account and transactions, the waiting payment and
      // a new one executed by a batch run, a new consent in the same session, the clock moved on.
      const number = nextFnr();
      ok(
        await send('POST', '/v1/sandbox/customers', { customerNumber: number, name: 'After Save', type: 'private' }),
        201,
      );
      const accountBody = sandboxAccountBody(number);
      const account = ok(await send('POST', '/v1/sandbox/accounts', accountBody), 201);
      await postTransactions(t, { id: account.id, bban: accountBody.bban, iban: accountBody.iban }, [
        { amount: 100, bookingDate: await bankDate(t, 0) },
        { amount: -40, bookingDate: await bankDate(t, 0) },
      ]);
      const later = await approvedPayment();
      assert.deepEqual(ok(await send('POST', '/v1/sandbox/batch-runs')).executed, 2);
      assert.equal(await statusOf(waiting.answer), 'ACSC');
      assert.equal(await statusOf(later.answer), 'ACSC');
      await giveConsent(t, {
        customerNumber: OLA,
        headers: { 'TPP-Session-ID': session.tppSessionId },
        choose: (all) => all.filter((id) => id === olaAccount),
      });
      ok(await send('POST', '/v1/sandbox/clock', { advanceSeconds: 5 * 86_400 }));
      // B works in its own bank meanwhile.
      ok(
        await send('POST', '/v1/sandbox/customers', { customerNumber: nextFnr(), name: 'B', type: 'private' }, b),
        201,
      );
      ok(await send('POST', '/v1/sandbox/clock', { advanceSeconds: 86_400 }, b));
      const ofBBefore = await bankState(b);
      assert.notDeepEqual(await bankState(), before.bank, 'the test changed the bank');
      assert.notDeepEqual(await aisReads(), before.ais, 'and what the consent reads');

      const restored = ok(await restore(saved.snapshotId));
      assert.deepEqual(restored, saved, 'a restore answers the snapshot it restored');

      assert.deepEqual(await bankState(), before.bank);
      assert.deepEqual(await aisReads(), before.ais);
      assert.equal((await t.banks.clockOf(TPP_ID)).offsetMs, before.offsetMs, 'the clock offset, to the millisecond');
      assert.equal(await statusOf(waiting.answer), 'ACTC', 'the payment waits for its batch run again');
      assertErrorBody(await send('GET', later.answer._links.status.href), 404, 'RESOURCE_UNKNOWN');
      assert.deepEqual(await bankState(b), ofBBefore, "B's bank is as B left it");

      // The answers of creates go with the state: a retry of the create saved answers as it did; one of
      // the create made after the save (forgotten with it) creates the payment again.
      const retried = ok(
        await t.signed({
          method: 'POST',
          url: NDCT_PATH,
          body: waiting.body,
          headers: { ...createHeaders(), 'X-Request-ID': waiting.requestId },
        }),
        201,
      );
      assert.equal(retried.paymentId, waiting.answer.paymentId);
    });

    it('runs a payment waiting in the restored state at the next batch slot of the restored clock', async () => {
      const waiting = await approvedPayment();
      const saved = await save();
      const clock = ok(await send('GET', '/v1/sandbox/clock'));
      const executed = async () =>
        (ok(await send('POST', '/v1/sandbox/clock', { to: clock.nextBatchRun })).batchRuns as Json[]).map(
          (r) => r.executed,
        );
      const first = await executed();
      assert.equal(await statusOf(waiting.answer), 'ACSC');
      ok(await restore(saved.snapshotId));
      assert.equal(await statusOf(waiting.answer), 'ACTC', 'the slot it ran at has not come by the restored clock');
      assert.deepEqual(
        await executed(),
        first,
        'the slot runs again as the first time, as if the bank had never run it',
      );
      assert.equal(await statusOf(waiting.answer), 'ACSC');
    });

    it('runs, as it restores, the batch slots that came by the restored clock since the snapshot’s last one: its waiting payment executes', async () => {
      // A wall clock of the test's own, moved past the bank's next slot between the save and the restore.
      let wall = Date.now();
      const m = await startTestApp({ engine, clock: { now: () => new Date(wall) } });
      try {
        const created = ok(
          await m.signed({ method: 'POST', url: NDCT_PATH, body: ndctBody(), headers: createHeaders() }),
          201,
        );
        const psu = new ScriptedPsu(m.app);
        await psu.open(created._links.scaRedirect.href);
        await psu.logIn(OLA, '123456');
        await psu.approve();
        const status = async () =>
          (await m.signed({ method: 'GET', url: created._links.status.href })).json().transactionStatus as string;
        assert.equal(await status(), 'ACTC');
        const saved = ok(await m.signed({ method: 'POST', url: SNAPSHOTS, body: {} }), 201);
        const clock = ok(await m.signed({ method: 'GET', url: '/v1/sandbox/clock' }));
        wall += Date.parse(clock.nextBatchRun) - Date.parse(clock.now) + 1000;
        assert.equal(await status(), 'ACTC', 'nothing ran the slot yet: no timer fires on this clock');
        ok(await m.signed({ method: 'POST', url: `${SNAPSHOTS}/${saved.snapshotId}/restore`, sign: { digest: true } }));
        assert.equal(await status(), 'ACSC');
      } finally {
        await m.close();
      }
    });

    it("knows another TPP's snapshots as unknown (404): read, restore and delete; each TPP lists its own", async () => {
      const ofB = await save(b, 'B');
      const ofA = await save();
      for (const [method, url] of [
        ['GET', `${SNAPSHOTS}/${ofB.snapshotId}`],
        ['POST', `${SNAPSHOTS}/${ofB.snapshotId}/restore`],
        ['DELETE', `${SNAPSHOTS}/${ofB.snapshotId}`],
      ] as const) {
        const body = assertErrorBody(await send(method, url), 404, 'RESOURCE_UNKNOWN');
        assert.equal(body.tppMessages?.[0]?.path, 'path:snapshotId', `${method} ${url}`);
      }
      const listedB = ok(await send('GET', SNAPSHOTS, undefined, b)).snapshots as Json[];
      assert.deepEqual(
        listedB.map((s) => s.snapshotId),
        [ofB.snapshotId],
      );
      const listedA = ok(await send('GET', SNAPSHOTS)).snapshots as Json[];
      assert.ok(listedA.some((s) => s.snapshotId === ofA.snapshotId));
      assert.ok(!listedA.some((s) => s.snapshotId === ofB.snapshotId));
    });

    it('lists, reads and deletes snapshots; a deleted one is unknown', async () => {
      const saved = await save(undefined, 'to delete');
      assert.equal(saved._links.self.href, `${SNAPSHOTS}/${saved.snapshotId}`);
      assert.equal(saved._links.restore.href, `${SNAPSHOTS}/${saved.snapshotId}/restore`);
      assert.deepEqual(ok(await send('GET', saved._links.self.href)), saved);
      const listed = ok(await send('GET', SNAPSHOTS));
      assert.equal(listed.limit, MAX_SANDBOX_SNAPSHOTS_PER_BANK);
      assert.deepEqual(listed.snapshots.at(-1), saved, 'oldest first');
      ok(await send('DELETE', saved._links.self.href), 204);
      assertErrorBody(await send('GET', saved._links.self.href), 404, 'RESOURCE_UNKNOWN');
      assertErrorBody(await send('DELETE', saved._links.self.href), 404, 'RESOURCE_UNKNOWN');
      assertErrorBody(await restore(saved.snapshotId), 404, 'RESOURCE_UNKNOWN');
      assert.ok(!(ok(await send('GET', SNAPSHOTS)).snapshots as Json[]).some((s) => s.snapshotId === saved.snapshotId));
    });

    it(`keeps at most ${MAX_SANDBOX_SNAPSHOTS_PER_BANK} snapshots per bank: the next save is 409 naming the limit, until one is deleted`, async () => {
      const { snapshots } = ok(await send('GET', SNAPSHOTS));
      for (let i = snapshots.length; i < MAX_SANDBOX_SNAPSHOTS_PER_BANK; i++) await save();
      const refused = assertErrorBody(await send('POST', SNAPSHOTS, {}), 409, 'CONFLICT');
      assert.match(refused.message ?? '', new RegExp(`at most ${MAX_SANDBOX_SNAPSHOTS_PER_BANK} snapshots`));
      const listed = ok(await send('GET', SNAPSHOTS)).snapshots as Json[];
      assert.equal(listed.length, MAX_SANDBOX_SNAPSHOTS_PER_BANK);
      ok(await send('DELETE', listed[0]!._links.self.href), 204);
      await save();
      // B's bank has snapshots of its own to keep.
      await save(b);
      for (const s of ok(await send('GET', SNAPSHOTS)).snapshots as Json[])
        ok(await send('DELETE', s._links.self.href), 204);
    });

    it('refuses a bank with more rows or bytes than a snapshot holds (409, naming the limit), saving nothing', async () => {
      const service = (rows: number, bytes: number) =>
        new SandboxSnapshots(t.store, t.banks, new BankBulk(t.store, t.banks), { perBank: 5, rows, bytes });
      const tpp = {
        id: TPP_ID,
        name: 'Test TPP',
        roles: ['PSP_PI' as const],
        ncaName: 'Finanstilsynet',
        ncaId: 'NO-FSA',
      };
      await assert.rejects(service(10, 1 << 30).save(tpp, undefined), (error: Json) => {
        assert.equal(error.status, 409);
        assert.match(error.message, /at most 10 rows \(MAX_SANDBOX_SNAPSHOT_ROWS/);
        return true;
      });
      await assert.rejects(service(1_000_000, 1000).save(tpp, undefined), (error: Json) => {
        assert.equal(error.status, 409);
        assert.match(
          error.message,
          /at most 1000 bytes of rows \(MAX_SANDBOX_SNAPSHOT_BYTES\), and the bank's passed that \(the save stopped at \d+\)/,
        );
        return true;
      });
      assert.deepEqual(ok(await send('GET', SNAPSHOTS)).snapshots, []);
    });

    it('takes a name of at most 70 characters and nothing else in the body (400 naming the field)', async () => {
      const long = assertErrorBody(await send('POST', SNAPSHOTS, { name: 'x'.repeat(71) }), 400, 'FORMAT_ERROR');
      assert.equal(long.tppMessages?.[0]?.path, '$.name');
      const other = assertErrorBody(await send('POST', SNAPSHOTS, { label: 'x' }), 400, 'FORMAT_ERROR');
      assert.match(JSON.stringify(other.tppMessages), /label/);
    });
  });
}

describe('sandbox snapshots in production', () => {
  it('do not exist: 404 as every sandbox route', async () => {
    const production = await startTestApp({ mode: 'production' });
    try {
      for (const [method, url] of [
        ['POST', SNAPSHOTS],
        ['GET', SNAPSHOTS],
        ['GET', `${SNAPSHOTS}/x`],
        ['DELETE', `${SNAPSHOTS}/x`],
        ['POST', `${SNAPSHOTS}/x/restore`],
      ] as const) {
        const response = await production.signed({ method, url, ...(method === 'POST' ? { body: {} } : {}) });
        const body = assertErrorBody(response, 404, 'NOT_FOUND');
        assert.match(body.message ?? '', /belongs to the sandbox/, `${method} ${url}`);
      }
    } finally {
      await production.close();
    }
  });
});

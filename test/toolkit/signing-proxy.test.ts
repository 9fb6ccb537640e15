import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { approveSca } from '../../src/toolkit/sca-approver.js';
import { type SigningProxy, startSigningProxy } from '../../src/toolkit/signing-proxy.js';
import { freePort } from '../support/browser.js';
import { CROSS_BORDER_PATH, OLA_ACCOUNTS, crossBorderBody, psuByNationalId } from '../support/payment-requests.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * `tpp proxy` (src/toolkit/signing-proxy.ts): a tool that cannot sign (Postman, Bruno, curl) sends
 * plain HTTP to the proxy, and the bank sees signed requests of the TPP whose certificate the proxy
 * holds; the bank's links in the answers lead back through the proxy.
 */
let t: TestApp;
let proxy: SigningProxy;

before(async () => {
  const port = await freePort();
  const server = `http://127.0.0.1:${port}`;
  t = await startTestApp({ publicUrl: server });
  await t.app.listen({ port, host: '127.0.0.1' });
  proxy = await startSigningProxy({ upstream: server, credentials: t.fixtures.tpp, port: 0 });
});
after(async () => {
  await proxy?.close();
  await t?.close();
});

interface Created {
  paymentId: string;
  transactionStatus: string;
  _links: Record<string, { href: string }>;
}

/** A cross-border create sent as plain HTTP, as a tool without the signature would send it. */
async function plainCreate(
  extra: Record<string, string> = {},
  psu = psuByNationalId(),
  body = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[1], currency: 'NOK' } },
): Promise<Response> {
  return fetch(`${proxy.url}${CROSS_BORDER_PATH}?allowLogicalDuplicate=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...psu, ...extra },
    body: JSON.stringify(body),
  });
}

describe('the signing proxy', () => {
  it('signs a plain create, and the payment is approved and read through the links it rewrote to itself', async () => {
    const created = await plainCreate();
    assert.equal(created.status, 201, await created.clone().text());
    const payment = (await created.json()) as Created;
    const link = payment._links.scaRedirect!.href;
    assert.ok(link.startsWith(`${proxy.url}/sca/`), link);

    const outcome = await approveSca({ link, customerNumber: '13039319955' });
    assert.equal(outcome.decision, 'approved');

    const status = await fetch(`${proxy.url}${payment._links.status!.href}`);
    assert.equal(status.status, 200);
    assert.equal(((await status.json()) as Created).transactionStatus, 'ACTC');
    // The bank saw the proxy's TPP: the payment is in its bank, read signed as that TPP.
    const read = await t.signed({ method: 'GET', url: `${CROSS_BORDER_PATH}/${payment.paymentId}/status` });
    assert.equal(read.statusCode, 200, read.body);
  });

  it("replaces a client's own Signature, Digest and Date rather than forwarding them", async () => {
    const created = await plainCreate({
      Signature: 'keyId="forged",algorithm="rsa-sha256",headers="date",signature="AAAA"',
      Digest: 'SHA-256=AAAA',
      Date: 'Mon, 01 Jan 2001 00:00:00 GMT',
    });
    assert.equal(created.status, 201, await created.text());
  });

  it('keeps the X-Request-ID a client sends, so that its retry is answered as the first', async () => {
    const id = crypto.randomUUID();
    const psu = psuByNationalId();
    const body = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[1], currency: 'NOK' } };
    const first = await plainCreate({ 'X-Request-ID': id }, psu, body);
    assert.equal(first.status, 201, await first.clone().text());
    const again = await plainCreate({ 'X-Request-ID': id }, psu, body);
    assert.equal(again.status, 201, await again.clone().text());
    assert.equal(((await again.json()) as Created).paymentId, ((await first.json()) as Created).paymentId);
  });

  it("passes the bank's refusal through unchanged", async () => {
    const path = `${CROSS_BORDER_PATH}/unknown/status`;
    const direct = await t.signed({ method: 'GET', url: path });
    assert.ok(direct.statusCode >= 400, direct.body);
    const refused = await fetch(`${proxy.url}${path}`);
    assert.equal(refused.status, direct.statusCode);
    const codes = (body: unknown) => (body as { tppMessages: { code: string }[] }).tppMessages.map((m) => m.code);
    assert.deepEqual(codes(await refused.json()), codes(direct.json()));
  });

  it('answers 502 naming the address when the bank cannot be reached', async () => {
    const closed = await freePort();
    const lonely = await startSigningProxy({
      upstream: `http://127.0.0.1:${closed}`,
      credentials: t.fixtures.tpp,
      port: 0,
    });
    try {
      const answer = await fetch(`${lonely.url}/v1/sandbox/clock`);
      assert.equal(answer.status, 502);
      const text = ((await answer.json()) as { tppMessages: { text: string }[] }).tppMessages[0]!.text;
      assert.match(text, new RegExp(`127\\.0\\.0\\.1:${closed}.*ECONNREFUSED`));
    } finally {
      await lonely.close();
    }
  });
});

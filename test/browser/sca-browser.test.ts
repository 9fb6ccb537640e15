import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { freePort, launchChromium, screenshot, startTppServer } from '../support/browser.js';
import type { Clock } from '../../src/domain/clock.js';
import { OLA_ACCOUNTS, createCrossBorder, crossBorderBody } from '../support/payment-requests.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * The SCA pages in Debian's Chromium, as a PSU uses them: each test follows the scaRedirect of a
 * real answer, fills in and clicks, and saves a screenshot in test-artifacts/browser/.
 */

class ManualClock implements Clock {
  current = new Date();
  now(): Date {
    return new Date(this.current);
  }
}

const clock = new ManualClock();
let t: TestApp;
let browser: Browser;
let tpp: Server;
let tppUrl: string;
const landings: URL[] = [];

before(async () => {
  const port = await freePort();
  t = await startTestApp({ clock, publicUrl: `http://127.0.0.1:${port}` });
  await t.app.listen({ port, host: '127.0.0.1' });
  // The TPP's redirect URI: records where the browser lands.
  ({ server: tpp, url: tppUrl } = await startTppServer((url) => landings.push(url)));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => tpp?.close(resolve));
  await t?.close();
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 390, height: 844 } });
  return context.newPage();
}

async function payment(changes: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const body = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' }, ...changes };
  const response = await createCrossBorder(t, {
    body,
    headers: { 'TPP-Redirect-URI': `${tppUrl}/callback?state=xyz`, 'TPP-Session-ID': 'browser-session', ...headers },
  });
  assert.equal(response.statusCode, 201, response.body);
  const created = response.json() as { paymentId: string; _links: Record<string, { href: string }> };
  const status = async () =>
    (await t.signed({ method: 'GET', url: created._links.status!.href })).json().transactionStatus as string;
  return { created, link: created._links.scaRedirect!.href, status };
}

async function logIn(page: Page, customerNumber: string, code: string): Promise<void> {
  await page.fill('#customerNumber', customerNumber);
  await page.fill('#code', code);
  await page.click('#log-in');
}

describe('the SCA pages in Chromium', () => {
  it('approve: link, log in, check, approve, land on the TPP redirect URI with psu-id and tpp-session-id; status ACTC', async () => {
    const created = await payment();
    const page = await newPage();
    await page.goto(created.link);
    await screenshot(page, 'approve-1-login');
    await logIn(page, '13039319955', '123456');
    await page.waitForSelector('#approve');
    assert.match((await page.textContent('.payment')) ?? '', /1506\.10\.12343/);
    await screenshot(page, 'approve-2-confirm');
    await page.click('#approve');
    await page.waitForURL(/\/callback\?/);
    await screenshot(page, 'approve-3-back-at-tpp');
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('state'), 'xyz');
    assert.match(landed.searchParams.get('psu-id') ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(landed.searchParams.get('tpp-session-id'), 'browser-session');
    assert.equal(await created.status(), 'ACTC');
    await page.context().close();
  });

  it('decline: the payment is RJCT and the TPP is told', async () => {
    const created = await payment();
    const page = await newPage();
    await page.goto(created.link);
    await logIn(page, '13039319955', '123456');
    await page.waitForSelector('#decline');
    await page.click('#decline');
    await page.waitForURL(/\/callback\?/);
    await screenshot(page, 'decline-back-at-tpp');
    assert.equal(new URL(page.url()).searchParams.get('message'), 'declined');
    assert.equal(await created.status(), 'RJCT');
    await page.context().close();
  });

  it('a wrong customer: the page says plainly that nothing was approved', async () => {
    const created = await payment();
    const page = await newPage();
    await page.goto(created.link);
    await logIn(page, '12085592767', '123456');
    await page.waitForSelector('#outcome');
    await screenshot(page, 'wrong-customer');
    assert.match(
      (await page.textContent('main')) ?? '',
      /You are not the person this payment was initiated for\. Nothing was approved\./,
    );
    assert.equal(await created.status(), 'RCVD');
    await page.context().close();
  });

  it('cancelled by the TPP while the PSU was on the page: approving shows that it was cancelled, and the link back tells the TPP', async () => {
    const created = await payment();
    const page = await newPage();
    await page.goto(created.link);
    await logIn(page, '13039319955', '123456');
    await page.waitForSelector('#approve');
    assert.equal((await t.signed({ method: 'DELETE', url: created.created._links.self!.href })).statusCode, 204);
    await page.click('#approve');
    await page.waitForSelector('#outcome[data-outcome="payment-cancelled"]');
    await screenshot(page, 'cancelled-meanwhile');
    assert.match((await page.textContent('main')) ?? '', /The payment was cancelled/);
    await page.click('#return');
    await page.waitForURL(/\/callback\?/);
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('message'), 'payment-cancelled');
    assert.equal(landed.searchParams.get('state'), 'xyz');
    assert.equal(await created.status(), 'CANC');
    await page.context().close();
  });

  it('an expired link: the page says it expired', async () => {
    const created = await payment();
    clock.current = new Date(Date.now() + 16 * 60_000);
    try {
      const page = await newPage();
      const response = await page.goto(created.link);
      assert.equal(response?.status(), 410);
      await screenshot(page, 'expired-link');
      assert.match((await page.textContent('h1')) ?? '', /This link has expired/);
      await page.context().close();
    } finally {
      clock.current = new Date();
    }
  });

  it('a replayed link: the second visit is refused', async () => {
    const created = await payment();
    const first = await newPage();
    await first.goto(created.link);
    await first.waitForSelector('#log-in');
    const second = await newPage();
    const response = await second.goto(created.link);
    assert.equal(response?.status(), 410);
    await screenshot(second, 'replayed-link');
    assert.match((await second.textContent('h1')) ?? '', /This link does not work/);
    await first.context().close();
    await second.context().close();
  });

  it('a basket of three payments signed at once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await createCrossBorder(t, {
        body: { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[i % 2], currency: 'NOK' } },
        without: ['PSU-Context'],
      });
      ids.push(response.json().paymentId);
    }
    const basket = await t.signed({
      method: 'POST',
      url: '/v1/signing-baskets',
      body: { paymentIds: ids },
      headers: {
        'PSU-ID': '3fa85f64-5717-4562-b3fc-2c963f66afa6',
        'PSU-IP-Address': '192.0.2.10',
        'TPP-Redirect-URI': `${tppUrl}/basket-done`,
        'TPP-Session-ID': 'basket-session',
      },
    });
    assert.equal(basket.statusCode, 201, basket.body);
    const page = await newPage();
    await page.goto(basket.json()._links.scaRedirect.href);
    await logIn(page, '13039319955', '123456');
    await page.waitForSelector('#approve');
    assert.equal(await page.locator('.payment').count(), 3);
    await screenshot(page, 'basket-confirm');
    await page.click('#approve');
    await page.waitForURL(/\/basket-done\?/);
    const status = await t.signed({ method: 'GET', url: `${basket.json()._links.status.href}` });
    assert.equal(status.json().transactionStatus, 'ACTC');
    for (const id of ids) {
      assert.equal(
        (
          await t.signed({ method: 'GET', url: `/v1/payments/norwegian-cross-border-credit-transfers/${id}/status` })
        ).json().transactionStatus,
        'ACTC',
      );
    }
    await page.context().close();
  });

  it('HTML in a creditor name appears as text on the page', async () => {
    const created = await payment({ creditorName: '<img src=x onerror="document.title=1"><b>Evil AS</b>' });
    const page = await newPage();
    await page.goto(created.link);
    await logIn(page, '13039319955', '123456');
    await page.waitForSelector('.creditor-name');
    await screenshot(page, 'escaped-creditor-name');
    assert.equal(await page.textContent('.creditor-name'), '<img src=x onerror="document.title=1"><b>Evil AS</b>');
    assert.equal(await page.locator('.creditor-name b').count(), 0);
    assert.notEqual(await page.title(), '1');
    await page.context().close();
  });
});

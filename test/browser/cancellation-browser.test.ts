import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { freePort, launchChromium, screenshot, startTppServer } from '../support/browser.js';
import { OLA_ACCOUNTS, createCrossBorder, crossBorderBody } from '../support/payment-requests.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * The cancellation SCA in Debian's Chromium, as a PSU meets it (docs/sca.md, "Cancelling an
 * authorised payment"): the PSU approves a payment on the bank's page; the TPP's DELETE of it is
 * answered 202 with startAuthorisation; the TPP starts the cancellation authorisation and sends the
 * PSU to its scaRedirect; the PSU logs in, sees the payment to be cancelled and approves or keeps it.
 * Screenshots in test-artifacts/browser/.
 */

const OLA = '13039319955';
let t: TestApp;
let browser: Browser;
let tpp: Server;
let tppUrl: string;

before(async () => {
  const port = await freePort();
  t = await startTestApp({ publicUrl: `http://127.0.0.1:${port}` });
  await t.app.listen({ port, host: '127.0.0.1' });
  ({ server: tpp, url: tppUrl } = await startTppServer());
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

async function logIn(page: Page): Promise<void> {
  await page.fill('#customerNumber', OLA);
  await page.fill('#code', '123456');
  await page.click('#log-in');
}

/** The TPP's redirect headers of a create or an authorisation. */
const redirect = (path: string) => ({
  'TPP-Redirect-URI': `${tppUrl}${path}?state=c1`,
  'TPP-Session-ID': 'cancel-session',
});

/** A cross-border payment from Ola's account that Ola approves in Chromium: ACTC, waiting for its batch run. */
async function authorisedPayment(): Promise<{ self: string; status: () => Promise<string> }> {
  const response = await createCrossBorder(t, {
    body: { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' } },
    headers: redirect('/paid'),
  });
  assert.equal(response.statusCode, 201, response.body);
  const created = response.json() as { _links: Record<string, { href: string }> };
  const page = await newPage();
  await page.goto(created._links.scaRedirect!.href);
  await logIn(page);
  await page.click('#approve');
  await page.waitForURL(/\/paid\?/);
  await page.context().close();
  const status = async () =>
    (await t.signed({ method: 'GET', url: created._links.status!.href })).json().transactionStatus as string;
  assert.equal(await status(), 'ACTC');
  return { self: created._links.self!.href, status };
}

/** DELETE (202) and POST …/cancellation-authorisations: the page the PSU is sent to. */
async function cancellationLink(self: string): Promise<string> {
  const deleted = await t.signed({ method: 'DELETE', url: self });
  assert.equal(deleted.statusCode, 202, deleted.body);
  const start = deleted.json()._links.startAuthorisation.href as string;
  assert.equal(start, `${self}/cancellation-authorisations`);
  const started = await t.signed({ method: 'POST', url: start, headers: redirect('/cancelled') });
  assert.equal(started.statusCode, 201, started.body);
  assert.equal(started.json().scaStatus, 'started');
  return started.json()._links.scaRedirect.href as string;
}

describe('the cancellation SCA pages in Chromium', () => {
  it('DELETE of an authorised payment → 202 → cancellation authorisation → the page: the PSU sees the payment, approves its cancellation and lands on the TPP; CANC', async () => {
    const payment = await authorisedPayment();
    const page = await newPage();
    await page.goto(await cancellationLink(payment.self));
    assert.match((await page.textContent('main')) ?? '', /asks you to approve the cancellation of a payment/);
    await screenshot(page, 'cancellation-1-login');
    await logIn(page);
    await page.waitForSelector('#approve');
    assert.match((await page.textContent('h1')) ?? '', /Check and approve the cancellation/);
    assert.match((await page.textContent('.payment')) ?? '', /Svenska Leverantör AB/);
    assert.match((await page.textContent('.payment')) ?? '', /1506\.10\.12343/);
    assert.match((await page.textContent('#approve')) ?? '', /cancel/i);
    await screenshot(page, 'cancellation-2-confirm');
    await page.click('#approve');
    await page.waitForURL(/\/cancelled\?/);
    await screenshot(page, 'cancellation-3-back-at-tpp');
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('state'), 'c1');
    assert.equal(landed.searchParams.get('tpp-session-id'), 'cancel-session');
    assert.equal(landed.searchParams.get('message'), null);
    assert.equal(await payment.status(), 'CANC');
    await page.context().close();
  });

  it('the PSU keeps the payment: it stays ACTC, and the TPP is told the cancellation was declined', async () => {
    const payment = await authorisedPayment();
    const page = await newPage();
    await page.goto(await cancellationLink(payment.self));
    await logIn(page);
    await page.waitForSelector('#decline');
    await screenshot(page, 'cancellation-keep');
    await page.click('#decline');
    await page.waitForURL(/\/cancelled\?/);
    assert.equal(new URL(page.url()).searchParams.get('message'), 'declined');
    assert.equal(await payment.status(), 'ACTC');
    await page.context().close();
  });
});

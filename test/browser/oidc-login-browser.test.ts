import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { PROVIDER_CALLBACK_PATH } from '../../src/http/routes/sca-page-routes.js';
import { askConsent } from '../support/ais-requests.js';
import { freePort, launchChromium, screenshot, startTppServer } from '../support/browser.js';
import { OLA_ACCOUNTS, PSU_ID, createCrossBorder, crossBorderBody } from '../support/payment-requests.js';
import { type TestApp, startTestApp } from '../support/test-app.js';
import { ACR_HIGH, type TestIdp, startTestIdp } from '../support/test-idp.js';
import { ScaFlowError, approveSca } from '../../src/toolkit/sca-approver.js';

/**
 * The PSU's log-in at the bank's identity provider in Debian's Chromium: the SCA link leads to the
 * test provider (test/support/test-idp.ts, whose log-in page lists the customers), back to the
 * bank's page, and on to the TPP. A payment, a consent and a basket, with screenshots in
 * test-artifacts/browser/.
 */
let t: TestApp;
let idp: TestIdp;
let browser: Browser;
let tpp: Server;
let tppUrl: string;

before(async () => {
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  idp = await startTestIdp({ redirectUri: `${publicUrl}${PROVIDER_CALLBACK_PATH}` });
  t = await startTestApp({
    publicUrl,
    identityProvider: {
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientAuth: { kind: 'client-secret', secret: idp.clientSecret },
      scope: 'openid',
      acrValues: [ACR_HIGH],
      identityClaim: 'nin',
      nameClaim: 'name',
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  ({ server: tpp, url: tppUrl } = await startTppServer());
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => tpp?.close(resolve));
  await t?.close();
  await idp?.close();
});

/** A browser of its own for each PSU: no log-in at the provider is carried over. */
async function newPage(): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 390, height: 844 } });
  return context.newPage();
}

/** At the provider's page: logs in as Ola with BankID's acr, and waits for the bank's page. */
async function logInAtProvider(page: Page, name: string, waitFor: string): Promise<void> {
  await page.waitForURL((url) => url.origin === idp.issuer);
  await screenshot(page, `${name}-1-provider`);
  await page.click(`a[href*="account=ola"][href*="${encodeURIComponent(ACR_HIGH)}"]`);
  await page.waitForSelector(waitFor);
}

async function paymentLink(changes: Record<string, unknown> = {}, without: string[] = []): Promise<string> {
  const body = { ...crossBorderBody(), debtorAccount: { bban: OLA_ACCOUNTS[0], currency: 'NOK' }, ...changes };
  const response = await createCrossBorder(t, {
    body,
    without,
    headers: { 'TPP-Redirect-URI': `${tppUrl}/callback?state=oidc`, 'TPP-Session-ID': 'browser-oidc' },
  });
  assert.equal(response.statusCode, 201, response.body);
  const created = response.json() as { paymentId: string; _links: Record<string, { href: string }> };
  return without.includes('PSU-Context') ? created.paymentId : created._links.scaRedirect!.href;
}

describe('logging in at the identity provider in Chromium', () => {
  it('a payment: the link leads to the provider, back to the confirmation page, approved, at the TPP', async () => {
    const page = await newPage();
    await page.goto(await paymentLink());
    await logInAtProvider(page, 'oidc-payment', '#approve');
    assert.match((await page.textContent('main')) ?? '', /Ola Nordmann/);
    await screenshot(page, 'oidc-payment-2-confirm');
    await page.click('#approve');
    await page.waitForURL(/\/callback\?/);
    await screenshot(page, 'oidc-payment-3-back-at-tpp');
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('state'), 'oidc');
    assert.match(landed.searchParams.get('psu-id') ?? '', /^[0-9a-f-]{36}$/);
    await page.context().close();
  });

  it('a consent: the provider, then the accounts to share', async () => {
    const response = await askConsent(t, {
      headers: { 'TPP-Redirect-URI': `${tppUrl}/callback?state=ais`, 'TPP-Session-ID': 'browser-oidc-ais' },
    });
    assert.equal(response.statusCode, 201, response.body);
    const page = await newPage();
    await page.goto((response.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href);
    await logInAtProvider(page, 'oidc-consent', '#share');
    await screenshot(page, 'oidc-consent-2-choose');
    await page.click('#share');
    await page.waitForURL(/\/callback\?/);
    await screenshot(page, 'oidc-consent-3-back-at-tpp');
    assert.match(new URL(page.url()).searchParams.get('psu-id') ?? '', /^[0-9a-f-]{36}$/);
    await page.context().close();
  });

  it('a basket: the provider, the payments, approved', async () => {
    const ids = [
      await paymentLink({ instructedAmount: { amount: '100.00', currency: 'NOK' } }, ['PSU-Context']),
      await paymentLink({ instructedAmount: { amount: '200.00', currency: 'NOK' } }, ['PSU-Context']),
    ];
    const basket = await t.signed({
      method: 'POST',
      url: '/v1/signing-baskets',
      body: { paymentIds: ids },
      headers: {
        'PSU-ID': PSU_ID,
        'PSU-IP-Address': '192.0.2.10',
        'TPP-Redirect-URI': `${tppUrl}/callback?state=basket`,
        'TPP-Session-ID': 'browser-oidc-basket',
      },
    });
    assert.equal(basket.statusCode, 201, basket.body);
    const page = await newPage();
    await page.goto((basket.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href);
    await logInAtProvider(page, 'oidc-basket', '#approve');
    await screenshot(page, 'oidc-basket-2-confirm');
    await page.click('#approve');
    await page.waitForURL(/\/callback\?/);
    await screenshot(page, 'oidc-basket-3-back-at-tpp');
    assert.equal(new URL(page.url()).searchParams.get('state'), 'basket');
    await page.context().close();
  });

  it("the TPP toolkit's approveSca (tpp approve) says the PSU logs in at the provider, rather than that the bank ended the SCA", async () => {
    await assert.rejects(
      approveSca({ link: await paymentLink(), customerNumber: '13039319955' }),
      (error: unknown) =>
        error instanceof ScaFlowError &&
        error.message.includes(`sends the PSU to its identity provider to log in (${idp.issuer})`),
    );
  });
});

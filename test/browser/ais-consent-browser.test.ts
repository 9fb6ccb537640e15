import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { freePort, launchChromium, screenshot, startTppServer } from '../support/browser.js';
import { CONSENT_PATH, readAis } from '../support/ais-requests.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * The consent page in Debian's Chromium, as a PSU uses it: the TPP asks with POST
 * /v1/bank-offered-consents, the PSU logs in, sees the accounts about to be shared, ticks the ones
 * they choose and shares them; the browser lands on the TPP's redirect URI with psu-id and
 * tpp-session-id, and the TPP reads exactly those accounts. Screenshots in test-artifacts/browser/.
 */

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

async function newPage(locale = 'en-GB'): Promise<Page> {
  const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 } });
  return context.newPage();
}

async function consentLink(headers: Record<string, string> = {}): Promise<string> {
  const response = await t.signed({
    method: 'POST',
    url: CONSENT_PATH,
    headers: { 'TPP-Redirect-URI': `${tppUrl}/callback?state=ais`, ...headers },
  });
  assert.equal(response.statusCode, 201, response.body);
  return (response.json() as { _links: { scaRedirect: { href: string } } })._links.scaRedirect.href;
}

async function logIn(page: Page, customerNumber: string): Promise<void> {
  await page.fill('#customerNumber', customerNumber);
  await page.fill('#code', '123456');
  await page.click('#log-in');
}

/** The accounts the page offers, as the PSU reads them: name and number, and whether ticked. */
async function offered(page: Page): Promise<{ text: string; checked: boolean }[]> {
  // The callback runs in the page; the DOM's types are not this project's (no DOM lib).
  return page.$$eval('label.choice', (labels: any[]) =>
    labels.map((label: any) => ({
      text: String(label.innerText).replace(/\s+/g, ' ').trim(),
      checked: label.querySelector('input').checked === true,
    })),
  );
}

describe('the consent page in Chromium', () => {
  it('shows the accounts about to be shared, all ticked; the PSU unticks one, shares, lands on the TPP with psu-id and tpp-session-id, and the TPP reads only the one chosen', async () => {
    const page = await newPage();
    await page.goto(await consentLink({ 'TPP-Session-ID': 'browser-ais' }));
    await screenshot(page, 'consent-1-login');
    assert.match((await page.textContent('main')) ?? '', /asks to see information about your accounts/);
    await logIn(page, '13039319955');
    await page.waitForSelector('#share');
    assert.deepEqual(await offered(page), [
      { text: 'Brukskonto 1506.10.12343 NOK', checked: true },
      { text: 'Sparekonto 1506.10.12351 NOK', checked: true },
    ]);
    await screenshot(page, 'consent-2-choose');
    await page.uncheck('label.choice:nth-of-type(1) input');
    await page.click('#share');
    await page.waitForURL(/\/callback\?/);
    await screenshot(page, 'consent-3-back-at-tpp');
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('state'), 'ais');
    assert.equal(landed.searchParams.get('tpp-session-id'), 'browser-ais');
    const psuId = landed.searchParams.get('psu-id')!;
    assert.match(psuId, /^[0-9a-f-]{36}$/);
    const accounts = await readAis(t, '/v1/accounts', { psuId, tppSessionId: 'browser-ais' });
    assert.deepEqual(
      (accounts.json() as { accounts: { bban: string }[] }).accounts.map((a) => a.bban),
      ['15061012351'],
    );
    await page.context().close();
  });

  it("asks again, in the PSU's language, when nothing is ticked, and shares nothing", async () => {
    const page = await newPage('nb-NO');
    await page.goto(await consentLink({ 'TPP-Session-ID': 'browser-ais-none' }));
    await logIn(page, '12085592767');
    await page.waitForSelector('#share');
    for (const box of await page.$$('label.choice input')) await box.uncheck();
    await page.click('#share');
    await page.waitForSelector('p.error');
    assert.match((await page.textContent('p.error')) ?? '', /Kryss av minst én konto/);
    assert.ok(
      (await offered(page)).every((o) => !o.checked),
      'the boxes stay as the PSU left them',
    );
    await screenshot(page, 'consent-4-nothing-ticked-nb');
    await page.click('#decline');
    await page.waitForURL(/\/callback\?/);
    assert.equal(new URL(page.url()).searchParams.get('message'), 'declined');
    await page.context().close();
  });

  it('acting for a company: the page names the agreement and offers the accounts the person may VIEW', async () => {
    const page = await newPage();
    await page.goto(
      await consentLink({
        'TPP-Session-ID': 'browser-ais-corporate',
        'PSU-Context': 'CORPORATE',
        'PSU-Corporate-ID': 'AGR-18129215603',
      }),
    );
    await logIn(page, '13039319955');
    await page.waitForSelector('#share');
    assert.match(
      (await page.textContent('main')) ?? '',
      /You share accounts of Nordlys Handel AS nettbank that you may view/,
    );
    assert.deepEqual(
      (await offered(page)).map((o) => o.text),
      ['Driftskonto 1506.20.56786 NOK', 'Skattetrekkskonto 1506.20.56794 NOK'],
    );
    await screenshot(page, 'consent-5-corporate');
    await page.click('#share');
    await page.waitForURL(/\/callback\?/);
    await page.context().close();
  });

  it('the PSU comes back through a renewal in the same session, withdraws the consent, lands on the TPP with message=withdrawn, and the TPP reads nothing more', async () => {
    const page = await newPage();
    await page.goto(await consentLink({ 'TPP-Session-ID': 'browser-ais-withdraw' }));
    await logIn(page, '12085592767');
    await page.waitForSelector('#share');
    assert.equal(await page.$('#withdraw'), null, 'a first consent has nothing to withdraw');
    await page.click('#share');
    await page.waitForURL(/\/callback\?/);
    const psuId = new URL(page.url()).searchParams.get('psu-id')!;
    const session = { psuId, tppSessionId: 'browser-ais-withdraw' };
    assert.equal((await readAis(t, '/v1/accounts', session)).statusCode, 200);

    await page.goto(await consentLink({ 'TPP-Session-ID': 'browser-ais-withdraw', 'PSU-ID': psuId }));
    await logIn(page, '12085592767');
    await page.waitForSelector('#withdraw');
    assert.match((await page.textContent('#withdraw-hint')) ?? '', /or withdraw to stop sharing any/);
    await screenshot(page, 'consent-6-withdraw');
    await page.click('#withdraw');
    await page.waitForURL(/\/callback\?/);
    const landed = new URL(page.url());
    assert.equal(landed.searchParams.get('message'), 'withdrawn');
    assert.equal(landed.searchParams.get('tpp-session-id'), 'browser-ais-withdraw');
    const refused = await readAis(t, '/v1/accounts', session);
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal((refused.json() as { code: string }).code, 'CONSENT_UNKNOWN');
    await page.context().close();
  });
});

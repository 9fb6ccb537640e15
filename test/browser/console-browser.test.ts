import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort, launchChromium, screenshot } from '../support/browser.js';
import { consoleLink, olaPayment } from '../support/console-requests.js';
import { OLA_ACCOUNTS } from '../support/payment-requests.js';
import { ScriptedPsu } from '../support/scripted-psu.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

/**
 * The sandbox console in Debian's Chromium, as a TPP developer uses it (docs/console.md): a payment
 * made with the API moves through SCA and the batch run while the console watches, the clock moves
 * by its form, all with the keyboard where a person would; at a desk's width and a phone's, in
 * English and Bokmål. Screenshots in test-artifacts/browser/console-*.png.
 */

const DESK = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

let t: TestApp;
let browser: Browser;

before(async () => {
  const port = await freePort();
  t = await startTestApp({ publicUrl: `http://127.0.0.1:${port}` });
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await t?.close();
});

/** A browser on the console, its link opened. */
async function openConsole(viewport = DESK, locale = 'en-GB'): Promise<Page> {
  const context = await browser.newContext({ locale, viewport });
  const page = await context.newPage();
  await page.goto((await consoleLink(t)).href);
  // The link's token has left the address bar.
  assert.equal(new URL(page.url()).pathname, '/console');
  assert.equal(new URL(page.url()).search, '');
  return page;
}

async function payment(): Promise<{ paymentId: string; scaRedirect: string }> {
  const created = await olaPayment(t);
  return { paymentId: created.paymentId, scaRedirect: created._links.scaRedirect.href };
}

/** Tabs through the page until the element has the focus, as a keyboard user gets there; false if it never does. */
async function tabTo(page: Page, selector: string, most = 40): Promise<boolean> {
  for (let i = 0; i < most; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return true;
  }
  return false;
}

/**
 * Follows a link of the console's navigation and waits for the page it opens to load: a click only
 * starts the navigation, and a read made meanwhile would see the old page, or none.
 */
async function goTo(page: Page, link: string): Promise<void> {
  const selector = `nav >> text=${link}`;
  const href = new URL((await page.getAttribute(selector, 'href'))!, page.url()).toString();
  await Promise.all([page.waitForURL(href), page.click(selector)]);
}

describe('the sandbox console in Chromium', () => {
  it('watches a payment made with the API through SCA and the batch run, and moves the clock', async () => {
    const created = await payment();
    const page = await openConsole();
    assert.match((await page.textContent('#tpp')) ?? '', /PSDNO-FSA-111111111/);
    await screenshot(page, 'console-1-overview-desk');

    await goTo(page, 'Payments');
    const listed = page.locator(`li.payment[data-payment-id="${created.paymentId}"]`);
    assert.equal(await listed.getAttribute('data-status'), 'RCVD');
    await screenshot(page, 'console-2-payments-received-desk');
    await listed.locator('a').click();
    await page.waitForSelector('#payment[data-status="RCVD"]');
    await screenshot(page, 'console-3-payment-received-desk');

    // The PSU approves on the bank's SCA pages.
    const psu = new ScriptedPsu(t.app);
    await psu.open(created.scaRedirect);
    await psu.logIn('13039319955', '123456');
    await psu.approve();
    await page.reload();
    await page.waitForSelector('#payment[data-status="ACTC"]');
    assert.match((await page.textContent('#history')) ?? '', /Approved by the PSU: ACTC/);
    await screenshot(page, 'console-4-payment-authorised-desk');

    // Run the batch now, with the keyboard.
    await goTo(page, 'Clock and actions');
    assert.ok(await tabTo(page, '#run-batch'), 'the button is reached with Tab');
    await Promise.all([page.waitForURL(/done=batch-run/), page.keyboard.press('Enter')]);
    assert.match((await page.textContent('#notice')) ?? '', /The batch ran: 1 payment executed, 0 rejected\./);
    await screenshot(page, 'console-5-batch-ran-desk');
    await page.goto(`${new URL(page.url()).origin}/console/payments/${encodeURIComponent(created.paymentId)}`);
    await page.waitForSelector('#payment[data-status="ACSC"]');
    const history = (await page.textContent('#history')) ?? '';
    assert.match(history, /Booked on 1506\.10\.12351: debit NOK 1,200\.00/);
    assert.match(history, /Status ACSC \(executed\)/);
    await screenshot(page, 'console-6-payment-executed-desk');

    // Move the clock two days with the form.
    await goTo(page, 'Clock and actions');
    const before = await page.getAttribute('#clock-now', 'datetime');
    await page.fill('#amount', '2');
    await page.selectOption('#unit', 'days');
    await Promise.all([page.waitForURL(/done=clock-moved/), page.click('#move-clock')]);
    assert.equal(await page.textContent('#clock-offset'), '2 d 0 h 0 min');
    const after = await page.getAttribute('#clock-now', 'datetime');
    assert.ok(Date.parse(after!) - Date.parse(before!) >= 2 * 86_400_000, `${before} → ${after}`);
    assert.match((await page.textContent('#notice')) ?? '', /The clock moved\./);
    await screenshot(page, 'console-7-clock-moved-desk');
    await page.context().close();
  });

  it('saves a snapshot, changes the bank, and restores the snapshot from the console: the old state is back', async () => {
    const page = await openConsole();
    await goTo(page, 'Snapshots');
    await page.fill('#snapshot-name', 'before the second payment');
    await Promise.all([page.waitForURL(/done=snapshot-saved/), page.click('#save-snapshot')]);
    assert.match((await page.textContent('#notice')) ?? '', /The snapshot is saved\./);
    assert.equal(await page.locator('li.snapshot').count(), 1);
    await screenshot(page, 'console-8-snapshot-saved-desk');

    // The change: a payment made with the API after the save.
    const later = await payment();
    await goTo(page, 'Payments');
    assert.equal(await page.locator(`li.payment[data-payment-id="${later.paymentId}"]`).count(), 1);
    await screenshot(page, 'console-9-payment-after-snapshot-desk');

    await goTo(page, 'Snapshots');
    await Promise.all([page.waitForURL(/done=snapshot-restored/), page.click('li.snapshot button.restore')]);
    assert.match((await page.textContent('#notice')) ?? '', /Your bank is back as the snapshot holds it\./);
    await screenshot(page, 'console-10-snapshot-restored-desk');
    await goTo(page, 'Payments');
    assert.equal(
      await page.locator(`li.payment[data-payment-id="${later.paymentId}"]`).count(),
      0,
      'the later payment is gone',
    );
    await screenshot(page, 'console-11-payments-after-restore-desk');
    await page.context().close();
  });

  it('arms a scenario: a kind chosen, then the fields it takes', async () => {
    const page = await openConsole(PHONE);
    await goTo(page, 'Scenarios');
    await page.selectOption('#kind', 'payment-rejected');
    await Promise.all([page.waitForURL(/kind=payment-rejected/), page.click('#choose-kind')]);
    await page.fill('#field-debtorBban', OLA_ACCOUNTS[1]);
    await page.selectOption('#field-reasonCode', 'AC06');
    await screenshot(page, 'console-phone-8-scenario-form');
    await Promise.all([page.waitForURL(/done=scenario-armed/), page.click('#arm-scenario')]);
    assert.equal(await page.locator('li.scenario[data-kind="payment-rejected"]').count(), 1);
    await screenshot(page, 'console-phone-9-scenario-armed');
    await Promise.all([page.waitForURL(/done=scenario-disarmed/), page.click('li.scenario button.disarm')]);
    assert.equal(await page.locator('li.scenario').count(), 0);
    await page.context().close();
  });

  it('reads on a phone: one column, every page, customers and consents', async () => {
    const page = await openConsole(PHONE);
    // Nothing is wider than the screen: no sideways scrolling on a phone.
    const overflow = async () => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    assert.ok((await overflow()) <= 0, 'the overview fits');
    await screenshot(page, 'console-phone-1-overview');
    for (const [link, name] of [
      ['Customers and accounts', 'console-phone-2-customers'],
      ['Payments', 'console-phone-3-payments'],
      ['Consents', 'console-phone-4-consents'],
      ['Snapshots', 'console-phone-10-snapshots'],
      ['Scenarios', 'console-phone-11-scenarios'],
    ] as const) {
      await goTo(page, link);
      assert.ok((await overflow()) <= 0, `${link} fits`);
      await screenshot(page, name);
    }
    await goTo(page, 'Customers and accounts');
    assert.match((await page.textContent('main')) ?? '', /Ola Nordmann/);
    // The first Tab reaches the skip link, which takes the keyboard past the navigation.
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement?.className'), 'skip');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate('document.activeElement?.id'), 'main');
    await page.context().close();
  });

  it('speaks Bokmål to a Norwegian browser', async () => {
    const page = await openConsole(PHONE, 'nb-NO');
    assert.equal(await page.getAttribute('html', 'lang'), 'nb');
    assert.equal(await page.textContent('#move-clock'), 'Flytt klokken');
    assert.equal(await page.textContent('#run-batch'), 'Kjør batchen nå');
    await screenshot(page, 'console-phone-5-overview-nb');
    await page.context().close();
  });

  it('a link opened from another web site: the SameSite=Strict cookie is not sent on its redirect, and the page is one click from the console', async () => {
    const link = (await consoleLink(t)).href as string;
    // A page of another site (localhost is not 127.0.0.1's site) that links to the console, as a web chat would.
    const elsewhere: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><title>Chat</title><a id="link" href="${link}">${link}</a>`);
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const context = await browser.newContext({ locale: 'en-GB', viewport: PHONE });
    try {
      const page = await context.newPage();
      await page.goto(`http://localhost:${(elsewhere.address() as AddressInfo).port}/`);
      const [landed] = await Promise.all([page.waitForNavigation(), page.click('#link')]);
      assert.equal(landed?.status(), 401);
      await screenshot(page, 'console-phone-7-from-another-site');
      const [inside] = await Promise.all([page.waitForNavigation(), page.click('#go-on')]);
      assert.equal(inside?.status(), 200);
      assert.match((await page.textContent('#tpp')) ?? '', /PSDNO-FSA-111111111/);
    } finally {
      await context.close();
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });

  it('without a session shows how to get one (401)', async () => {
    const context = await browser.newContext({ locale: 'en-GB', viewport: PHONE });
    const page = await context.newPage();
    const origin = new URL((await consoleLink(t)).href).origin;
    const response = await page.goto(`${origin}/console/payments`);
    assert.equal(response?.status(), 401);
    assert.match((await page.textContent('main')) ?? '', /npm run -s tpp -- console/);
    await screenshot(page, 'console-phone-6-signed-out');
    await context.close();
  });
});

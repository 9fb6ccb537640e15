import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Clock } from '../../src/domain/clock.js';
import { freePort, launchChromium, screenshot } from '../support/browser.js';
import { consoleLink } from '../support/console-requests.js';
import {
  type NotifyingTestApp,
  approvedSubscribedPayment,
  startNotifyingTestApp,
} from '../support/notifying-test-app.js';
import { TPP_ID } from '../support/tpp-fixtures.js';

/**
 * The console's delivery log in Debian's Chromium (docs/console.md, docs/notifications.md "In the
 * sandbox"): a notification the TPP's endpoint refused, with its answer shown as text, sent again
 * with the button and delivered; at a desk's width and a phone's. Screenshots in
 * test-artifacts/browser/notifications-*.png.
 */

const DESK = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
/** The relay's clock stands still: the refused try's retry never falls due by itself, only the button sends it. */
const frozen = new Date();
const clock: Clock = { now: () => new Date(frozen) };

let n: NotifyingTestApp;
let browser: Browser;

before(async () => {
  const port = await freePort();
  n = await startNotifyingTestApp({ clock, publicUrl: `http://127.0.0.1:${port}` });
  await n.t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await n?.close();
});

async function openNotifications(viewport = DESK): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-GB', viewport });
  const page = await context.newPage();
  // A page that runs a script would say so: the answer shown must stay text.
  page.on('dialog', () => assert.fail('a dialog opened: the answer ran as HTML'));
  await page.goto((await consoleLink(n.t)).href);
  const link = 'nav >> text=Notifications';
  await Promise.all([page.waitForURL(/\/console\/notifications$/), page.click(link)]);
  return page;
}

describe('the console’s delivery log in Chromium', () => {
  it('shows a refused try with its answer as text, and “Send again” delivers it', async () => {
    n.answers.push({ status: 500, body: '<script>alert("x")</script>Service Unavailable' });
    const { paymentId } = await approvedSubscribedPayment(n, '/hooks/browser');
    await n.notifications.relay.drain();
    const [, , first] = await n.t.store.listNotifications(TPP_ID, 3);
    assert.equal(first!.status, 'psuAuthenticated');

    const page = await openNotifications();
    const event = page.locator(`li.notification[data-event-id="${first!.eventId}"]`);
    assert.equal(await event.getAttribute('data-state'), 'pending');
    assert.match((await event.textContent()) ?? '', new RegExp(`payment ${paymentId}`));
    assert.equal(await event.locator('.try .outcome').textContent(), 'HTTP 500');
    assert.match((await event.locator('.try .duration').textContent()) ?? '', /^\d+ ms$/);
    await event.locator('summary').click();
    assert.equal(
      await event.locator('.answer').textContent(),
      '<script>alert("x")</script>Service Unavailable',
      'the answer’s bytes, shown as text',
    );
    await screenshot(page, 'notifications-1-refused-desk');

    const arrived = n.next();
    await Promise.all([page.waitForURL(/done=notification-resent/), event.locator('button.resend').click()]);
    assert.equal(await page.textContent('#notice'), 'The notification is being sent again.');
    // The store nudged the relay when the button's POST changed the event; drained, its end is written.
    assert.equal((JSON.parse((await arrived).body) as { eventId: string }).eventId, first!.eventId);
    await n.notifications.relay.drain();
    await page.reload();
    assert.equal(await event.getAttribute('data-state'), 'delivered');
    assert.deepEqual(await event.locator('.try .outcome').allTextContents(), ['HTTP 500', 'HTTP 204']);
    assert.deepEqual(
      await page.locator('li.notification').evaluateAll((items) => items.map((i) => i.getAttribute('data-state'))),
      ['delivered', 'delivered', 'delivered'],
      'the ones that waited behind it went too',
    );
    await screenshot(page, 'notifications-2-sent-again-desk');
    await page.context().close();
  });

  it('fits a phone: long ids, URIs and answers wrap or scroll inside their box', async () => {
    const page = await openNotifications(PHONE);
    assert.ok((await page.locator('li.notification').count()) > 0);
    await page.locator('li.notification summary').first().click();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    assert.ok(overflow <= 0, `no sideways scrolling (${overflow} px)`);
    await screenshot(page, 'notifications-phone-1');
    await page.context().close();
  });
});

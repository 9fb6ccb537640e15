import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { freePort, launchChromium, screenshot } from '../support/browser.js';
import { OPERATION_EXAMPLES } from '../../src/http/schemas/examples/operation-examples.js';
import { type TestApp, startTestApp } from '../support/test-app.js';
import { TPP_ID } from '../support/tpp-fixtures.js';

/**
 * "Try it out" on /docs in Debian's Chromium, as a TPP developer uses it: in the sandbox the page gets
 * a certificate from the sandbox and signs each request in the browser, so a payment is created (201)
 * from the example body the page fills in, signed by the PSU through its scaRedirect link, and its
 * status read (200); production's page signs nothing. Screenshots in test-artifacts/browser/.
 */
let sandbox: TestApp;
let sandboxUrl: string;
let browser: Browser;

before(async () => {
  const port = await freePort();
  sandboxUrl = `http://127.0.0.1:${port}`;
  sandbox = await startTestApp({ publicUrl: sandboxUrl });
  await sandbox.app.listen({ port, host: '127.0.0.1' });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await sandbox?.close();
});

/** The reference of the server at this address, or the page a link names. */
async function openDocs(url: string, link = `${url}/docs`): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(link);
  return page;
}

/** Opens an operation by its operationId and presses "Try it out". */
async function tryOut(page: Page, operationId: string): Promise<Locator> {
  const operation = page.locator(`[id$="-${operationId}"].opblock`);
  await operation.locator('.opblock-summary').first().click();
  await operation.getByRole('button', { name: 'Try it out' }).click();
  return operation;
}

async function fill(operation: Locator, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    const field = operation.locator(`tr[data-param-name="${name}"]`).locator('input, select').first();
    if ((await field.evaluate((element) => element.tagName)) === 'SELECT') await field.selectOption(value);
    else await field.fill(value);
  }
}

/** Presses Execute and gives the status and the body of the answer the page shows. */
async function execute(operation: Locator): Promise<{ status: number; body: Record<string, unknown> }> {
  await operation.getByRole('button', { name: 'Execute' }).click();
  const status = operation.locator('.live-responses-table .response .response-col_status').first();
  await status.waitFor();
  const text = await operation.locator('.live-responses-table .response-col_description pre').first().textContent();
  return { status: Number((await status.textContent())!.trim()), body: JSON.parse(text ?? '{}') };
}

/** Ola Nordmann signs on the bank's page behind the answer's scaRedirect, in a tab of the page's browser. */
async function approveAsOla(page: Page, answer: Record<string, unknown>): Promise<void> {
  const links = answer._links as Record<string, { href: string }>;
  const psu = await page.context().newPage();
  await psu.goto(links.scaRedirect!.href);
  await psu.fill('#customerNumber', '13039319955');
  await psu.fill('#code', '123456');
  await psu.click('#log-in');
  await Promise.all([psu.waitForURL(/\/docs\//), psu.click('#approve')]);
  await psu.close();
}

describe('/docs "Try it out" signs in the browser (sandbox)', () => {
  it('creates a payment (201), the PSU signs it through its scaRedirect, and its status reads 200 ACTC', async () => {
    const page = await openDocs(sandboxUrl);
    const signing = page.locator('#sandbox-signing[data-state="ready"]');
    await signing.waitFor();
    assert.match((await signing.textContent())!, /signs each request in this browser .* PSDNO-FSA-\d{9}/);

    // Nothing typed (issue 41 §2): every header the create needs is filled in, the body is the example.
    const create = await tryOut(page, 'initiatePaymentNorwegianCrossBorderCreditTransfers');
    const body = create.locator('textarea.body-param__text');
    assert.deepEqual(
      JSON.parse(await body.inputValue()),
      OPERATION_EXAMPLES.initiatePaymentNorwegianCrossBorderCreditTransfers!.request,
    );
    const created = await execute(create);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.transactionStatus, 'RCVD');
    await screenshot(create, 'docs-try-it-created');

    // The PSU signs on the bank's page, opened from the answer's link as a developer would, and
    // returns to the reference, the TPP-Redirect-URI the page filled in.
    await approveAsOla(page, created.body);

    const status = await tryOut(page, 'getPaymentInitiationStatus');
    await fill(status, {
      product: 'norwegian-cross-border-credit-transfers',
      paymentId: String(created.body.paymentId),
    });
    const read = await execute(status);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    assert.equal(read.body.transactionStatus, 'ACTC');
    await screenshot(status, 'docs-try-it-status');
  });
});

describe('/docs opened from the link `tpp docs` prints signs as that TPP, in its bank', () => {
  it("binds a key the browser makes to the TPP's bank: a payment made on the page is the TPP's, read with its own certificate", async () => {
    // What `tpp docs` asks for, signed by the TPP whose bank the tests' requests use.
    const asked = await sandbox.signed({ method: 'POST', url: '/v1/sandbox/docs-links' });
    assert.equal(asked.statusCode, 201, asked.body);
    const href = (asked.json() as { href: string }).href;
    assert.ok(href.startsWith(`${sandboxUrl}/docs/#bind=`), href);

    const page = await openDocs(sandboxUrl, href);
    const signing = page.locator('#sandbox-signing[data-state="ready"]');
    await signing.waitFor();
    assert.match((await signing.textContent())!, new RegExp(`signs as ${TPP_ID}, with a key this browser made`));
    assert.doesNotMatch(page.url(), /bind=/, 'the used link leaves the address bar');

    const create = await tryOut(page, 'initiatePaymentNorwegianCrossBorderCreditTransfers');
    const created = await execute(create);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.ok(
      (created.body._links as Record<string, unknown>).scaRedirect,
      'a scaRedirect, as PSU-Context is filled in',
    );
    await screenshot(create, 'docs-try-it-bound-created');
    // The TPP reads it with its own certificate: the same bank, the same TPP.
    const read = await sandbox.signed({
      method: 'GET',
      url: `/v1/payments/norwegian-cross-border-credit-transfers/${String(created.body.paymentId)}/status`,
    });
    assert.equal(read.statusCode, 200, read.body);

    // A reload signs as the TPP still: the key is kept in the browser, the link is not sent again.
    await page.reload();
    await page.locator('#sandbox-signing[data-state="ready"]').waitFor();
    assert.match((await page.locator('#sandbox-signing').textContent())!, new RegExp(`signs as ${TPP_ID}`));
    const keys = (await sandbox.signed({ method: 'GET', url: '/v1/sandbox/keys' })).json() as { keys: unknown[] };
    assert.equal(keys.keys.length, 2, "the TPP's own key and the browser's");
  });
});

describe('/docs in production signs nothing', () => {
  let production: TestApp;
  let productionUrl: string;
  before(async () => {
    const port = await freePort();
    productionUrl = `http://127.0.0.1:${port}`;
    production = await startTestApp({ mode: 'production', publicUrl: productionUrl });
    await production.app.listen({ port, host: '127.0.0.1' });
  });
  after(() => production?.close());

  it('serves no signing script, asks for the signature headers, and the page has no signer', async () => {
    const index = await production.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(index.statusCode, 200);
    assert.doesNotMatch(index.body, /try-it-signer/);
    const initializer = await production.app.inject({ method: 'GET', url: '/docs/static/swagger-initializer.js' });
    assert.doesNotMatch(initializer.body, /psd2SignRequest|requestInterceptor/);
    const shown = (await production.app.inject({ method: 'GET', url: '/docs/json' })).json() as {
      paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
    };
    const create = shown.paths['/v1/payments/norwegian-cross-border-credit-transfers']!.post!;
    assert.ok(
      create.parameters!.some((p) => p.name === 'X-Request-ID'),
      'the form asks for X-Request-ID',
    );

    const page = await openDocs(productionUrl);
    await page.locator('.opblock').first().waitFor();
    assert.equal(
      await page.evaluate(() => typeof (globalThis as { psd2SignRequest?: unknown }).psd2SignRequest),
      'undefined',
    );
    assert.equal(await page.locator('#sandbox-signing').count(), 0);
    const certificates = await page.evaluate(
      async () => (await fetch('/v1/sandbox/certificates', { method: 'POST' })).status,
    );
    assert.equal(certificates, 404, 'production issues no certificate to a page');
  });
});

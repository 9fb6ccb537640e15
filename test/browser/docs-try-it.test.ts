import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { freePort, launchChromium, screenshot } from '../support/browser.js';
import { OPERATION_EXAMPLES } from '../../src/http/schemas/examples/operation-examples.js';
import { type TestApp, startTestApp } from '../support/test-app.js';

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

async function openDocs(url: string): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${url}/docs`);
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

describe('/docs "Try it out" signs in the browser (sandbox)', () => {
  it('creates a payment (201), the PSU signs it through its scaRedirect, and its status reads 200 ACTC', async () => {
    const page = await openDocs(sandboxUrl);
    const signing = page.locator('#sandbox-signing[data-state="ready"]');
    await signing.waitFor();
    assert.match((await signing.textContent())!, /signs each request in this browser .* PSDNO-FSA-\d{9}/);

    const create = await tryOut(page, 'initiatePaymentNorwegianCrossBorderCreditTransfers');
    await fill(create, {
      'x-accept-fix': 'longer-name',
      'TPP-Session-ID': 'docs-session',
      'TPP-Redirect-URI': 'https://tpp.example/callback?state=docs',
      'X-PSU-IDENTITY': '13039319955',
      'PSU-Context': 'PRIVATE',
      'PSU-IP-Address': '192.0.2.10',
    });
    // The body is the operation's example, as the page fills it in: sent as it is.
    const body = create.locator('textarea.body-param__text');
    assert.deepEqual(
      JSON.parse(await body.inputValue()),
      OPERATION_EXAMPLES.initiatePaymentNorwegianCrossBorderCreditTransfers!.request,
    );
    const created = await execute(create);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.transactionStatus, 'RCVD');
    await screenshot(create, 'docs-try-it-created');

    // The PSU signs on the bank's page, opened from the answer's link as a developer would.
    const links = created.body._links as Record<string, { href: string }>;
    const psu = await page.context().newPage();
    await psu.goto(links.scaRedirect!.href);
    await psu.fill('#customerNumber', '13039319955');
    await psu.fill('#code', '123456');
    await psu.click('#log-in');
    await Promise.all([psu.waitForURL(/tpp\.example/).catch(() => undefined), psu.click('#approve')]);
    await psu.close();

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

import { mkdirSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { type Browser, type Locator, type Page, chromium } from 'playwright-core';

/** What the browser tests share: Debian's Chromium, the TPP's redirect URI, free ports, screenshots in test-artifacts/browser/. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = 'test-artifacts/browser';

export function launchChromium(): Promise<Browser> {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** The TPP's redirect URI: a page saying the browser is back, telling `landed` each address it is called at. */
export async function startTppServer(
  landed: (url: URL) => void = () => undefined,
): Promise<{ server: Server; url: string }> {
  let url = '';
  const server = createServer((request, response) => {
    landed(new URL(request.url ?? '/', url));
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>TPP</title><h1>Back at the TPP</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, url };
}

/**
 * A picture of the page in test-artifacts/browser/. Chromium now and then refuses one capture ("Unable
 * to capture screenshot", a known transient of its compositor, seen once in a CI run of 2026-11-25)
 * and takes the same picture when asked again: such a refusal is asked again, a few times at most.
 */
export async function screenshot(page: Page | Locator, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      // A whole page, or one part of it (an operation of the long /docs page).
      if ('goto' in page) await page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage: true });
      else await page.screenshot({ path: `${ARTIFACTS}/${name}.png` });
      return;
    } catch (error) {
      if (attempt >= SCREENSHOT_ATTEMPTS || !/Unable to capture screenshot/.test((error as Error).message)) throw error;
    }
  }
}

/** Captures asked for before a refusal fails the test. */
const SCREENSHOT_ATTEMPTS = 3;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

import assert from 'node:assert/strict';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { CoreUnavailable } from '../../src/core/bank-core.js';
import { parseCoreKey, verifyCoreSignature } from '../../src/core/http/core-signature.js';
import { HttpCore } from '../../src/core/http/http-core.js';
import type { PaymentOrder } from '../../src/core/core-records.js';

const KEY = parseCoreKey('ab'.repeat(32), 'test');

/** What the tiny core answers next: each test sets it. */
type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

const REPORT = {
  paymentId: 'p1',
  transactionStatus: 'ACSP',
  statusChangedAt: '2026-11-29T10:00:00.000Z',
};

const ORDER: PaymentOrder = {
  paymentId: 'p1',
  paymentService: 'payments',
  paymentProduct: 'norwegian-domestic-credit-transfers',
  initiation: { instructedAmount: { amount: '1.00', currency: 'NOK' } },
  transactionFees: { amountMinor: 0n, currency: 'NOK' },
  signerCustomerId: 'c1',
  authorisedAt: new Date('2026-11-29T10:00:00Z'),
};

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

describe('HttpCore against a core that breaks the contract', () => {
  let server: Server;
  let url: string;
  let handler: Handler;
  let requests = 0;
  const signatureProblems: string[] = [];
  const hanging: ServerResponse[] = [];

  before(async () => {
    server = createServer((request, response) => {
      requests += 1;
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const problem = verifyCoreSignature(
          KEY,
          request.headers['core-signature'] as string | undefined,
          request.method!,
          request.url!,
          body === '' ? undefined : body,
          new Date(),
        );
        if (problem !== undefined) signatureProblems.push(problem);
        handler(request, body, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/core`;
  });
  after(async () => {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    requests = 0;
  });

  const core = (timeoutMs = 2000): HttpCore =>
    new HttpCore({ url, key: KEY, timeoutMs, breaker: { failures: 3, openMs: 60_000 } });

  it('signs each call, sends the hand-over with its Idempotency-Key, and reads the report', async () => {
    let seen: { path: string | undefined; key: string | undefined; body: string } | undefined;
    handler = (request, body, response) => {
      seen = { path: request.url, key: request.headers['idempotency-key'] as string | undefined, body };
      json(response, 200, { ...REPORT, statusReason: { code: 'AM04', text: 'insufficient funds' } });
    };
    const report = await core().submitPayment('', ORDER);
    assert.equal(report.transactionStatus, 'ACSP');
    assert.equal(report.statusReason, 'AM04 insufficient funds');
    assert.equal(seen?.path, '/core/payments/p1');
    assert.equal(seen?.key, 'p1');
    assert.deepEqual(JSON.parse(seen!.body).transactionFees, { amount: '0.00', currency: 'NOK' });
    assert.deepEqual(signatureProblems, []);
  });

  it('reads a 404 of a look-up as not found, and sends a customer number only in the body', async () => {
    let path: string | undefined;
    handler = (request, _body, response) => {
      path = request.url;
      json(response, 404, { code: 'NOT_FOUND', text: 'no such customer' });
    };
    assert.equal(await core().findCustomer('', { customerNumber: '13039319955' }), undefined);
    assert.equal(path, '/core/customers/search');
  });

  it('throws CoreUnavailable for malformed JSON', async () => {
    handler = (_request, _body, response) => response.writeHead(200).end('{"paymentId": "p1", ');
    await assert.rejects(
      core().paymentReport('', 'p1'),
      (e) => e instanceof CoreUnavailable && /not JSON/.test(e.reason),
    );
  });

  it('throws CoreUnavailable for an unknown status and for wrong types', async () => {
    handler = (_request, _body, response) => json(response, 200, { ...REPORT, transactionStatus: 'DONE' });
    await assert.rejects(
      core().paymentReport('', 'p1'),
      (e) => e instanceof CoreUnavailable && /status/.test(e.reason),
    );
    handler = (_request, _body, response) => json(response, 200, { transactions: [{ transactionId: 1 }] });
    await assert.rejects(
      core().aisTransactions('a1', { dateFrom: undefined, dateTo: undefined, after: undefined, limit: 10 }),
      CoreUnavailable,
    );
    handler = (_request, _body, response) => json(response, 200, { ...REPORT, statusChangedAt: 'yesterday' });
    await assert.rejects(core().paymentReport('', 'p1'), CoreUnavailable);
  });

  it('stops reading a 10 MB answer past the cap', async () => {
    let written = 0;
    handler = (_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const write = (): void => {
        while (written < 10 * 1024 * 1024) {
          written += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', write);
            return;
          }
        }
        response.end();
      };
      response.on('error', () => undefined);
      write();
    };
    await assert.rejects(core().paymentReport('', 'p1'), (e) => e instanceof CoreUnavailable && /over/.test(e.reason));
    // A declared length over the cap is refused before a byte of the body is read.
    handler = (_request, _body, response) =>
      response.writeHead(200, { 'content-length': String(10 * 1024 * 1024) }).end();
    await assert.rejects(
      core().paymentReport('', 'p1'),
      (e) => e instanceof CoreUnavailable && /declares/.test(e.reason),
    );
  });

  it('gives up on a core that hangs after the timeout', async () => {
    handler = (_request, _body, response) => {
      hanging.push(response);
    };
    await assert.rejects(
      core(200).paymentReport('', 'p1'),
      (e) => e instanceof CoreUnavailable && /200 ms/.test(e.reason) && e.retryAfterSeconds > 0,
    );
  });

  it('throws CoreUnavailable for a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = new HttpCore({ url: `http://127.0.0.1:${port}`, key: KEY });
    await assert.rejects(
      refused.paymentReport('', 'p1'),
      (e) => e instanceof CoreUnavailable && /failed/.test(e.reason),
    );
  });

  it('passes on the Retry-After of a core that answers 503', async () => {
    handler = (_request, _body, response) =>
      response.writeHead(503, { 'retry-after': '30', 'content-type': 'application/json' }).end('{}');
    await assert.rejects(
      core().paymentReport('', 'p1'),
      (e) => e instanceof CoreUnavailable && /503/.test(e.reason) && e.retryAfterSeconds === 30,
    );
  });

  it('opens the breaker after repeated 500s: then fails fast with the open time as Retry-After', async () => {
    handler = (_request, _body, response) => json(response, 500, { code: 'INTERNAL', text: 'boom' });
    const breaking = core();
    for (let i = 0; i < 3; i += 1) {
      await assert.rejects(
        breaking.paymentReport('', 'p1'),
        (e) => e instanceof CoreUnavailable && /500/.test(e.reason),
      );
    }
    assert.equal(requests, 3);
    await assert.rejects(
      breaking.paymentReport('', 'p1'),
      (e) =>
        e instanceof CoreUnavailable &&
        /breaker/.test(e.reason) &&
        e.retryAfterSeconds > 50 &&
        e.retryAfterSeconds <= 60,
    );
    assert.equal(requests, 3, 'an open breaker does not call the core');
  });

  it('refuses a bank other than production', async () => {
    await assert.rejects(core().paymentReport('tpp-bank', 'p1'), /production's bank/);
  });
});

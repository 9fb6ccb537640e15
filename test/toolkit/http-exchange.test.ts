import assert from 'node:assert/strict';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { causeOf } from '../../src/toolkit/cause.js';
import { exchange } from '../../src/toolkit/http-exchange.js';
import { freePort } from '../support/browser.js';

/**
 * The toolkit's one HTTP request (src/toolkit/http-exchange.ts), in place of fetch: what `tpp call`,
 * `tpp approve`, `tpp cert --server`, `tpp wait` and `tpp proxy` rely on from it.
 */
let server: Server;
let base: string;
/** What the server received, by path. */
const received = new Map<string, { headers: IncomingMessage['headers']; body: Buffer }[]>();
/** Called when a request to /hold arrives, which is never answered. */
let onHold: () => void = () => {};

function answer(request: IncomingMessage, response: ServerResponse, body: Buffer): void {
  const path = request.url ?? '/';
  received.set(path, [...(received.get(path) ?? []), { headers: request.headers, body }]);
  if (path === '/created') {
    response.writeHead(201, { 'Content-Type': 'application/json', 'X-Request-ID': 'abc' });
    response.end('{"paymentId":"p-1"}');
  } else if (path === '/moved') {
    response.writeHead(302, { Location: '/elsewhere' });
    response.end();
  } else if (path === '/cookies') {
    response.setHeader('Set-Cookie', ['session=one; HttpOnly', 'csrf=two; Path=/']);
    response.end('<p>page</p>');
  } else if (path === '/echo') {
    response.end(body);
  } else if (path === '/hold') {
    onHold();
  } else {
    response.writeHead(404);
    response.end();
  }
}

before(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => answer(request, response, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('exchange: one HTTP request and its whole answer', () => {
  it('gives the status, the headers by lower-case name and the body', async () => {
    const answer = await exchange({ method: 'post', url: `${base}/created`, body: '{}' });
    assert.equal(answer.status, 201);
    assert.equal(answer.headers['content-type'], 'application/json');
    assert.equal(answer.headers['x-request-id'], 'abc');
    assert.equal(answer.text, '{"paymentId":"p-1"}');
    assert.deepEqual(answer.body, Buffer.from('{"paymentId":"p-1"}'));
    assert.equal(received.get('/created')?.length, 1);
  });

  it('returns a redirect as it is, without following it', async () => {
    const answer = await exchange({ method: 'GET', url: `${base}/moved` });
    assert.equal(answer.status, 302);
    assert.equal(answer.headers.location, '/elsewhere');
    assert.equal(received.get('/elsewhere'), undefined, 'not followed');
  });

  it('keeps each set-cookie of an answer, as a list', async () => {
    const answer = await exchange({ method: 'GET', url: `${base}/cookies` });
    assert.deepEqual(answer.headers['set-cookie'], ['session=one; HttpOnly', 'csrf=two; Path=/']);
  });

  it('sends a body byte for byte, with its length in bytes', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"name":"Blåbær AS","amount":"12.50 €"}', 'utf8'),
      Buffer.from([0xff, 0]),
    ]);
    const answer = await exchange({ method: 'POST', url: `${base}/echo`, body: bytes, headers: { 'X-Test': 'one' } });
    const sent = received.get('/echo')!.at(-1)!;
    assert.deepEqual(sent.body, bytes);
    assert.equal(sent.headers['content-length'], String(bytes.length));
    assert.equal(sent.headers['x-test'], 'one');
    assert.deepEqual(answer.body, bytes);
    const text = '{"name":"Blåbær AS"}';
    await exchange({ method: 'POST', url: `${base}/echo`, body: text });
    assert.equal(received.get('/echo')!.at(-1)!.headers['content-length'], String(Buffer.byteLength(text)));
  });

  it("sends a DELETE's body with its length, which Node would send with neither a length nor chunks", async () => {
    const answer = await exchange({ method: 'DELETE', url: `${base}/echo`, body: '{"reason":"no"}' });
    assert.equal(answer.text, '{"reason":"no"}');
    assert.equal(received.get('/echo')!.at(-1)!.headers['content-length'], '15');
  });

  it('asks for the path as written, dot segments and all, which URL would resolve to another resource', async () => {
    for (const path of ['/created/%2e%2e', '/created/..', '/created/./x?q=%2e']) {
      const answer = await exchange({ method: 'GET', url: `${base}${path}` });
      assert.equal(answer.status, 404, path);
      assert.equal(received.get(path)?.length, 1, path);
    }
    assert.equal(received.get('/created')?.length, 1, 'only the create above asked for /created');
    await exchange({ method: 'GET', url: `${base}/created/a b` });
    assert.equal(received.get('/created/a%20b')?.length, 1, 'a space, which a request line cannot hold, encoded');
  });

  it('fails on a refused connection naming ECONNREFUSED and the address', async () => {
    const closed = await freePort();
    await assert.rejects(exchange({ method: 'GET', url: `http://127.0.0.1:${closed}/health` }), (error) => {
      assert.match(causeOf(error), new RegExp(`connect ECONNREFUSED 127\\.0\\.0\\.1:${closed}`));
      return true;
    });
  });

  it('gives up when its signal aborts, with the reason as the cause', async () => {
    const giveUp = new AbortController();
    onHold = () => giveUp.abort(new Error('the caller gave up'));
    await assert.rejects(exchange({ method: 'GET', url: `${base}/hold`, timeout: giveUp.signal }), (error) => {
      assert.match(causeOf(error), /the caller gave up/);
      return true;
    });
    await assert.rejects(exchange({ method: 'GET', url: `${base}/hold`, timeout: 1 }), (error) => {
      assert.match(causeOf(error), /timeout/);
      return true;
    });
  });
});

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { type Socket, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { after, before, describe, it } from 'node:test';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

/**
 * Slow and idle clients (docs/security.md, section 5): 200 slow-loris connections (headers a byte at
 * a time) and 20 that stop mid-body hold no request open for long and do not stop the server from
 * answering others. The server runs with short limits (2 s for headers, 3 s for the request) so the
 * test takes seconds; the defaults are HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS.
 */
const HEADERS_LIMIT_MS = 2_000;
const REQUEST_LIMIT_MS = 3_000;
const SLOW_LORIS = 200;
const STALLED_BODIES = 20;
/** The test gives up (fails) if the server has not closed every slow connection by then. */
const GIVE_UP_MS = 12_000;

let server: ServerProcess;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'psd2-slow-'));
  server = await startServerProcess({
    DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}`,
    HEADERS_TIMEOUT_MS: String(HEADERS_LIMIT_MS), REQUEST_TIMEOUT_MS: String(REQUEST_LIMIT_MS),
  });
});
after(async () => {
  server.child.kill('SIGTERM');
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
});

interface SlowConnection {
  socket: Socket;
  openedAt: number;
  /** When the server closed it, and what it answered before. */
  closed: Promise<{ lifetimeMs: number; answer: string }>;
}

function open(first: string): Promise<SlowConnection> {
  const { port } = new URL(server.url);
  const socket = connect(Number(port), '127.0.0.1');
  let answer = '';
  socket.on('data', (chunk) => { answer += String(chunk); });
  socket.on('error', () => undefined);
  return once(socket, 'connect').then(() => {
    const openedAt = performance.now();
    socket.write(first);
    const closed = once(socket, 'close').then(() => ({ lifetimeMs: performance.now() - openedAt, answer }));
    return { socket, openedAt, closed };
  });
}

function withLimit<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} within ${GIVE_UP_MS} ms`)), GIVE_UP_MS); });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

const statusOf = (answer: string) => Number(answer.split(' ')[1]);

describe('slow and idle clients', () => {
  it('closes slow-loris and stalled-body connections with 408 after the limits, answering /health meanwhile', async (t) => {
    const loris = await Promise.all(Array.from({ length: SLOW_LORIS }, () => open('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n')));
    const stalled = await Promise.all(Array.from({ length: STALLED_BODIES }, () =>
      open('POST /v1/sandbox/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"customerNumber":')));
    // The attack: every slow-loris connection sends one more header byte every 500 ms, for as long as it is open.
    const trickle = setInterval(() => {
      for (const connection of loris) if (!connection.socket.destroyed) connection.socket.write('X');
    }, 500);
    try {
      // Meanwhile another client is answered, again and again, while the slow connections are open.
      const latencies: number[] = [];
      for (let i = 0; i < 20; i++) {
        const start = performance.now();
        const response = await fetch(`${server.url}/health`);
        assert.equal(response.status, 200);
        await response.arrayBuffer();
        latencies.push(performance.now() - start);
      }
      const stillOpen = loris.filter((c) => !c.socket.destroyed).length + stalled.filter((c) => !c.socket.destroyed).length;
      const lorisClosed = await withLimit(Promise.all(loris.map((c) => c.closed)), 'the server did not close every slow-loris connection');
      const stalledClosed = await withLimit(Promise.all(stalled.map((c) => c.closed)), 'the server did not close every stalled body');
      for (const { answer } of [...lorisClosed, ...stalledClosed]) {
        assert.equal(statusOf(answer), 408, answer);
        assert.match(answer, /"code":"REQUEST_TIMEOUT"/);
      }
      const sorted = [...latencies].sort((a, b) => a - b);
      const longest = (closed: { lifetimeMs: number }[]) => Math.max(...closed.map((c) => c.lifetimeMs)).toFixed(0);
      t.diagnostic(`/health during the attack: median ${sorted[10]!.toFixed(1)} ms, max ${sorted[19]!.toFixed(1)} ms over 20 requests; ${stillOpen} slow connections were open while they were answered`);
      t.diagnostic(`slow-loris connections closed after ${Math.min(...lorisClosed.map((c) => c.lifetimeMs)).toFixed(0)} to ${longest(lorisClosed)} ms (headers limit ${HEADERS_LIMIT_MS} ms); stalled bodies after up to ${longest(stalledClosed)} ms (request limit ${REQUEST_LIMIT_MS} ms)`);
    } finally {
      clearInterval(trickle);
      for (const connection of [...loris, ...stalled]) connection.socket.destroy();
    }
  });
});

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
    DATA_DIR: dir,
    DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}`,
    HEADERS_TIMEOUT_MS: String(HEADERS_LIMIT_MS),
    REQUEST_TIMEOUT_MS: String(REQUEST_LIMIT_MS),
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
  /** When the server closed it, what it answered before, and whether the close was a reset. */
  closed: Promise<Closed>;
}

interface Closed {
  lifetimeMs: number;
  answer: string;
  /** The server closes at once after its 408; bytes the client sent meanwhile make that a reset, which can swallow the answer. */
  reset: boolean;
}

function open(first: string): Promise<SlowConnection> {
  const { port } = new URL(server.url);
  const socket = connect(Number(port), '127.0.0.1');
  let answer = '';
  let reset = false;
  socket.on('data', (chunk) => {
    answer += String(chunk);
  });
  socket.on('error', (error: NodeJS.ErrnoException) => {
    reset ||= error.code === 'ECONNRESET' || error.code === 'EPIPE';
  });
  return once(socket, 'connect').then(() => {
    const openedAt = performance.now();
    socket.write(first);
    const closed = new Promise<Closed>((resolve) =>
      socket.once('close', () => resolve({ lifetimeMs: performance.now() - openedAt, answer, reset })),
    );
    return { socket, openedAt, closed };
  });
}

function withLimit<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${GIVE_UP_MS} ms`)), GIVE_UP_MS);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

const statusOf = (answer: string) => Number(answer.split(' ')[1]);

/** Twenty /health requests one after the other, each answered 200: their latencies in ms, sorted. */
async function healthLatencies(): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < 20; i++) {
    const start = performance.now();
    const response = await fetch(`${server.url}/health`);
    assert.equal(response.status, 200);
    await response.arrayBuffer();
    latencies.push(performance.now() - start);
  }
  return latencies.sort((a, b) => a - b);
}

describe('slow and idle clients', () => {
  it('closes slow-loris and stalled-body connections with 408 after the limits, answering /health meanwhile', async (t) => {
    await healthLatencies(); // a fresh server's first answers are slower (JIT, first database reads): not measured
    const quiet = await healthLatencies();
    const loris = await Promise.all(
      Array.from({ length: SLOW_LORIS }, () => open('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n')),
    );
    const stalled = await Promise.all(
      Array.from({ length: STALLED_BODIES }, () =>
        open(
          'POST /v1/sandbox/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"customerNumber":',
        ),
      ),
    );
    // The attack: every slow-loris connection sends one more header byte every 500 ms, for as long as it is open.
    const trickle = setInterval(() => {
      for (const connection of loris) if (!connection.socket.destroyed) connection.socket.write('X');
    }, 500);
    try {
      // Meanwhile another client is answered, again and again, while the slow connections are open.
      const latencies = await healthLatencies();
      const stillOpen =
        loris.filter((c) => !c.socket.destroyed).length + stalled.filter((c) => !c.socket.destroyed).length;
      const lorisClosed = await withLimit(
        Promise.all(loris.map((c) => c.closed)),
        'the server did not close every slow-loris connection',
      );
      const stalledClosed = await withLimit(
        Promise.all(stalled.map((c) => c.closed)),
        'the server did not close every stalled body',
      );
      // Every connection was closed by the server; each answer that reached the client is 408 in the error body.
      const answered = [...lorisClosed, ...stalledClosed].filter((c) => c.answer !== '');
      for (const { answer, reset } of [...lorisClosed, ...stalledClosed]) {
        if (answer === '') {
          assert.ok(reset, 'a connection closed without an answer was reset by the server');
          continue;
        }
        assert.equal(statusOf(answer), 408, answer);
        assert.match(answer, /"code":"REQUEST_TIMEOUT"/);
      }
      assert.ok(
        stalledClosed.every((c) => c.answer !== ''),
        'a stalled body (which sends nothing more) gets its 408',
      );
      const longest = (closed: { lifetimeMs: number }[]) => Math.max(...closed.map((c) => c.lifetimeMs)).toFixed(0);
      t.diagnostic(
        `/health before the attack: median ${quiet[10]!.toFixed(1)} ms, max ${quiet[19]!.toFixed(1)} ms; during it: median ${latencies[10]!.toFixed(1)} ms, max ${latencies[19]!.toFixed(1)} ms (20 requests each); ${stillOpen} slow connections were open while they were answered`,
      );
      t.diagnostic(
        `slow-loris connections closed after ${Math.min(...lorisClosed.map((c) => c.lifetimeMs)).toFixed(0)} to ${longest(lorisClosed)} ms (headers limit ${HEADERS_LIMIT_MS} ms); stalled bodies after up to ${longest(stalledClosed)} ms (request limit ${REQUEST_LIMIT_MS} ms); ${answered.length} of ${SLOW_LORIS + STALLED_BODIES} read their 408 before the close`,
      );
    } finally {
      clearInterval(trickle);
      for (const connection of [...loris, ...stalled]) connection.socket.destroy();
    }
  });
});

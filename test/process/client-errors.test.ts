import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

/** Requests refused before they reach an operation still get the specification's error body. */
let server: ServerProcess;
let dir: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'psd2-client-'));
  server = await startServerProcess({ DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}` });
});
after(async () => {
  server.child.kill('SIGTERM');
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
});

async function raw(request: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const { hostname, port } = new URL(server.url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (chunk) => {
    answer += String(chunk);
  });
  socket.on('error', () => undefined);
  socket.write(request);
  await once(socket, 'close');
  const [head, body] = answer.split('\r\n\r\n');
  return { status: Number(head!.split(' ')[1]), body: JSON.parse(body!) as Record<string, unknown> };
}

function assertErrorShape(body: Record<string, unknown>, status: number, code: string): void {
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.equal(body.system, 'psd2-pis');
  assert.equal(typeof body.id, 'string');
  assert.equal(typeof body.message, 'string');
}

describe('requests refused before any operation', () => {
  it('answers a path that is not a valid URL with 400 BAD_REQUEST in the error body', async () => {
    const response = await fetch(`${server.url}/v1/payments/%zz`);
    assert.equal(response.status, 400);
    assertErrorShape((await response.json()) as Record<string, unknown>, 400, 'BAD_REQUEST');
  });

  it('answers headers over 32 KiB with 431 HEADERS_TOO_LARGE in the error body', async () => {
    const { status, body } = await raw(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(40_000)}\r\n\r\n`);
    assert.equal(status, 431);
    assertErrorShape(body, 431, 'HEADERS_TOO_LARGE');
    assert.deepEqual(
      (body.tppMessages as { code: string }[]).map((m) => m.code),
      ['BAD_REQUEST'],
      "the tppMessage code is of the specification's list; the body code keeps the precise name",
    );
  });

  it('answers bytes that are not HTTP with 400 BAD_REQUEST in the error body', async () => {
    const { status, body } = await raw('GARBAGE\r\n\r\n');
    assert.equal(status, 400);
    assertErrorShape(body, 400, 'BAD_REQUEST');
  });
});

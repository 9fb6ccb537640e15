import assert from 'node:assert/strict';
import { type IncomingMessage, request } from 'node:http';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { NPM_START, startServerProcess } from '../support/server-process.js';

const CERTIFICATE_PATH = '/v1/sandbox/certificates';
const BODY = JSON.stringify({ organizationIdentifier: 'PSDNO-FSA-987654321', name: 'Slow TPP', roles: ['PSP_PI'] });
/** Where the body is cut: the first part goes before the signal, the rest after it. */
const CUT = Math.floor(BODY.length / 2);

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * Ctrl-C in a terminal, systemd's default stop and `timeout` signal the whole process group: npm,
 * and the server under it, which then gets the signal twice (npm forwards it). The request the server
 * is reading when the signal comes is answered, the process exits 0, and the echo is not taken for a
 * second signal (which exits without waiting). The request is slow because its client sends half the
 * body, then the rest only once the server has logged the stop: no sleep on either side.
 */
describe('npm start and a signal to its process group', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(
      `answers the request in flight at a ${signal} sent to the group, then exits 0`,
      { timeout: 120_000 },
      async () => {
        const dir = mkdtempSync(join(tmpdir(), 'psd2-npm-stop-'));
        dirs.push(dir);
        const server = await startServerProcess(
          { DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'psd2.db')}`, LOG_LEVEL: 'debug' },
          NPM_START,
          { processGroup: true },
        );
        const slow = request(`${server.url}${CERTIFICATE_PATH}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(BODY)) },
        });
        const answered = once(slow, 'response');
        slow.write(BODY.slice(0, CUT));
        await server.waitForLine(
          (l) => l.msg === 'request received' && l.path === CERTIFICATE_PATH,
          'the slow request',
        );

        process.kill(-server.child.pid!, signal);
        await server.waitForLine((l) => typeof l.msg === 'string' && l.msg.startsWith('shutting down'), 'the stop');
        // npm forwards the signal at once, so its echo normally arrives while the request is still
        // being read and answered. Not always seen: the kernel merges two identical signals that
        // arrive before the process takes the first, and then the server gets one. Either way the
        // request in flight is answered and no signal is taken for a second one.
        slow.end(BODY.slice(CUT));

        const [response] = (await answered) as [IncomingMessage];
        let text = '';
        for await (const chunk of response) text += String(chunk);
        assert.equal(response.statusCode, 201, text);
        assert.match((JSON.parse(text) as { certificate: string }).certificate, /BEGIN CERTIFICATE/);
        const { code } = await server.exited;
        assert.equal(code, 0, server.stderr.join('\n'));
        assert.deepEqual(
          server.lines.filter((l) => l.msg === 'second signal: exiting without waiting'),
          [],
        );
        assert.ok(server.lines.some((l) => l.msg === 'stopped'));
      },
    );
  }
});

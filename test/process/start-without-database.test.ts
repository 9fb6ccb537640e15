import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { failedStart } from '../support/server-process.js';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'psd2-nodb-'));
  dirs.push(dir);
  return dir;
}

/** The exit code of a start without its database (src/start-failure.ts; README, "Running it in production"). */
const DATABASE_EXIT_CODE = 3;

/**
 * A start whose database is not there gives one JSON log line with the reason and exit code 3, apart
 * from a bad setting's 2 and a fault's 1, and no stack trace: an operator's first start with
 * PostgreSQL down, or a SQLite file that cannot be made.
 */
describe('a start without the database', () => {
  it('on PostgreSQL that refuses the connection: one JSON line with the reason, the password hidden, exit code 3', async () => {
    const { code, stdout, stderr } = await failedStart({
      DATA_DIR: tempDir(),
      DATABASE_URL: 'postgres://bank:s3cret-pw@127.0.0.1:1/psd2',
    });
    assert.equal(code, DATABASE_EXIT_CODE, `stdout: ${stdout}\nstderr: ${stderr}`);
    const lines = stdout.trim().split('\n');
    assert.equal(lines.length, 1, stdout);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    assert.equal(line.level, 60);
    assert.equal(line.msg, 'the database is not available: the server was not started');
    assert.equal(line.database, 'postgres://bank:***@127.0.0.1:1/psd2');
    assert.equal(line.code, 'ECONNREFUSED');
    assert.match(String(line.reason), /ECONNREFUSED 127\.0\.0\.1:1/);
    assert.equal(line.exitCode, DATABASE_EXIT_CODE);
    assert.doesNotMatch(stdout + stderr, /s3cret-pw/);
    assert.doesNotMatch(stdout + stderr, /\n\s+at /, 'no stack trace');
    assert.equal(stderr, '');
  });

  it('on PostgreSQL that takes the connection and never answers: gives up after connect_timeout, exit code 3', async () => {
    // A firewall that drops packets, or a stuck proxy: the connection is open, and nothing comes back.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const { code, stdout, stderr } = await failedStart({
        DATA_DIR: tempDir(),
        DATABASE_URL: `postgres://bank@127.0.0.1:${port}/psd2?connect_timeout=1`,
      });
      assert.equal(code, DATABASE_EXIT_CODE, `stdout: ${stdout}\nstderr: ${stderr}`);
      const line = JSON.parse(stdout.trim().split('\n')[0]!) as Record<string, unknown>;
      assert.equal(line.msg, 'the database is not available: the server was not started');
      assert.match(String(line.reason), /timeout/i);
    } finally {
      silent.close();
    }
  });

  it('on a SQLite file whose folder cannot be made: the same line, with the reason, exit code 3', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a-file'), '');
    const { code, stdout, stderr } = await failedStart({
      DATA_DIR: dir,
      DATABASE_URL: `sqlite:${join(dir, 'a-file', 'psd2.db')}`,
    });
    assert.equal(code, DATABASE_EXIT_CODE, `stdout: ${stdout}\nstderr: ${stderr}`);
    const lines = stdout.trim().split('\n');
    assert.equal(lines.length, 1, stdout);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    assert.equal(line.msg, 'the database is not available: the server was not started');
    assert.equal(line.step, 'open');
    assert.match(String(line.reason), /a-file/);
    assert.equal(stderr, '');
  });
});

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { readCoreKey } from '../../src/core/http/core-signature.js';
import { HttpCore } from '../../src/core/http/http-core.js';

const MAIN = resolve('dist/src/reference-core/main.js');

/** Starts `npm run core` as it runs (the compiled main), in a folder of its own. */
function start(cwd: string, env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [MAIN], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return { child, output: () => output };
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('npm run core: the reference core as a process', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('makes its key in ./data on the first start, serves the contract, and stops on SIGTERM', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reference-core-process-'));
    dirs.push(dir);
    const { child, output } = start(dir, { PORT: '0', CORE_KEY_FILE: '', DATABASE_URL: '' });
    const stopped = exited(child);
    const url = await new Promise<string>((resolve, reject) => {
      const look = () => {
        const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(output());
        if (match !== null) resolve(match[1]!);
      };
      child.stdout!.on('data', look);
      child.once('exit', () => reject(new Error(`exited before listening:\n${output()}`)));
    });
    assert.match(output(), /the shared key is in .*data\/core\.key \(made now\)/);
    await new Promise<void>((resolve) => {
      const look = () => (/CORE_URL=/.test(output()) ? resolve() : undefined);
      look();
      child.stdout!.on('data', look);
    });
    assert.ok(output().includes(`CORE_URL=${url} CORE_KEY_FILE=${join(dir, 'data', 'core.key')}`), output());
    const key = await readCoreKey(join(dir, 'data', 'core.key'));
    const core = new HttpCore({ url, key });
    assert.equal((await core.findCustomer('', { customerNumber: '13039319955' }))?.name, 'Ola Nordmann');
    child.kill('SIGTERM');
    assert.equal(await stopped, 0);
  });

  it('stops with exit code 2 on a setting it cannot use, naming it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reference-core-process-'));
    dirs.push(dir);
    const { child, output } = start(dir, { PORT: 'eighty', CORE_FAULT_SLOW_MS: 'slow' });
    assert.equal(await exited(child), 2);
    assert.match(output(), /PORT must be/);
    assert.match(output(), /slowMs must be/);
  });
});

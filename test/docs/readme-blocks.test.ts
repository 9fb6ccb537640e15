import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort } from '../support/browser.js';

/**
 * The README's shell blocks, run as a newcomer pastes them: in order, in one terminal, in the
 * repository's folder (here a folder of links to this checkout's files, so that the certificate,
 * data and log they write stay out of it). A block that fails stops the run, and the test names it
 * by its line in the README with what it printed. What the README says a script printed (the
 * ```text block after it) must be printed, numbers and dates aside.
 *
 * The blocks not run here, each run elsewhere: the two commands and the line that gets Node before
 * them (this test runs inside `npm test`, after `npm install`, on that Node; .ci/run runs exactly
 * them), the build machine's and the bank server's
 * (test/install/packed-artifact.test.ts follows them from a fresh clone). The test identity
 * provider's block runs until Ctrl-C: it is started on its own, and must print what the README shows.
 */
const README = readFileSync('README.md', 'utf8');
/** First lines of the blocks run elsewhere (above): a block that changes must be looked at again here. */
const RUN_ELSEWHERE = ['. .ci/node.sh', 'npm ci && npm pack', 'mkdir -p /opt/psd2'];
/** A block that runs until Ctrl-C: started, read until its last line the README shows, stopped. */
const FOREGROUND = 'npm run idp';
/** The whole walk from a fresh start: some 60 signed calls and 3 clock moves. */
const RUN_LIMIT_MS = 240_000;

interface Block {
  line: number;
  text: string;
  /** The ```text block right after it: what the README says it printed. */
  printed?: string;
}

function shellBlocks(): Block[] {
  const blocks: Block[] = [];
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;
  let previous: Block | undefined;
  for (let match = fence.exec(README); match !== null; match = fence.exec(README)) {
    const line = README.slice(0, match.index).split('\n').length;
    if (match[1] === 'sh') {
      previous = { line, text: match[2]! };
      blocks.push(previous);
    } else {
      if (match[1] === 'text' && previous !== undefined && README.slice(0, match.index).split('\n').length > 0)
        previous.printed ??= match[2]!;
      previous = undefined;
    }
  }
  return blocks;
}

const folder = mkdtempSync(join(tmpdir(), 'psd2-readme-'));
after(() => rmSync(folder, { recursive: true, force: true }));

describe("the README's shell blocks", () => {
  it('names every block it does not run, so that none is left out unseen', () => {
    const blocks = shellBlocks();
    for (const first of RUN_ELSEWHERE)
      assert.equal(
        blocks.filter((b) => b.text.startsWith(first)).length,
        1,
        `the README has no block starting "${first}"`,
      );
    assert.ok(blocks.length - RUN_ELSEWHERE.length >= 10, `only ${blocks.length} shell blocks`);
  });

  it('run as pasted, in order, in one terminal, and print what the README says they print', async () => {
    for (const entry of ['package.json', 'node_modules', 'dist', 'scripts', 'src', 'tsconfig.json', 'bin'])
      symlinkSync(resolve(entry), join(folder, entry));
    const port = await freePort();
    const proxyPort = await freePort();
    const blocks = shellBlocks().filter(
      (b) => !RUN_ELSEWHERE.some((first) => b.text.startsWith(first)) && !b.text.startsWith(FOREGROUND),
    );
    // The README's addresses are the default ports': this run's server and signing proxy have free ports of their own.
    const script = [
      'set -eo pipefail',
      ...blocks.flatMap((b, i) => [
        `printf '\\n@@block ${i}\\n'`,
        b.text.replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`).replaceAll('8731', String(proxyPort)),
        `printf '\\n@@done ${i}\\n'`,
      ]),
    ].join('\n');
    writeFileSync(join(folder, 'readme.sh'), script);

    const env: Record<string, string | undefined> = { ...process.env, PORT: String(port) };
    for (const name of ['TPP_BASE_URL', 'DATA_DIR', 'DATABASE_URL', 'MODE', 'PUBLIC_URL', 'LOG_LEVEL'])
      delete env[name];
    const shell = spawn('bash', ['readme.sh'], { cwd: folder, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    shell.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    shell.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const limit = setTimeout(() => process.kill(-shell.pid!, 'SIGKILL'), RUN_LIMIT_MS);
    const [code] = (await once(shell, 'exit')) as [number | null];
    clearTimeout(limit);
    // The server the first block started in the background, and anything else the blocks left running.
    try {
      process.kill(-shell.pid!, 'SIGTERM');
    } catch {
      // Gone with the shell already.
    }

    const parts = output.split(/^@@block (\d+)\n/m);
    for (let i = 1; i < parts.length; i += 2) {
      const index = Number(parts[i]);
      const block = blocks[index]!;
      const printed = parts[i + 1]!;
      const done = new RegExp(`^@@done ${index}$`, 'm').test(printed);
      assert.ok(
        done,
        `the block at README.md line ${block.line} failed (exit ${code}):\n${block.text}\n--- it printed:\n${printed.slice(-6000)}`,
      );
      for (const line of shownLines(block.printed))
        assert.ok(
          printed.split('\n').some((out) => masked(out) === masked(line)),
          `the block at README.md line ${block.line} did not print "${line}" (numbers aside); it printed:\n${printed.slice(-6000)}`,
        );
    }
    assert.equal(parts.length, blocks.length * 2 + 1, `not every block ran:\n${output.slice(-6000)}`);
    assert.equal(code, 0, output.slice(-6000));
  });

  it('start the test identity provider, which prints the settings the README shows', async () => {
    const block = shellBlocks().find((b) => b.text.startsWith(FOREGROUND))!;
    const shown = block.text
      .split('\n')
      .filter((l) => l.startsWith('# '))
      .map((l) => l.slice(2));
    const port = await freePort();
    const idp = spawn('bash', ['-c', block.text], {
      env: { ...process.env, IDP_PORT: String(port) },
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    const limit = setTimeout(() => process.kill(-idp.pid!, 'SIGKILL'), 60_000);
    try {
      for await (const chunk of idp.stdout) {
        output += (chunk as Buffer).toString();
        if (output.split('\n').length > shown.length) break;
      }
    } finally {
      clearTimeout(limit);
      process.kill(-idp.pid!, 'SIGTERM');
    }
    const lines = output.split('\n').map(masked);
    for (const line of shown.filter((l) => !l.includes('…')))
      assert.ok(lines.includes(masked(line)), `npm run idp did not print "${line}"; it printed:\n${output}`);
  });
});

/** The lines of a ```text block a run must print as they are: a summary in JSON or a line with an elided part differs by day. */
function shownLines(text: string | undefined): string[] {
  return (text ?? '').split('\n').filter((l) => l !== '' && !l.startsWith('{') && !l.includes('…'));
}

/** A word with a digit (an amount, a date, a count, an id) varies from run to run; the words around it do not. */
function masked(line: string): string {
  return line.trim().replace(/\S*\d\S*/g, '0');
}

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after } from 'node:test';
import { serverProcessSettings } from '../../scripts/start-settings.js';
import { createTestDatabase } from './postgres.js';
import { tppFixtures } from './tpp-fixtures.js';

/**
 * Servers a failed test left running are killed when the file ends, so a failure cannot hang the run;
 * one started in a process group of its own (under npm) with its whole group, else the server under
 * npm would live on and hold the output pipes open.
 */
const running = new Map<ChildProcess, { processGroup: boolean }>();
after(() => {
  for (const [child, { processGroup }] of running) {
    if (processGroup && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    } else child.kill('SIGKILL');
  }
});

/** The server as `npm start` runs it (the bundle), in its own process, for start-up and shutdown tests. */
export const SERVER_ENTRY = 'dist/server/main.mjs';

/** The bundle with the process settings `npm start` gives it (scripts/start.env), so that it runs as under `npm start`. */
const settings = serverProcessSettings();
const BUNDLE_COMMAND: readonly string[] = [process.execPath, ...settings.nodeFlags, SERVER_ENTRY];

export interface ServerProcess {
  child: ChildProcess;
  /** Base address, known once the server listens. */
  url: string;
  lines: Record<string, unknown>[];
  stderr: string[];
  waitForLine(predicate: (line: Record<string, unknown>) => boolean, what: string): Promise<Record<string, unknown>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const WAIT_LIMIT_MS = 15_000;

/** `npm start`, as a developer runs it (scripts/start.mjs: builds only when sources changed, then runs the bundle). */
export const NPM_START: readonly string[] =
  process.env.npm_execpath === undefined ? ['npm', 'start'] : [process.execPath, process.env.npm_execpath, 'start'];

/** Starts the server with PORT=0 and resolves when it has logged the address it listens on. */
export async function startServerProcess(
  env: Record<string, string>,
  command: readonly string[] = BUNDLE_COMMAND,
  options: { processGroup?: boolean } = {},
): Promise<ServerProcess> {
  // npm start sets the settings itself (scripts/start.sh, from scripts/start.env).
  const own = command === BUNDLE_COMMAND ? settings.env : {};
  const child = spawn(command[0]!, command.slice(1), {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...own, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own, for a test that signals the group as a terminal's Ctrl-C does.
    detached: options.processGroup === true,
  });
  const lines: Record<string, unknown>[] = [];
  const stderr: string[] = [];
  const waiters: {
    predicate: (line: Record<string, unknown>) => boolean;
    resolve: (line: Record<string, unknown>) => void;
  }[] = [];
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      line = { msg: text };
    }
    lines.push(line);
    for (const waiter of waiters.filter((w) => w.predicate(line))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  createInterface({ input: child.stderr! }).on('line', (text) => stderr.push(text));
  running.set(child, { processGroup: options.processGroup === true });
  const exited = once(child, 'exit').then(([code, signal]) => {
    running.delete(child);
    return { code: code as number | null, signal: signal as NodeJS.Signals | null };
  });

  const waitForLine = (predicate: (line: Record<string, unknown>) => boolean, what: string) => {
    const seen = lines.find(predicate);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`server did not log ${what} within ${WAIT_LIMIT_MS} ms; stderr: ${stderr.join('\n')}`)),
        WAIT_LIMIT_MS,
      );
      waiters.push({
        predicate,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        // The exit code and the last log lines say why (a start failure logs one JSON line to stdout).
        const last = lines.slice(-3).map((l) => JSON.stringify(l));
        reject(
          new Error(
            `server exited (code ${code}, signal ${signal}) before logging ${what}; last lines: ${last.join(' | ')}; stderr: ${stderr.join('\n')}`,
          ),
        );
      });
    });
  };

  const server: ServerProcess = { child, url: '', lines, stderr, waitForLine, exited };
  const listening = await waitForLine(
    (l) => typeof l.msg === 'string' && l.msg.startsWith('Server listening at '),
    'its address',
  );
  server.url = String(listening.msg).slice('Server listening at '.length);
  await waitForLine((l) => l.msg === 'ready', 'ready');
  return server;
}

/** Runs the server expecting it to refuse to start; resolves with its exit code, its error output and its log lines (stdout). */
export async function failedStart(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(BUNDLE_COMMAND[0]!, BUNDLE_COMMAND.slice(1), {
    env: { ...process.env, PORT: '0', ...settings.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (chunk) => {
    stderr += String(chunk);
  });
  child.stdout!.on('data', (chunk) => {
    stdout += String(chunk);
  });
  const [code] = await once(child, 'exit');
  return { code: code as number | null, stderr, stdout };
}

/** The databases a server process runs on, for tests that run once on each. */
export const ENGINES = ['sqlite', 'postgres'] as const;
export type Engine = (typeof ENGINES)[number];

/** Data for server processes: a fresh folder trusting the test CA, and a fresh SQLite file or PostgreSQL database. */
export interface ServerData {
  /** The environment to start a server on this data; a restart with it finds the same database. */
  env: Record<string, string>;
  /** Drops the PostgreSQL database and removes the folder. */
  remove(): Promise<void>;
}

export async function freshServerData(engine: Engine): Promise<ServerData> {
  const dir = mkdtempSync(join(tmpdir(), 'psd2-proc-'));
  writeFileSync(join(dir, 'trusted.pem'), (await tppFixtures()).ca.certPem);
  const database = engine === 'postgres' ? await createTestDatabase() : undefined;
  return {
    env: {
      DATA_DIR: dir,
      DATABASE_URL: database?.url ?? `sqlite:${join(dir, 'psd2.db')}`,
      TRUSTED_CA_CERTS: join(dir, 'trusted.pem'),
    },
    remove: async () => {
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

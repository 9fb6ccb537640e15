import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';

/**
 * `npm run dev`: for working on the server. tsc recompiles each source file as it is saved, and
 * Node's watch mode restarts the server (the unbundled tsc output, dist/src/main.js) when a file it
 * loaded changes. `npm run build` (which `npm start` runs when sources changed) makes the bundle.
 */
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const children: ChildProcess[] = [
  spawn(process.execPath, [tsc, '-p', 'tsconfig.json', '--watch', '--preserveWatchOutput'], {
    stdio: ['ignore', 2, 2],
  }),
  spawn(process.execPath, ['--watch', 'dist/src/main.js'], { stdio: 'inherit' }),
];

let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill(signal);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
for (const child of children) {
  child.on('exit', (code) => {
    // One of the two gone leaves the other pointless: stop it, and exit with the first one's code.
    stop('SIGTERM');
    process.exitCode ??= code ?? 1;
  });
}

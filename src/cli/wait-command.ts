import { setTimeout as sleep } from 'node:timers/promises';
import { type Command, Option } from 'commander';
import { causeOf } from '../toolkit/cause.js';
import { exchange } from '../toolkit/http-exchange.js';
import { addressOf, positiveInteger, serverOption } from './cli-inputs.js';

/** How often `tpp wait` asks: a start is ready in well under a second, so a tenth of one is what a wait costs at most. */
const POLL_MS = 100;

/**
 * `tpp wait`: returns once the server answers GET /health/ready with 200 (database up, every
 * migration run), so that a script that starts the server in the background goes on only when it
 * can be called: `npm start > server.log 2>&1 & tpp wait`.
 */
export function addWaitCommand(program: Command): void {
  program
    .command('wait')
    .description('wait until the server is ready (GET /health/ready answers 200), e.g. after `npm start &`')
    .addOption(serverOption())
    .addOption(new Option('--timeout <seconds>', 'give up after this long').argParser(positiveInteger).default(60))
    .action(async (options: { server?: string; timeout: number }) => {
      const url = addressOf('/health/ready', options.server);
      const until = Date.now() + options.timeout * 1000;
      let last = 'no answer yet';
      for (;;) {
        try {
          const response = await exchange({ method: 'GET', url, timeout: POLL_MS * 10 });
          if (response.status === 200) break;
          last = `HTTP ${response.status}`;
        } catch (error) {
          last = causeOf(error);
        }
        if (Date.now() >= until) throw new Error(`${url} is not ready after ${options.timeout} s (${last})`);
        await sleep(POLL_MS);
      }
      process.stdout.write(`ready: ${url.replace(/\/health\/ready$/, '')}\n`);
    });
}
